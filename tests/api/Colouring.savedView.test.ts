/**
 * Colouring as part of a saved view (application.md §4 "Coloring"; a comment snapshot restores it): a
 * VIEW attachment carries the colouring (quantity codes per object type, thickness view side), the server
 * stores and answers it, answers null for a snapshot without one, and refuses malformed colourings.
 */
import { PNG } from 'pngjs';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommentSchema, MAX_COLOURING_QUANTITIES } from '../../api/contract';
import { BASE, type CommentsWorld, commentsWorld, place } from './commentsSetup';

let w: CommentsWorld;
beforeAll(async () => {
  w = await commentsWorld();
}, 120_000);
afterAll(async () => {
  await w?.t.close();
});

const png = () => PNG.sync.write(new PNG({ width: 4, height: 4 })).toString('base64');
const snapshot = (extra: Record<string, unknown>) => ({ fileName: 'snap.png', type: 1, data: png(), ...extra });
const thread = (attachments: unknown[]) =>
  w.call('author', {
    method: 'POST',
    url: `${BASE}/add-thread?${place(w.project)}`,
    payload: { comment: { message: 'coloured view', attachments } },
  });

const COLOURING = {
  compartments: [],
  plates: ['PLTH', 'MAT'],
  stiffeners: ['PROFILE'],
  brackets: [],
  thicknessSide: 'IN',
};

describe('colouring in a snapshot', () => {
  it('is stored with the snapshot and read back; a snapshot without one answers null', async () => {
    const r = await thread([snapshot({ coloring: COLOURING }), snapshot({})]);
    expect(r.statusCode, r.body).toBe(200);
    const [coloured, plain] = v.parse(CommentSchema, r.json()).attachments;
    expect(coloured.coloring).toEqual(COLOURING);
    expect(plain.coloring).toBeNull();
    const all = await w.call('bystander', { url: `${BASE}/all?projectName=${w.project}&projectVersionName=MAIN` });
    const again = v.parse(v.array(CommentSchema), all.json()).flatMap((c) => c.attachments);
    expect(again.find((a) => a.fileId === coloured.fileId)?.coloring).toEqual(COLOURING);
  });

  it('missing lists default to none; malformed codes, sides and too many quantities are refused', async () => {
    const ok = await thread([snapshot({ coloring: { plates: ['PLTH'] } })]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(v.parse(CommentSchema, ok.json()).attachments[0].coloring).toEqual({
      compartments: [],
      plates: ['PLTH'],
      stiffeners: [],
      brackets: [],
      thicknessSide: null,
    });
    for (const coloring of [
      { plates: ['PL TH'] },
      { thicknessSide: 'SIDEWAYS' },
      { plates: Array.from({ length: MAX_COLOURING_QUANTITIES + 1 }, (_, i) => `Q${i}`) },
    ]) {
      const r = await thread([snapshot({ coloring })]);
      expect(r.statusCode, JSON.stringify(coloring)).toBe(400);
    }
  });
});
