/**
 * Reference surfaces of plates and brackets (OCX_GUIDE §4.3, §5.2.1): inline Plane3D, GridRef to a
 * RefPlane (normal = +axis, plus GridRef Offset), SurfaceRef to a ReferenceSurfaces member or collection.
 * Planes stay analytic; curved surfaces (collections, NURBSSurface, ExtrudedSurface, Cylinder3D, Cone3D,
 * Sphere3D) become triangle meshes in mm for the projection + lift of §5.2.3.
 */
import { cross, len, newellNormal, normalize, perpendicular, type Vec3 } from '../geometry/curves';
import { chainLoops } from '../geometry/chainLoops';
import { evalSurfaceGrid, homogeneous, type NurbsSurface, usableKnots } from '../geometry/nurbs';
import type { ParamSurface } from '../geometry/paramSheet';
import {
  ConeParamSurface,
  ExtrusionParamSurface,
  NurbsParamSurface,
  SphereParamSurface,
} from '../geometry/paramSurfaces';
import { triangulateRegion } from '../geometry/region2d';
import { appendGrid, appendGridPoints, type SurfaceMesh } from '../geometry/surfaceMesh';
import { curveSegments, directionOf, readControlPoints, type CurveContext } from './curveRead';
import { child, children, num, numList, type XNode } from './xmlTree';

/** A plate's reference surface: an analytic plane or a triangulated curved surface (mm). */
export type PlateSurface =
  | { kind: 'plane'; origin: Vec3; normal: Vec3 }
  | {
      kind: 'mesh';
      mesh: SurfaceMesh;
      id: string;
      /** The parametric surfaces the mesh was made of (one per member of a collection), when all are. */
      params?: ParamSurface[];
    };

/** A RefPlane resolved: axis index (0 x, 1 y, 2 z) and location in mm. */
export interface RefPlaneLoc {
  axis: 0 | 1 | 2;
  mm: number;
}

/** Resolution context: curve context, RefPlanes by id, ReferenceSurfaces by id, a mesh cache. */
export interface SurfaceContext extends CurveContext {
  refPlanes: Map<string, RefPlaneLoc>;
  surfaces: Map<string, XNode>;
  meshCache: Map<string, SurfaceMesh | null>;
}

/**
 * The surface of an UnboundedGeometry element, or undefined when it has none that can be used. With
 * several children the first usable one wins (planes first).
 */
export function resolveSurface(ug: XNode | undefined, ctx: SurfaceContext): PlateSurface | undefined {
  if (!ug) return undefined;
  for (const c of ug.c) {
    if (c.n === 'GridRef') {
      const rp = ctx.refPlanes.get(c.a.localRef ?? '');
      if (!rp) {
        ctx.warn('dangling-ref', `GridRef to unknown RefPlane "${c.a.localRef}"`, c.line);
        continue;
      }
      const off = (ctx.units.value(child(c, 'Offset'), 'length') ?? 0) * 1000;
      const normal: Vec3 = [0, 0, 0];
      normal[rp.axis] = 1;
      const origin: Vec3 = [0, 0, 0];
      origin[rp.axis] = rp.mm + off;
      return { kind: 'plane', origin, normal };
    }
    if (c.n === 'Plane3D') {
      const p = planeOf(c, ctx);
      if (p) return p;
      continue;
    }
    if (c.n === 'SurfaceRef') {
      const target = ctx.surfaces.get(c.a.localRef ?? '');
      if (!target) {
        ctx.warn('dangling-ref', `SurfaceRef to unknown surface "${c.a.localRef}"`, c.line);
        continue;
      }
      const s = surfaceOf(target, ctx);
      if (s) return s;
      continue;
    }
    const s = surfaceOf(c, ctx);
    if (s) return s;
  }
  return undefined;
}

function planeOf(n: XNode, ctx: SurfaceContext): PlateSurface | undefined {
  const o = ctx.units.pointMm(child(n, 'Origin'));
  const nn = directionOf(child(n, 'Normal'));
  if (!o || !nn) return undefined;
  return { kind: 'plane', origin: o, normal: normalize(nn) };
}

