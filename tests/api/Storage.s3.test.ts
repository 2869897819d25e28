/**
 * What only the S3 revision store (api/storage/S3Storage.ts) promises, against a real local s3rver: readers
 * trust only a revision's manifest (files uploaded ahead of publishing are invisible; discard removes them; the
 * start-up sweep removes those of stale conversions and unreferenced revisions, and keeps those another process
 * may still publish), a publish whose upload fails midway leaves nothing of itself and the revision it was to
 * replace intact, an unreachable endpoint or a missing bucket is refused at start with a message naming
 * them, and STORAGE / S3_* / REALTIME / REDIS_URL are read or refused clearly (api/config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config';
import { StorageUnavailable, StoredFileMissing } from '../../api/storage/RevisionStorage';
import { S3Storage } from '../../api/storage/S3Storage';
import { openRevisionStorage, storageConfig } from '../../api/storage/storageConfig';
import { startS3Server, type TestS3Server } from '../support/s3Server';
import { freePort } from '../support/serverProcess';

let s3: TestS3Server;
let client: S3Client;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
  client = new S3Client({
    ...s3.settings,
    credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

let buckets = 0;
async function freshStore(): Promise<{ store: S3Storage; bucket: string }> {
  const bucket = `s3-${++buckets}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-s3store-'));
  dirs.push(dir);
  return { store: new S3Storage({ ...s3.settings, bucket }, dir), bucket };
}

async function objects(bucket: string): Promise<string[]> {
  const r = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (r.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function text(s: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function publish(store: S3Storage, id: string, key: string, files: Record<string, string>) {
  const staged = await store.stage('SHIP', id);
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(staged, name), content);
  await store.publish(staged, key);
}

describe('S3 revision store', () => {
  it('shows a revision only through its manifest; the sweep keeps what another process may still publish', async () => {
    const { store, bucket } = await freshStore();
    await publish(store, 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': 'one' });
    const stored = await objects(bucket);
    expect(stored).toHaveLength(2);
    expect(stored).toContain('projects/SHIP/rev-1/manifest.json');
    expect(stored.some((k) => /^projects\/SHIP\/\.rev-c1-[0-9a-f]{8}\/SHIP\.sc$/.test(k))).toBe(true);
    // Uploaded ahead of the transaction, not published: invisible.
    const prepare = async (id: string) => {
      const staged = await store.stage('SHIP', id);
      await writeFile(path.join(staged, 'SHIP.sc'), id);
      await store.prepare(staged);
      return staged;
    };
    await prepare('stale');
    await prepare('running');
    await expect(store.open('projects/SHIP/rev-2', 'SHIP.sc')).rejects.toBeInstanceOf(StoredFileMissing);
    const dropped = await prepare('dropped');
    await store.discard(dropped);
    expect((await objects(bucket)).some((k) => k.includes('.rev-dropped-'))).toBe(false);
    // Published, but the process stopped before committing its row: rev-2 is referenced by nothing.
    await publish(store, 'uncommitted', 'projects/SHIP/rev-2', { 'SHIP.sc': 'two' });
    expect(await text((await store.open('projects/SHIP/rev-2', 'SHIP.sc')).stream)).toBe('two');

    await store.removeLeftovers(new Set(['projects/SHIP/rev-1']), ['stale']);
    const left = await objects(bucket);
    expect(left.filter((k) => !stored.includes(k)).map((k) => k.replace(/-[0-9a-f]{8}\//, '-*/'))).toEqual([
      'projects/SHIP/.rev-running-*/SHIP.sc',
    ]);
    expect(await text((await store.open('projects/SHIP/rev-1', 'SHIP.sc')).stream)).toBe('one');
    await expect(store.open('projects/SHIP/rev-2', 'SHIP.sc')).rejects.toBeInstanceOf(StoredFileMissing);
  });

  it('leaves nothing of a publish whose upload fails, and the revision it replaces readable', async () => {
    const { store, bucket } = await freshStore();
    await publish(store, 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': 'old', 'objects.json': '[1]' });
    const before = await objects(bucket);
    // The connection fails while the second file of the new generation is stored.
    const sdk = (store as unknown as { client: S3Client }).client;
    let puts = 0;
    sdk.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutObjectCommand' && ++puts === 2)
          throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        return next(args);
      },
      { step: 'initialize', name: 'failSecondUpload' },
    );
    const staged = await store.stage('SHIP', 'c2');
    await writeFile(path.join(staged, 'SHIP.sc'), 'new');
    await writeFile(path.join(staged, 'objects.json'), '[2]');
    const e = await store.publish(staged, 'projects/SHIP/rev-1').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StorageUnavailable);
    expect((e as Error).message).toMatch(
      /^The S3 revision store \(bucket "s3-\d+" at http:\/\/127\.0\.0\.1:\d+\) failed to store/,
    );
    expect(await objects(bucket)).toEqual(before);
    expect(await text((await store.open('projects/SHIP/rev-1', 'objects.json')).stream)).toBe('[1]');
  });

  it('refuses an unreachable endpoint and a missing bucket at start, naming them', async () => {
    const port = await freePort();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-s3store-'));
    dirs.push(dir);
    const down = { kind: 's3' as const, ...s3.settings, endpoint: `http://127.0.0.1:${port}` };
    const e = await openRevisionStorage(down, dir).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StorageUnavailable);
    expect((e as Error).message).toContain(
      `The S3 revision store (bucket "keelson-revisions" at http://127.0.0.1:${port}) failed to open the bucket: `,
    );
    expect((e as Error).message).toContain('ECONNREFUSED');
    const missing = { kind: 's3' as const, ...s3.settings, bucket: 'no-such-bucket' };
    await expect(openRevisionStorage(missing, dir)).rejects.toThrow(
      `The S3 revision store's bucket "no-such-bucket" at ${s3.settings.endpoint} does not exist`,
    );
    expect((await openRevisionStorage({ kind: 's3', ...s3.settings }, dir)).kind).toBe('s3');
  });
});

