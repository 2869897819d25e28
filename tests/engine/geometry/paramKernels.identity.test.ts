/**
 * The faster kernels of the parameter-space meshing give what the straightforward versions give, and
 * the coarser meshing keeps its tolerance —
 * - evalSurfaceGrid equals evalSurface bit for bit at every grid point (rational, any degree);
 * - weld maps every vertex where the scan of its 27 neighbouring cells in order finds it (a reference
 *   with string keys, as the kernel was written before);
 * - boundaryRings gives the rings, starts and order of the reference with Map successor lists;
 * - chainLoops' exact-continuation lookup gives the loops of a scan over every segment;
 * - simpleRing: counter-clockwise, no repeated or collinear points, null for a ring crossing itself;
 * - paramSheet on a cylinder band (cells stretched along the rulings) and on a twisted surface (not
 *   stretched): every triangle's centroid and edge midpoints within the chordal tolerance of the surface, the area within
 *   the chordal error of the exact one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simpleRing } from '../../../engine/geometry/cellClip';
import { chainLoops } from '../../../engine/geometry/chainLoops';
import { dedupe, polylineLength, reversePolyline } from '../../../engine/geometry/curves';
import { meshArea } from '../../../engine/geometry/meshMeasure';
import { evalSurface, evalSurfaceGrid } from '../../../engine/geometry/nurbs';
import { paramSheet, type ParamSurface } from '../../../engine/geometry/paramSheet';
import { signedArea2d } from '../../../engine/geometry/ring2d';
import { boundaryRings, weld } from '../../../engine/geometry/surfaceMesh';
import { randomSurface, uniform } from './randomNurbs';

describe('evalSurfaceGrid', () => {
  it('equals evalSurface at every point of the grid', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (pu, pv, seed) => {
        const r = uniform(seed);
        const s = randomSurface(pu, pv, r);
        const us = Float64Array.from({ length: 9 }, (_, i) => i / 8);
        const vs = Float64Array.from({ length: 7 }, (_, j) => (j === 3 ? 0.5 : r()));
        const grid = new Float64Array(3 * us.length * vs.length);
        evalSurfaceGrid(s, us, vs, grid);
        const q = new Float64Array(3);
        for (let i = 0; i < us.length; i++)
          for (let j = 0; j < vs.length; j++) {
            evalSurface(s, us[i], vs[j], q);
            const o = 3 * (i * vs.length + j);
            expect([grid[o], grid[o + 1], grid[o + 2]]).toEqual([q[0], q[1], q[2]]);
          }
      }),
      { numRuns: 200 },
    );
  });
});

/** weld as a scan of the 27 neighbouring cells (string keys), the first vertex within tol in order. */
function referenceWeld(P: number[], tol: number): number[] {
  const cells = new Map<string, number[]>();
  const kept: number[] = [];
  const remap: number[] = [];
  for (let i = 0; i < P.length / 3; i++) {
    const [x, y, z] = [P[3 * i], P[3 * i + 1], P[3 * i + 2]];
    const c = [x, y, z].map((v) => Math.floor(v / tol));
    let k: number | undefined;
    for (let dx = -1; dx <= 1 && k === undefined; dx++)
      for (let dy = -1; dy <= 1 && k === undefined; dy++)
        for (let dz = -1; dz <= 1 && k === undefined; dz++)
          for (const v of cells.get(`${c[0] + dx},${c[1] + dy},${c[2] + dz}`) ?? [])
            if (Math.hypot(kept[3 * v] - x, kept[3 * v + 1] - y, kept[3 * v + 2] - z) <= tol) {
              k = v;
              break;
            }
    if (k === undefined) {
      k = kept.length / 3;
      kept.push(x, y, z);
      const key = c.join(',');
      cells.set(key, [...(cells.get(key) ?? []), k]);
    }
    remap.push(k);
  }
  return remap;
}

describe('weld', () => {
  it('maps every vertex as the scan of neighbouring cells does (near-duplicates across cell borders)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0.01, 1e-4, 0.5), (seed, tol) => {
        const r = uniform(seed);
        const P: number[] = [];
        for (let i = 0; i < 300; i++) {
          if (i > 0 && r() < 0.5) {
            const j = Math.floor(r() * i); // a near-duplicate of an earlier point
            for (let k = 0; k < 3; k++) P.push(P[3 * j + k] + (r() - 0.5) * 2.5 * tol);
          } else for (let k = 0; k < 3; k++) P.push((r() - 0.5) * 40 * tol);
        }
        const remap: number[] = [];
        const w = weld({ positions: P, indices: [] }, tol, remap);
        expect(remap).toEqual(referenceWeld(P, tol));
        expect(w.positions.length / 3).toBe(Math.max(-1, ...remap) + 1);
      }),
      { numRuns: 100 },
    );
  });
});