function surfaceOf(n: XNode, ctx: SurfaceContext): PlateSurface | undefined {
  if (n.n === 'Plane3D') return planeOf(n, ctx);
  const key = n.a.id ?? `line${n.line}`;
  // the parametric forms first, their warnings held back: a surface they cover without a warning gets
  // its mesh (only the projection-and-lift fallback's) when first asked for; otherwise the mesh is made
  // now and the warnings follow its own, in the order they always had
  let held: Parameters<SurfaceContext['warn']>[] | null = null;
  let params = PARAMS.get(n);
  if (params && LAZY.has(n)) return lazyMesh(n, ctx, key, params);
  if (params === undefined && !ctx.meshCache.has(key)) {
    const hold: Parameters<SurfaceContext['warn']>[] = [];
    PARAMS.set(n, (params = paramSurfaces(n, { ...ctx, warn: (...w) => hold.push(w) })));
    if (params && !hold.length && gridMeshed(n)) {
      LAZY.add(n);
      return lazyMesh(n, ctx, key, params);
    }
    held = hold;
  }
  let mesh = ctx.meshCache.get(key);
  if (mesh === undefined) {
    mesh = surfaceMesh(n, ctx);
    ctx.meshCache.set(key, mesh);
  }
  // (a surface without a mesh is not used, and its parametric forms were never read: nothing to tell)
  if (!mesh?.indices.length) return undefined;
  if (held) for (const w of held) ctx.warn(...w);
  if (params === undefined) PARAMS.set(n, (params = paramSurfaces(n, ctx)));
  return params ? { kind: 'mesh', mesh, id: key, params } : { kind: 'mesh', mesh, id: key };
}

/** The surface of element n with its mesh (surfaceMesh, cached under key) made on first use. */
function lazyMesh(n: XNode, ctx: SurfaceContext, key: string, params: ParamSurface[]): PlateSurface {
  let mesh: SurfaceMesh | null = null;
  return {
    kind: 'mesh',
    get mesh(): SurfaceMesh {
      if (!mesh) {
        let m = ctx.meshCache.get(key);
        if (m === undefined) ctx.meshCache.set(key, (m = surfaceMesh(n, ctx)));
        mesh = m ?? { positions: [], indices: [] };
      }
      return mesh;
    },
    id: key,
    params,
  };
}

/**
 * True when surfaceMesh meshes element n (a collection: each member) from what its parametric form
 * reads, so that the mesh is not empty and reading it warns of nothing when reading the form did not:
 * a NURBSSurface, Cylinder3D, Cone3D or Sphere3D is a grid of its form; an ExtrudedSurface with a form
 * has one base polyline of positive length (at least one strip of triangles).
 */
function gridMeshed(n: XNode): boolean {
  return n.n === 'SurfaceCollection' ? n.c.every(gridMeshed) : FORM_MESHED.has(n.n);
}

/** The surface elements gridMeshed accepts. */
const FORM_MESHED = new Set(['NURBSSurface', 'Cylinder3D', 'Cone3D', 'Sphere3D', 'ExtrudedSurface']);

/** Parametric forms of surface elements, per element (null: not all members are parametric). */
const PARAMS = new WeakMap<XNode, ParamSurface[] | null>();
/** Surface elements whose mesh is made on first use (surfaceOf). */
const LAZY = new WeakSet<XNode>();

/**
 * The parametric surfaces of a surface element: one for a NURBSSurface, Cylinder3D, Cone3D, Sphere3D
 * or ExtrudedSurface, one per member of a SurfaceCollection; null when a member has none (a facet).
 */
export function paramSurfaces(n: XNode, ctx: SurfaceContext): ParamSurface[] | null {
  if (n.n === 'SurfaceCollection') {
    const out: ParamSurface[] = [];
    for (const c of n.c) {
      const p = paramSurfaces(c, ctx);
      if (!p) return null;
      out.push(...p);
    }
    return out.length ? out : null;
  }
  const p = paramSurface(n, ctx);
  return p ? [p] : null;
}