describe('STORAGE and REALTIME settings', () => {
  it('reads the S3 settings and refuses incomplete or malformed ones', () => {
    expect(storageConfig({})).toEqual({ kind: 'directory' });
    expect(storageConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000' })).toEqual({
      kind: 's3',
      bucket: 'b',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: '',
      secretAccessKey: '',
      forcePathStyle: true,
    });
    expect(storageConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_REGION: 'eu-north-1' })).toMatchObject({
      region: 'eu-north-1',
      forcePathStyle: false,
    });
    expect(() => storageConfig({ STORAGE: 'nfs' })).toThrow(`STORAGE="nfs" is not 'directory' or 's3'`);
    expect(() => storageConfig({ STORAGE: 's3' })).toThrow('STORAGE=s3 needs S3_BUCKET');
    expect(() => storageConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(
      'S3_ENDPOINT="minio:9000" is not an http:// or https:// URL',
    );
    expect(() => storageConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together',
    );
    expect(() => storageConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      'S3_FORCE_PATH_STYLE="maybe" is not a boolean',
    );
  });

  it('selects the realtime adapter: PostgreSQL by default on PostgreSQL, Redis on request, none on SQLite', () => {
    const pg = { DATABASE_URL: 'postgres://k@localhost/k' };
    const opts = { jwtSecret: 'x' };
    expect(loadConfig({ ...pg }, opts).realtime).toEqual({ kind: 'postgres' });
    expect(loadConfig({ ...pg, REALTIME: 'redis', REDIS_URL: 'redis://r:6379' }, opts).realtime).toEqual({
      kind: 'redis',
      url: 'redis://r:6379',
    });
    expect(() => loadConfig({ ...pg, REALTIME: 'redis' }, opts)).toThrow('REALTIME=redis needs REDIS_URL=redis://');
    expect(() => loadConfig({ ...pg, REALTIME: 'kafka' }, opts)).toThrow(
      `REALTIME="kafka" is not 'postgres' or 'redis'`,
    );
    expect(() =>
      loadConfig({ REALTIME: 'redis', REDIS_URL: 'redis://r:6379' }, { ...opts, database: { kind: 'sqlite' } }),
    ).toThrow('REALTIME=redis joins several server processes, which need PostgreSQL');
    expect(loadConfig({}, { ...opts, database: { kind: 'sqlite' } }).realtime).toEqual({ kind: 'local' });
  });
});
