/**
 * Surfaces as triangle strips (engine/scene/triangleStrips.ts): each size-ordered row, drawn alone from its
 * start, draws exactly the row's triangles with their winding (degenerate joins draw nothing), rows start
 * at even offsets, the strips are smaller than the list on real OCX files, and the strip draw switches the
 * draw mode only for element buffers uploaded from strip arrays. The pixels are compared in Chromium by
 * tests/browser/triangleStrips.pixels.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { orderChunkBySize } from '../../../engine/scene/sizeOrder';
import { rngOf } from '../../fuzz/prng';
import { ocxChunks } from './ocxChunks';
import { stripToList } from './stripToList';
import {
  chunkStrips,
  installStripDraw,
  stripChunk,
  takeStripTriangleCorrection,
} from '../../../engine/scene/triangleStrips';

/** A triangle's key with its winding kept: rotated so that its least vertex comes first. */
function key(a: number, b: number, c: number): string {
  if (a <= b && a <= c) return `${a},${b},${c}`;
  if (b <= a && b <= c) return `${b},${c},${a}`;
  return `${c},${a},${b}`;
}

/** Sorted keys of the non-degenerate triangles of a list range. */
function listTriangles(idx: ArrayLike<number>, start: number, end: number): string[] {
  const out: string[] = [];
  for (let i = start; i < end; i += 3) {
    const a = idx[i],
      b = idx[i + 1],
      c = idx[i + 2];
    if (a !== b && b !== c && c !== a) out.push(key(a, b, c));
  }
  return out.sort();
}

/** Sorted keys of the triangles a TRIANGLE_STRIP draw of [start, end) rasterises (GL's parity rule). */
function stripTriangles(idx: ArrayLike<number>, start: number, end: number): string[] {
  const list = stripToList(idx, start, end);
  return listTriangles(list, 0, list.length);
}

/**
 * Checks every row drawn alone (its list range as TRIANGLES, its strip range as TRIANGLE_STRIP) and both
 * parts whole against the list; returns the parts' indices ÷ the list's (1 when the list is kept).
 */
function checkRows(indices: Uint16Array, ends: ArrayLike<number>, minStrip?: number): number {
  const s = stripChunk(indices, ends, minStrip);
  if (!s) return 1;
  expect(s.listEnds.length).toBe(ends.length);
  expect(s.stripEnds.length).toBe(ends.length);
  expect(s.listEnds[ends.length - 1]).toBe(s.stripStart);
  const at = (e: ArrayLike<number>, r: number) => (r > 0 ? e[r - 1] : 0);
  for (let r = 0; r < ends.length; r++) {
    const ss = s.stripStart + at(s.stripEnds, r);
    expect(at(s.stripEnds, r) % 2).toBe(0);
    const drawn = [
      ...listTriangles(s.indices, at(s.listEnds, r), s.listEnds[r]),
      ...stripTriangles(s.indices, ss, s.stripStart + s.stripEnds[r]),
    ].sort();
    expect(drawn).toEqual(listTriangles(indices, at(ends, r), ends[r]));
  }
  const all = [
    ...listTriangles(s.indices, 0, s.stripStart),
    ...stripTriangles(s.indices, s.stripStart, s.indices.length),
  ].sort();
  expect(all).toEqual(listTriangles(indices, 0, indices.length));
  return s.indices.length / indices.length;
}

/** A w × h grid of quads (two triangles each, counter-clockwise) on vertices from `base`. */
function grid(w: number, h: number, base: number): number[] {
  const out: number[] = [];
  const v = (x: number, y: number) => base + y * (w + 1) + x;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) out.push(v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y), v(x + 1, y + 1), v(x, y + 1));
  return out;
}

/** Deterministic random numbers in [0, 1) (the fuzzers' mulberry32). */
const random = (seed: number): (() => number) => rngOf(seed).next;

