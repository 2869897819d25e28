/**
 * GET /api/ready with the services beside the database (api/readinessProbes.ts, api/routes/health.ts): the S3
 * bucket of the revisions (STORAGE=s3, a real local s3rver) and Redis (REALTIME=redis, Debian's redis-server)
 * — 503 naming the one that stops answering, 200 again once it is back — and the probes' reuse of an answer
 * (one request to the service for many readiness calls), time-out and failure. The services do not depend on
 * the database, so this runs in the 'unit' project only.
 */
import { CreateBucketCommand, DeleteBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Readiness, ReadinessSchema } from '../../api/contract/health';
import { ReadinessProbes } from '../../api/readinessProbes';
import { openRealtime } from '../../api/realtime';
import { startRedis, type TestRedis } from '../support/redisServer';
import { startS3Server, type TestS3Server } from '../support/s3Server';
import * as v from 'valibot';
import { makeApp, type TestApp, ALL_READY } from './helpers';

const onPostgres = Boolean(inject('pgUrl'));
const apps: TestApp[] = [];
let s3: TestS3Server | undefined;
let redis: TestRedis | undefined;
afterAll(async () => {
  for (const t of apps) await t.close();
  await s3?.close();
  await redis?.stop();
});

/** GET /api/ready of `t`: the status and the checked body. */
async function ready(t: TestApp): Promise<[number, Readiness]> {
  const r = await t.app.inject({ url: '/api/ready' });
  return [r.statusCode, v.parse(ReadinessSchema, r.json())];
}

/**
 * Asks GET /api/ready until it answers `status` (the answers of the services are reused a few seconds).
 * @throws Error with the last answer when it has not within 30 s (the change was never seen).
 */
async function readyUntil(t: TestApp, status: number): Promise<Readiness> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [code, body] = await ready(t);
    if (code === status) return body;
    if (Date.now() > deadline) throw new Error(`GET /api/ready still answers ${code}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('readiness probes', () => {
  it('one probe answers many calls while its answer is fresh; every call probes with no reuse', async () => {
    let calls = 0;
    const reused = new ReadinessProbes(60_000, 1000);
    reused.add('storage', async () => {
      calls++;
    });
    const answers = await Promise.all([reused.results(), reused.results(), reused.results()]);
    answers.push(await reused.results());
    expect(answers).toEqual(Array(4).fill({ storage: true, realtime: true }));
    expect(calls).toBe(1);

    const fresh = new ReadinessProbes(0, 1000);
    fresh.add('realtime', async () => {
      calls++;
    });
    await fresh.results();
    await fresh.results();
    expect(calls).toBe(3);
  });

  it('a probe that rejects or never answers fails; a removed one counts as ready', async () => {
    const probes = new ReadinessProbes(0, 50);
    probes.add('storage', () => Promise.reject(new Error('bucket gone')));
    const remove = probes.add('realtime', () => new Promise(() => {}));
    expect(await probes.results()).toEqual({ storage: false, realtime: false });
    remove();
    expect(await probes.results()).toEqual({ storage: false, realtime: true });
  });
});

describe.skipIf(onPostgres)('GET /api/ready with the services beside the database', () => {
  it('STORAGE=s3: 503 "S3 bucket unreachable" while the bucket is gone, 200 once it is back', async () => {
    s3 = await startS3Server('keelson-ready');
    const t = await makeApp({ storage: { kind: 's3', ...s3.settings } });
    apps.push(t);
    expect(await ready(t)).toEqual([200, ALL_READY]);
    const { endpoint, region, accessKeyId, secretAccessKey, bucket } = s3.settings;
    const client = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    expect(await readyUntil(t, 503)).toMatchObject({
      ready: false,
      database: true,
      storage: false,
      realtime: true,
      reasons: ['S3 bucket unreachable'],
    });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    expect(await readyUntil(t, 200)).toMatchObject({ ready: true, storage: true, reasons: [] });
    client.destroy();
  });

  it('REALTIME=redis: 503 "Redis unreachable" while Redis is down, 200 once it is back', async () => {
    redis = await startRedis();
    const port = Number(new URL(redis.url).port);
    const t = await makeApp({ realtime: { kind: 'redis', url: redis.url } });
    apps.push(t);
    await openRealtime(t.app);
    expect(await ready(t)).toMatchObject([200, { ready: true, storage: true, realtime: true, reasons: [] }]);
    await redis.stop();
    expect(await readyUntil(t, 503)).toMatchObject({
      ready: false,
      database: true,
      storage: true,
      realtime: false,
      reasons: ['Redis unreachable'],
    });
    redis = await startRedis(port);
    expect(await readyUntil(t, 200)).toMatchObject({ ready: true, realtime: true, reasons: [] });
  });
});