function paramSurface(n: XNode, ctx: SurfaceContext): ParamSurface | null {
  const U = ctx.units;
  const L = (x: XNode | undefined) => (U.value(x, 'length') ?? NaN) * 1000;
  switch (n.n) {
    case 'NURBSSurface': {
      const s = nurbsOf(n, ctx, false);
      return s ? nurbsParamSurface(s) : null;
    }
    case 'Cylinder3D':
    case 'Cone3D': {
      const c = coneOf(n, ctx);
      if (!c) return null;
      return new ConeParamSurface(c.o, c.A, c.e1, c.e2, c.h, c.r0, c.r1);
    }
    case 'Sphere3D': {
      const o = U.pointMm(child(n, 'Origin')),
        r = L(child(n, 'Radius'));
      if (!o || !Number.isFinite(r)) return null;
      return new SphereParamSurface(o, r);
    }
    case 'ExtrudedSurface': {
      const segs = curveSegments(child(n, 'BaseCurve'), ctx);
      const sweep = child(n, 'Sweep');
      const d = directionOf(child(sweep, 'Vector3D')) ?? directionOf(sweep);
      const sl = L(child(sweep, 'SweepLength'));
      if (segs.length !== 1 || !d || !Number.isFinite(sl)) return null;
      // the base polyline by arc length
      const p = segs[0];
      const cum = [0];
      for (let i = 3; i < p.length; i += 3)
        cum.push(cum[cum.length - 1] + Math.hypot(p[i] - p[i - 3], p[i + 1] - p[i - 2], p[i + 2] - p[i - 1]));
      const total = cum[cum.length - 1];
      if (!(total > 0)) return null;
      return new ExtrusionParamSurface(p, cum, normalize(d), sl);
    }
    default:
      return null;
  }
}

/** A NURBSSurface element read (control points, repaired knots), or null with a warning when `warn`. */
function nurbsOf(n: XNode, ctx: SurfaceContext, warn: boolean): NurbsSurface | null {
  const pu = num(child(n, 'U_NURBSproperties')?.a.degree),
    pv = num(child(n, 'V_NURBSproperties')?.a.degree);
  let nU = num(child(n, 'U_NURBSproperties')?.a.numCtrlPts),
    nV = num(child(n, 'V_NURBSproperties')?.a.numCtrlPts);
  const lists = children(n, 'ControlPtList');
  const { xyz, w } = readControlPoints(lists, ctx.units);
  const total = xyz.length / 3;
  if (lists.length > 1 && (!nU || !nV)) {
    nU = lists.length;
    nV = total / nU;
  }
  if (!pu || !pv || !nU || !nV || nU * nV !== total) {
    if (warn)
      ctx.warn(
        'bad-surface',
        `NURBSSurface ${n.a.id ?? ''}: control point count does not match ${nU}×${nV}; skipped`,
        n.line,
      );
    return null;
  }
  const heal = ctx.heal !== false;
  const ku = usableKnots(numList(child(n, 'UknotVector')?.a.value), nU, pu, heal);
  const kv = usableKnots(numList(child(n, 'VknotVector')?.a.value), nV, pv, heal);
  if (!ku || !kv) {
    if (warn) ctx.warn('bad-surface', `NURBSSurface ${n.a.id ?? ''}: invalid knot vector; skipped`, n.line);
    return null;
  }
  const pw = wrapGrid(homogeneous(xyz, w), nU, nV, ku.wrap, kv.wrap);
  return { degreeU: pu, degreeV: pv, knotsU: ku.knots, knotsV: kv.knots, nU: nU + ku.wrap, nV: nV + kv.wrap, pw };
}

/**
 * A U-major grid of homogeneous control points (nU × nV) with its first wu rows appended after the last
 * and, in every row, its first wv points appended after the last (a periodic direction unwrapped).
 */
