/**
 * The parametric surfaces a plate is meshed on (ParamSurface, paramSheet.ts): NURBS, cone (and cylinder),
 * sphere, a polyline extruded along a direction. Units: mm, angles in radians.
 *
 * Classes rather than objects of closures: point inversion calls `eval` thousands of times per plate, and
 * V8 keeps the optimised code of a closure made per surface only as long as one such closure lives — each
 * import's surfaces died with it, so after every full garbage collection the evaluators ran unoptimised
 * and were compiled again. A method is one function for every surface.
 */
import type { Vec3 } from './curves';
import { type BezierPatches, bezierPatches, evalPatches, evalPatchesDerivs, evalPatchesGrid } from './bezier';
import type { NurbsSurface } from './nurbs';
import type { ParamSurface } from './paramSheet';

/**
 * The box [min x, y, z, max x, y, z] of homogeneous control points (4 numbers each, weights > 0, as
 * `homogeneous` makes them): a NURBS surface lies in its control points' convex hull, so in this box.
 */
export function controlBox(pw: Float64Array): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 3 < pw.length; i += 4)
    for (let k = 0; k < 3; k++) {
      const x = pw[i + k] / pw[i + 3];
      if (x < b[k]) b[k] = x;
      if (x > b[3 + k]) b[3 + k] = x;
    }
  return b;
}

/**
 * A NURBS surface on its knot domain: points, grids, analytic derivatives, its control points' box.
 * Evaluated on its Bézier patches (bezier.ts), cut when first evaluated: a surface collection's
 * faces that no plate lies on are never cut.
 */
export class NurbsParamSurface implements ParamSurface {
  readonly u0: number;
  readonly u1: number;
  readonly v0: number;
  readonly v1: number;
  readonly hull: number[];
  private cut: BezierPatches | null = null;
  constructor(readonly nurbs: NurbsSurface) {
    this.u0 = nurbs.knotsU[nurbs.degreeU];
    this.u1 = nurbs.knotsU[nurbs.nU];
    this.v0 = nurbs.knotsV[nurbs.degreeV];
    this.v1 = nurbs.knotsV[nurbs.nV];
    this.hull = controlBox(nurbs.pw);
  }
  /** The surface's Bézier patches, cut once. */
  get patches(): BezierPatches {
    if (!this.cut) this.cut = bezierPatches(this.nurbs);
    return this.cut;
  }
  eval(u: number, v: number, out: Float64Array): void {
    evalPatches(this.patches, u, v, out);
  }
  evalGrid(us: Float64Array, vs: Float64Array, out: Float64Array): void {
    evalPatchesGrid(this.patches, us, vs, out);
  }
  evalDerivs(u: number, v: number, out: Float64Array): void {
    evalPatchesDerivs(this.patches, u, v, out);
  }
}

/**
 * A cone (a cylinder when r0 = r1) on angle t ∈ [0, 2π] × b ∈ [0, 1]: the circle of radius r0 + (r1 − r0)·b
 * in the plane of unit vectors e1, e2 at o + b·h·A (A the unit axis, h the height, mm).
 */
export class ConeParamSurface implements ParamSurface {
  readonly u0 = 0;
  readonly u1 = 2 * Math.PI;
  readonly v0 = 0;
  readonly v1 = 1;
  constructor(
    readonly o: Vec3,
    readonly A: Vec3,
    readonly e1: Vec3,
    readonly e2: Vec3,
    readonly h: number,
    readonly r0: number,
    readonly r1: number,
  ) {}
  eval(t: number, b: number, out: Float64Array): void {
    const { o, A, e1, e2, h, r0, r1 } = this;
    const r = r0 + (r1 - r0) * b,
      x = Math.cos(t) * r,
      y = Math.sin(t) * r;
    for (let k = 0; k < 3; k++) out[k] = o[k] + b * h * A[k] + x * e1[k] + y * e2[k];
  }
}

/** A sphere of radius r (mm) about o on longitude θ ∈ [0, 2π] × latitude φ ∈ [−π/2, π/2]. */
export class SphereParamSurface implements ParamSurface {
  readonly u0 = 0;
  readonly u1 = 2 * Math.PI;
  readonly v0 = -Math.PI / 2;
  readonly v1 = Math.PI / 2;
  constructor(
    readonly o: ArrayLike<number>,
    readonly r: number,
  ) {}
  eval(th: number, ph: number, out: Float64Array): void {
    const { o, r } = this;
    out[0] = o[0] + r * Math.cos(ph) * Math.cos(th);
    out[1] = o[1] + r * Math.cos(ph) * Math.sin(th);
    out[2] = o[2] + r * Math.sin(ph);
  }
}

/**
 * A polyline p (xyz, mm) extruded along unit vector dv: u is the arc length along p (cum: the length at
 * each point, cum[0] = 0, increasing), v the distance along dv, [0, sweep length].
 */
export class ExtrusionParamSurface implements ParamSurface {
  readonly u0 = 0;
  readonly u1: number;
  readonly v0 = 0;
  constructor(
    readonly p: number[],
    readonly cum: number[],
    readonly dv: Vec3,
    readonly v1: number,
  ) {
    this.u1 = cum[cum.length - 1];
  }
  eval(u: number, v: number, out: Float64Array): void {
    const { p, cum, dv } = this;
    let lo = 0,
      hi = cum.length - 1;
    while (hi - lo > 1) {
      const m = (lo + hi) >> 1;
      if (cum[m] <= u) lo = m;
      else hi = m;
    }
    const f = cum[hi] > cum[lo] ? Math.min(1, Math.max(0, (u - cum[lo]) / (cum[hi] - cum[lo]))) : 0;
    for (let k = 0; k < 3; k++) out[k] = p[3 * lo + k] + f * (p[3 * hi + k] - p[3 * lo + k]) + v * dv[k];
  }
}
