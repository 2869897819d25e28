/**
 * Contour chaining (OCX_GUIDE §4.2 loop builder): polyline segments, in any order and direction, into
 * closed loops. Polylines are plain number arrays of xyz triplets in the caller's unit (the importer: mm).
 */
import { dedupe, hypot3, polylineLength, reversePolyline } from './curves';
import { pointHash3 } from './pointHash';
import { dropRepeatedSegments } from './repeatedSegments';
import { type EndChoice, type EndQuery, SegmentEnds, scanEnds } from './segmentEnds';

/** Segments past which the nearest end is found through a grid (fewer are scanned). */
export const CHAIN_GRID_SEGMENTS = 32;

const dist3 = (p: ArrayLike<number>, i: number, q: ArrayLike<number>, j: number) =>
  hypot3(p[i] - q[j], p[i + 1] - q[j + 1], p[i + 2] - q[j + 2]);

/** Result of chaining contour segments into loops. */
export interface ChainResult {
  /** Closed loops, xyz triplets, without the repeated closing point. */
  loops: number[][];
  /** Open chains that could not be closed within gapTol (closed with a straight line, §4.2 step 4). */
  gapsClosed: number;
  /** Segments left out as exact repeats of an earlier one (same points, same direction; repeatedSegments.ts). */
  repeats: number;
}

/** Files end code `code` of polyline s (its point at offset o) under the point's hash in `ends`. */
function addEnd(ends: Map<number, number[]>, s: number[], o: number, code: number): void {
  const k = pointHash3(s, o);
  const l = ends.get(k);
  if (l) l.push(code);
  else ends.set(k, [code]);
}

/**
 * Chains polyline segments into closed loops (OCX_GUIDE §4.2): drops segments shorter than eps (keeping
 * closed ones), greedily appends the nearest segment (reversed if needed) while the gap is < gapTol,
 * and closes each loop once its start is nearer than any unused segment. Order and direction of the
 * input do not matter; a segment repeating an earlier one point for point is left out (counted in `repeats`).
 * The nearest segment end is the least in (distance, segment, its start before its end), found through a
 * grid of the ends past `gridAbove` segments (default CHAIN_GRID_SEGMENTS; Infinity scans every segment at
 * every step, the reference the tests compare with): the same loops either way, in time about linear in
 * the segments instead of quadratic when a contour's pieces do not meet exactly.
 */
export function chainLoops(
  segments: number[][],
  eps: number,
  gapTol: number,
  gridAbove = CHAIN_GRID_SEGMENTS,
): ChainResult {
  const { segments: segs, repeats } = dropRepeatedSegments(
    segments.filter((s) => s.length >= 6 && (polylineLength(s) >= eps || s.length > 6)),
  );
  const used = new Uint8Array(segs.length);
  // Built at the first step whose continuation is not exact (most contours have none); null when there
  // are few segments, or a coordinate is non-finite or huge: then every such step scans.
  let grid: SegmentEnds | null | undefined = segs.length > gridAbove ? undefined : null;
  const take = (k: number) => {
    if (grid) grid.take(k);
    else used[k] = 1;
  };
  const choice: EndChoice = { d: Infinity, k: -1, c: 0 };
  const atEnd: EndQuery = { x: 0, y: 0, z: 0, cStart: 0, cEnd: 1 };
  const queries = [atEnd];
  const loops: number[][] = [];
  let gapsClosed = 0;
  // each segment's start (code 2i) and end (2i + 1) by the hash of their exact coordinates, codes ascending
  const ends = new Map<number, number[]>();
  for (let i = 0; i < segs.length; i++) {
    addEnd(ends, segs[i], 0, 2 * i);
    addEnd(ends, segs[i], segs[i].length - 3, 2 * i + 1);
  }
  for (let start = 0; start < segs.length; start++) {
    if (used[start]) continue;
    take(start);
    const loop = segs[start].slice();
    for (;;) {
      // the loop closes when its start is within gapTol and no unused segment continues it more closely
      // (a slit narrower than gapTol: the contour runs on past its start)
      const closing = loop.length > 6 ? dist3(loop, loop.length - 3, loop, 0) : Infinity;
      if (closing === 0) break;
      let best = -1,
        bestD = Infinity,
        bestRev = false;
      const e = loop.length - 3;
      // an unused segment ending exactly at the loop's end is what the search below would find (the first
      // one, its start before its end): looked up instead of searched for
      const finite = Number.isFinite(loop[e]) && Number.isFinite(loop[e + 1]) && Number.isFinite(loop[e + 2]);
      const exact = finite ? ends.get(pointHash3(loop, e)) : undefined; // (NaN or ∞ is at no distance 0)
      if (exact)
        for (const code of exact)
          if (!used[code >> 1] && endIs(segs[code >> 1], code, loop, e)) {
            best = code >> 1;
            bestD = 0;
            bestRev = (code & 1) === 1;
            break;
          }
      if (bestD > 0) {
        choice.d = Infinity;
        choice.k = -1;
        choice.c = 0;
        atEnd.x = loop[e];
        atEnd.y = loop[e + 1];
        atEnd.z = loop[e + 2];
        if (grid === undefined) grid = SegmentEnds.of(segs, used);
        if (grid) grid.nearest(queries, choice);
        else scanEnds(segs, used, atEnd.x, atEnd.y, atEnd.z, 0, 1, choice);
        best = choice.k;
        bestD = choice.d;
        bestRev = choice.c === 1;
      }
      if (closing <= gapTol && !(bestD < closing)) break;
      if (best < 0 || bestD > gapTol) {
        if (closing > gapTol) gapsClosed++;
        break;
      }
      take(best);
      const s = segs[best];
      const pts = bestRev ? reversePolyline(s) : s;
      for (let i = 3; i < pts.length; i++) loop.push(pts[i]);
    }
    // drop the closing duplicate and consecutive duplicates
    const clean = dedupe(loop, eps * 0.01);
    if (clean.length >= 9 && dist3(clean, clean.length - 3, clean, 0) <= gapTol) clean.length -= 3;
    if (clean.length >= 9) loops.push(clean);
  }
  return { loops, gapsClosed, repeats };
}

/** Whether end `code` (start when even, end when odd) of polyline s is point p[o..o+2] exactly (−0 as 0). */
function endIs(s: number[], code: number, p: number[], o: number): boolean {
  const i = code & 1 ? s.length - 3 : 0;
  return s[i] === p[o] && s[i + 1] === p[o + 1] && s[i + 2] === p[o + 2];
}
