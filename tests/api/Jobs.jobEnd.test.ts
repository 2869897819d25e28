/**
 * A job that ends while PostgreSQL refuses connections (api/jobs/pgBossQueue.ts `observeJobEnds`): pg-boss
 * writes the job's end without awaiting it, so the write's failure must be reported, not left as an
 * unhandled rejection that stops the server process. Real PostgreSQL ('api-pg' project; skipped on SQLite).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureDatabase, withDatabase } from '../../api/db/postgres';
import { pgBossQueue } from '../../api/jobs/pgBossQueue';
import type { JobQueue } from '../../api/jobs/JobQueue';

const pgUrl = inject('pgUrl') as string | undefined;
const DB = 'keelson_job_end';

describe.skipIf(!pgUrl)('a job ending while the database refuses connections', () => {
  let admin: pg.Client;
  let queue: JobQueue;
  const logged: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  beforeAll(async () => {
    await ensureDatabase(withDatabase(pgUrl!, DB));
    admin = new pg.Client({ connectionString: withDatabase(pgUrl!, 'postgres') });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`);
    queue = pgBossQueue(withDatabase(pgUrl!, DB), (m) => logged.push(m));
    process.on('unhandledRejection', onUnhandled);
  }, 60_000);

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await admin.query(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS true`);
    await queue?.close();
    await admin.end();
  });

  it('is reported in the log, and the process keeps no unhandled rejection', async () => {
    let taken!: () => void;
    const wasTaken = new Promise<void>((r) => (taken = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await queue.work<{ n: number }>('job-end-probe', 1, async () => {
      taken();
      await released;
    });
    await queue.send('job-end-probe', { n: 1 });
    await wasTaken;
    // No new connection to the database from now on, and the open ones (pg-boss's pool) are cut.
    await admin.query(`ALTER DATABASE ${DB} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [DB]);
    release();
    const deadline = Date.now() + 30_000;
    while (!logged.some((m) => m.includes("a job's complete was not recorded")) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(logged.filter((m) => m.includes('was not recorded'))).toHaveLength(1);
    // Give a stray rejection the turns it needs to surface.
    await new Promise((r) => setTimeout(r, 200));
    expect(unhandled).toEqual([]);
  }, 60_000);
});
