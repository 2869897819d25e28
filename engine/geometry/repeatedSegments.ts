/**
 * Exact repeats among contour segments. A contour never runs along the same edge twice in the same
 * direction, so a repeat is a copy (of an exporter or of a damaged file). Chained, n copies of an edge
 * make the loop zigzag along it n times: a ring of n coincident edges, on which the polygon boolean
 * and the chaining's exact-end lookup both take time quadratic in n. A segment and its reverse (the two
 * sides of a slit) are different edges and both kept.
 */

import { pointHash3n } from './pointHash';

/** The segments without the repeats, and how many were left out. */
export interface WithoutRepeats {
  /** The segments in their order, each exact repeat of an earlier one left out (the array given when none is). */
  segments: number[][];
  /** How many segments were left out. */
  repeats: number;
}

/**
 * Leaves out every segment equal point for point, in the same order, to an earlier one (polylines of
 * xyz triplets, any unit; compared with ===, so a segment holding NaN is never a repeat). Linear in the
 * points given, apart from segments sharing a start point, which are compared with each other.
 */
export function dropRepeatedSegments(segments: number[][]): WithoutRepeats {
  // by the hash of the start point and the length; samePoints tells the segments that share one apart
  const byStart = new Map<number, number[][]>();
  let kept: number[][] | null = null;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    const key = pointHash3n(s, 0, s.length);
    const same = byStart.get(key);
    if (same?.some((t) => samePoints(s, t))) {
      kept ??= segments.slice(0, i);
      continue;
    }
    if (same) same.push(s);
    else byStart.set(key, [s]);
    kept?.push(s);
  }
  return kept ? { segments: kept, repeats: segments.length - kept.length } : { segments, repeats: 0 };
}

/** True when a and b hold the same numbers in the same order. */
function samePoints(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
