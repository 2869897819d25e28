/**
 * The Redis realtime adapter's start (api/realtime.ts openRealtime, REALTIME=redis): a Redis that does not
 * answer stops the start with a message naming it (its password hidden), after a bounded number of attempts;
 * a live one (Debian's redis-server, throwaway) is joined and left again when the app closes. Relaying
 * across processes is tests/api/Cluster.processes.test.ts.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRealtime } from '../../api/realtime';
import { startRedis, type TestRedis } from '../support/redisServer';
import { freePort } from '../support/serverProcess';
import { makeApp } from './helpers';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('REALTIME=redis', () => {
  it('refuses to start when Redis does not answer, naming it without its password', async () => {
    const port = await freePort();
    const t = await makeApp({ realtime: { kind: 'redis', url: `redis://keelson:hush@127.0.0.1:${port}` } });
    try {
      const e = await openRealtime(t.app).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toContain(`Redis at redis://keelson:***@127.0.0.1:${port} cannot be reached: `);
      expect((e as Error).message).not.toContain('hush');
    } finally {
      await t.close();
    }
  });

  it('subscribes to Redis while the app runs and leaves when it closes', async () => {
    const t = await makeApp({ realtime: { kind: 'redis', url: redis.url } });
    const admin = createClient({ url: redis.url });
    await admin.connect();
    const subscribers = async () =>
      (await admin.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']))
        .toString()
        .split('\n')
        .filter((l) => l.trim()).length;
    try {
      await openRealtime(t.app);
      expect(await subscribers()).toBe(1);
    } finally {
      await t.close();
    }
    expect(await subscribers()).toBe(0);
    await admin.close();
  });
});
