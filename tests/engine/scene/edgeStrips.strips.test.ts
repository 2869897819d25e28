/**
 * Feature edges as line strips (engine/scene/edgeStrips.ts): every range's distinct segments are drawn
 * exactly once (round trip through the restart-separated strips), strips stay within their range, a chunk
 * with vertex 65535 keeps pairs, and on a real OCX file the chunk's edge bytes — counted in its geometry
 * bytes — are well under the 4 bytes per segment of pairs.
 */
import { describe, expect, it } from 'vitest';
import { ChunkBatch } from '../../../engine/scene/ChunkBatch';
import { createStateUniforms } from '../../../engine/scene/chunkMaterial';
import { drawnSegments, EdgeWriter, STRIP_RESTART, thinStrips } from '../../../engine/scene/edgeStrips';
import { ocxChunks } from './ocxChunks';

/** Writes `pairs` (one range) and returns the buffer. */
function strips(pairs: number[], vertexCount = 100): { out: number[]; writer: EdgeWriter } {
  const writer = new EdgeWriter(vertexCount);
  const out = new Uint16Array(writer.bound(pairs.length / 2));
  const n = writer.write(pairs, 0, pairs.length, out, 0);
  return { out: Array.from(out.subarray(0, n)), writer };
}

const strips_ = strips;

/** Distinct unordered segments of `pairs`, sorted. */
const distinct = (pairs: ArrayLike<number>) => [...new Set(drawnSegments(pairs, 0, pairs.length, false))].sort();

