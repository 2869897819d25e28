/**
 * OCX curves to polylines in millimetres (OCX_GUIDE §4.1): Line3D, PolyLine3D, CircumArc3D, Circle3D,
 * CircumCircle3D, Ellipse3D, NURBS3D (both the 3.0 `coordinates` control points and the rc3
 * `ControlPoint/Point3D` nesting) and CompositeCurve3D (recursively). Also the catalogue hole shapes
 * (§2.15) in local (x, y) mm.
 */
import { circle, circumArc, ellipse, normalize, type Vec3 } from '../geometry/curves';
import { homogeneous, tessellateCurve, usableKnots } from '../geometry/nurbs';
import type { UnitTable } from './units';
import { child, children, num, numList, type XNode } from './xmlTree';

/** Tolerances and unit table used while converting curves. */
export interface CurveContext {
  units: UnitTable;
  chordMm: number;
  angRad: number;
  /** Reports a non-fatal problem (curve skipped or approximated). */
  warn: (code: string, message: string, line?: number) => void;
  /**
   * Repair steps on (default): surplus knots trimmed, a degree above the control points lowered. Off (the
   * conversion's geometry healing off): such curves and surfaces are refused with a warning instead.
   */
  heal?: boolean;
}

/** Curve element local names understood by curveSegments. */
export const CURVE_ELEMENTS = new Set([
  'Line3D',
  'PolyLine3D',
  'CircumArc3D',
  'Circle3D',
  'CircumCircle3D',
  'Ellipse3D',
  'NURBS3D',
  'CompositeCurve3D',
]);

const lenMm = (ctx: CurveContext, n: XNode | undefined) => {
  const v = ctx.units.value(n, 'length');
  return v === undefined ? undefined : v * 1000;
};
/** A vector element's direction: the `direction` attribute (3.x) or x, y, z attributes (OCX 2.8.x). */
const dir = (n: XNode | undefined): Vec3 | undefined => {
  const d =
    n?.a.direction === undefined && n?.a.x !== undefined ? [n.a.x, n.a.y, n.a.z].map(Number) : numList(n?.a.direction);
  return d.length >= 3 && d.every(Number.isFinite) ? [d[0], d[1], d[2]] : undefined;
};
export { dir as directionOf };

/**
 * Polylines (xyz mm) of every curve below `container` (a contour, trace line or curve element itself).
 * Unknown children are ignored; unreadable curves are skipped with a warning.
 */
export function curveSegments(container: XNode | undefined, ctx: CurveContext): number[][] {
  const out: number[][] = [];
  if (!container) return out;
  if (CURVE_ELEMENTS.has(container.n)) visitCurve(container, ctx, out);
  else for (const c of container.c) visitCurve(c, ctx, out);
  return out;
}

/**
 * curveSegments' walk: the polyline of curve element n (of each member of a composite, in order) pushed
 * onto out. A module function rather than a closure per call (under tsx each closure made is also named).
 */
function visitCurve(n: XNode, ctx: CurveContext, out: number[][]): void {
  if (n.n === 'CompositeCurve3D') {
    for (const c of n.c) visitCurve(c, ctx, out);
    return;
  }
  if (!CURVE_ELEMENTS.has(n.n)) return;
  try {
    const p = curvePolyline(n, ctx);
    if (p && p.length >= 6 && p.every(Number.isFinite)) out.push(p);
    else ctx.warn('bad-curve', `${n.n}${n.a.id ? ` ${n.a.id}` : ''} has no usable geometry; skipped`, n.line);
  } catch (e) {
    ctx.warn('bad-curve', `${n.n}${n.a.id ? ` ${n.a.id}` : ''}: ${(e as Error).message}; skipped`, n.line);
  }
}

/** True when the curve element is closed by definition (circle, ellipse). */
export function isClosedPrimitive(n: XNode): boolean {
  return n.n === 'Circle3D' || n.n === 'CircumCircle3D' || n.n === 'Ellipse3D';
}