/** boundaryRings with Map successor lists (the kernel before its typed arrays). */
function referenceRings(indices: number[]): number[][] {
  const count = new Map<string, number>();
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  for (let t = 0; t < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const e = key(indices[t + k], indices[t + ((k + 1) % 3)]);
      count.set(e, (count.get(e) ?? 0) + 1);
    }
  const next = new Map<number, number[]>();
  for (let t = 0; t < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k],
        b = indices[t + ((k + 1) % 3)];
      if (count.get(key(a, b)) === 1) next.set(a, [...(next.get(a) ?? []), b]);
    }
  const rings: number[][] = [];
  for (const start of next.keys()) {
    if (!next.get(start)?.length) continue;
    const ring = [start];
    let cur = start;
    for (;;) {
      const nl = next.get(cur);
      if (!nl?.length) break;
      const nx = nl.pop()!;
      if (nx === start) break;
      ring.push(nx);
      cur = nx;
    }
    if (ring.length >= 3) rings.push(ring);
  }
  return rings;
}

describe('boundaryRings', () => {
  it('gives the reference rings of grids with cells taken out (holes, pinches, several pieces)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = uniform(seed);
        const n = 2 + Math.floor(r() * 7);
        const I: number[] = [];
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            if (r() < 0.25) continue;
            const a = i * (n + 1) + j,
              b = a + n + 1;
            I.push(a, b, b + 1, a, b + 1, a + 1);
          }
        expect(boundaryRings(I)).toEqual(referenceRings(I));
      }),
      { numRuns: 300 },
    );
  });
});

/** chainLoops as a scan over every unused segment for each step (the kernel before its lookup). */
function referenceChain(segments: number[][], eps: number, gapTol: number): number[][] {
  const d3 = (p: number[], i: number, q: number[], j: number) =>
    Math.hypot(p[i] - q[j], p[i + 1] - q[j + 1], p[i + 2] - q[j + 2]);
  const segs = segments.filter((s) => s.length >= 6 && (polylineLength(s) >= eps || s.length > 6));
  const used = new Uint8Array(segs.length);
  const loops: number[][] = [];
  for (let start = 0; start < segs.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const loop = segs[start].slice();
    for (;;) {
      const closing = loop.length > 6 ? d3(loop, loop.length - 3, loop, 0) : Infinity;
      if (closing === 0) break;
      let best = -1,
        bestD = Infinity,
        bestRev = false;
      const e = loop.length - 3;
      segs.forEach((s, i) => {
        if (used[i]) return;
        const d0 = d3(loop, e, s, 0),
          d1 = d3(loop, e, s, s.length - 3);
        if (d0 < bestD) [bestD, best, bestRev] = [d0, i, false];
        if (d1 < bestD) [bestD, best, bestRev] = [d1, i, true];
      });
      if (closing <= gapTol && !(bestD < closing)) break;
      if (best < 0 || bestD > gapTol) break;
      used[best] = 1;
      const pts = bestRev ? reversePolyline(segs[best]) : segs[best];
      for (let i = 3; i < pts.length; i++) loop.push(pts[i]);
    }
    const clean = dedupe(loop, eps * 0.01);
    if (clean.length >= 9 && d3(clean, clean.length - 3, clean, 0) <= gapTol) clean.length -= 3;
    if (clean.length >= 9) loops.push(clean);
  }
  return loops;
}

describe('chainLoops', () => {
  it('gives the loops of the scan: shuffled, reversed segments, exact joints, gaps and slits', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = uniform(seed);
        const segs: number[][] = [];
        for (let k = 0; k < 3; k++) {
          // a polygon of 3–9 corners cut into segments; some joints open by up to 1.5 mm
          const n = 3 + Math.floor(r() * 7),
            c = [1000 * k + 200 * r(), 200 * r(), 0];
          const pts = Array.from({ length: n }, (_, i) => [
            c[0] + 100 * Math.cos((2 * Math.PI * i) / n),
            c[1] + 100 * Math.sin((2 * Math.PI * i) / n),
            r() < 0.2 ? 0.5 : 0,
          ]);
          for (let i = 0; i < n; i++) {
            const a = pts[i],
              b = pts[(i + 1) % n].slice();
            if (r() < 0.2) b[0] += 1.5 * r();
            segs.push(r() < 0.3 ? [...b, ...a] : [...a, ...b]);
          }
        }
        for (let i = segs.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          [segs[i], segs[j]] = [segs[j], segs[i]];
        }
        expect(chainLoops(segs, 0.01, 1).loops).toEqual(referenceChain(segs, 0.01, 1));
      }),
      { numRuns: 300 },
    );
  });
});