describe('edge strips', () => {
  it('chain a loop, an open polyline and a junction into few strips', () => {
    // A square loop: one strip back to its start.
    expect(strips([0, 1, 1, 2, 2, 3, 3, 0]).out).toEqual([0, 1, 2, 3, 0, STRIP_RESTART]);
    // An open polyline given out of order and either way round: one strip from an end.
    const open = strips([2, 3, 1, 0, 2, 1]).out;
    expect(open.length).toBe(5);
    expect(drawnSegments(open, 0, open.length, true).sort()).toEqual(distinct([0, 1, 1, 2, 2, 3]));
    // A T: three ends of odd degree, so two strips.
    const t = strips([0, 1, 1, 2, 1, 3]).out;
    expect(t.filter((v) => v === STRIP_RESTART).length).toBe(2);
    expect(drawnSegments(t, 0, t.length, true).sort()).toEqual(distinct([0, 1, 1, 2, 1, 3]));
  });

  it('draw every distinct segment of a range exactly once, repeats and zero-length segments included', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const vertices = 2 + rnd(40);
      const pairs: number[] = [];
      for (let k = rnd(60); k >= 0; k--) pairs.push(rnd(vertices), rnd(vertices));
      // Repeats, either way round.
      for (let k = 0; k + 1 < pairs.length && k < 6; k += 2) pairs.push(pairs[k + 1], pairs[k]);
      const { out } = strips(pairs, vertices);
      const drawn = drawnSegments(out, 0, out.length, true);
      expect(drawn.sort()).toEqual(distinct(pairs));
      expect(out.length).toBeLessThanOrEqual(3 * (pairs.length / 2));
      expect(out[out.length - 1]).toBe(STRIP_RESTART);
    }
  });

  it('keep strips within their range (a size prefix stays a prefix)', () => {
    const writer = new EdgeWriter(10);
    const pairs = [0, 1, 1, 2, 2, 3, 3, 4];
    const out = new Uint16Array(20);
    const end0 = writer.write(pairs, 0, 4, out, 0);
    const end1 = writer.write(pairs, 4, 8, out, end0);
    expect(drawnSegments(out, 0, end0, true).sort()).toEqual(distinct([0, 1, 1, 2]));
    expect(drawnSegments(out, end0, end1, true).sort()).toEqual(distinct([2, 3, 3, 4]));
  });

  it('thin strips to the kept segments: runs cut, single gaps bridged while the budget lasts', () => {
    const R = STRIP_RESTART;
    const key = (a: number, b: number) => (a < b ? a * 65536 + b : b * 65536 + a);
    const thin = (strips: number[], kept: number[][], bridges: number, asStrips = true) => {
      const set = new Set(kept.map(([a, b]) => key(a, b)));
      const out = new Uint16Array(2 * strips.length);
      const budget = { bridges };
      const n = thinStrips(strips, 0, strips.length, (a, b) => set.has(key(a, b)), out, 0, budget, asStrips);
      return { out: Array.from(out.subarray(0, n)), left: budget.bridges };
    };
    const strip = [0, 1, 2, 3, 4, 5, 6, 7, R];
    const kept = [
      [1, 2],
      [3, 4],
      [6, 7],
    ];
    // A single gap (2-3) between kept 1-2 and 3-4: cut without budget, drawn with one; a run (4-5-6) always cut;
    // the leading 0-1 and trailing 7 dropped.
    expect(thin(strip, kept, 0).out).toEqual([1, 2, R, 3, 4, R, 6, 7, R]);
    expect(thin(strip, kept, 5)).toEqual({ out: [1, 2, 3, 4, R, 6, 7, R], left: 4 });
    expect(thin(strip, [], 5).out).toEqual([]);
    expect(thin(strip, [[7, 6]], 0).out).toEqual([6, 7, R]);
    expect(thin([0, 1, 2, 3, 4, 5], [[2, 3]], 0, false).out).toEqual([2, 3]);
    // Random ranges: with no budget exactly the kept segments; with enough, never longer than the strips.
    let seed = 11;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 100; round++) {
      const pairs: number[] = [];
      for (let k = 1 + rnd(50); k > 0; k--) pairs.push(rnd(30), rnd(30));
      const { out: strips } = strips_(pairs);
      const segs = [...new Set(drawnSegments(strips, 0, strips.length, true))];
      const kept = segs.filter(() => rnd(3) > 0).map((k) => [Math.floor(k / 65536), k % 65536]);
      const want = [...new Set(kept.map(([a, b]) => key(a, b)))].sort();
      const exact = thin(strips, kept, 0).out;
      expect([...new Set(drawnSegments(exact, 0, exact.length, true))].sort()).toEqual(want);
      const bridged = thin(strips, kept, Number.POSITIVE_INFINITY).out;
      expect(bridged.length).toBeLessThanOrEqual(strips.length);
      const got = new Set(drawnSegments(bridged, 0, bridged.length, true));
      for (const k of want) expect(got.has(k)).toBe(true);
      for (const k of got) expect(segs.includes(k)).toBe(true);
    }
  });

  it('write pairs, repeats dropped, in a chunk that has a vertex 65535', () => {
    const { out, writer } = strips([65535, 1, 1, 2, 2, 1], 65536);
    expect(writer.strips).toBe(false);
    expect(writer.bound(3)).toBe(6);
    expect(out).toEqual([65535, 1, 1, 2]);
    expect(new EdgeWriter(65535).strips).toBe(true);
    expect(() => new EdgeWriter(10).write([0, 1, 2, 3], 0, 4, new Uint16Array(3), 0)).toThrow(RangeError);
  });

  it('cut the edge bytes of a real OCX file to under 0.65 of pairs, same segments per row (NAPA-OCX_M8)', async () => {
    let pairBytes = 0,
      stripBytes = 0;
    for (const chunk of await ocxChunks('NAPA-OCX_M8')) {
      if (chunk.edges.length === 0) continue;
      const batch = new ChunkBatch(chunk, createStateUniforms());
      const index = batch.edges!.geometry.getIndex()!.array as Uint16Array;
      // The byte accounting: the strip buffer, and the kinds add up to the chunk's geometry bytes.
      expect(batch.bytes.edges).toBe(index.byteLength);
      expect(batch.geometryBytes).toBe(
        batch.bytes.positions + batch.bytes.indices + batch.bytes.edges + batch.bytes.blocks,
      );
      expect(batch.bytes.positions).toBe(chunk.positions.byteLength);
      expect(batch.bytes.indices).toBe(batch.mesh.geometry.getIndex()!.array.byteLength);
      // All rows drawn: the distinct segments of the package's rows (chunk.edges in row order).
      batch.setDetail(0, 0, -1);
      const rowsEnd = chunk.edgeObjects.reduce((n, _, i) => (i % 3 === 2 ? n + chunk.edgeObjects[i] * 2 : n), 0);
      expect([...new Set(drawnSegments(index, 0, batch.edges!.geometry.drawRange.count, true))].sort()).toEqual(
        distinct(chunk.edges.subarray(0, rowsEnd)),
      );
      pairBytes += chunk.edges.byteLength;
      stripBytes += batch.bytes.edges;
      batch.dispose();
    }
    expect(pairBytes).toBeGreaterThan(10_000);
    expect(stripBytes).toBeLessThan(0.65 * pairBytes);
  }, 60_000);
});