function wrapGrid(pw: Float64Array, nU: number, nV: number, wu: number, wv: number): Float64Array {
  if (!wu && !wv) return pw;
  const mV = nV + wv;
  const out = new Float64Array(4 * (nU + wu) * mV);
  for (let i = 0; i < nU + wu; i++)
    for (let j = 0; j < mV; j++)
      out.set(pw.subarray(4 * ((i % nU) * nV + (j % nV)), 4 * ((i % nU) * nV + (j % nV)) + 4), 4 * (i * mV + j));
  return out;
}

/** The axis frame, height and radii (mm) of a Cylinder3D or Cone3D, or null when incomplete. */
function coneOf(n: XNode, ctx: SurfaceContext) {
  const U = ctx.units;
  const L = (x: XNode | undefined) => (U.value(x, 'length') ?? NaN) * 1000;
  const o = U.pointMm(child(n, 'Origin'));
  let axis: Vec3 | undefined, h: number, r0: number, r1: number;
  if (n.n === 'Cylinder3D') {
    axis = directionOf(child(n, 'Axis'));
    h = L(child(n, 'Height'));
    r0 = r1 = L(child(n, 'Radius'));
  } else {
    const tip = U.pointMm(child(n, 'Tip'));
    axis = tip && o ? [tip[0] - o[0], tip[1] - o[1], tip[2] - o[2]] : undefined;
    h = axis ? Math.hypot(...axis) : NaN;
    r0 = L(child(n, 'BaseRadius'));
    r1 = child(n, 'TipRadius') ? L(child(n, 'TipRadius')) : 0;
  }
  if (!o || !axis || !Number.isFinite(h) || !Number.isFinite(r0)) return null;
  const A = normalize(axis),
    e1 = perpendicular(A),
    e2 = cross(A, e1);
  return { o, A, e1, e2, h, r0, r1 };
}

/** Triangulates a surface element (mm); null when the element cannot be meshed. */
export function surfaceMesh(n: XNode, ctx: SurfaceContext): SurfaceMesh | null {
  const mesh: SurfaceMesh = { positions: [], indices: [] };
  appendSurface(mesh, n, ctx);
  return mesh.indices.length ? mesh : null;
}

