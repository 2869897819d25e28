/**
 * End to end with STORAGE=s3 (api/storage/S3Storage.ts) against a real local s3rver: a sample uploaded and
 * converted is stored in the bucket (not in DATA_DIR), its package streams whole and as HTTP byte ranges
 * (206 with Content-Range; 416 past the end), the instance calls read the revision's files through the local
 * copy, a second revision and its removal leave only the first, and deleting the project empties the bucket.
 * A server process (api/server.ts) whose bucket cannot be reached does not start and says why.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelObjectsResponseSchema } from '../../api/contract';
import { startS3Server, type TestS3Server } from '../support/s3Server';
import { freePort, startServerProcess } from '../support/serverProcess';
import { SAMPLES, bearer, makeApp, signUp, type TestApp, uploadFile } from './helpers';

let s3: TestS3Server;
let t: TestApp;
let client: S3Client;
beforeAll(async () => {
  s3 = await startS3Server();
  client = new S3Client({
    ...s3.settings,
    credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
  });
  t = await makeApp({ storage: { kind: 's3', ...s3.settings } });
});
afterAll(async () => {
  await t?.close();
  client?.destroy();
  await s3?.close();
});

async function objects(): Promise<string[]> {
  const r = await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
  return (r.Contents ?? []).map((o) => o.Key ?? '');
}

describe('STORAGE=s3', () => {
  it('stores a converted upload in the bucket, streams its package with ranges, and deletes it', async () => {
    expect(t.app.ctx.projects.storage.kind).toBe('s3');
    const admin = await signUp(t.app, 'admin@yard.com', { admin: true });
    const sample = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));
    expect(await uploadFile(t, admin, 'M1.3docx', sample)).toBe('M1');
    const stored = await objects();
    expect(stored).toContain('projects/M1/rev-1/manifest.json');
    expect(stored.some((k) => /^projects\/M1\/\.rev-[0-9a-f-]{36}-[0-9a-f]{8}\/M1\.sc$/.test(k))).toBe(true);
    expect(existsSync(path.join(t.config.dataDir, 'projects', 'M1', 'rev-1'))).toBe(false);

    const url = '/api/keelson-static/models/M1/latest/M1.sc';
    const whole = await t.app.inject({ method: 'GET', url, headers: bearer(admin) });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const sc = whole.rawPayload;
    expect(Number(whole.headers['content-length'])).toBe(sc.length);
    expect(sc.subarray(0, 4).toString('latin1')).toBe('KSC1');
    expect(sc.length).toBeGreaterThan(300);

    const part = await t.app.inject({ method: 'GET', url, headers: { ...bearer(admin), range: 'bytes=100-299' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-299/${sc.length}`);
    expect(Number(part.headers['content-length'])).toBe(200);
    expect(part.rawPayload.equals(sc.subarray(100, 300))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url, headers: { ...bearer(admin), range: 'bytes=-10' } });
    expect([tail.statusCode, tail.rawPayload.equals(sc.subarray(sc.length - 10))]).toEqual([206, true]);
    const past = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(admin), range: `bytes=${sc.length}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${sc.length}`);
    expect(past.json()).toMatchObject({ error: 'RangeNotSatisfiable' });
    // Several ranges: the whole file, as RFC 9110 allows.
    const many = await t.app.inject({ method: 'GET', url, headers: { ...bearer(admin), range: 'bytes=0-1,5-6' } });
    expect([many.statusCode, many.rawPayload.length]).toEqual([200, sc.length]);

    // The instance calls read objects.json and properties from the local copy of the stored revision.
    const objs = await t.app.inject({
      method: 'GET',
      url: '/api/keelson-instance/model/objects?modelName=M1&revision=latest',
      headers: bearer(admin),
    });
    expect(objs.statusCode, objs.body).toBe(200);
    expect(v.parse(ModelObjectsResponseSchema, objs.json()).objects.length).toBeGreaterThan(0);

    // A second revision, then revision 1 removed: only revision 2's objects stay.
    await uploadFile(t, admin, 'M1.3docx', sample);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-revision?projectName=M1&revisionNumber=1',
      headers: bearer(admin),
    });
    expect(del.statusCode, del.body).toBe(200);
    const afterRevision = await objects();
    expect(afterRevision.filter((k) => k.endsWith('/manifest.json'))).toEqual(['projects/M1/rev-2/manifest.json']);
    const generations = new Set(afterRevision.filter((k) => !k.endsWith('/manifest.json')).map((k) => k.split('/')[2]));
    expect(generations.size).toBe(1);
    const latest = await t.app.inject({ method: 'GET', url, headers: bearer(admin) });
    expect([latest.statusCode, latest.headers['x-keelson-revision']]).toEqual([200, '2']);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-model?projectName=M1',
      headers: bearer(admin),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await objects()).toEqual([]);
    expect(existsSync(path.join(t.config.dataDir, 'projects', 'M1'))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(admin) })).statusCode).toBe(404);
  });
});

describe('a server process with STORAGE=s3', () => {
  it('does not start when the bucket cannot be reached, naming it', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-s3down-'));
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    try {
      const e = await startServerProcess({
        ...s3.env,
        S3_ENDPOINT: endpoint,
        DATA_DIR: dataDir,
        DEMO_SHIP: 'false',
        DATABASE_URL: '',
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toContain(
        `The S3 revision store (bucket "${s3.settings.bucket}" at ${endpoint}) failed to open the bucket: `,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