/** One curve element as a polyline (xyz mm), or undefined when required data is missing. */
export function curvePolyline(n: XNode, ctx: CurveContext): number[] | undefined {
  const U = ctx.units;
  switch (n.n) {
    case 'Line3D': {
      const a = U.pointMm(child(n, 'StartPoint')),
        b = U.pointMm(child(n, 'EndPoint'));
      return a && b ? [...a, ...b] : undefined;
    }
    case 'PolyLine3D': {
      const pts = children(n, 'Point3D')
        .map((p) => U.pointMm(p))
        .filter((p): p is Vec3 => !!p);
      const flat = pts.flat();
      if (n.a.isClosed === 'true' && pts.length > 2) flat.push(...pts[0]);
      return flat;
    }
    case 'CircumArc3D': {
      const a = U.pointMm(child(n, 'StartPoint')),
        b = U.pointMm(child(n, 'IntermediatePoint')),
        c = U.pointMm(child(n, 'EndPoint'));
      return a && b && c ? circumArc(a, b, c, ctx.chordMm, ctx.angRad) : undefined;
    }
    case 'Circle3D': {
      const c = U.pointMm(child(n, 'Center')),
        nn = dir(child(n, 'Normal')),
        d = lenMm(ctx, child(n, 'Diameter'));
      return c && nn && d && d > 0 ? circle(c, nn, d / 2, ctx.chordMm, ctx.angRad) : undefined;
    }
    case 'CircumCircle3D': {
      const ps = children(child(n, 'Positions'), 'Point3D').map((p) => U.pointMm(p));
      if (ps.length < 3 || ps.some((p) => !p)) return undefined;
      const [a, b, c] = ps as Vec3[];
      const arc1 = circumArc(a, b, c, ctx.chordMm, ctx.angRad);
      // continue from C back to A through the rest of the circle: arc C → (mirror) → A
      const arc2 = circumArc(c, midOpposite(a, b, c), a, ctx.chordMm, ctx.angRad);
      return [...arc1, ...arc2.slice(3)];
    }
    case 'Ellipse3D': {
      const c = U.pointMm(child(n, 'Center'));
      const ma = dir(child(n, 'MajorAxis')),
        mi = dir(child(n, 'MinorAxis'));
      const dM = lenMm(ctx, child(n, 'MajorDiameter')),
        dm = lenMm(ctx, child(n, 'MinorDiameter'));
      return c && ma && mi && dM && dm ? ellipse(c, ma, mi, dM / 2, dm / 2, ctx.chordMm, ctx.angRad) : undefined;
    }
    case 'NURBS3D':
      return nurbsPolyline(n, ctx);
    default:
      return undefined;
  }
}

/** A point on the circle through a, b, c lying on the arc from c back to a (not containing b). */
function midOpposite(a: Vec3, b: Vec3, c: Vec3): Vec3 {
  // reflect b through the chord midpoint of a–c, then push it onto the circle side opposite to b
  const m: Vec3 = [(a[0] + c[0]) / 2, (a[1] + c[1]) / 2, (a[2] + c[2]) / 2];
  const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
    ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const nrm = normalize([ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]]);
  const ax = normalize(ac);
  // in-plane perpendicular to the chord pointing away from b
  let perp: Vec3 = [nrm[1] * ax[2] - nrm[2] * ax[1], nrm[2] * ax[0] - nrm[0] * ax[2], nrm[0] * ax[1] - nrm[1] * ax[0]];
  const bm = [b[0] - m[0], b[1] - m[1], b[2] - m[2]];
  if (perp[0] * bm[0] + perp[1] * bm[1] + perp[2] * bm[2] > 0) perp = [-perp[0], -perp[1], -perp[2]];
  // circle centre and radius
  const r2 = (v: number[]) => v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const cr = (p: number[], q: number[]) => [
    p[1] * q[2] - p[2] * q[1],
    p[2] * q[0] - p[0] * q[2],
    p[0] * q[1] - p[1] * q[0],
  ];
  const mm = cr(ab, ac),
    m2 = r2(mm);
  const t1 = cr(ac, mm).map((v) => v * r2(ab)),
    t2 = cr(mm, ab).map((v) => v * r2(ac));
  const O = [a[0] + (t1[0] + t2[0]) / (2 * m2), a[1] + (t1[1] + t2[1]) / (2 * m2), a[2] + (t1[2] + t2[2]) / (2 * m2)];
  const R = Math.sqrt(r2([a[0] - O[0], a[1] - O[1], a[2] - O[2]]));
  return [O[0] + perp[0] * R, O[1] + perp[1] * R, O[2] + perp[2] * R];
}

/** Reads NURBS3D control points (mm) and weights; supports ControlPoint/@coordinates and ControlPoint/Point3D. */
export function readControlPoints(list: XNode[], units: UnitTable): { xyz: number[]; w: number[] } {
  const xyz: number[] = [],
    w: number[] = [];
  for (const l of list)
    for (const cp of children(l, 'ControlPoint')) {
      const p = units.pointMm(cp);
      if (!p) continue;
      xyz.push(...p);
      w.push(num(cp.a.weight) ?? 1);
    }
  return { xyz, w };
}

function nurbsPolyline(n: XNode, ctx: CurveContext): number[] | undefined {
  const props = child(n, 'NURBSproperties');
  const p = num(props?.a.degree);
  const { xyz, w } = readControlPoints(children(n, 'ControlPtList'), ctx.units);
  const nCtrl = xyz.length / 3;
  if (!p || nCtrl < 2) return undefined;
  const heal = ctx.heal !== false;
  const deg = heal ? Math.min(p, nCtrl - 1) : p;
  const knots = usableKnots(numList(child(n, 'KnotVector')?.a.value), nCtrl, deg, heal);
  if (!knots) {
    ctx.warn('bad-nurbs', `NURBS3D ${n.a.id ?? ''} has an invalid knot vector; control polygon used`, n.line);
    return xyz;
  }
  // a periodic curve: its first control points again after the last
  for (let i = 0; i < knots.wrap; i++) {
    xyz.push(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    w.push(w[i]);
  }
  return tessellateCurve({ degree: deg, knots: knots.knots, pw: homogeneous(xyz, w) }, ctx.chordMm, ctx.angRad);
}
