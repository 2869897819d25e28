/**
 * evalSurface looks up the span and basis functions of a parameter it was given in one of its last two
 * calls instead of finding them again: the points must stay what a fresh evaluation gives, bit for bit
 * (evalSurfaceGrid of the single point, which finds every span and basis anew and sums in evalSurface's
 * order), whatever the sequence of surfaces and parameters — repeats in u only, in v only, both, two
 * surfaces taking turns, −0 against 0, parameters on knots and at the domain's ends. The same for
 * evalSurfaceDerivs' memo of the functions and their derivatives, against the evaluation of a copy of the
 * surface (a new owner: nothing looked up).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evalSurface, evalSurfaceDerivs, evalSurfaceGrid, type NurbsSurface } from '../../../engine/geometry/nurbs';
import { randomSurface, uniform } from './randomNurbs';

/** A fresh evaluation: evalSurfaceGrid on the 1 × 1 grid (u, v). */
function fresh(s: NurbsSurface, u: number, v: number): number[] {
  const out = new Float64Array(3);
  evalSurfaceGrid(s, [u], [v], out);
  return [...out];
}

describe('evalSurface with its basis memo', () => {
  it('gives a fresh evaluation’s point for any sequence of calls', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer(),
        fc.array(fc.tuple(fc.nat(2), fc.nat(7), fc.nat(7)), { minLength: 1, maxLength: 60 }),
        (pu, pv, seed, calls) => {
          const r = uniform(seed);
          const surfaces = [randomSurface(pu, pv, r), randomSurface(Math.max(1, pv - 1), pu, r), null];
          surfaces[2] = surfaces[0];
          // a small pool of parameters so that they repeat: ends, a knot, −0, a point and a step h beyond it
          const pool = (s: NurbsSurface, dir: 'u' | 'v'): number[] => {
            const U = dir === 'u' ? s.knotsU : s.knotsV,
              p = dir === 'u' ? s.degreeU : s.degreeV,
              n = dir === 'u' ? s.nU : s.nV;
            const a = U[p],
              b = U[n],
              t = a + (b - a) * r();
            return [a, b, U[Math.min(n, p + 1)], -0, 0, t, t + 1e-6 * (b - a), a + (b - a) * r()].map((x) =>
              Object.is(x, -0) ? x : Math.min(b, Math.max(a, x)),
            );
          };
          const pools = surfaces.map((s) => (s ? { u: pool(s, 'u'), v: pool(s, 'v') } : null));
          const q = new Float64Array(3);
          for (const [which, i, j] of calls) {
            const s = surfaces[which] as NurbsSurface,
              P = pools[which] as { u: number[]; v: number[] };
            evalSurface(s, P.u[i], P.v[j], q);
            const want = fresh(s, P.u[i], P.v[j]);
            for (let k = 0; k < 3; k++) expect(Object.is(q[k], want[k])).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the finite-difference pattern of point inversion exact', () => {
    const r = uniform(7);
    const s = randomSurface(5, 1, r);
    const q = new Float64Array(3);
    const [u0, u1] = [s.knotsU[5], s.knotsU[s.nU]];
    const h = 1e-6 * (u1 - u0);
    for (let k = 0; k < 200; k++) {
      const u = u0 + (u1 - u0 - h) * r(),
        v = r() * (1 - 1e-6);
      for (const [a, b] of [
        [u, v],
        [u + h, v],
        [u, v + 1e-6],
      ]) {
        evalSurface(s, a, b, q);
        expect([...q]).toEqual(fresh(s, a, b));
      }
    }
  });
});

describe('evalSurfaceDerivs with its basis memo', () => {
  it('gives a fresh evaluation’s point and derivatives for any sequence of calls', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer(),
        fc.array(fc.tuple(fc.nat(2), fc.nat(5), fc.nat(5)), { minLength: 1, maxLength: 60 }),
        (pu, pv, seed, calls) => {
          const r = uniform(seed);
          const a = randomSurface(pu, pv, r),
            b = randomSurface(Math.max(1, pv - 1), pu, r);
          const surfaces = [a, b, a];
          // a few parameters per direction so that they repeat: ends, a knot, −0 and two inside
          const pool = (s: NurbsSurface, dir: 'u' | 'v'): number[] => {
            const U = dir === 'u' ? s.knotsU : s.knotsV,
              p = dir === 'u' ? s.degreeU : s.degreeV,
              n = dir === 'u' ? s.nU : s.nV;
            const lo = U[p],
              hi = U[n];
            return [lo, hi, U[Math.min(n, p + 1)], lo === 0 ? -0 : lo, lo + (hi - lo) * r(), lo + (hi - lo) * r()];
          };
          const pools = surfaces.map((s) => ({ u: pool(s, 'u'), v: pool(s, 'v') }));
          const got = calls.map(([which, i, j]) => {
            const out = new Float64Array(9);
            evalSurfaceDerivs(surfaces[which], pools[which].u[i], pools[which].v[j], out);
            return out;
          });
          // each again on a copy of its surface: a new owner, so spans and functions found afresh
          calls.forEach(([which, i, j], k) => {
            const want = new Float64Array(9);
            evalSurfaceDerivs({ ...surfaces[which] }, pools[which].u[i], pools[which].v[j], want);
            for (let c = 0; c < 9; c++) expect(Object.is(got[k][c], want[c])).toBe(true);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
