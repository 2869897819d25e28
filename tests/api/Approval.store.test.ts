/**
 * The object status store on a real SQLite database (api/approval/ObjectStatuses.ts): a change marks its
 * parts as in progress until it is written (readers then show a spinner and poll, viewer.md §3 "Object status
 * property"), statuses hold from the revision they were set in, and forgetAfter drops later revisions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObjectStatuses, objectKey } from '../../api/approval/ObjectStatuses';
import { type DB, openDatabase } from '../../api/db/database';

let dir: string;
let db: Kysely<DB>;
const by = { email: 'Ann@Yard.com', name: 'Ann' };
const names = new Map([
  [1, 'Not set'],
  [3, 'In review'],
  [4, 'Approved'],
]);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-approval-'));
  db = await openDatabase(dir);
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('ObjectStatuses', () => {
  it('keys parts by GUID, else by OCX id', () => {
    expect(objectKey({ id: 'p1', guid: 'ABC' })).toBe('ABC');
    expect(objectKey({ id: 'p1', guid: null })).toBe('id:p1');
  });

  it('marks the parts of a change as in progress until it is written', async () => {
    const s = new ObjectStatuses(db);
    const change = s.set({ project: 'P', revision: 1, keys: ['A', 'B'], statusId: 3, names, defaultStatus: 1, by });
    expect([s.inProgress('P', 'A'), s.inProgress('P', 'B'), s.inProgress('P', 'C')]).toEqual([true, true, false]);
    expect(await change).toBe(2);
    expect([s.inProgress('P', 'A'), s.inProgress('P', 'B')]).toEqual([false, false]);
    // Giving the same status again changes nothing and records nothing.
    expect(await s.set({ project: 'P', revision: 1, keys: ['A'], statusId: 3, names, defaultStatus: 1, by })).toBe(0);
    expect((await s.history('P', 'A', 1)).map((h) => [h.from.name, h.to.name, h.changedBy])).toEqual([
      ['Not set', 'In review', 'ann@yard.com'],
    ]);
  });

  it('reads the status of the highest revision at or below the one asked; forgetAfter drops later ones', async () => {
    const s = new ObjectStatuses(db);
    await s.set({ project: 'P', revision: 3, keys: ['A'], statusId: 4, names, defaultStatus: 1, by });
    const at = async (rev: number) => Object.fromEntries(await s.read('P', rev, ['A', 'B', 'C']));
    expect(await at(1)).toEqual({ A: 3, B: 3 });
    expect(await at(2)).toEqual({ A: 3, B: 3 });
    expect(await at(3)).toEqual({ A: 4, B: 3 });
    expect(Object.fromEntries(await s.read('P', 3, 'all'))).toEqual({ A: 4, B: 3 });
    await s.forgetAfter('P', 2);
    expect(await at(3)).toEqual({ A: 3, B: 3 });
    expect((await s.history('P', 'A', 9)).length).toBe(1);
    await s.forgetAfter('P', 0);
    expect(await at(3)).toEqual({});
  });
});