describe('triangle strips', () => {
  it('draw a grid of quads in about one index per triangle, each row alone with its winding', () => {
    const rows = [grid(20, 10, 0), grid(3, 1, 1000), grid(1, 1, 2000)];
    const indices = Uint16Array.from(rows.flat());
    let at = 0;
    const ends = rows.map((r) => (at += r.length));
    const ratio = checkRows(indices, ends);
    expect(ratio).toBeLessThan(0.55);
    // The 1 × 1 and 3 × 1 rows make strips of 2 and 6 triangles: kept in the list part.
    const s = stripChunk(indices, ends)!;
    expect([s.stripEnds[1] - s.stripEnds[0], s.stripEnds[2] - s.stripEnds[1]]).toEqual([0, 0]);
    expect([s.listEnds[1] - s.listEnds[0], s.listEnds[2] - s.listEnds[1]]).toEqual([18, 6]);
    expect(checkRows(indices, ends, 1)).toBeLessThan(ratio);
  });

  it('keep every triangle of random, shuffled, non-manifold and degenerate rows', () => {
    const rnd = random(7);
    for (let round = 0; round < 100; round++) {
      const rows: number[][] = [];
      let base = 0;
      for (let r = 0; r < 1 + Math.floor(rnd() * 6); r++) {
        const w = 1 + Math.floor(rnd() * 6),
          h = 1 + Math.floor(rnd() * 4);
        let tris = grid(w, h, base);
        // Triangles shuffled and rotated, some flipped (inconsistent winding), repeated, fanned on one edge,
        // or degenerate.
        const list: number[][] = [];
        for (let i = 0; i < tris.length; i += 3) list.push(tris.slice(i, i + 3));
        for (const t of list) {
          const k = Math.floor(rnd() * 3);
          t.push(...t.splice(0, k));
          if (rnd() < 0.1) [t[0], t[1]] = [t[1], t[0]];
        }
        if (rnd() < 0.3) list.push([...list[0]]);
        if (rnd() < 0.3) list.push([list[0][0], list[0][1], base + (w + 1) * (h + 1)]);
        if (rnd() < 0.3) list.push([base, base, base + 1]);
        for (let i = list.length - 1; i > 0; i--) {
          const j = Math.floor(rnd() * (i + 1));
          [list[i], list[j]] = [list[j], list[i]];
        }
        tris = list.flat();
        rows.push(tris);
        base += (w + 1) * (h + 1) + 1;
        if (rnd() < 0.2) rows.push([]);
      }
      const indices = Uint16Array.from(rows.flat());
      let at = 0;
      const ends = rows.map((r) => (at += r.length));
      for (const minStrip of [1, 3, 8]) checkRows(indices, ends, minStrip);
    }
  });

  it('use the vertex 65535 as any other (the joins are degenerate triangles, never a restart)', () => {
    const indices = Uint16Array.from([65533, 65534, 65535, 65533, 65535, 65532, 0, 1, 2, 0, 2, 3]);
    const s = stripChunk(indices, [6, 12], 1)!;
    expect(s).not.toBeNull();
    expect(s.indices).toContain(65535);
    checkRows(indices, [6, 12], 1);
  });

  it('leave the list where strips save nothing', () => {
    // Single triangles in rows of their own: a strip of one triangle is its list.
    const indices = Uint16Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(stripChunk(indices, [3, 6, 9], 1)).toBeNull();
    // Strips all shorter than the least kept: no strip part.
    expect(stripChunk(Uint16Array.from(grid(2, 1, 0)), [12])).toBeNull();
    expect(stripChunk(new Uint16Array(0), [])).toBeNull();
  });

  it.each(['NAPA-OCX_M8', '3DEXPERIENCE-TR03_TC10', 'CADMATIC-TR03_TC11'])(
    'draw every row of a real OCX file (%s) in fewer indices than its list',
    async (name) => {
      let list = 0,
        strip = 0;
      for (const chunk of await ocxChunks(name)) {
        const order = orderChunkBySize(chunk);
        const ratio = checkRows(chunk.indices, order.indexEnd);
        checkRows(chunk.indices, order.indexEnd, 1);
        list += chunk.indices.length;
        strip += ratio * chunk.indices.length;
      }
      expect(list).toBeGreaterThan(0);
      expect(strip / list).toBeLessThan(0.8);
    },
  );

  it('draw as TRIANGLE_STRIP only from element buffers uploaded from strip arrays', () => {
    const calls: number[][] = [];
    let bound: object | null = null;
    const gl = {
      TRIANGLES: 4,
      TRIANGLE_STRIP: 5,
      LINES: 1,
      ELEMENT_ARRAY_BUFFER: 34963,
      ARRAY_BUFFER: 34962,
      ELEMENT_ARRAY_BUFFER_BINDING: 34965,
      bufferData(_t: number, _d: unknown, _u: number) {},
      drawElements(mode: number, count: number, type: number, offset: number) {
        calls.push([mode, count, type, offset]);
      },
      getParameter(name: number) {
        return name === 34965 ? bound : null;
      },
    };
    expect(installStripDraw(gl)).toBe(true);
    expect(installStripDraw({})).toBe(false);
    const s = chunkStrips(Uint16Array.from(grid(6, 4, 0)), [144])!;
    expect(s.stripStart).toBeGreaterThan(0);
    const stripBuffer = {},
      listBuffer = {};
    bound = stripBuffer;
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, s.indices, 0);
    bound = listBuffer;
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array(24), 0);
    // An array buffer upload of the same array while the strip buffer is bound changes nothing.
    bound = stripBuffer;
    gl.bufferData(gl.ARRAY_BUFFER, new Uint16Array(3), 0);
    takeStripTriangleCorrection();
    const at = 2 * s.stripStart;
    gl.drawElements(gl.TRIANGLES, 12, 5123, at);
    gl.drawElements(gl.TRIANGLES, 6, 5123, 0);
    gl.drawElements(gl.LINES, 4, 5123, at);
    bound = listBuffer;
    gl.drawElements(gl.TRIANGLES, 24, 5123, at);
    expect(calls).toEqual([
      [5, 12, 5123, at],
      [4, 6, 5123, 0],
      [1, 4, 5123, at],
      [4, 24, 5123, at],
    ]);
    // 12 strip indices draw 10 primitives; three.js counted 4.
    expect(takeStripTriangleCorrection()).toBe(6);
    // A buffer uploaded again from a list is a list buffer from then on.
    bound = stripBuffer;
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array(12), 0);
    gl.drawElements(gl.TRIANGLES, 12, 5123, at);
    expect(calls[4][0]).toBe(4);
  });
});
