/**
 * NURBS patches and curves of the generator's curved shell plates (OCX_GUIDE §4.3: control points
 * with U the outer index, V the inner): evaluation, area and centroid by fine triangulation, boundary
 * curves and the shell patch builder (exact bilge arcs as rational quadratics, straight girth lines
 * as degree 1, degree 2 along the ship). Metres.
 */
import { type HullDims, type Vec3, hullX, sectionAt, sectionPoint } from './hullForm';

/** A NURBS curve: degree, clamped knot vector, control points (m) and weights. */
export interface NurbsCurve {
  degree: number;
  knots: number[];
  pts: Vec3[];
  w: number[];
}

/** A tensor-product NURBS surface; pts[i * nV + j], i along U (outer), j along V (inner). */
export interface NurbsPatch {
  degU: number;
  degV: number;
  knotsU: number[];
  knotsV: number[];
  nU: number;
  nV: number;
  pts: Vec3[];
  w: number[];
}

/** Non-zero basis functions N_{span-p..span}(t) (Cox–de Boor) and the span index. */
function basis(knots: number[], p: number, n: number, t: number): { span: number; N: number[] } {
  let span = p;
  if (t >= knots[n]) span = n - 1;
  else while (span < n - 1 && t >= knots[span + 1]) span++;
  const N = [1],
    left: number[] = [],
    right: number[] = [];
  for (let j = 1; j <= p; j++) {
    left[j] = t - knots[span + 1 - j];
    right[j] = knots[span + j] - t;
    let saved = 0;
    for (let r = 0; r < j; r++) {
      const tmp = N[r] / (right[r + 1] + left[j - r] || 1);
      N[r] = saved + right[r + 1] * tmp;
      saved = left[j - r] * tmp;
    }
    N[j] = saved;
  }
  return { span, N };
}

/** Point of the surface at (s, t) ∈ [0, 1]². */
export function evalPatch(p: NurbsPatch, s: number, t: number): Vec3 {
  const bu = basis(p.knotsU, p.degU, p.nU, s),
    bv = basis(p.knotsV, p.degV, p.nV, t);
  let x = 0,
    y = 0,
    z = 0,
    w = 0;
  for (let a = 0; a <= p.degU; a++) {
    const i = bu.span - p.degU + a;
    for (let b = 0; b <= p.degV; b++) {
      const k = i * p.nV + (bv.span - p.degV + b);
      const c = bu.N[a] * bv.N[b] * p.w[k];
      x += c * p.pts[k][0];
      y += c * p.pts[k][1];
      z += c * p.pts[k][2];
      w += c;
    }
  }
  return [x / w, y / w, z / w];
}

/** Point of a curve at t ∈ [0, 1]. */
export function evalCurve(c: NurbsCurve, t: number): Vec3 {
  const b = basis(c.knots, c.degree, c.pts.length, t);
  let x = 0,
    y = 0,
    z = 0,
    w = 0;
  for (let a = 0; a <= c.degree; a++) {
    const k = b.span - c.degree + a,
      f = b.N[a] * c.w[k];
    x += f * c.pts[k][0];
    y += f * c.pts[k][1];
    z += f * c.pts[k][2];
    w += f;
  }
  return [x / w, y / w, z / w];
}

/** Length of a curve by a 64-segment chord sum, m. */
export function curveLength(c: NurbsCurve): number {
  let len = 0,
    prev = evalCurve(c, 0);
  for (let i = 1; i <= 64; i++) {
    const q = evalCurve(c, i / 64);
    len += Math.hypot(q[0] - prev[0], q[1] - prev[1], q[2] - prev[2]);
    prev = q;
  }
  return len;
}

/**
 * Area (m²) and area centroid (m) of a patch: triangle sums on an n×n grid and on the n/2 grid of the
 * same points, combined by Richardson extrapolation (chordal error O(h²)), so the result is within
 * 1e-5 relative for the generator's patches (arcs ≤ 90°, lengths ≤ 8 frames). n must be even.
 */
export function patchAreaCentroid(p: NurbsPatch, n = 16): { area: number; centroid: Vec3 } {
  const g: Vec3[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) g.push(evalPatch(p, i / n, j / n));
  const sum = (step: number) => {
    let area = 0;
    const c: Vec3 = [0, 0, 0];
    const tri = (a: Vec3, b: Vec3, d: Vec3) => {
      const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        e2 = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
      const t =
        Math.hypot(e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]) / 2;
      area += t;
      for (let k = 0; k < 3; k++) c[k] += (t * (a[k] + b[k] + d[k])) / 3;
    };
    const at = (i: number, j: number) => g[i * (n + 1) + j];
    for (let i = 0; i < n; i += step)
      for (let j = 0; j < n; j += step) {
        const a = at(i, j),
          b = at(i + step, j),
          d = at(i + step, j + step),
          e = at(i, j + step);
        tri(a, b, d);
        tri(a, d, e);
      }
    return { area, moment: c };
  };
  const fine = sum(1),
    coarse = sum(2);
  const area = (4 * fine.area - coarse.area) / 3;
  const m = [0, 1, 2].map((k) => (4 * fine.moment[k] - coarse.moment[k]) / 3);
  return { area, centroid: [m[0] / area, m[1] / area, m[2] / area] };
}

