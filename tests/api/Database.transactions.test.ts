/**
 * Transactions on the server's database (api/db/postgres.ts, api/db/database.ts): they run one at a time,
 * so "read the highest number, write the next" stays correct under concurrency, and on PostgreSQL a burst
 * of them waiting for their turn leaves the pool's other connections to the reads. Runs on SQLite in
 * 'unit' and on PostgreSQL in 'api-pg'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type DB, openDatabase } from '../../api/db/database';

const onPostgres = Boolean(inject('pgUrl'));

let db: Kysely<DB> | null = null;
let dir = '';
afterEach(async () => {
  await db?.destroy();
  db = null;
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh database (PostgreSQL with a pool of `poolMax` connections in 'api-pg'). */
async function open(poolMax = 10): Promise<Kysely<DB>> {
  dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-tx-'));
  const before = process.env.PG_POOL_MAX;
  process.env.PG_POOL_MAX = String(poolMax);
  try {
    db = await openDatabase(dir);
  } finally {
    if (before === undefined) delete process.env.PG_POOL_MAX;
    else process.env.PG_POOL_MAX = before;
  }
  await sql`CREATE TABLE tx_probe (n integer NOT NULL)`.execute(db);
  return db;
}

describe('transactions', () => {
  it('run one at a time: twenty concurrent "highest number + 1" writes give 1..20', async () => {
    const d = await open(3);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        d.transaction().execute(async (trx) => {
          const { rows } = await sql<{ m: number | null }>`SELECT MAX(n) AS m FROM tx_probe`.execute(trx);
          // Give another transaction the chance to read the same maximum, were they not serial.
          await new Promise((r) => setTimeout(r, 2));
          await sql`INSERT INTO tx_probe (n) VALUES (${Number(rows[0]?.m ?? 0) + 1})`.execute(trx);
        }),
      ),
    );
    const { rows } = await sql<{ n: number }>`SELECT n FROM tx_probe ORDER BY n`.execute(d);
    expect(rows.map((r) => Number(r.n))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('let the next one run after one that failed, whether in its body or at its start', async () => {
    const d = await open(2);
    await expect(
      d.transaction().execute(async (trx) => {
        await sql`INSERT INTO tx_probe (n) VALUES (1)`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(
      d.transaction().execute(async (trx) => {
        await sql`SELECT * FROM no_such_table`.execute(trx);
      }),
    ).rejects.toThrow();
    await d.transaction().execute(async (trx) => {
      await sql`INSERT INTO tx_probe (n) VALUES (2)`.execute(trx);
    });
    const { rows } = await sql<{ n: number }>`SELECT n FROM tx_probe`.execute(d);
    expect(rows.map((r) => Number(r.n))).toEqual([2]);
  });

  it.skipIf(!onPostgres)('leave the pool to a read while a burst of them waits for the lock', async () => {
    // Two connections. The first transaction holds the lock for a while; five more queue behind it. Had
    // each queued transaction taken a connection to wait in, the read would wait for the whole burst.
    const d = await open(2);
    const done: string[] = [];
    const first = d.transaction().execute(async (trx) => {
      await sql`SELECT pg_sleep(0.8)`.execute(trx);
      done.push('first');
    });
    const rest = Array.from({ length: 5 }, (_, i) =>
      d.transaction().execute(async (trx) => {
        await sql`INSERT INTO tx_probe (n) VALUES (${i})`.execute(trx);
        done.push(`write ${i}`);
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    await sql`SELECT COUNT(*) FROM tx_probe`.execute(d);
    done.push('read');
    await Promise.all([first, ...rest]);
    expect(done[0]).toBe('read');
    expect(done.slice(1)).toEqual(['first', 'write 0', 'write 1', 'write 2', 'write 3', 'write 4']);
  });
});
