/**
 * The revision store (api/storage/RevisionStorage.ts) through its interface only, run for every store
 * Keelson has (today the directory store, DirectoryStorage): a staged revision is not listed until
 * published, publishing replaces what the key held, files stream with their size, a missing revision or
 * file is StoredFileMissing, removal of a revision and of a project, the start-up sweep (stale staged
 * revisions and unreferenced ones go, referenced ones stay), and keys that would leave the store are refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectoryStorage } from '../../api/storage/DirectoryStorage';
import { type RevisionStorage, StoredFileMissing } from '../../api/storage/RevisionStorage';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempRoot(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'keelson-storage-'));
  dirs.push(d);
  return d;
}

/** Every store, made fresh. */
const STORES: [string, () => RevisionStorage][] = [['directory', () => new DirectoryStorage(tempRoot())]];

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
    const store = make();
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
    const store = make();
    await put(store, 'SHIP', 'c1', 'projects/SHIP/rev-1', { 'SHIP.sc': 'old', 'extra.json': '1' });
    await put(store, 'SHIP', 'c2', 'projects/SHIP/rev-1', { 'SHIP.sc': 'new' });
    expect(await text((await store.open('projects/SHIP/rev-1', 'SHIP.sc')).stream)).toBe('new');
    await expect(store.open('projects/SHIP/rev-1', 'extra.json')).rejects.toBeInstanceOf(StoredFileMissing);
  });

  it('answers StoredFileMissing for a missing revision, file or a name with a path', async () => {
    const store = make();
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
    const store = make();
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
    const store = make();
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

  it('refuses keys that leave the store', async () => {
    const store = make();
    for (const key of ['../outside', '/etc', '.'])
      await expect(store.localDir(key)).rejects.toThrow(`Revision key ${key} is outside the revision store`);
    await expect(store.stage('..', 'c1')).rejects.toThrow('is outside the revision store');
  });
});
