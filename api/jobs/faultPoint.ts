/**
 * Named points where the fault tests kill a real server process (README "Running at scale" → "Conversion
 * queue, health and shutdown": a process may die between any two statements). Inert in production: a
 * point acts only when the environment variable KEELSON_TEST_KILL_AT names it, which only the tests set.
 */

/** The environment variable naming the point at which the process kills itself (tests only). */
export const KILL_AT_ENV = 'KEELSON_TEST_KILL_AT';

/** Points the tests use. */
export const FaultPoints = {
  /** A conversion's job is written into its row, and the queue entry not yet sent. */
  jobWritten: 'conversion-job-written',
  /** A process took a conversion's job and found the row free, and has not yet recorded itself as holder. */
  jobTaken: 'conversion-job-taken',
} as const;

/**
 * Kills this process with SIGKILL (no clean-up, open transactions dropped by the database) when
 * KEELSON_TEST_KILL_AT equals `point`; does nothing otherwise.
 */
export function faultPoint(point: string): void {
  if (process.env[KILL_AT_ENV] === point) process.kill(process.pid, 'SIGKILL');
}
