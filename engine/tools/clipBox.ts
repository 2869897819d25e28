/**
 * Clipping-box rules (viewer.md §2 "Clipping controls", §4 "Clipping", §9 "Clipping"):
 * the default box is the model bounds expanded by a 100 mm margin, or the fallback box x −50000..200000,
 * y and z −50000..50000 (mm) when the bounds are degenerate; a plane moves only while every min stays
 * below its max; 'Clip to section' is a ±100 mm slab around the section. Pure functions, mm.
 */
import type { ClipBox, ClipPlaneKey } from '../EngineApi';
import type { Box3Tuple } from '../model/types';
import type { SectionAxis } from '../section/types';

/** viewer.md §9 constants, mm. */
export const CLIP_CONSTANTS = {
  margin: 100,
  sectionSlab: 100,
  visibleOpacity: 0.6,
  hiddenOpacity: 0,
  /** Model opacity while the planes are visible (viewer.md §4 "Model opacity is reduced while clipping is visible"). */
  modelOpacityWhileVisible: 0.45,
  fallback: { xMin: -50000, xMax: 200000, yMin: -50000, yMax: 50000, zMin: -50000, zMax: 50000 } as Readonly<ClipBox>,
} as const;

export const CLIP_PLANE_KEYS: readonly ClipPlaneKey[] = ['xMin', 'xMax', 'yMin', 'yMax', 'zMin', 'zMax'];

/** Axis index (0 x, 1 y, 2 z) and side of a plane key. */
export function planeAxis(key: ClipPlaneKey): { axis: 0 | 1 | 2; max: boolean } {
  const axis = key[0] === 'x' ? 0 : key[0] === 'y' ? 1 : 2;
  return { axis, max: key.endsWith('Max') };
}

/** The key of an axis side. */
export function planeKey(axis: 0 | 1 | 2, max: boolean): ClipPlaneKey {
  return `${'xyz'[axis]}${max ? 'Max' : 'Min'}` as ClipPlaneKey;
}

/** True when `b` is finite and every min is strictly below its max. */
export function isClipBoxValid(b: ClipBox): boolean {
  const v = [b.xMin, b.xMax, b.yMin, b.yMax, b.zMin, b.zMax];
  return v.every(Number.isFinite) && b.xMin < b.xMax && b.yMin < b.yMax && b.zMin < b.zMax;
}

/**
 * Default box for model bounds (mm): bounds + 100 on every side; the fallback box when the bounds are
 * missing, not finite, inverted, or empty on all three axes.
 */
export function defaultClipBox(bounds: Box3Tuple | null | undefined): ClipBox {
  const b = bounds;
  if (!b) return { ...CLIP_CONSTANTS.fallback };
  const degenerate =
    !b.every(Number.isFinite) ||
    b[0] > b[3] ||
    b[1] > b[4] ||
    b[2] > b[5] ||
    (b[0] === b[3] && b[1] === b[4] && b[2] === b[5]);
  if (degenerate) return { ...CLIP_CONSTANTS.fallback };
  const m = CLIP_CONSTANTS.margin;
  return { xMin: b[0] - m, xMax: b[3] + m, yMin: b[1] - m, yMax: b[4] + m, zMin: b[2] - m, zMax: b[5] + m };
}

/**
 * The box with one plane moved to `mm`, or null when that would leave the min at or above the max (the
 * spec's "a min cannot pass its max and vice versa") or `mm` is not finite.
 */
export function withPlane(box: ClipBox, key: ClipPlaneKey, mm: number): ClipBox | null {
  if (!Number.isFinite(mm)) return null;
  const next = { ...box, [key]: mm };
  return isClipBoxValid(next) ? next : null;
}

/** 'Clip to section' (viewer.md §9): `axis` limited to coordinate ± 100 mm, the other axes from `base`. */
export function sectionSlab(base: ClipBox, axis: SectionAxis, mm: number): ClipBox {
  if (!Number.isFinite(mm)) throw new Error(`Clip to section: coordinate ${mm} is not a finite number of mm`);
  const k = axis === 'X' ? 0 : axis === 'Y' ? 1 : 2;
  const s = CLIP_CONSTANTS.sectionSlab;
  return { ...base, [planeKey(k, false)]: mm - s, [planeKey(k, true)]: mm + s };
}

/**
 * Plane equation of a box side for three.js clipping (kept side: signed distance ≥ 0):
 * min planes keep coordinate ≥ value (normal +axis), max planes keep coordinate ≤ value (normal −axis).
 * Returns [nx, ny, nz, constant].
 */
export function planeEquation(key: ClipPlaneKey, value: number): [number, number, number, number] {
  const { axis, max } = planeAxis(key);
  const n: [number, number, number, number] = [0, 0, 0, 0];
  n[axis] = max ? -1 : 1;
  n[3] = max ? value : -value;
  return n;
}

/** True when the point (mm) is inside the box (boundary included, 1e-6 mm slack). */
export function insideClipBox(b: ClipBox, x: number, y: number, z: number): boolean {
  const e = 1e-6;
  return x >= b.xMin - e && x <= b.xMax + e && y >= b.yMin - e && y <= b.yMax + e && z >= b.zMin - e && z <= b.zMax + e;
}

/**
 * Where a drag along the plane's normal puts the plane: the coordinate along `axis` of the point on the
 * line through `grab` parallel to the axis that is closest to the ray (origin `o`, direction `d`).
 * Returns null when the ray runs parallel to the axis (no defined position).
 */
export function dragCoordinate(
  axis: 0 | 1 | 2,
  grab: readonly number[],
  o: readonly number[],
  d: readonly number[],
): number | null {
  // Line L(s) = grab + s·e_axis; ray R(t) = o + t·d. Closest points: solve the 2×2 normal equations.
  const w = [grab[0] - o[0], grab[1] - o[1], grab[2] - o[2]];
  const b = d[axis]; // e·d
  const c = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const dd = w[axis]; // e·w
  const e = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];
  const den = c - b * b; // a = 1
  if (den < 1e-9 * c) return null;
  const s = (b * e - c * dd) / den;
  return grab[axis] + s;
}
