/**
 * A plate's sheet meshed in its reference surface's parameter space (OCX_GUIDE §5.2.3): the boundary
 * loops (3D, mm) are mapped to (u, v) by closest-point inversion, unwrapped across the seam of a
 * closed surface, turned into a planar region (a loop that winds once around a closed surface — the
 * edge of a band on a cylinder, of a zone on a sphere — bounds the region together with the other such
 * loops), triangulated on a grid whose cells keep the chordal error below the tolerance, and evaluated
 * back onto the surface. This handles what projecting the outline onto one plane cannot: bands whose
 * two edges project onto each other, and patches curving through more than a half turn. Units: mm.
 */
import polygonClipping, { type Polygon, type Ring } from 'polygon-clipping';
import { simpleRing } from './cellClip';
import { hypot3, len3 } from './curves';
import { triangleCross } from './meshMeasure';
import { clipRingToBox, holesInside, signedArea2d, triangulateGrid } from './region2d';
import { ringDifference } from './ringDifference';
import { boundaryRings, weld } from './surfaceMesh';
import {
  diagonalBendsMore,
  invert,
  MAX_CELLS,
  outsideBox,
  outsideHull,
  rayHit,
  type Sampled,
  sampled,
  wrap,
} from './surfaceSamples';
import type { Sheet } from './thicken';

/** A parametric surface on [u0, u1] × [v0, v1]; `periodicU/V` when it closes on itself in that direction. */
export interface ParamSurface {
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  /** Writes S(u, v) (mm) into out[0..2]; u, v within the domain. */
  eval(u: number, v: number, out: Float64Array): void;
  /**
   * Optional: S at every (us[i], vs[j]) into out at 3 · (i · vs.length + j), each point as `eval` gives
   * it (a NURBS surface finds its basis functions once per row and column).
   */
  evalGrid?(us: Float64Array, vs: Float64Array, out: Float64Array): void;
  /**
   * Optional: S(u, v) into out[0..2] (as `eval` gives it) and its partial derivatives ∂S/∂u, ∂S/∂v
   * (mm per unit of u, v) into out[3..5], out[6..8] (a NURBS surface: analytic, for point inversion and
   * the surface normals without finite differences).
   */
  evalDerivs?(u: number, v: number, out: Float64Array): void;
  /**
   * A box [min x, y, z, max x, y, z] (mm) the whole surface lies in (a NURBS surface's control points'
   * box: its convex hull property), when known without sampling: points outside it are off the surface.
   */
  hull?: ArrayLike<number>;
}

/** The sheet, the boundary points' largest distance from the surface (mm) and the uncut hole loops. */
export interface ParamSheet {
  sheet: Sheet;
  /** Largest distance (mm) of a boundary loop point from the surface after inversion. */
  maxDistance: number;
  /** Hole loops (xyz mm) on the surface that the polygon boolean could not cut. */
  uncut: number[][];
}

/** A loop's edges are split no finer than its perimeter / EDGE_SAMPLES (toPlane). */
const EDGE_SAMPLES = 256;

/** A loop mapped to the metric parameter plane (x = u·su, y = v·sv), unwrapped, with its winding. */
interface PlaneLoop {
  xy: number[];
  /** Net turns around the closed direction(s): 0 for an ordinary loop. */
  windU: number;
  windV: number;
  maxDistance: number;
}

/**
 * A loop mapped to the metric parameter plane. Straight edges of the loop are straight in space, not
 * in (u, v): an edge is split at its midpoint (mapped too) while that midpoint lies more than
 * chordMm / 4 off the edge's chord in the plane (offChord), or the edge spans more than a quarter
 * period of a closed direction, down to the perimeter / EDGE_SAMPLES (the fixed density this replaces);
 * a midpoint off the surface (farther than tolMm) is always kept. Points are found by closest-point
 * inversion warm-started from their neighbour, and when `axis` is given, where the line through them
 * along it meets the surface (a hole projected onto a curved plate).
 */
