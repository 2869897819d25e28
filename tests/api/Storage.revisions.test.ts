/**
 * The revision store (api/storage/RevisionStorage.ts) through its interface only, run for every store
 * Keelson has (the directory store, DirectoryStorage, and the S3 store, S3Storage, against a real local
 * s3rver, a fresh bucket per test): a staged revision is not listed until published, publishing replaces
 * what the key held, files stream with their size, byte ranges (RFC 9110 semantics: clamped end, suffix,
 * 416 past the end), a missing revision or file is StoredFileMissing, removal of a revision and of a project,
 * the start-up sweep (stale staged revisions and unreferenced ones go, referenced ones stay), and keys that
 * would leave the store are refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryStorage } from '../../api/storage/DirectoryStorage';
import { RangeNotSatisfiable, type RevisionStorage, StoredFileMissing } from '../../api/storage/RevisionStorage';
import { S3Storage } from '../../api/storage/S3Storage';
import { startS3Server, type TestS3Server } from '../support/s3Server';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempRoot(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'keelson-storage-'));
  dirs.push(d);
  return d;
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

let buckets = 0;
/** An S3 store in a new, empty bucket of the test server. */
async function freshS3(): Promise<S3Storage> {
  const bucket = `rev-${++buckets}`;
  const client = new S3Client({
    ...s3.settings,
    credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  const store = new S3Storage({ ...s3.settings, bucket }, tempRoot());
  await store.check();
  return store;
}

/** Every store, made fresh. */
const STORES: [string, () => Promise<RevisionStorage>][] = [
  ['directory', async () => new DirectoryStorage(tempRoot())],
  ['s3', freshS3],
];

async function text(s: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Stages a revision of `project` holding `files` (name → content) and publishes it as `key`. */
async function put(store: RevisionStorage, project: string, id: string, key: string, files: Record<string, string>) {
  const staged = await store.stage(project, id);
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(staged, name), content);
  await store.publish(staged, key);
  return staged;
}

describe.each(STORES)('%s revision store', (_kind, make) => {
  it('stages into an empty local directory and publishes it whole under its key', async () => {
    const store = await make();
    const staged = await store.stage('SHIP', 'c1');
    expect(await readdir(staged)).toEqual([]);
    await writeFile(path.join(staged, 'SHIP.sc'), 'package bytes');
    await writeFile(path.join(staged, 'objects.json'), '{"objects":[]}');
    await expect(store.open('projects/SHIP/rev-1', 'SHIP.sc')).rejects.toBeInstanceOf(StoredFileMissing);
    await store.publish(staged, 'projects/SHIP/rev-1');
    await expect(readdir(staged)).rejects.toThrow();
    const f = await store.open('projects/SHIP/rev-1', 'SHIP.sc');
    expect(f.size).toBe('package bytes'.length);
    expect(await text(f.stream)).toBe('package bytes');
    const local = await store.localDir('projects/SHIP/rev-1');
    expect(await readFile(path.join(local, 'objects.json'), 'utf8')).toBe('{"objects":[]}');
  });

  it('replaces what a key held when publishing again, without files of the old one', async () => {
    const store = await make();
    await put(store, 'SHIP', 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': 'old', 'extra.json': '1' });
    await put(store, 'SHIP', 'c2', 'projects/SHIP/rev-1', { 'SHIP.sc': 'new' });
    expect(await text((await store.open('projects/SHIP/rev-1', 'SHIP.sc')).stream)).toBe('new');
    await expect(store.open('projects/SHIP/rev-1', 'extra.json')).rejects.toBeInstanceOf(StoredFileMissing);
  });

  it('answers StoredFileMissing for a missing revision, file or a name with a path', async () => {
    const store = await make();
    await put(store, 'SHIP', 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': 'x' });
    for (const [key, file] of [
      ['projects/SHIP/rev-2', 'SHIP.sc'],
      ['projects/SHIP/rev-1', 'OTHER.sc'],
      ['projects/SHIP/rev-1', '../rev-1/SHIP.sc'],
    ]) {
      const e = await store.open(key, file).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(StoredFileMissing);
      expect((e as Error).message).toBe(`File ${file} of revision ${key} is not stored`);
    }
  });

  it('removes one revision, then the whole project; a missing one is no error', async () => {
    const store = await make();
    await put(store, 'SHIP', 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': '1' });
    await put(store, 'SHIP', 'c2', 'projects/SHIP/rev-2', { 'SHIP.sc': '2' });
    await store.remove('projects/SHIP/rev-1');
    await store.remove('projects/SHIP/rev-1');
    await expect(store.open('projects/SHIP/rev-1', 'SHIP.sc')).rejects.toBeInstanceOf(StoredFileMissing);
    expect(await text((await store.open('projects/SHIP/rev-2', 'SHIP.sc')).stream)).toBe('2');
    const staged = await store.stage('SHIP', 'c3');
    await store.removeProject('SHIP');
    await expect(store.open('projects/SHIP/rev-2', 'SHIP.sc')).rejects.toBeInstanceOf(StoredFileMissing);
    await expect(readdir(staged)).rejects.toThrow();
    await store.removeProject('SHIP');
  });

  it('sweeps stale staged revisions and unreferenced ones, and keeps the referenced and running ones', async () => {
    const store = await make();
    await put(store, 'SHIP', 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': '1' });
    await put(store, 'SHIP', 'c2', 'projects/SHIP/rev-2', { 'SHIP.sc': '2' });
    await put(store, 'GONE', 'c3', 'projects/GONE/rev-1', { 'GONE.sc': '3' });
    const stale = await store.stage('SHIP', 'stale');
    const running = await store.stage('SHIP', 'running');
    await store.removeLeftovers(new Set(['projects/SHIP/rev-1']), ['stale']);
    expect(await text((await store.open('projects/SHIP/rev-1', 'SHIP.sc')).stream)).toBe('1');
    for (const [key, file] of [
      ['projects/SHIP/rev-2', 'SHIP.sc'],
      ['projects/GONE/rev-1', 'GONE.sc'],
    ])
      await expect(store.open(key, file)).rejects.toBeInstanceOf(StoredFileMissing);
    await expect(readdir(stale)).rejects.toThrow();
    expect(await readdir(running)).toEqual([]);
  });

  it('reads byte ranges: clamped to the end, the last N bytes, and refuses one past the end', async () => {
    const store = await make();
    await put(store, 'SHIP', 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': '0123456789', 'empty.json': '' });
    const part = await store.open('projects/SHIP/rev-1', 'SHIP.sc', { start: 2, end: 5 });
    expect([part.size, part.start, part.end, await text(part.stream)]).toEqual([10, 2, 5, '2345']);
    const tail = await store.open('projects/SHIP/rev-1', 'SHIP.sc', { start: 7, end: 100 });
    expect([tail.start, tail.end, await text(tail.stream)]).toEqual([7, 9, '789']);
    const open = await store.open('projects/SHIP/rev-1', 'SHIP.sc', { start: 4, end: null });
    expect(await text(open.stream)).toBe('456789');
    const suffix = await store.open('projects/SHIP/rev-1', 'SHIP.sc', { suffix: 3 });
    expect([suffix.start, suffix.end, await text(suffix.stream)]).toEqual([7, 9, '789']);
    const e = await store.open('projects/SHIP/rev-1', 'SHIP.sc', { start: 10, end: null }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RangeNotSatisfiable);
    expect((e as RangeNotSatisfiable).size).toBe(10);
    const empty = await store.open('projects/SHIP/rev-1', 'empty.json');
    expect([empty.size, await text(empty.stream)]).toEqual([0, '']);
  });

  it('publishes nested files and gives them back in the local directory', async () => {
    const store = await make();
    const staged = await store.stage('SHIP', 'c1');
    await mkdir(path.join(staged, 'cad'));
    await writeFile(path.join(staged, 'cad', 'pump.stl'), 'solid pump');
    await writeFile(path.join(staged, 'SHIP.sc'), 'sc');
    await store.publish(staged, 'projects/SHIP/rev-1');
    const local = await store.localDir('projects/SHIP/rev-1');
    expect(await readFile(path.join(local, 'cad', 'pump.stl'), 'utf8')).toBe('solid pump');
    expect(await store.localDir('projects/SHIP/rev-1')).toBe(local);
  });

  it('refuses keys that leave the store', async () => {
    const store = await make();
    for (const key of ['../outside', '/etc', '.'])
      await expect(store.localDir(key)).rejects.toThrow(`Revision key ${key} is outside the revision store`);
    await expect(store.stage('..', 'c1')).rejects.toThrow('is outside the revision store');
  });
});
