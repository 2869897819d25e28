/**
 * The PostgreSQL server restarted under load (fast shutdown: every connection of the Keelson process is cut
 * while comments are being written). Calls made while the database is away fail with an error reply and are
 * not acknowledged; the Keelson process keeps running, serves again once the database is back without
 * manual steps, and every write it acknowledged — before, during and after the restart — is stored.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../../api/db/postgres';
import { startServer, type RunningServer } from '../browser/support/keelsonServer';
import { type PgCluster, startPgCluster } from '../support/pgCluster';
import { ServerClient } from '../support/serverClient';

const SAMPLES = path.resolve(__dirname, '../../../shared/models/ocx');

let cluster: PgCluster;
let server: RunningServer;
let api: ServerClient;

beforeAll(async () => {
  cluster = await startPgCluster();
  server = await startServer(
    { LOG: 'false', DATABASE_URL: withDatabase(cluster.url, 'keelson_restart') },
    { buildUi: false },
  );
  api = new ServerClient(server.url);
  await api.signUp('admin@yard.com', true);
  const up = await api.upload('LOADED', 'm1.3docx', readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx')));
  expect(up.status, JSON.stringify(up.json)).toBe(200);
  expect((await api.waitConversion('LOADED', (c) => c.status !== 1)).status).toBe(2);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  cluster?.stop();
});

describe('PostgreSQL restarted under load', () => {
  it('loses no acknowledged write and serves again by itself', async () => {
    const place = 'projectName=LOADED&projectVersionName=MAIN&projectRevisionNumber=1';
    const acked: string[] = [];
    const refused: number[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const message = `Frame ${w}-${i}: bracket toe to be ground`;
        try {
          const r = await api.call('POST', `/api/keelson-static/comments/add-thread?${place}`, {
            comment: { message },
          });
          if (r.status === 200) acked.push(message);
          else refused.push(r.status);
        } catch {
          refused.push(0);
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    const waitFor = async (cond: () => boolean, what: string) => {
      const deadline = Date.now() + 90_000;
      while (!cond()) {
        if (Date.now() > deadline) {
          const counts = new Map<number, number>();
          for (const x of refused) counts.set(x, (counts.get(x) ?? 0) + 1);
          const byStatus = [...counts].map(([k, n]) => `${k}×${n}`);
          throw new Error(
            `${what}: acknowledged ${acked.length}, refused ${byStatus.join(' ')}\n${server.output().slice(-3000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await waitFor(() => acked.length >= 20, 'writes before the restart');
    await cluster.restart();
    const afterRestart = acked.length;
    // Recovers by itself: new writes are acknowledged again.
    await waitFor(() => acked.length >= afterRestart + 20, 'writes after the restart');
    stop = true;
    await Promise.all(writers);
    // Refusals are error replies (5xx, with the server alive), never a dropped connection.
    expect(refused.filter((s) => s < 500)).toEqual([]);
    expect((await api.call('GET', '/api/config')).status).toBe(200);
    const all = await api.call('GET', '/api/keelson-static/comments/all?projectName=LOADED&projectVersionName=MAIN');
    expect(all.status).toBe(200);
    const stored = new Set((all.json as { message: string }[]).map((c) => c.message));
    expect(acked.filter((m) => !stored.has(m))).toEqual([]);
  });
});
