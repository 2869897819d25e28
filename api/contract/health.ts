/**
 * Health contract (README "Running at scale"; for load balancers and orchestrators, anyone, no data):
 * - GET /api/health → Health: the process is alive and answers (200 while it runs).
 * - GET /api/ready  → Readiness: 200 when this process should get traffic (database reachable, every
 *   migration applied, not shutting down, and, when configured, the S3 bucket of the revisions and Redis
 *   answering); 503 with the same body naming what is not ready otherwise.
 */
import * as v from 'valibot';

/** GET /api/health: always `{ status: 'ok' }` while the process runs. */
export const HealthSchema = v.object({ status: v.literal('ok') });
export type Health = v.InferOutput<typeof HealthSchema>;

/**
 * GET /api/ready: `ready` and the checks; `reasons` names each failed one in words ('database
 * unreachable', '2 migrations not applied', 'shutting down', 'S3 bucket unreachable', 'Redis
 * unreachable'), empty when ready. `storage` and `realtime` are true when the revisions are in directories
 * and the realtime adapter is not Redis (nothing to check); their answers may be up to 5 s old.
 */
export const ReadinessSchema = v.object({
  ready: v.boolean(),
  database: v.boolean(),
  migrations: v.boolean(),
  shuttingDown: v.boolean(),
  /** The S3 bucket of the revisions answers (STORAGE=s3). */
  storage: v.boolean(),
  /** Redis answers (REALTIME=redis). */
  realtime: v.boolean(),
  reasons: v.array(v.string()),
});
export type Readiness = v.InferOutput<typeof ReadinessSchema>;
