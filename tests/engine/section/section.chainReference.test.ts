/**
 * The typed chaining of slice.ts (chainSegments: segments walked into typed scratch, closed loops
 * emitted directly) against the previous implementation kept here as a reference (number[] walk, then
 * every chain closed or joined afterwards), on the segments of every object cut by X, Y and Z planes
 * through a generated ship: same polylines, same order, same values.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { writeShipOcx } from '../../../tools/generator/index';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { chainSegments, segmentBuffer, sliceTriangles, sliceTrianglesInto } from '../../../engine/section/slice';
import { computeSection } from '../../../engine/section/section';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import type { SectionPolyline } from '../../../engine/section/types';

/** Reference: the chaining before the typed rewrite (string-free hash, number[] chains, closed afterwards). */
function referenceChain(segments: ArrayLike<number>, tol = 1, zeroLen = 1e-3): SectionPolyline[] {
  const nSeg = Math.floor(segments.length / 6);
  const key = (i: number) =>
    `${Math.round(segments[i] * 1000)},${Math.round(segments[i + 1] * 1000)},${Math.round(segments[i + 2] * 1000)}`;
  const ends = new Map<string, number[]>();
  const keep: boolean[] = [];
  for (let s = 0; s < nSeg; s++) {
    const o = s * 6;
    keep[s] =
      Math.hypot(segments[o + 3] - segments[o], segments[o + 4] - segments[o + 1], segments[o + 5] - segments[o + 2]) >=
      zeroLen;
    if (!keep[s]) continue;
    for (let e = 0; e < 2; e++) {
      const k = key(o + e * 3);
      if (!ends.has(k)) ends.set(k, []);
      ends.get(k)!.push(s * 2 + e);
    }
  }
  const used: boolean[] = [];
  const walk = (cur: number, pts: number[]) => {
    for (;;) {
      const next = ends.get(key(cur * 3))!.find((x) => !used[x >> 1]);
      if (next === undefined) return;
      used[next >> 1] = true;
      const far = (next >> 1) * 2 + (1 - (next & 1));
      pts.push(segments[far * 3], segments[far * 3 + 1], segments[far * 3 + 2]);
      cur = far;
    }
  };
  const chains: number[][] = [];
  for (let s = 0; s < nSeg; s++) {
    if (!keep[s] || used[s]) continue;
    used[s] = true;
    const fwd: number[] = [],
      back: number[] = [];
    walk(s * 2 + 1, fwd);
    walk(s * 2, back);
    const pts: number[] = [];
    for (let i = back.length - 3; i >= 0; i -= 3) pts.push(back[i], back[i + 1], back[i + 2]);
    for (let i = 0; i < 6; i++) pts.push(segments[s * 6 + i]);
    chains.push(pts.concat(fwd));
  }
  const d = (a: number[], i: number, b: number[], j: number) =>
    Math.hypot(a[i] - b[j], a[i + 1] - b[j + 1], a[i + 2] - b[j + 2]);
  const rev = (p: number[]) => {
    const r: number[] = [];
    for (let i = p.length - 3; i >= 0; i -= 3) r.push(p[i], p[i + 1], p[i + 2]);
    return r;
  };
  const isClosed = (p: number[]) => p.length >= 9 && d(p, 0, p, p.length - 3) <= tol;
  const open = chains.filter((p) => !isClosed(p));
  const done: SectionPolyline[] = chains
    .filter(isClosed)
    .map((p) => ({ points: Float64Array.from(p.slice(0, -3)), closed: true }));
  let merged = true;
  while (merged && open.length > 1) {
    merged = false;
    outer: for (let i = 0; i < open.length; i++)
      for (let j = i + 1; j < open.length; j++) {
        const a = open[i],
          b = open[j],
          ae = a.length - 3,
          be = b.length - 3;
        const joined =
          d(a, ae, b, 0) <= tol
            ? a.concat(b.slice(3))
            : d(b, be, a, 0) <= tol
              ? b.concat(a.slice(3))
              : d(a, ae, b, be) <= tol
                ? a.concat(rev(b).slice(3))
                : d(a, 0, b, 0) <= tol
                  ? rev(a).concat(b.slice(3))
                  : null;
        if (joined) {
          open.splice(j, 1);
          open[i] = joined;
          merged = true;
          break outer;
        }
      }
  }
  for (const p of open) {
    if (isClosed(p)) done.push({ points: Float64Array.from(p.slice(0, -3)), closed: true });
    else {
      let L = 0;
      for (let i = 3; i < p.length; i += 3) L += d(p, i, p, i - 3);
      if (L >= zeroLen) done.push({ points: Float64Array.from(p), closed: false });
    }
  }
  return done;
}

let dir = '';
let model: ImportResult;
let index: SectionIndex;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-chain-'));
  const file = path.join(dir, 'ship.3docx');
  await writeShipOcx(file, { targetParts: 600, seed: 3 });
  model = await importOcxFile(file);
  index = SectionIndex.fromMeshes(model.meshes);
}, 60_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('typed chaining matches the reference on a generated ship', () => {
  it('gives the same polylines for every object cut at X, Y and Z', () => {
    const b = index.bounds();
    let objects = 0,
      closed = 0;
    for (const k of [0, 1, 2] as const) {
      for (const f of [0.31, 0.5, 0.77]) {
        const c = b[k] + (b[k + 3] - b[k]) * f + 13.7;
        for (const m of model.meshes) {
          const segs: number[] = [];
          if (sliceTriangles(m.positions, m.indices, 0, m.indices.length, k, c, segs) === 0) continue;
          const got = chainSegments(segs);
          expect(got).toEqual(referenceChain(segs));
          objects++;
          closed += got.filter((p) => p.closed).length;
        }
      }
    }
    expect(objects).toBeGreaterThan(100);
    expect(closed).toBeGreaterThan(50);
  });
  it('slices into the typed buffer exactly what the number[] kernel returns', () => {
    const m = model.meshes.reduce((a, x) => (x.indices.length > a.indices.length ? x : a));
    const b = index.bounds();
    const c = (b[1] + b[4]) / 2;
    const arr: number[] = [];
    const buf = segmentBuffer(1);
    sliceTriangles(m.positions, m.indices, 0, m.indices.length, 1, c, arr);
    sliceTrianglesInto(m.positions, m.indices, 0, m.indices.length, 1, c, buf);
    expect(Array.from(buf.data.subarray(0, buf.length))).toEqual(arr);
  });
  it('computes the same section through the index as through the linear scan', () => {
    const objects = model.objects;
    const b = index.bounds();
    for (const [axis, k] of [
      ['X', 0],
      ['Y', 1],
      ['Z', 2],
    ] as const) {
      const c = (b[k] + b[k + 3]) / 2 + 13.7;
      const fast = computeSection({ objects, index }, axis, c, { grid: false });
      expect(fast).toEqual(computeSection({ objects, index }, axis, c, { grid: false, linear: true }));
      expect(fast.steel.plates.intersected.length).toBeGreaterThan(0);
    }
  });
});