function toPlane(g: Sampled, loop3: number[], tolMm: number, axis?: ArrayLike<number>, chordMm = 1): PlaneLoop {
  const { s } = g;
  const m = loop3.length / 3;
  let per = 0;
  for (let i = 0; i < m; i++) {
    const j = (i + 1) % m;
    per += hypot3(
      loop3[3 * j] - loop3[3 * i],
      loop3[3 * j + 1] - loop3[3 * i + 1],
      loop3[3 * j + 2] - loop3[3 * i + 2],
    );
  }
  const L = new LoopMapper(g, tolMm, axis, per / EDGE_SAMPLES, chordMm / 4);
  const { xy, uv, P } = L;
  const A = [0, 0, 0],
    B = [0, 0, 0];
  for (let i = 0; i <= m && m > 0; i++) {
    const k = i % m;
    B[0] = loop3[3 * k];
    B[1] = loop3[3 * k + 1];
    B[2] = loop3[3 * k + 2];
    if (i === 0) {
      L.map(B[0], B[1], B[2], false, NaN, NaN);
      xy.push(P[0], P[1]);
    } else {
      const xa = xy[xy.length - 2],
        ya = xy[xy.length - 1];
      // the closing edge ends at the first point, unwrapped next to the last one
      L.map(B[0], B[1], B[2], true, xa, ya);
      const xb = P[0],
        yb = P[1],
        ub = uv[0],
        vb = uv[1];
      L.refine(A, xa, ya, B, xb, yb, hypot3(B[0] - A[0], B[1] - A[1], B[2] - A[2]));
      if (i < m) xy.push(xb, yb);
      uv[0] = ub; // the next point starts from this one
      uv[1] = vb;
    }
    A[0] = B[0];
    A[1] = B[1];
    A[2] = B[2];
  }
  // the closing step: a loop around a closed surface does not come back to its start
  const n = xy.length;
  let windU = 0,
    windV = 0;
  if (n >= 4) {
    if (g.periodicU) windU = Math.round((xy[n - 2] - xy[0]) / L.pu);
    if (g.periodicV) windV = Math.round((xy[n - 1] - xy[1]) / L.pv);
  }
  return { xy, windU, windV, maxDistance: L.maxDistance };
}

/**
 * toPlane's state and steps (methods rather than closures made per loop: see paramSurfaces.ts): the
 * mapped points so far, the parameters of the last inversion (the next one's start) and the last mapped
 * point.
 */
class LoopMapper {
  readonly s: ParamSurface;
  readonly uv = new Float64Array(2);
  readonly xy: number[] = [];
  maxDistance = 0;
  /** The periods of the closed directions in the metric plane (mm). */
  readonly pu: number;
  readonly pv: number;
  readonly p = new Float64Array(3);
  /** The last mapped point (x, y). */
  readonly P = new Float64Array(2);
  constructor(
    readonly g: Sampled,
    readonly tolMm: number,
    readonly axis: ArrayLike<number> | undefined,
    /** Edges no longer than this (mm) are not split. */
    readonly minLen: number,
    /** A midpoint this close (mm) to the chord's middle in the plane needs no split. */
    readonly tolPlane: number,
  ) {
    this.s = g.s;
    this.pu = (g.s.u1 - g.s.u0) * g.su;
    this.pv = (g.s.v1 - g.s.v0) * g.sv;
  }

  /** Maps point (px, py, pz) from the parameters in uv (or the nearest sample when !guess) into P, next to (nx, ny). */
  map(px: number, py: number, pz: number, guess: boolean, nx: number, ny: number): number {
    const { g, p, uv, P } = this;
    p[0] = px;
    p[1] = py;
    p[2] = pz;
    let d = invert(g, p, uv, guess);
    if (guess && d > this.tolMm) d = invert(g, p, uv, false); // the neighbour misled it
    if (this.axis && d > 1e-3 && rayHit(g, p, this.axis, uv)) d = 0;
    if (d > this.maxDistance) this.maxDistance = d;
    let x = uv[0] * g.su,
      y = uv[1] * g.sv;
    if (!Number.isNaN(nx)) {
      if (g.periodicU) x += Math.round((nx - x) / this.pu) * this.pu;
      if (g.periodicV) y += Math.round((ny - y) / this.pv) * this.pv;
    }
    P[0] = x;
    P[1] = y;
    return d;
  }

