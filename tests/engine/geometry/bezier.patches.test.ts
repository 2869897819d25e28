/**
 * The Bézier form of NURBS surfaces and curve spans (engine/geometry/bezier.ts) gives the points of the
 * B-spline evaluation to round-off:
 * - surface points as evalSurface gives them, on random rational surfaces of degrees 1–5 with repeated
 *   knots, and on unclamped (unwrapped periodic) knot vectors, at the knots and between them;
 * - first derivatives as evalSurfaceDerivs gives them between the knots;
 * - the grid evaluator equals the point evaluator bit for bit;
 * - a curve span's points as evalCurve gives them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bezierPatches,
  CurveSpan,
  evalPatches,
  evalPatchesDerivs,
  evalPatchesGrid,
} from '../../../engine/geometry/bezier';
import {
  evalCurve,
  evalSurface,
  evalSurfaceDerivs,
  homogeneous,
  type NurbsCurve,
  type NurbsSurface,
} from '../../../engine/geometry/nurbs';
import { clampedKnots, randomSurface, uniform } from './randomNurbs';

/** Parameters of a direction to test: its knots inside the domain and random values between them. */
function params(U: Float64Array, n: number, p: number, r: () => number): number[] {
  const lo = U[p],
    hi = U[n];
  const out = [lo, hi, ...Array.from(U).filter((k) => k > lo && k < hi)];
  for (let i = 0; i < 12; i++) out.push(lo + r() * (hi - lo));
  return out;
}

/** A surface whose knot vectors are uniform and unclamped (as unwrapPeriodicKnots makes them). */
function unclampedSurface(pu: number, pv: number, r: () => number): NurbsSurface {
  const s = randomSurface(pu, pv, r);
  const uniformKnots = (n: number, p: number) => Float64Array.from({ length: n + p + 1 }, (_, i) => 0.5 * i);
  return { ...s, knotsU: uniformKnots(s.nU, pu), knotsV: uniformKnots(s.nV, pv) };
}

/** Largest coordinate difference of points a and b over their size (1 mm at least). */
const rel = (a: ArrayLike<number>, b: ArrayLike<number>, from: number, to: number): number => {
  let d = 0;
  for (let k = from; k < to; k++) d = Math.max(d, Math.abs(a[k] - b[k]) / Math.max(1, Math.abs(b[k])));
  return d;
};

describe('Bézier patches of a NURBS surface', () => {
  it('give the B-spline points, also at repeated and unclamped knots', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer(),
        fc.boolean(),
        (pu, pv, seed, unclamped) => {
          const r = uniform(seed);
          const s = unclamped ? unclampedSurface(pu, pv, r) : randomSurface(pu, pv, r);
          const z = bezierPatches(s);
          const got = new Float64Array(3),
            want = new Float64Array(3);
          for (const u of params(s.knotsU, s.nU, pu, r))
            for (const v of params(s.knotsV, s.nV, pv, r)) {
              evalSurface(s, u, v, want);
              // a first or last knot repeated more than p + 1 times: the B-spline basis divides by zero
              if (!want.every(Number.isFinite)) continue;
              evalPatches(z, u, v, got);
              expect(rel(got, want, 0, 3)).toBeLessThan(1e-9);
            }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('give the B-spline derivatives between the knots', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer(), (pu, pv, seed) => {
        const r = uniform(seed);
        const s = randomSurface(pu, pv, r);
        const z = bezierPatches(s);
        const got = new Float64Array(9),
          want = new Float64Array(9);
        const knots = new Set([...s.knotsU, ...s.knotsV]);
        for (let i = 0; i < 40; i++) {
          const u = s.knotsU[pu] + r() * (s.knotsU[s.nU] - s.knotsU[pu]),
            v = s.knotsV[pv] + r() * (s.knotsV[s.nV] - s.knotsV[pv]);
          if (knots.has(u) || knots.has(v)) continue;
          evalSurfaceDerivs(s, u, v, want);
          evalPatchesDerivs(z, u, v, got);
          expect(rel(got, want, 0, 3)).toBeLessThan(1e-9);
          // derivatives of a patch that spans 1/8 of the domain reach 1e7 mm per unit: relative
          expect(rel(got, want, 3, 9)).toBeLessThan(1e-7);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('evaluate a grid exactly as point by point', () => {
    const r = uniform(7);
    for (const [pu, pv] of [
      [5, 1],
      [3, 3],
      [2, 4],
    ]) {
      const s = randomSurface(pu, pv, r);
      const z = bezierPatches(s);
      const us = params(s.knotsU, s.nU, pu, r),
        vs = params(s.knotsV, s.nV, pv, r);
      const grid = new Float64Array(3 * us.length * vs.length);
      evalPatchesGrid(z, us, vs, grid);
      const q = new Float64Array(3);
      for (let i = 0; i < us.length; i++)
        for (let j = 0; j < vs.length; j++) {
          evalPatches(z, us[i], vs[j], q);
          const o = 3 * (i * vs.length + j);
          expect([grid[o], grid[o + 1], grid[o + 2]]).toEqual([q[0], q[1], q[2]]);
        }
    }
  });
});

describe('a NURBS curve span in Bézier form', () => {
  it('gives the B-spline points of the span', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer(), (p, seed) => {
        const r = uniform(seed);
        const n = p + 1 + Math.floor(r() * 6);
        const c: NurbsCurve = {
          degree: p,
          knots: clampedKnots(n, p, r).map((k) => k * 40),
          pw: homogeneous(
            Array.from({ length: 3 * n }, () => (r() - 0.5) * 4000),
            Array.from({ length: n }, () => 0.5 + r()),
          ),
        };
        const span = new CurveSpan();
        const got = new Float64Array(3),
          want = [0, 0, 0];
        for (let k = p; k < n; k++) {
          const a = c.knots[k],
            b = c.knots[k + 1];
          if (!(b > a)) continue;
          span.set(c.knots, p, k, c.pw);
          for (let i = 0; i < 8; i++) {
            const t = a + (i === 0 ? 0 : r()) * (b - a);
            evalCurve(c, t, want);
            if (!want.every(Number.isFinite)) continue;
            span.at(t, got);
            expect(rel(got, want, 0, 3)).toBeLessThan(1e-9);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
