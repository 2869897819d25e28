/**
 * The 'solid' centre-of-gravity convention of design systems other than NAPA (CADMATIC, AVEVA, ...;
 * engine/ocx/vendorHabits.ts): the CoG of the part's steel, not of its moulded sheet or trace.
 * - Plates and brackets: the steel lies between Offset (0) and the thickness along the reference surface's
 *   normal (OCX_GUIDE §5.2), so the CoG is the sheet centroid moved by t/2 along the area-weighted mean
 *   normal (for a NURBS patch ∫n dA / A, first order in t; the curvature term t²/R is below 0.1 mm).
 * - Stiffeners: the section sits on the plate face on the web's side (§5.3.3: shifted by the plate
 *   thickness when the web points along the panel normal), its web perpendicular to each trace segment
 *   (the web direction projected off the segment's tangent); the CoG is the length-weighted mean of the
 *   segments' section centroids.
 * Units: metres, millimetres for thicknesses.
 */
import { type NurbsPatch, evalPatch } from './nurbs';
import type { PanelDesc, PlateDesc, StiffenerDesc, SurfaceDesc, Vec3 } from './shipLayout';

/** Writer habits that change figures rather than syntax (tools/generator/dialects.ts). */
export interface WriterHabits {
  /** 'moulded' (the canonical output, unchanged) or 'solid' (this file). */
  cog: 'moulded' | 'solid';
}

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Newell's vector of a closed polygon (xyz; twice the vector area, not normalised). */
export function newellVector(poly: Vec3[]): Vec3 {
  const n: Vec3 = [0, 0, 0];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i],
      b = poly[(i + 1) % poly.length];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return n;
}

/** ∫ n dA of a patch (n = ∂u × ∂v, unnormalised sum of triangle vector areas on a 16×16 grid), m². */
export function patchVectorArea(p: NurbsPatch, n = 16): Vec3 {
  const g: Vec3[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) g.push(evalPatch(p, i / n, j / n));
  const at = (i: number, j: number) => g[i * (n + 1) + j];
  const s: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const a = at(i, j),
        b = at(i + 1, j),
        c = at(i + 1, j + 1),
        d = at(i, j + 1);
      for (const [u, v] of [
        [b, c],
        [c, d],
      ] as const) {
        const e1: Vec3 = [u[0] - a[0], u[1] - a[1], u[2] - a[2]],
          e2: Vec3 = [v[0] - a[0], v[1] - a[1], v[2] - a[2]];
        s[0] += (e1[1] * e2[2] - e1[2] * e2[1]) / 2;
        s[1] += (e1[2] * e2[0] - e1[0] * e2[2]) / 2;
        s[2] += (e1[0] * e2[1] - e1[1] * e2[0]) / 2;
      }
    }
  return s;
}

/** Unit normal of a flat surface: a Plane3D's as written, a frame-table plane's +axis (dominant axis of the outline). */
function flatNormal(surface: SurfaceDesc, outline: Vec3[]): Vec3 {
  if (surface.kind === 'plane') return unit(surface.normal);
  const n = newellVector(outline),
    k = [0, 1, 2].reduce((m, i) => (Math.abs(n[i]) > Math.abs(n[m]) ? i : m), 0);
  const e: Vec3 = [0, 0, 0];
  e[k] = 1;
  return e;
}

/** Area-weighted mean normal (∫n dA / A, length ≤ 1) of a plate on its own or its panel's surface. */
export function plateMeanNormal(p: PlateDesc, panelSurface: SurfaceDesc, area: number): Vec3 {
  if (p.patch) {
    const v = patchVectorArea(p.patch);
    return [v[0] / area, v[1] / area, v[2] / area];
  }
  return flatNormal(p.surface ?? panelSurface, p.outline!);
}

/** The sheet centroid moved to mid-thickness: cog + t/2 · meanNormal. */
export const midThickness = (cog: Vec3, thicknessMm: number, meanNormal: Vec3): Vec3 =>
  [0, 1, 2].map((k) => cog[k] + (thicknessMm / 2000) * meanNormal[k]) as Vec3;