  /** Pushes the points that split the edge from A (xyz at a, plane xa, ya) to B, in order. */
  refine(a: number[], xa: number, ya: number, b: number[], xb: number, yb: number, len: number): void {
    if (len <= this.minLen) return;
    const { g, s, uv, P, pu, pv } = this;
    const mx = (xa + xb) / 2,
      my = (ya + yb) / 2;
    uv[0] = g.periodicU ? wrap(mx / g.su, s.u0, s.u1) : Math.min(s.u1, Math.max(s.u0, mx / g.su));
    uv[1] = g.periodicV ? wrap(my / g.sv, s.v0, s.v1) : Math.min(s.v1, Math.max(s.v0, my / g.sv));
    const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    const d = this.map(mid[0], mid[1], mid[2], true, xa, ya);
    const x = P[0],
      y = P[1];
    const wide = (g.periodicU && Math.abs(xb - xa) > pu / 4) || (g.periodicV && Math.abs(yb - ya) > pv / 4);
    if (!wide && d <= this.tolMm && offChord(x, y, xa, ya, xb, yb) <= this.tolPlane) return;
    this.refine(a, xa, ya, mid, x, y, len / 2);
    this.xy.push(x, y);
    this.refine(mid, x, y, b, xb, yb, len / 2);
  }
}

/**
 * How far point (x, y) lies off the chord from (xa, ya) to (xb, yb) in the plane: its distance from the
 * chord's line when its projection falls strictly between the ends, else Infinity (a mapped midpoint
 * beyond an end folds the edge back). Where along the chord the midpoint falls does not matter: a
 * parametrisation that runs faster at one end of the edge moves it along a straight edge, not off it. A
 * chord of no length measures the distance from its ends.
 */
function offChord(x: number, y: number, xa: number, ya: number, xb: number, yb: number): number {
  const ex = xb - xa,
    ey = yb - ya;
  const l2 = ex * ex + ey * ey;
  const dx = x - xa,
    dy = y - ya;
  if (!(l2 > 0)) return Math.hypot(dx, dy);
  const along = dx * ex + dy * ey;
  if (!(along > 0 && along < l2)) return Infinity;
  return Math.abs(dx * ey - dy * ex) / Math.sqrt(l2);
}

const ring = (r: number[]): Ring => {
  const out: Ring = [];
  for (let i = 0; i + 1 < r.length; i += 2) out.push([r[i], r[i + 1]]);
  return out;
};

/** Ring r (closed, as polygon-clipping writes it) as xy pairs divided by (ax, ay), without the closing point. */
function squeeze(r: Ring, ax: number, ay: number): number[] {
  const out: number[] = [];
  for (const [x, y] of r) out.push(x / ax, y / ay);
  out.length -= 2; // the closing point
  return out;
}

/** A ring (xy pairs) closed as polygon-clipping writes its output: the first point repeated at the end. */
const closedRing = (r: number[]): Ring => {
  const out = ring(r);
  if (out.length) out.push([out[0][0], out[0][1]]);
  return out;
};

/**
 * The area below a loop that winds once around the closed u direction, within one period
 * [x0, x0 + P] of the metric plane: the loop repeated over three periods, closed far below, cut to the
 * period's box (widened by `margin` on the left, right and bottom). Exclusive-or of two such areas is the
 * band between their loops.
 */
function curtain(l: PlaneLoop, x0: number, P: number, yLow: number, yHigh: number, margin = 0): number[] {
  const n = l.xy.length / 2;
  const step = l.windU * P; // the shift after one pass
  const pts: number[] = [];
  for (let k = -2; k <= 2; k++) for (let i = 0; i < n; i++) pts.push(l.xy[2 * i] + k * step, l.xy[2 * i + 1]);
  if (l.windU < 0) {
    // in increasing x
    const r: number[] = [];
    for (let i = pts.length - 2; i >= 0; i -= 2) r.push(pts[i], pts[i + 1]);
    pts.length = 0;
    pts.push(...r);
  }
  pts.push(pts[pts.length - 2], yLow - margin, pts[0], yLow - margin);
  return clipRingToBox(pts, x0 - margin, yLow - margin, x0 + P + margin, yHigh);
}

/**
 * The band between two loops `a`, `b` that each wind once around the closed u direction (the
 * exclusive-or of their curtains ca, cb as curtain() gives them) when one curtain holds the other: the
 * larger curtain minus the smaller one widened beyond the period box (which leaves the difference as it
 * is and turns the sides and bottom the two share into crossings), cut by ringDifference instead of a
 * polygon boolean. Null when neither holds the other (their loops cross) or the cut declines.
 */
