/**
 * Revision comparison worker entry (piscina; ARCHITECTURE.md "workers/ — thin entry points"): runs
 * api/compare/computeComparison in a worker thread for api/compare/CompareService.ts.
 */
import type { CompareResponse } from '../api/contract/compare';
import { type CompareTask, computeComparison } from '../api/compare/computeComparison';

/** One comparison task (plain data) → the GET /api/viewer/compare answer. @throws like computeComparison. */
export default function compare(task: CompareTask): Promise<CompareResponse> {
  return computeComparison(task);
}
