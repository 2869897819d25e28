/**
 * Closest-point inversion (engine/geometry/surfaceSamples.ts `invert`) of points beyond a surface's
 * edge: the answer is the closest point of the edge, also on a patch whose u and v directions are
 * skewed (where the unconstrained step's v part is not the edge's closest point, and a step clamped to
 * the edge can fail to improve and stop short).
 */
import { describe, expect, it } from 'vitest';
import { homogeneous } from '../../../engine/geometry/nurbs';
import { NurbsParamSurface } from '../../../engine/geometry/paramSurfaces';
import { invert, sampled } from '../../../engine/geometry/surfaceSamples';
import { uniform } from './randomNurbs';

/** S(u, v) = u·e1 + v·e2 on [0, 1]² (mm), a flat patch with e1 = (1000, 0, 0), e2 at `deg` degrees to it. */
function skewedPatch(deg: number, len2 = 1000): { s: NurbsParamSurface; e1: number[]; e2: number[] } {
  const e1 = [1000, 0, 0],
    e2 = [len2 * Math.cos((deg * Math.PI) / 180), len2 * Math.sin((deg * Math.PI) / 180), 0];
  // control points (i, j) at i·e1 + j·e2, U-major
  const xyz: number[] = [];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) for (let k = 0; k < 3; k++) xyz.push(i * e1[k] + j * e2[k]);
  const knots = Float64Array.from([0, 0, 1, 1]);
  const s = new NurbsParamSurface({
    degreeU: 1,
    degreeV: 1,
    knotsU: knots,
    knotsV: knots,
    nU: 2,
    nV: 2,
    pw: homogeneous(xyz),
  });
  return { s, e1, e2 };
}

/** Distance from p to the segment from a to a + e (mm), and the fraction along it of the closest point. */
function toSegment(p: number[], a: number[], e: number[]): [number, number] {
  const w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const t = Math.max(0, Math.min(1, (w[0] * e[0] + w[1] * e[1] + w[2] * e[2]) / (e[0] ** 2 + e[1] ** 2 + e[2] ** 2)));
  return [Math.hypot(w[0] - t * e[0], w[1] - t * e[1], w[2] - t * e[2]), t];
}

describe('invert beyond the edge of a patch', () => {
  it('finds the closest point of the edge u = 1 on skewed patches', () => {
    const r = uniform(11);
    for (const deg of [90, 60, 37, 20]) {
      const { s, e1, e2 } = skewedPatch(deg);
      const g = sampled(s);
      for (let n = 0; n < 40; n++) {
        // beyond the edge u = 1, within its length along e2, lifted off the plane
        const a = 1.05 + r() * 0.5,
          b = 0.1 + r() * 0.8,
          h = (r() - 0.5) * 40;
        const p = [a * e1[0] + b * e2[0], a * e1[1] + b * e2[1], h];
        const uv = new Float64Array(2);
        const d = invert(g, p, uv, false);
        const [want, t] = toSegment(p, e1, e2);
        expect(uv[0]).toBe(1);
        expect(Math.abs(uv[1] - t)).toBeLessThan(1e-6);
        expect(Math.abs(d - want)).toBeLessThan(1e-6);
      }
    }
  });

  it('stops at the corner when both parameters point out of the domain', () => {
    const { s } = skewedPatch(60);
    const uv = new Float64Array(2);
    const d = invert(sampled(s), [1500, -400, 30], uv, false);
    expect([uv[0], uv[1]]).toEqual([1, 0]);
    expect(d).toBeCloseTo(Math.hypot(500, 400, 30), 6);
  });
});