function appendSurface(mesh: SurfaceMesh, n: XNode, ctx: SurfaceContext): void {
  const U = ctx.units;
  const L = (x: XNode | undefined) => (U.value(x, 'length') ?? NaN) * 1000;
  switch (n.n) {
    case 'SurfaceCollection':
      for (const c of n.c) appendSurface(mesh, c, ctx);
      return;
    case 'Plane3D': {
      // a facet: the plane inside its FaceBoundaryCurve
      const pl = planeOf(n, ctx);
      const fb = child(n, 'FaceBoundaryCurve');
      if (pl?.kind !== 'plane' || !fb) return;
      const { loops } = chainLoops(curveSegments(fb, ctx), 0.01, 1);
      if (!loops.length) return;
      const nrm = pl.normal,
        e1 = perpendicular(nrm),
        e2 = cross(nrm, e1);
      const to2 = (l: number[]) => {
        const out: number[] = [];
        for (let i = 0; i < l.length; i += 3) {
          const d = [l[i] - pl.origin[0], l[i + 1] - pl.origin[1], l[i + 2] - pl.origin[2]];
          out.push(d[0] * e1[0] + d[1] * e1[1] + d[2] * e1[2], d[0] * e2[0] + d[1] * e2[1] + d[2] * e2[2]);
        }
        return out;
      };
      loops.sort((a, b) => len(newellNormal(b)) - len(newellNormal(a)));
      const r = triangulateRegion(to2(loops[0]), loops.slice(1).map(to2));
      const base = mesh.positions.length / 3;
      for (let i = 0; i < r.points.length; i += 2) {
        const x = r.points[i],
          y = r.points[i + 1];
        mesh.positions.push(
          pl.origin[0] + x * e1[0] + y * e2[0],
          pl.origin[1] + x * e1[1] + y * e2[1],
          pl.origin[2] + x * e1[2] + y * e2[2],
        );
      }
      for (const i of r.indices) mesh.indices.push(base + i);
      return;
    }
    case 'NURBSSurface': {
      const s = nurbsOf(n, ctx, true);
      if (!s) return;
      const { degreeU: pu, degreeV: pv, knotsU: ku, knotsV: kv, nU, nV } = s;
      const u0 = ku[pu],
        u1 = ku[nU],
        v0 = kv[pv],
        v1 = kv[nV];
      const cu = Math.min(64, Math.max(2, (nU - pu) * 6)),
        cv = Math.min(64, Math.max(2, (nV - pv) * 6));
      // the parameters appendGrid's (i / cu, j / cv) give, evaluated row by row
      const us = new Float64Array(cu + 1),
        vs = new Float64Array(cv + 1);
      for (let i = 0; i <= cu; i++) us[i] = u0 + (i / cu) * (u1 - u0);
      for (let j = 0; j <= cv; j++) vs[j] = v0 + (j / cv) * (v1 - v0);
      const xyz = new Float64Array(3 * (cu + 1) * (cv + 1));
      evalSurfaceGrid(s, us, vs, xyz);
      appendGridPoints(mesh, cu, cv, xyz);
      return;
    }
    case 'ExtrudedSurface': {
      const segs = curveSegments(child(n, 'BaseCurve'), ctx);
      const sweep = child(n, 'Sweep');
      const d = directionOf(child(sweep, 'Vector3D')) ?? directionOf(sweep);
      const sl = L(child(sweep, 'SweepLength'));
      if (!segs.length || !d || !Number.isFinite(sl)) {
        ctx.warn('bad-surface', `ExtrudedSurface ${n.a.id ?? ''}: missing base curve or sweep; skipped`, n.line);
        return;
      }
      const dv = normalize(d);
      for (const p of segs) {
        const base = mesh.positions.length / 3,
          np = p.length / 3;
        for (let i = 0; i < np; i++) {
          mesh.positions.push(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
          mesh.positions.push(p[3 * i] + sl * dv[0], p[3 * i + 1] + sl * dv[1], p[3 * i + 2] + sl * dv[2]);
        }
        for (let i = 0; i + 1 < np; i++) {
          const a = base + 2 * i;
          mesh.indices.push(a, a + 2, a + 3, a, a + 3, a + 1);
        }
      }
      return;
    }
    case 'Cylinder3D':
    case 'Cone3D': {
      const c = coneOf(n, ctx);
      if (!c) return;
      const { o, A, e1, e2, h, r0, r1 } = c;
      appendGrid(mesh, 72, 4, (a, b, out) => {
        const t = 2 * Math.PI * a,
          r = r0 + (r1 - r0) * b,
          x = Math.cos(t) * r,
          y = Math.sin(t) * r;
        for (let k = 0; k < 3; k++) out[k] = o[k] + b * h * A[k] + x * e1[k] + y * e2[k];
      });
      return;
    }
    case 'Sphere3D': {
      const o = U.pointMm(child(n, 'Origin')),
        r = L(child(n, 'Radius'));
      if (!o || !Number.isFinite(r)) return;
      appendGrid(mesh, 72, 36, (a, b, out) => {
        const th = 2 * Math.PI * a,
          ph = Math.PI * (b - 0.5);
        out[0] = o[0] + r * Math.cos(ph) * Math.cos(th);
        out[1] = o[1] + r * Math.cos(ph) * Math.sin(th);
        out[2] = o[2] + r * Math.sin(ph);
      });
      return;
    }
    default:
      return;
  }
}

/** A NURBS surface as a ParamSurface on its knot domain: points, grids, derivatives, its control points' box. */
export function nurbsParamSurface(s: NurbsSurface): ParamSurface {
  return new NurbsParamSurface(s);
}
