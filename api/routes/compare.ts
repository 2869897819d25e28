/**
 * Revision comparison calls (application.md §4 "Revision comparison", §7; viewer.md §7 "Comparison"), all
 * readable by whoever sees the project (a project the user may not see answers 404 as a missing one):
 * - GET  /api/viewer/compare?projectName&fromRevision&toRevision → CompareResponse (computed off the
 *   request path and cached per pair: api/compare/CompareService.ts)
 * - POST /api/viewer/compare/checkData body {projectName, fromRevision, toRevision, format?, computedAt?}
 *   → CheckCompareDataResponse
 * - GET  /api/viewer/compare/comment-changes?projectName&revision → CommentChangesResponse
 * 400 when fromRevision ≥ toRevision (contract), 404 'Revision N of project X not found' for an unknown one.
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import { threadChange } from '../compare/commentChanges';
import {
  COMPARE_FORMAT,
  CheckCompareDataBodySchema,
  CommentChangesQuerySchema,
  CompareQuerySchema,
  type CheckCompareDataResponse,
  type CommentChange,
  type CommentChangesResponse,
  type CompareResponse,
} from '../contract/compare';
import { ApiError } from '../errors';
import { normaliseProjectName, type RevisionRow } from '../projects/ProjectStore';
import { PROJECT_VERSION } from './projects';
import { defineRoute } from './define';

/** Registers the comparison routes (see the module comment). */
export default async function compareRoutes(app: FastifyInstance): Promise<void> {
  const { projects, compare, comments, revisionCache } = app.ctx;

  /** Both revisions' rows. @throws ApiError 404 for an unknown project or revision. */
  async function pair(projectName: string, from: number, to: number) {
    const name = normaliseProjectName(projectName);
    return { name, from: await projects.revision(name, from), to: await projects.revision(name, to) };
  }

  async function comparison(name: string, from: RevisionRow, to: RevisionRow): Promise<CompareResponse> {
    try {
      return await compare.get(name, from, to);
    } catch (e) {
      app.log.error({ err: e, project: name, from: from.number, to: to.number }, 'comparison failed');
      throw new ApiError(
        'CompareFailed',
        500,
        `Revisions ${from.number} and ${to.number} of project ${name} cannot be compared`,
        'error',
      );
    }
  }

  defineRoute(app, {
    method: 'GET',
    url: '/api/viewer/compare',
    access: Access.byProject,
    query: CompareQuerySchema,
    handler: async ({ query }): Promise<CompareResponse> => {
      const p = await pair(query.projectName, query.fromRevision, query.toRevision);
      return comparison(p.name, p.from, p.to);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/viewer/compare/checkData',
    access: Access.read((i: { body: { projectName: string } }) => i.body.projectName),
    body: CheckCompareDataBodySchema,
    handler: async ({ body }): Promise<CheckCompareDataResponse> => {
      const p = await pair(body.projectName, body.fromRevision, body.toRevision);
      const s = await compare.status(p.name, p.from, p.to);
      // The client's copy is usable when it has the current format and is the server's current comparison
      // (or, with none cached, was computed after both revisions were last written).
      const newer = (t: string) => t >= p.from.last_updated && t >= p.to.last_updated;
      const usable =
        body.format === COMPARE_FORMAT &&
        body.computedAt !== undefined &&
        (s.computedAt !== null ? body.computedAt === s.computedAt : newer(body.computedAt));
      return { format: COMPARE_FORMAT, cached: s.cached, computing: s.computing, computedAt: s.computedAt, usable };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/viewer/compare/comment-changes',
    access: Access.byProject,
    query: CommentChangesQuerySchema,
    handler: async ({ query }): Promise<CommentChangesResponse> => {
      const name = normaliseProjectName(query.projectName);
      const upTo = (await projects.revision(name, query.revision)).number;
      const rows = await projects.revisions(name);
      const byNumber = new Map(rows.map((r) => [r.number, r]));
      const numbers = rows.map((r) => r.number);
      const threads = (await comments.threads(name, PROJECT_VERSION)).filter(
        (t) => t.state !== 'Deleted' && t.projectRevisionNumber < upTo,
      );
      // Threads of one revision share the comparisons (each read from the cache once per request).
      const pairs = new Map<string, Promise<CompareResponse>>();
      const pairOf = (from: number, to: number) => {
        const key = `${from}-${to}`;
        let p = pairs.get(key);
        if (!p) {
          p = comparison(name, byNumber.get(from)!, byNumber.get(to)!);
          pairs.set(key, p);
        }
        return p;
      };
      const out: CommentChange[] = [];
      for (const t of threads) {
        const change = await threadChange(t, upTo, numbers, pairOf, async (revision, index) => {
          const row = byNumber.get(revision)!;
          const data = await revisionCache.get(await projects.revisionDir(row), row.last_updated);
          return data.objects[index]?.id;
        });
        if (change) out.push(change);
      }
      return { threads: out };
    },
  });
}