function bandBetween(
  a: PlaneLoop,
  ca: number[],
  b: PlaneLoop,
  cb: number[],
  x0: number,
  P: number,
  yLow: number,
  yHigh: number,
): Polygon[] | null {
  if (ca.length < 6 || cb.length < 6) return null;
  const margin = 0.01 * (P + (yHigh - yLow));
  const areaA = Math.abs(signedArea2d(ca)),
    areaB = Math.abs(signedArea2d(cb));
  const [big, small, bigArea, smallArea] = areaA >= areaB ? [ca, b, areaA, areaB] : [cb, a, areaB, areaA];
  const wide = curtain(small, x0, P, yLow, yHigh, margin);
  const cut = ringDifference(big, [wide]);
  if (!cut) return null;
  let area = 0;
  for (const p of cut) for (let k = 0; k < p.length; k++) area += (k ? -1 : 1) * Math.abs(signedArea2d(p[k]));
  // the difference has the area of the larger less the smaller only when the smaller lies within it
  if (!(Math.abs(area - (bigArea - smallArea)) <= 1e-9 * bigArea)) return null;
  return cut.map((p) => p.map(closedRing));
}

/**
 * True when every `step`-th point of the loops lies within tolMm of surface s (which member of a
 * surface collection a plate lies on).
 */
export function surfaceHolds(s: ParamSurface, loops: number[][], tolMm: number): boolean {
  // a point off the surface's hull is off the surface: most members of a collection are ruled out
  // without sampling them
  if (s.hull)
    for (const l of loops) {
      const n = l.length / 3,
        step = Math.max(1, Math.floor(n / 16));
      for (let i = 0; i < n; i += step) if (outsideHull(s.hull, l, 3 * i, tolMm)) return false;
    }
  const g = sampled(s);
  const uv = new Float64Array(2);
  for (const l of loops) {
    const n = l.length / 3,
      step = Math.max(1, Math.floor(n / 16));
    for (let i = 0; i < n; i += step)
      if (!(invert(g, [l[3 * i], l[3 * i + 1], l[3 * i + 2]], uv, false) <= tolMm)) return false;
  }
  return true;
}

/**
 * True when a stretch of the loops (at least 3 of every `step`-th points) lies within tolMm of surface
 * s: the surface is one of the faces a plate runs over.
 */
export function surfaceTouches(s: ParamSurface, loops: number[][], tolMm: number): boolean {
  if (s.hull) {
    // fewer than 3 of the tested points within the surface's hull: no stretch on it (without sampling it)
    let near = 0;
    for (const l of loops) {
      const n = l.length / 3,
        step = Math.max(1, Math.floor(n / 64));
      for (let i = 0; i < n && near < 3; i += step) if (!outsideHull(s.hull, l, 3 * i, tolMm)) near++;
    }
    if (near < 3) return false;
  }
  const g = sampled(s);
  const uv = new Float64Array(2);
  let hits = 0;
  for (const l of loops) {
    const n = l.length / 3,
      step = Math.max(1, Math.floor(n / 64));
    for (let i = 0; i < n; i += step)
      if (
        !outsideBox(g, l[3 * i], l[3 * i + 1], l[3 * i + 2], tolMm) &&
        invert(g, [l[3 * i], l[3 * i + 1], l[3 * i + 2]], uv, false) <= tolMm &&
        ++hits >= 3
      )
        return true;
  }
  return false;
}

/**
 * Meshes the sheet bounded by `loops` (the plate's contour loops and its hole loops, xyz mm, in any
 * order and direction) on surface `s` in its parameter space.
 * @param holes candidate hole loops: only those lying on the surface (within tolMm) are cut; one the
 * polygon boolean cannot cut is returned in `uncut`.
 * @param chordMm chordal tolerance for the grid. @param tolMm distance within which a point counts as on
 * the surface. @param netAreaMm2 the file's area, to choose between a zone and its complement when a
 * single loop winds around a closed surface. @param axisOf the direction a hole is projected along onto
 * the surface (its placing frame's normal), else the closest points.
 * @returns the sheet, or null when a contour point lies farther than tolMm from the surface or the region
 * is empty (the caller then uses another method).
 */
