/**
 * The durable job queue on PostgreSQL (pg-boss, schema `pgboss` of Keelson's database): every server
 * process polls it and takes jobs up to its concurrency. Job rows survive a dead process; Keelson's own
 * heartbeat (api/conversion/conversionLeases.ts) decides when a taken job is retried, so pg-boss's own
 * retry is off and its expiry is the longest it allows.
 */
import { createRequire } from 'node:module';
import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { JobHandler, JobQueue, SendOptions } from './JobQueue';

/** How often an idle process asks for a job, s (the sending process is woken at once). */
const POLL_SECONDS = 1;
/** pg-boss's longest expiry (it refuses 24 h): a running conversion is never expired by pg-boss itself. */
const EXPIRE_SECONDS = 23 * 3600;

type JobEnd = (this: unknown, ...args: unknown[]) => Promise<unknown>;
/** Where `observeJobEnds` reports a failed job-end write (the last queue to install it). */
let reportJobEnd: (message: string) => void = () => {};

/**
 * pg-boss 10 ends each job a worker took with a `complete` or `fail` call that it does not await
 * (src/manager.js `watch`). When PostgreSQL is away at that moment (a restart, a cut connection) the
 * call rejects with nobody listening, and Node stops the process on the unhandled rejection. Each such
 * promise is given a handler that reports it; a caller that awaits the call still gets the rejection.
 * The job then stays taken in pg-boss, and Keelson's own lease (api/conversion/conversionLeases.ts)
 * decides what happens to it, as for a process that died. Installed once per process.
 */
function observeJobEnds(log: (message: string) => void): void {
  reportJobEnd = log;
  const manager = createRequire(import.meta.url)('pg-boss/src/manager') as { prototype: Record<string, JobEnd> };
  for (const name of ['complete', 'fail']) {
    const original = manager.prototype[name];
    if ((original as { observed?: boolean }).observed) continue;
    const observed: JobEnd = function (this: unknown, ...args) {
      const done = original.apply(this, args);
      done.catch((e: unknown) =>
        reportJobEnd(`Job queue: a job's ${name} was not recorded: ${e instanceof Error ? e.message : String(e)}`),
      );
      return done;
    };
    manager.prototype[name] = Object.assign(observed, { observed: true });
  }
}

/**
 * The pg-boss queue on `url`. pg-boss starts in the background (creating its schema on first use; several
 * processes may start at once) so the server's start is not delayed; every method waits for it.
 * Methods reject with the driver's error when PostgreSQL cannot be reached.
 */
export function pgBossQueue(url: string, log: (message: string) => void = () => {}): JobQueue {
  observeJobEnds(log);
  const boss = new PgBoss({ connectionString: url, max: 4, application_name: 'keelson-jobs' });
  boss.on('error', (e) => log(`Job queue: ${e instanceof Error ? e.message : String(e)}`));
  const started = boss.start();
  // Callers see a failed start through the method they call; this keeps it from being unhandled meanwhile.
  started.catch(() => {});
  const created = new Set<string>();
  const workers = new Map<string, string[]>();
  const ensure = async (name: string) => {
    await started;
    if (created.has(name)) return;
    await boss.createQueue(name, { name, retryLimit: 0, expireInSeconds: EXPIRE_SECONDS });
    created.add(name);
  };
  let taking = true;
  return {
    shared: true,
    async work<T extends object>(name: string, concurrency: number, handler: JobHandler<T>) {
      await ensure(name);
      const ids: string[] = [];
      for (let i = 0; i < Math.max(1, concurrency); i++)
        ids.push(
          await boss.work<T>(name, { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS }, async ([job]) => {
            if (job) await handler(job.data);
          }),
        );
      workers.set(name, ids);
    },
    async send(name, data, options: SendOptions = {}) {
      const { delaySec, within } = options;
      await ensure(name);
      await boss.send(name, data, {
        retryLimit: 0,
        expireInSeconds: EXPIRE_SECONDS,
        ...(delaySec ? { startAfter: delaySec } : {}),
        // pg-boss runs its INSERT through this connection: the job commits or rolls back with the caller.
        ...(within
          ? {
              db: {
                executeSql: (text: string, values: unknown[]) => within.executeQuery(CompiledQuery.raw(text, values)),
              },
            }
          : {}),
      });
      // A job in a transaction is visible once it commits: the idle workers' next poll finds it.
      if (delaySec || within) return;
      // A free worker of this process takes it now instead of at its next poll.
      if (taking) for (const id of workers.get(name) ?? []) boss.notifyWorker(id);
    },
    async liveJobs(name: string, key: string, staleAfterSec: number) {
      await ensure(name);
      const { rows } = await boss
        .getDb()
        .executeSql(
          `SELECT DISTINCT data->>$2 AS v FROM pgboss.job WHERE name = $1 AND (state IN ('created', 'retry') OR (state = 'active' AND started_on > now() - make_interval(secs => $3)))`,
          [name, key, staleAfterSec],
        );
      return new Set((rows as { v: string | null }[]).flatMap((r) => (r.v === null ? [] : [r.v])));
    },
    async stopTaking() {
      taking = false;
      await started.catch(() => {});
      for (const name of workers.keys()) await boss.offWork(name);
    },
    async close() {
      taking = false;
      if (
        !(await started.then(
          () => true,
          () => false,
        ))
      )
        return;
      await boss.stop({ graceful: false, wait: true, timeout: 1000 });
    },
  };
}