const reverseCurve = (c: NurbsCurve): NurbsCurve => ({
  degree: c.degree,
  knots: c.knots.map((k) => 1 - k).reverse(),
  pts: [...c.pts].reverse(),
  w: [...c.w].reverse(),
});

/** The iso-curve at the U end (s = 0 or 1): a V-direction curve. */
export function rowCurve(p: NurbsPatch, last: boolean): NurbsCurve {
  const i = last ? p.nU - 1 : 0;
  return {
    degree: p.degV,
    knots: p.knotsV,
    pts: p.pts.slice(i * p.nV, (i + 1) * p.nV),
    w: p.w.slice(i * p.nV, (i + 1) * p.nV),
  };
}

/** The iso-curve at the V end (t = 0 or 1): a U-direction curve. */
export function columnCurve(p: NurbsPatch, last: boolean): NurbsCurve {
  const j = last ? p.nV - 1 : 0,
    pts: Vec3[] = [],
    w: number[] = [];
  for (let i = 0; i < p.nU; i++) {
    pts.push(p.pts[i * p.nV + j]);
    w.push(p.w[i * p.nV + j]);
  }
  return { degree: p.degU, knots: p.knotsU, pts, w };
}

/** The closed boundary of a patch: s=0 row, t=1 column, s=1 row reversed, t=0 column reversed. */
export function patchBoundary(p: NurbsPatch): NurbsCurve[] {
  return [
    rowCurve(p, false),
    columnCurve(p, true),
    reverseCurve(rowCurve(p, true)),
    reverseCurve(columnCurve(p, false)),
  ];
}

const clampedKnots = (n: number, p: number) => [
  ...Array<number>(p + 1).fill(0),
  ...Array.from({ length: n - p - 1 }, (_, i) => (i + 1) / (n - p)),
  ...Array<number>(p + 1).fill(1),
];

/** Whether the girth range [u0, u1] lies on the bilge arc (else on a straight line of the section). */
const onBilge = (u0: number, u1: number) => Math.min(u0, u1) >= 1 - 1e-9 && Math.max(u0, u1) <= 2 + 1e-9;

/**
 * The shell patch over ξ ∈ [xi0, xi1] and girth u ∈ [u0, u1] (which must not straddle a bilge end) on
 * one side: `rows` stations along the ship (degree 2, or 1 for 2 rows), exact girth line or arc.
 * The surface normal S_u × S_v points out of the hull; the V = 0 edge is at u1 on port, u0 on starboard.
 */
export function shellPatch(
  d: HullDims,
  xi0: number,
  xi1: number,
  u0: number,
  u1: number,
  side: 1 | -1,
  rows = 4,
): NurbsPatch {
  // V runs down the girth on the port side, up on starboard, so S_u × S_v points outboard on both.
  if (side > 0) [u0, u1] = [u1, u0];
  const bilge = onBilge(u0, u1);
  const nV = bilge ? 3 : 2,
    pts: Vec3[] = [],
    w: number[] = [];
  for (let i = 0; i < rows; i++) {
    const xi = xi0 + ((xi1 - xi0) * i) / (rows - 1),
      s = sectionAt(d, xi);
    const to3 = (y: number, z: number): Vec3 => [hullX(d, xi, z, s), side * y, z];
    const a = sectionPoint(s, u0),
      b = sectionPoint(s, u1);
    if (!bilge) {
      pts.push(to3(a[0], a[1]), to3(b[0], b[1]));
      w.push(1, 1);
      continue;
    }
    const span = (s.theta + Math.PI / 2) * (u1 - u0),
      am = -Math.PI / 2 + ((u0 + u1) / 2 - 1) * (s.theta + Math.PI / 2);
    const cy = s.fb,
      cz = s.zk + s.r,
      rm = s.r / Math.cos(span / 2);
    pts.push(to3(a[0], a[1]), to3(cy + rm * Math.cos(am), cz + rm * Math.sin(am)), to3(b[0], b[1]));
    w.push(1, Math.cos(span / 2), 1);
  }
  const degU = Math.min(2, rows - 1);
  return {
    degU,
    degV: bilge ? 2 : 1,
    knotsU: clampedKnots(rows, degU),
    knotsV: clampedKnots(nV, bilge ? 2 : 1),
    nU: rows,
    nV,
    pts,
    w,
  };
}