/** Normal of the panel's surface near a point (a patch: the grid point nearest to it), unit. */
function panelNormalAt(panel: PanelDesc, at: Vec3): Vec3 | undefined {
  const s = panel.surface;
  if (s.kind !== 'nurbs') {
    const plate = panel.plates.find((x) => x.outline);
    return s.kind === 'plane' ? unit(s.normal) : plate ? flatNormal(s, plate.outline!) : undefined;
  }
  const n = 12,
    h = 1e-4;
  let best: [number, number] = [0, 0],
    d2 = Infinity;
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++) {
      const p = evalPatch(s.patch, i / n, j / n),
        d = (p[0] - at[0]) ** 2 + (p[1] - at[1]) ** 2 + (p[2] - at[2]) ** 2;
      if (d < d2) [d2, best] = [d, [i / n, j / n]];
    }
  const [u, v] = [Math.min(1 - h, best[0]), Math.min(1 - h, best[1])];
  const p0 = evalPatch(s.patch, u, v),
    pu = evalPatch(s.patch, u + h, v),
    pv = evalPatch(s.patch, u, v + h);
  const a: Vec3 = [pu[0] - p0[0], pu[1] - p0[1], pu[2] - p0[2]],
    b: Vec3 = [pv[0] - p0[0], pv[1] - p0[1], pv[2] - p0[2]];
  return unit([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]);
}

/**
 * Solid CoG of a stiffener on `panel`: per trace segment the section centroid `centroid` (m from the
 * trace along the web) plus the plate-face shift, along the web made perpendicular to the segment, and
 * `uCentroid` (m, the bulb side of a bulb flat) along web × tangent, the flange side the generator's
 * FlangeDirection (written along the trace) leaves to the reader's default.
 */
export function stiffenerSolidCog(s: StiffenerDesc, panel: PanelDesc, centroid: number, uCentroid = 0): Vec3 {
  const mid = s.path[Math.floor(s.path.length / 2)];
  const n = panelNormalAt(panel, mid);
  const t = (panel.plates[0]?.thicknessMm ?? 0) / 1000;
  const shift = n && dot(s.web, n) > 0.5 ? t : 0;
  let L = 0;
  const c: Vec3 = [0, 0, 0];
  for (let i = 1; i < s.path.length; i++) {
    const a = s.path[i - 1],
      b = s.path[i],
      d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
      l = Math.hypot(d[0], d[1], d[2]);
    if (!(l > 0)) continue;
    const tan: Vec3 = [d[0] / l, d[1] / l, d[2] / l],
      wt = dot(s.web, tan);
    const w = unit([s.web[0] - wt * tan[0], s.web[1] - wt * tan[1], s.web[2] - wt * tan[2]]);
    const f = unit([w[1] * tan[2] - w[2] * tan[1], w[2] * tan[0] - w[0] * tan[2], w[0] * tan[1] - w[1] * tan[0]]); // the flange side: web × tangent
    for (let k = 0; k < 3; k++) c[k] += l * ((a[k] + b[k]) / 2 + (shift + centroid) * w[k] + uCentroid * f[k]);
    L += l;
  }
  return [c[0] / L, c[1] / L, c[2] / L];
}

/**
 * The flange side the solid CoG assumes (web × tangent) at the trace vertex nearest the chord midpoint,
 * where the writer puts the Inclination Position; written as FlangeDirection by the 'solid' dialects
 * so that the side is stated, not left to the reader.
 */
export function flangeDirection(s: StiffenerDesc): Vec3 {
  const a = s.path[0],
    b = s.path[s.path.length - 1],
    m: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  let best = 1,
    bd = Infinity;
  for (let i = 1; i < s.path.length; i++) {
    const p = s.path[i - 1],
      q = s.path[i],
      c: Vec3 = [(p[0] + q[0]) / 2 - m[0], (p[1] + q[1]) / 2 - m[1], (p[2] + q[2]) / 2 - m[2]],
      d = Math.hypot(c[0], c[1], c[2]);
    if (d < bd) [bd, best] = [d, i];
  }
  const p = s.path[best - 1],
    q = s.path[best],
    tan = unit([q[0] - p[0], q[1] - p[1], q[2] - p[2]]),
    wt = dot(s.web, tan);
  const w = unit([s.web[0] - wt * tan[0], s.web[1] - wt * tan[1], s.web[2] - wt * tan[2]]);
  return unit([w[1] * tan[2] - w[2] * tan[1], w[2] * tan[0] - w[0] * tan[2], w[0] * tan[1] - w[1] * tan[0]]);
}
