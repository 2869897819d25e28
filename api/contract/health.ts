/**
 * Health contract (README "Running at scale"; for load balancers and orchestrators, anyone, no data):
 * - GET /api/health → Health: the process is alive and answers (200 while it runs).
 * - GET /api/ready  → Readiness: 200 when this process should get traffic (database reachable, every
 *   migration applied, not shutting down); 503 with the same body naming what is not ready otherwise.
 */
import * as v from 'valibot';

/** GET /api/health: always `{ status: 'ok' }` while the process runs. */
export const HealthSchema = v.object({ status: v.literal('ok') });
export type Health = v.InferOutput<typeof HealthSchema>;

/**
 * GET /api/ready: `ready` and the three checks; `reasons` names each failed one in words
 * ('database unreachable', '2 migrations not applied', 'shutting down'), empty when ready.
 */
export const ReadinessSchema = v.object({
  ready: v.boolean(),
  database: v.boolean(),
  migrations: v.boolean(),
  shuttingDown: v.boolean(),
  reasons: v.array(v.string()),
});
export type Readiness = v.InferOutput<typeof ReadinessSchema>;