export function paramSheet(
  s: ParamSurface,
  loops: number[][],
  holes: number[][],
  chordMm: number,
  tolMm: number,
  netAreaMm2?: number,
  axisOf?: (hole: number[]) => ArrayLike<number> | undefined,
  partial = false,
): ParamSheet | null {
  const g = sampled(s);
  const contour = loops.map((l) => toPlane(g, l, tolMm, undefined, chordMm));
  const maxDistance = Math.max(...contour.map((c) => c.maxDistance));
  if (!partial && !(maxDistance <= tolMm)) return null;
  const cut: PlaneLoop[] = [],
    cutFrom: number[][] = [];
  for (const h of holes) {
    const c = toPlane(g, h, tolMm, axisOf?.(h), chordMm);
    if (c.maxDistance <= tolMm && c.windU === 0 && c.windV === 0 && c.xy.length >= 6) {
      cut.push(c);
      cutFrom.push(h);
    }
  }
  const all = contour;
  if ((g.periodicV && !g.periodicU) || all.some((c) => c.windV !== 0)) {
    // closed in v only (a pipe whose v runs round it; the sheet is meshed where u is the closed
    // direction): the same sheet on the surface with u and v swapped, its triangles turned back to this
    // surface's orientation (Su × Sv)
    if (all.some((c) => c.windU !== 0)) return null; // around both (a torus' cell): not handled
    const r = paramSheet(transposed(s), loops, holes, chordMm, tolMm, netAreaMm2, axisOf, partial);
    return r && { ...r, sheet: flipSheet(r.sheet) };
  }
  if (partial && all.some((c) => c.windU !== 0)) return null; // a band across faces: not handled
  const P = (s.u1 - s.u0) * g.su,
    x0 = s.u0 * g.su;
  let yLow = Infinity,
    yHigh = -Infinity;
  for (const c of [...all, ...cut])
    for (let i = 1; i < c.xy.length; i += 2) {
      yLow = Math.min(yLow, c.xy[i]);
      yHigh = Math.max(yHigh, c.xy[i]);
    }
  // the period box spans the whole domain in v (a zone's complement reaches to the domain's edge)
  yLow = Math.min(yLow, s.v0 * g.sv);
  yHigh = Math.max(yHigh, s.v1 * g.sv);
  const rings: Polygon[] = [];
  const curtains: number[][] = [];
  let winding = 0;
  for (const c of all) {
    if (c.windU !== 0) {
      const r = curtain(c, x0, P, yLow, yHigh);
      curtains.push(r);
      if (r.length >= 6) rings.push([ring(r)]);
      winding++;
    } else if (c.xy.length >= 6) rings.push([ring(c.xy)]);
  }
  if (!rings.length) return null;
  let region: Polygon[];
  try {
    // one ordinary loop that does not cross itself is the region as it is (the boolean only normalises it)
    const simple = all.length === 1 && winding === 0 ? simpleRing(all[0].xy) : null;
    const band =
      all.length === 2 && all[0].windU !== 0 && all[1].windU !== 0
        ? bandBetween(all[0], curtains[0], all[1], curtains[1], x0, P, yLow, yHigh)
        : null;
    region = simple ? [[closedRing(simple)]] : (band ?? polygonClipping.xor(rings[0], ...rings.slice(1)));
    if (winding % 2 === 1) {
      // one edge around the surface: the zone on one side of it, the side whose area is nearer the file's
      const periodBox: Polygon = [ring([x0, yLow, x0 + P, yLow, x0 + P, yHigh, x0, yHigh])];
      const other = polygonClipping.difference(periodBox, ...region);
      // (areas in the metric parameter plane: close enough to the surface's to tell the two apart)
      const cap = (ps: Polygon[]) => ps.reduce((a, p) => a + polyArea(p), 0);
      const target = netAreaMm2 ?? Math.min(cap(region), cap(other));
      region = Math.abs(cap(region) - target) <= Math.abs(cap(other) - target) ? region : other;
    }
  } catch {
    return null;
  }
  const uncut: number[][] = [];
  const holeRings = cut.map((c) => {
    // a hole near the seam may be written a period away from the region
    let cx = 0;
    for (let i = 0; i < c.xy.length; i += 2) cx += c.xy[i];
    cx /= c.xy.length / 2;
    const shift = g.periodicU && (cx < x0 || cx > x0 + P) ? -Math.floor((cx - x0) / P) * P : 0;
    return shift ? c.xy.map((v, i) => (i % 2 ? v : v + shift)) : c.xy;
  });
  const single = region.length === 1 && region[0].length === 1 ? region[0][0] : null;
  const singleOuter = single && holeRings.length ? single.slice(0, -1).flat() : null;
  if (single && singleOuter && holesInside(singleOuter, holeRings)) {
    // the common case, holes strictly inside one hole-free region and apart from each other: they are
    // the region's holes as they are (the polygon boolean per hole was most of the meshing time)
    region = [[single, ...holeRings.map(closedRing)]];
  } else
    for (let k = 0; k < holeRings.length; k++) {
      try {
        region = polygonClipping.difference(region, [ring(holeRings[k])]);
      } catch {
        uncut.push(cutFrom[k]);
      }
    }
  if (!region.length) return null;
  // cells small enough that the chord of a cell departs from the surface by at most chordMm
  let xMin = Infinity,
    xMax = -Infinity;
  for (const p of region)
    for (const [x] of p[0]) {
      xMin = Math.min(xMin, x);
      xMax = Math.max(xMax, x);
    }
  const extent = xMax - xMin;
  let cell = g.kappa > 0 ? Math.sqrt((8 * chordMm) / g.kappa) : Infinity;
  const areaTotal = region.reduce((a, p) => a + polyArea(p), 0);
  cell = Math.min(cell, Math.sqrt(areaTotal / 64) || cell, extent || cell);
  cell = Math.max(cell, Math.sqrt(areaTotal / MAX_CELLS));
  if (!Number.isFinite(cell) || cell <= 0) return null;
  const [ax, ay] = stretch(g, region, cell, chordMm);
  // each piece triangulated in the plane scaled by the stretch, where the cells are square
  const grids = region.map((poly) => {
    const outer = ax === 1 && ay === 1 ? poly[0].slice(0, -1).flat() : squeeze(poly[0], ax, ay);
    const hs = poly.slice(1).map((r) => (ax === 1 && ay === 1 ? r.slice(0, -1).flat() : squeeze(r, ax, ay)));
    return triangulateGrid(outer, hs, cell);
  });
  let nv = 0,
    ni = 0;
  for (const r of grids) {
    nv += r.points.length / 2;
    ni += r.indices.length;
  }
  // typed arrays of the exact size: the sheet's vertices on the surface, their parameters (for the
  // normals) and the triangles
  let pos = new Float64Array(3 * nv),
    uvs = new Float64Array(2 * nv),
    idx: ArrayLike<number> = new Uint32Array(ni);
  const q = new Float64Array(3);
  let vi = 0,
    ti = 0;
  for (const r of grids) {
    const base = vi;
    for (let i = 0; i < r.points.length; i += 2, vi++) {
      const px = r.points[i] * ax,
        py = r.points[i + 1] * ay;
      const u = g.periodicU ? wrap(px / g.su, s.u0, s.u1) : Math.min(s.u1, Math.max(s.u0, px / g.su)),
        v = Math.min(s.v1, Math.max(s.v0, py / g.sv));
      s.eval(u, v, q);
      pos[3 * vi] = q[0];
      pos[3 * vi + 1] = q[1];
      pos[3 * vi + 2] = q[2];
      uvs[2 * vi] = u;
      uvs[2 * vi + 1] = v;
    }
    for (let k = 0; k < r.indices.length; k++) (idx as Uint32Array)[ti++] = base + r.indices[k];
  }
  // one vertex where the grid meets itself across the seam of a closed surface
  if (g.periodicU) {
    let big = 0;
    for (let k = 0; k < pos.length; k++) big = Math.max(big, Math.abs(pos[k]));
    const remap: number[] = [];
    // (weld drops the triangles it collapses)
    const w = weld({ positions: pos, indices: idx }, 1e-4 + 1e-9 * big, remap);
    const kept = new Float64Array((w.positions.length / 3) * 2);
    for (let i = remap.length - 1; i >= 0; i--) {
      kept[2 * remap[i]] = uvs[2 * i];
      kept[2 * remap[i] + 1] = uvs[2 * i + 1];
    }
    uvs = kept;
    pos = Float64Array.from(w.positions);
    idx = w.indices;
  }
  // per-vertex normals from the triangles (orientation of the parameter plane: Su × Sv)
  const P3 = pos;
  const normals = new Float64Array(P3.length);
  const tri = new Float64Array(3);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t],
      b = 3 * idx[t + 1],
      c = 3 * idx[t + 2];
    triangleCross(P3, a, b, c, tri);
    const nx = tri[0],
      ny = tri[1],
      nz = tri[2];
    normals[a] += nx;
    normals[a + 1] += ny;
    normals[a + 2] += nz;
    normals[b] += nx;
    normals[b + 1] += ny;
    normals[b + 2] += nz;
    normals[c] += nx;
    normals[c + 1] += ny;
    normals[c + 2] += nz;
  }
  for (let i = 0; i < normals.length; i += 3) {
    const l = len3(normals[i], normals[i + 1], normals[i + 2]) || 1;
    normals[i] /= l;
    normals[i + 1] /= l;
    normals[i + 2] /= l;
  }
  surfaceNormals(g, uvs, normals);
  const indices = idx instanceof Uint32Array ? idx : Uint32Array.from(idx);
  return {
    sheet: { positions: P3, normals, indices, rings: boundaryRings(indices) },
    maxDistance,
    uncut,
  };
}

