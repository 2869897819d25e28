/**
 * Random inputs for the geometry kernels' identity tests, drawn from the fuzzers' seeded generator
 * (tests/fuzz/prng.ts) so that a failing case is reproduced from its seed.
 */
import { rngOf } from '../../fuzz/prng';

/** Uniform numbers in [0, 1) for `seed`. */
export const uniform = (seed: number): (() => number) => rngOf(seed).next;

/** A clamped knot vector in [0, 1] of n control points, degree p, with random interior knots (some repeated). */
export function clampedKnots(n: number, p: number, r: () => number): Float64Array {
  const inner = Array.from({ length: n - p - 1 }, () => Math.round(r() * 8) / 8).sort((a, b) => a - b);
  return Float64Array.from([...Array(p + 1).fill(0), ...inner, ...Array(p + 1).fill(1)]);
}
