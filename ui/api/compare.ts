/**
 * The comparison calls of application.md §7 / viewer.md §7 "Comparison", typed by api/contract/compare.ts
 * (values in metres, tonnes, m²). Failures go through the central handling of ui/api/client.ts with the
 * spec's message 'Could not fetch comparison data' (§8).
 */
import { CheckCompareDataResponseSchema, CompareResponseSchema } from '../../api/contract';
import { FETCH_FAILED_TEXT } from '../logic/comparison';
import { request } from './client';

/** GET /api/viewer/compare: the semantic diff of two revisions (fromRevision below toRevision). */
export const getComparison = (projectName: string, fromRevision: number, toRevision: number, signal?: AbortSignal) =>
  request('GET', '/api/viewer/compare', CompareResponseSchema, {
    query: { projectName, fromRevision, toRevision },
    message: FETCH_FAILED_TEXT,
    signal,
  });

/**
 * POST /api/viewer/compare/checkData: whether a cached copy (its `format` and `computedAt`) is still usable.
 * Silent: a failed check only means the data is fetched again.
 */
export const checkComparisonData = (body: {
  projectName: string;
  fromRevision: number;
  toRevision: number;
  format?: string;
  computedAt?: string;
}) => request('POST', '/api/viewer/compare/checkData', CheckCompareDataResponseSchema, { body, silent: true });