/**
 * How far the grid's cells (cell × cell in the metric parameter plane, mm) may be stretched along x
 * and along y, [ax, ay] (one of them 1): along a direction the surface is straight in — the rulings of
 * an extrusion or a cylinder — the chordal error does not grow with the cell's length, so a cell there
 * spans up to the chordal size of that direction's own curvature, up to the region's whole extent (one
 * row where the direction is straight: the chordal tolerance alone sets the cells, not a minimum of four
 * rows). Only when the other direction clearly carries the
 * curvature (16 × the straight one's, and the diagonals bend no more: a twisted surface is straight
 * along u and v but not along its diagonals).
 */
function stretch(g: Sampled, region: Polygon[], cell: number, chordMm: number): [number, number] {
  const { kappaU: ku, kappaV: kv } = g;
  const kMax = Math.max(ku, kv);
  if (!(kMax > 0) || 16 * Math.min(ku, kv) > kMax || diagonalBendsMore(g, kMax)) return [1, 1];
  const alongY = kv < ku; // y (v) is the straight direction
  let lo = Infinity,
    hi = -Infinity;
  for (const p of region)
    for (const pt of p[0]) {
      const c = pt[alongY ? 1 : 0];
      if (c < lo) lo = c;
      if (c > hi) hi = c;
    }
  const kFlat = Math.min(ku, kv);
  const own = kFlat > 0 ? Math.sqrt((8 * chordMm) / kFlat) : Infinity;
  const a = Math.max(1, Math.min(own, hi - lo) / cell);
  if (!Number.isFinite(a)) return [1, 1];
  return alongY ? [1, a] : [a, 1];
}

