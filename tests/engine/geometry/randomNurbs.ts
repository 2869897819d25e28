/**
 * Random inputs for the geometry kernels' identity tests, drawn from the fuzzers' seeded generator
 * (tests/fuzz/prng.ts) so that a failing case is reproduced from its seed.
 */
import { homogeneous, type NurbsSurface } from '../../../engine/geometry/nurbs';
import { rngOf } from '../../fuzz/prng';

/** Uniform numbers in [0, 1) for `seed`. */
export const uniform = (seed: number): (() => number) => rngOf(seed).next;

/** A clamped knot vector in [0, 1] of n control points, degree p, with random interior knots (some repeated). */
export function clampedKnots(n: number, p: number, r: () => number): Float64Array {
  const inner = Array.from({ length: n - p - 1 }, () => Math.round(r() * 8) / 8).sort((a, b) => a - b);
  return Float64Array.from([...Array(p + 1).fill(0), ...inner, ...Array(p + 1).fill(1)]);
}

/**
 * A random rational surface of degrees (pu, pv) with 1–5 control points more than the degree needs in each
 * direction, coordinates within ±5,000 mm and weights in [0.5, 1.5).
 */
export function randomSurface(pu: number, pv: number, r: () => number): NurbsSurface {
  const nU = pu + 1 + Math.floor(r() * 5),
    nV = pv + 1 + Math.floor(r() * 5);
  const xyz = Array.from({ length: 3 * nU * nV }, () => (r() - 0.5) * 1e4);
  const w = Array.from({ length: nU * nV }, () => 0.5 + r());
  return {
    degreeU: pu,
    degreeV: pv,
    knotsU: clampedKnots(nU, pu, r),
    knotsV: clampedKnots(nV, pv, r),
    nU,
    nV,
    pw: homogeneous(xyz, w),
  };
}
