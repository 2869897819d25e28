/**
 * Orientation data of profiles and brackets kept in the property records (OCX_GUIDE §2.8 Inclination,
 * §5.2.5 material side, §5.3.2 frame along the trace), for the instance calls of viewer.md §7
 * `POST .../steel/stiffener-web-flange-directions` and `POST .../steel/bracket-material-directions`.
 * These codes are not in the property catalogue (engine/model/properties.ts), so the properties panel
 * does not list them; they are data for the server, like the `_GEOM` figures.
 *
 * - INCL (stiffeners, edge reinforcements, pillars): the file's Inclinations in trace order, as text
 *   "px py pz wx wy wz fx fy fz" per inclination (position in m, web and flange directions unit),
 *   inclinations separated by ';'. A missing FlangeDirection is stored as W × T (the trace tangent at the
 *   inclination), the rule of §5.3.2 step 5.
 * - MDIRX, MDIRY, MDIRZ (brackets): the unit direction from the reference surface into the steel
 *   (engine/ocx/materialSide.ts materialDirection).
 */

/** A direction or point as [x, y, z]. */
export type Triple = [number, number, number];

/** One stored inclination: position (m), unit web and flange directions. */
export interface StoredInclination {
  position: Triple;
  web: Triple;
  flange: Triple;
}

/** Property code of a profile's inclinations. */
export const INCLINATIONS_CODE = 'INCL';
/** Property codes of a bracket's material direction (x, y, z of a unit vector). */
export const MATERIAL_DIRECTION_CODES = ['MDIRX', 'MDIRY', 'MDIRZ'] as const;

/** Rounds to 1e-6 (µm for positions in m), -0 written as 0, so records stay short and stable. */
const r6 = (x: number) => {
  const v = Math.round(x * 1e6) / 1e6;
  return v === 0 ? 0 : v;
};

/** The INCL text of a list of inclinations (positions in m). */
export function encodeInclinations(list: readonly StoredInclination[]): string {
  return list.map((i) => [...i.position, ...i.web, ...i.flange].map(r6).join(' ')).join(';');
}

/** Parses an INCL text; entries that are not nine finite numbers are left out. */
export function decodeInclinations(text: string): StoredInclination[] {
  const out: StoredInclination[] = [];
  for (const part of text.split(';')) {
    const n = part.trim().split(/\s+/).map(Number);
    if (n.length !== 9 || !n.every(Number.isFinite)) continue;
    out.push({ position: [n[0], n[1], n[2]], web: [n[3], n[4], n[5]], flange: [n[6], n[7], n[8]] });
  }
  return out;
}

const dot = (a: Triple, b: Triple) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
function unit(a: Triple): Triple | null {
  const l = Math.hypot(a[0], a[1], a[2]);
  return l > 1e-12 ? [a[0] / l, a[1] / l, a[2] / l] : null;
}
const lerp = (a: Triple, b: Triple, f: number): Triple => [
  a[0] + (b[0] - a[0]) * f,
  a[1] + (b[1] - a[1]) * f,
  a[2] + (b[2] - a[2]) * f,
];

/**
 * Web and flange direction of a profile at `point` (m): on the polyline through the inclinations'
 * positions, the nearest point; the directions of the two inclinations around it interpolated there
 * (normalised; the flange made orthogonal to the web). One inclination: its own directions. Straight
 * profiles (every inclination alike) answer exactly the file's directions; on curved traces with sparse
 * inclinations the result is an interpolation. Null for an empty list.
 */
export function directionsAt(
  list: readonly StoredInclination[],
  point: Triple,
): { web: Triple; flange: Triple } | null {
  if (list.length === 0) return null;
  let best = { d: Infinity, k: 0, f: 0 };
  for (let k = 0; k < Math.max(1, list.length - 1); k++) {
    const a = list[k].position,
      b = list[Math.min(k + 1, list.length - 1)].position;
    const ab: Triple = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const ap: Triple = [point[0] - a[0], point[1] - a[1], point[2] - a[2]];
    const L2 = dot(ab, ab);
    const f = L2 > 0 ? Math.max(0, Math.min(1, dot(ap, ab) / L2)) : 0;
    const q = lerp(a, b, f);
    const d = Math.hypot(point[0] - q[0], point[1] - q[1], point[2] - q[2]);
    if (d < best.d) best = { d, k, f };
  }
  const i0 = list[best.k],
    i1 = list[Math.min(best.k + 1, list.length - 1)];
  const near = best.f < 0.5 ? i0 : i1;
  const web = unit(lerp(i0.web, i1.web, best.f)) ?? near.web;
  const f0 = unit(lerp(i0.flange, i1.flange, best.f)) ?? near.flange;
  const flange = unit([f0[0] - dot(f0, web) * web[0], f0[1] - dot(f0, web) * web[1], f0[2] - dot(f0, web) * web[2]]);
  return { web, flange: flange ?? near.flange };
}