/**
 * Replaces the triangles' vertex normals (in `normals`, unit, per vertex) by the surface's own, Su × Sv
 * at each vertex's parameters (uv pairs; analytic where the surface has evalDerivs, else central
 * differences), turned to the side the triangles face: a vertex of the
 * outline that only sliver triangles along a curved edge touch would otherwise get their normal, across
 * the surface, and the plate's thickness would not follow the surface there. A vertex where Su × Sv
 * vanishes (a pole) keeps its triangles' normal.
 */
function surfaceNormals(g: Sampled, uvs: ArrayLike<number>, normals: Float64Array): void {
  const { s } = g;
  const du = 1e-6 * (s.u1 - s.u0),
    dv = 1e-6 * (s.v1 - s.v0);
  const a = new Float64Array(3),
    b = new Float64Array(3),
    n = new Float64Array(normals.length);
  let agree = 0;
  const D = new Float64Array(9);
  for (let k = 0; 2 * k + 1 < uvs.length; k++) {
    const u = uvs[2 * k],
      v = uvs[2 * k + 1];
    let sx: number, sy: number, sz: number, tx: number, ty: number, tz: number;
    if (s.evalDerivs) {
      s.evalDerivs(u, v, D);
      sx = D[3];
      sy = D[4];
      sz = D[5];
      tx = D[6];
      ty = D[7];
      tz = D[8];
    } else {
      // central differences inside the domain, one-sided at its edges
      const ua = Math.max(s.u0, u - du),
        ub = Math.min(s.u1, u + du),
        va = Math.max(s.v0, v - dv),
        vb = Math.min(s.v1, v + dv);
      s.eval(ub, v, a);
      s.eval(ua, v, b);
      sx = a[0] - b[0];
      sy = a[1] - b[1];
      sz = a[2] - b[2];
      s.eval(u, vb, a);
      s.eval(u, va, b);
      tx = a[0] - b[0];
      ty = a[1] - b[1];
      tz = a[2] - b[2];
    }
    const nx = sy * tz - sz * ty,
      ny = sz * tx - sx * tz,
      nz = sx * ty - sy * tx;
    const l = len3(nx, ny, nz);
    if (!(l > 1e-12 * (len3(sx, sy, sz) * len3(tx, ty, tz) + 1e-300))) continue;
    n[3 * k] = nx / l;
    n[3 * k + 1] = ny / l;
    n[3 * k + 2] = nz / l;
    agree += n[3 * k] * normals[3 * k] + n[3 * k + 1] * normals[3 * k + 1] + n[3 * k + 2] * normals[3 * k + 2];
  }
  const sign = agree < 0 ? -1 : 1;
  for (let k = 0; k < n.length; k += 3)
    if (n[k] || n[k + 1] || n[k + 2]) {
      normals[k] = sign * n[k];
      normals[k + 1] = sign * n[k + 1];
      normals[k + 2] = sign * n[k + 2];
    }
}

