/**
 * The fuzzers' seeded pseudo-random numbers (mulberry32): one seed gives one case, on any machine, so a
 * failing case is reproduced from the seed printed with it.
 */

/** A seeded source of random choices. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** A whole number in [0, n). */
  int(n: number): number;
  /** A whole number in [lo, hi] (both included). */
  range(lo: number, hi: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** A generator for `seed` (any 32-bit integer; other numbers are truncated). */
export function rngOf(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    range: (lo, hi) => lo + int(hi - lo + 1),
    pick: (list) => list[int(list.length)],
    chance: (p) => next() < p,
  };
}
