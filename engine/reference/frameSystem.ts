/**
 * Frame (X), longitudinal (Y) and vertical (Z) reference systems (viewer.md §3 "Reference frame
 * systems", §7 Reference system) built from the model's reference planes (engine/model/types.ts
 * FrameTables, mm). Numbers map to coordinates piecewise linearly through the numbered planes: a
 * plane's own number gives its coordinate; a number between two numbered planes is interpolated; a
 * number outside them is extrapolated with the spacing of the two outermost planes at that end.
 * The inverse (coordinate → fractional number) uses the same pieces. All coordinates in mm.
 */
import type { FrameTables, RefPlane } from '../model/types';

/** Axis key of FrameTables. */
export type FrameAxisKey = 'x' | 'y' | 'z';

/** API names of the systems (viewer.md §7): FRAME (X), LONGITUDINAL (Y), VERTICAL (Z). */
export type FrameSystemType = 'FRAME' | 'LONGITUDINAL' | 'VERTICAL';

export const FRAME_SYSTEM_TYPES: readonly FrameSystemType[] = ['FRAME', 'LONGITUDINAL', 'VERTICAL'];

/** FRAME → 'x', LONGITUDINAL → 'y', VERTICAL → 'z'. */
export function axisOfType(type: FrameSystemType): FrameAxisKey {
  return type === 'FRAME' ? 'x' : type === 'LONGITUDINAL' ? 'y' : 'z';
}

/** 'x' → FRAME, 'y' → LONGITUDINAL, 'z' → VERTICAL. */
export function typeOfAxis(axis: FrameAxisKey): FrameSystemType {
  return axis === 'x' ? 'FRAME' : axis === 'y' ? 'LONGITUDINAL' : 'VERTICAL';
}

/** One system prepared for lookups: all planes by coordinate, numbered planes by number (unique). */
export interface FrameAxis {
  axis: FrameAxisKey;
  /** All planes sorted by coordinate. */
  planes: RefPlane[];
  /** Numbered planes sorted by number, one per number, coordinates strictly increasing with number. */
  numbered: { number: number; coordinate: number }[];
}

const cache = new WeakMap<RefPlane[], FrameAxis>();

/**
 * The prepared system of one axis (memoised per plane array). Planes whose number would make the
 * coordinate non-increasing in number are left out of the numbered pieces (they stay in `planes`).
 */
export function frameAxis(frames: FrameTables, axis: FrameAxisKey): FrameAxis {
  const src = frames[axis];
  const hit = cache.get(src);
  if (hit) return hit;
  const planes = [...src].sort((a, b) => a.coordinate - b.coordinate);
  const byNumber = planes
    .filter((p) => p.number !== null && Number.isFinite(p.number))
    .sort((a, b) => (a.number as number) - (b.number as number) || a.coordinate - b.coordinate);
  const numbered: FrameAxis['numbered'] = [];
  for (const p of byNumber) {
    const last = numbered[numbered.length - 1];
    if (last && (p.number === last.number || p.coordinate <= last.coordinate)) continue;
    numbered.push({ number: p.number as number, coordinate: p.coordinate });
  }
  const fa = { axis, planes, numbered };
  cache.set(src, fa);
  return fa;
}

/**
 * Coordinate (mm) of frame number `n` (fractional allowed), or null when the system cannot give one
 * (no numbered plane, or a single one that is not `n`).
 */
export function coordinateOfNumber(fa: FrameAxis, n: number): number | null {
  const s = fa.numbered;
  if (s.length === 0 || !Number.isFinite(n)) return null;
  if (s.length === 1) return s[0].number === n ? s[0].coordinate : null;
  let i = upperIndex(s.length, (k) => s[k].number > n);
  i = Math.min(Math.max(i, 1), s.length - 1);
  const a = s[i - 1],
    b = s[i];
  return a.coordinate + ((n - a.number) * (b.coordinate - a.coordinate)) / (b.number - a.number);
}

/** Fractional frame number at coordinate `c` (mm), or null when the system has fewer than two numbered planes. */
export function numberAtCoordinate(fa: FrameAxis, c: number): number | null {
  const s = fa.numbered;
  if (s.length < 2 || !Number.isFinite(c)) {
    if (s.length === 1 && s[0].coordinate === c) return s[0].number;
    return null;
  }
  let i = upperIndex(s.length, (k) => s[k].coordinate > c);
  i = Math.min(Math.max(i, 1), s.length - 1);
  const a = s[i - 1],
    b = s[i];
  return a.number + ((c - a.coordinate) * (b.number - a.number)) / (b.coordinate - a.coordinate);
}

/** The plane nearest to coordinate `c` (mm), or null when the system has none. */
export function nearestPlane(fa: FrameAxis, c: number): RefPlane | null {
  const p = fa.planes;
  if (p.length === 0) return null;
  const i = upperIndex(p.length, (k) => p[k].coordinate > c);
  if (i === 0) return p[0];
  if (i === p.length) return p[p.length - 1];
  return c - p[i - 1].coordinate <= p[i].coordinate - c ? p[i - 1] : p[i];
}

/** Maximum number of frames frameCoordinates answers (guards a huge range). */
export const MAX_FRAME_RANGE = 10000;

/**
 * Coordinates (mm) of the whole frame numbers from ceil(start) to floor(end) (start ≤ end, else they
 * are swapped), interpolated/extrapolated like coordinateOfNumber.
 * @throws Error 'Frame range too large: ...' above MAX_FRAME_RANGE frames, 'Frame system ... has no
 *   numbered planes' when coordinates cannot be computed.
 */
export function frameCoordinates(fa: FrameAxis, start: number, end: number): { number: number; coordinate: number }[] {
  if (!Number.isFinite(start) || !Number.isFinite(end))
    throw new Error('Frame range needs finite startFrame and endFrame');
  const lo = Math.ceil(Math.min(start, end)) || 0,
    hi = Math.floor(Math.max(start, end));
  if (hi - lo + 1 > MAX_FRAME_RANGE)
    throw new Error(`Frame range too large: ${hi - lo + 1} frames (at most ${MAX_FRAME_RANGE})`);
  const out: { number: number; coordinate: number }[] = [];
  for (let n = lo; n <= hi; n++) {
    const c = coordinateOfNumber(fa, n);
    if (c === null)
      throw new Error(`Frame system ${typeOfAxis(fa.axis)} has too few numbered planes to compute frame ${n}`);
    out.push({ number: n, coordinate: c });
  }
  return out;
}

/** Smallest k in [0, n] with pred(k) true (pred monotone false→true); n when none. */
function upperIndex(n: number, pred: (k: number) => boolean): number {
  let lo = 0,
    hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