const TRANSPOSED = new WeakMap<ParamSurface, ParamSurface>();

/** The surface with its parameters swapped, S'(v, u) = S(u, v) (one object per surface: its samples are cached). */
function transposed(s: ParamSurface): ParamSurface {
  let t = TRANSPOSED.get(s);
  if (!t) {
    t = s.evalDerivs
      ? s.evalGrid
        ? new TransposedSurface(s)
        : new TransposedNoGrid(s)
      : s.evalGrid
        ? new TransposedNoDerivs(s)
        : new TransposedPlain(s);
    TRANSPOSED.set(s, t);
    TRANSPOSED.set(t, s);
  }
  return t;
}

/** S'(v, u) = S(u, v): points only (methods, not closures per surface: see paramSurfaces.ts). */
class TransposedPlain implements ParamSurface {
  readonly u0: number;
  readonly u1: number;
  readonly v0: number;
  readonly v1: number;
  constructor(readonly s: ParamSurface) {
    this.u0 = s.v0;
    this.u1 = s.v1;
    this.v0 = s.u0;
    this.v1 = s.u1;
  }
  eval(v: number, u: number, out: Float64Array): void {
    this.s.eval(u, v, out);
  }
}

/** The surface's own derivatives, ∂/∂u and ∂/∂v swapped. */
function transposedDerivs(s: ParamSurface, v: number, u: number, out: Float64Array): void {
  s.evalDerivs?.(u, v, out);
  for (let k = 3; k < 6; k++) {
    const d = out[k];
    out[k] = out[k + 3];
    out[k + 3] = d;
  }
}

/** The surface's own grid (us × vs), written transposed. */
function transposedGrid(s: ParamSurface, vs: Float64Array, us: Float64Array, out: Float64Array): void {
  const own = new Float64Array(out.length);
  s.evalGrid?.(us, vs, own);
  for (let i = 0; i < us.length; i++)
    for (let j = 0; j < vs.length; j++) {
      const a = 3 * (i * vs.length + j),
        b = 3 * (j * us.length + i);
      out[b] = own[a];
      out[b + 1] = own[a + 1];
      out[b + 2] = own[a + 2];
    }
}

/** S'(v, u) = S(u, v) with derivatives, without a grid evaluator. */
class TransposedNoGrid extends TransposedPlain {
  evalDerivs(v: number, u: number, out: Float64Array): void {
    transposedDerivs(this.s, v, u, out);
  }
}

/** S'(v, u) = S(u, v) with a grid evaluator, without derivatives. */
class TransposedNoDerivs extends TransposedPlain {
  evalGrid(vs: Float64Array, us: Float64Array, out: Float64Array): void {
    transposedGrid(this.s, vs, us, out);
  }
}

/** S'(v, u) = S(u, v) with derivatives and a grid evaluator. */
class TransposedSurface extends TransposedPlain {
  evalDerivs(v: number, u: number, out: Float64Array): void {
    transposedDerivs(this.s, v, u, out);
  }
  evalGrid(vs: Float64Array, us: Float64Array, out: Float64Array): void {
    transposedGrid(this.s, vs, us, out);
  }
}

/** The sheet facing the other way: triangles and rings reversed, normals negated. */
function flipSheet(sh: Sheet): Sheet {
  const I = sh.indices.slice();
  for (let t = 0; t < I.length; t += 3) {
    const b = I[t + 1];
    I[t + 1] = I[t + 2];
    I[t + 2] = b;
  }
  return {
    positions: sh.positions,
    normals: sh.normals.map((v) => -v),
    indices: I,
    rings: sh.rings.map((r) => r.slice().reverse()),
  };
}

function polyArea(p: Polygon): number {
  return p.reduce((a, r, k) => a + (k ? -1 : 1) * Math.abs(closedRingArea(r)), 0);
}

/**
 * signedArea2d of a closed ring of [x, y] pairs (its last point repeating the first) without flattening
 * a copy of it: the same sums in the same order, so the same value to the bit.
 */
function closedRingArea(r: Ring): number {
  const n = r.length - 1;
  if (n < 1) return 0;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += (r[j][0] - r[i][0]) * (r[j][1] + r[i][1]);
  return s / 2;
}