describe('simpleRing', () => {
  it('orients counter-clockwise and drops repeated and collinear points; null when the ring crosses itself', () => {
    const cw = [0, 0, 0, 5, 0, 10, 0, 10, 10, 10, 10, 0, 10, 0]; // clockwise, a collinear and a repeated point
    const r = simpleRing(cw)!;
    expect(r).not.toBeNull();
    expect(signedArea2d(r)).toBeCloseTo(100, 9);
    expect(r.length / 2).toBe(4);
    expect([r[0], r[1]]).toEqual([0, 0]);
    expect(simpleRing([0, 0, 10, 10, 10, 0, 0, 10])).toBeNull(); // a bow tie
  });
});

/** A cylinder of radius R (mm) around z, u the angle, v the height. */
const cylinder = (R: number, H: number): ParamSurface => ({
  u0: 0,
  u1: 2 * Math.PI,
  v0: 0,
  v1: H,
  eval: (u, v, out) => {
    out[0] = R * Math.cos(u);
    out[1] = R * Math.sin(u);
    out[2] = v;
  },
});

/** Largest distance (mm) from the surface of a triangle's centroid and edge midpoints (dist: a point's distance). */
function worstChord(pos: Float64Array, idx: Uint32Array, dist: (x: number, y: number, z: number) => number): number {
  let worst = 0;
  for (let t = 0; t < idx.length; t += 3)
    for (const w of [
      [1 / 3, 1 / 3, 1 / 3],
      [0.5, 0.5, 0],
      [0, 0.5, 0.5],
      [0.5, 0, 0.5],
    ]) {
      const p = [0, 1, 2].map(
        (c) => w[0] * pos[3 * idx[t] + c] + w[1] * pos[3 * idx[t + 1] + c] + w[2] * pos[3 * idx[t + 2] + c],
      );
      worst = Math.max(worst, dist(p[0], p[1], p[2]));
    }
  return worst;
}

describe('paramSheet with cells stretched along straight directions', () => {
  it('a band on a cylinder: chordal error and area within the tolerance', () => {
    const R = 1000,
      L = 600;
    const circle = (z: number) => {
      const l: number[] = [];
      for (let i = 0; i < 180; i++)
        l.push(R * Math.cos((2 * Math.PI * i) / 180), R * Math.sin((2 * Math.PI * i) / 180), z);
      return l;
    };
    const r = paramSheet(cylinder(R, 2000), [circle(100), circle(100 + L)], [], 1, 2)!;
    expect(r).not.toBeNull();
    const { positions, indices } = r.sheet;
    const err = worstChord(positions, indices, (x, y) => Math.abs(Math.hypot(x, y) - R));
    expect(err).toBeLessThanOrEqual(1.1); // the chordal tolerance, the curvature being measured between samples
    // the 180-gon edges bound the band (their chords cut 2πR by 0.02 %)
    const exact = 180 * 2 * R * Math.sin(Math.PI / 180) * L;
    expect(Math.abs(meshArea(positions, indices).area - exact) / exact).toBeLessThan(1e-3);
  });

  it('a twisted surface (straight along u and v, bent along its diagonals): cells not stretched', () => {
    const c = 5e-5; // z = c·x·y (mm): 0.6 mm off the chords of square cells, 1.3 mm if stretched 2:1
    const s: ParamSurface = {
      u0: -1000,
      u1: 1000,
      v0: -1000,
      v1: 1000,
      eval: (u, v, out) => {
        out[0] = u;
        out[1] = v;
        out[2] = c * u * v;
      },
    };
    const sq = [-900, -900, c * 810000, 900, -900, -c * 810000, 900, 900, c * 810000, -900, 900, -c * 810000];
    const r = paramSheet(s, [sq], [], 1, 2)!;
    expect(r).not.toBeNull();
    const { positions, indices } = r.sheet;
    expect(
      worstChord(positions, indices, (x, y, z) => Math.abs(z - c * x * y) / Math.hypot(1, c * y, c * x)),
    ).toBeLessThanOrEqual(1.1); // the chordal tolerance, the curvature being measured between samples
  });
});
