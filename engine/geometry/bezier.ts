/**
 * NURBS curves and surfaces (OCX_GUIDE §4.1 "NURBS3D", §4.3 "NURBSSurface") in Bézier form: a curve's
 * span, and a surface cut into its rational Bézier patches, one per pair of non-empty knot spans, for
 * fast evaluation: the B-spline basis of The NURBS Book A2.2 takes p(p + 1)/2
 * divisions per direction and point, the Bernstein basis of a patch none, so a point costs about 2.5×
 * less (75 against 185 ns at degree 5 × 1, bench/README.md "OCX import"). The patches are found once
 * per surface by blossoming (the polar form of each span's polynomial at its ends, de Boor's algorithm
 * with a different parameter per level), which needs no clamped or repeated knots. Points agree with
 * `evalSurface` to round-off (1e-11 mm on a 2 m surface). Units: whatever the control points use (the
 * importer: mm).
 */
import type { NurbsSurface } from './nurbs';

/** A surface as patches: nbU × nbV patches of (pu + 1) × (pv + 1) homogeneous control points. */
export interface BezierPatches {
  pu: number;
  pv: number;
  /** The patches' bounds along u (nbU + 1 increasing knot values) and along v. */
  ub: Float64Array;
  vb: Float64Array;
  /**
   * Homogeneous control points (x·w, y·w, z·w, w): point (a, b) of patch (i, j) at
   * 4 · (((i · nbV + j) · (pu + 1) + a) · (pv + 1) + b).
   */
  q: Float64Array;
}

/**
 * The distinct knot values bounding the non-empty spans of a direction with n control points of degree
 * p (U[p] ≤ … ≤ U[n]), and each such span's index k (U[k] < U[k + 1]).
 */
function spansOf(U: Float64Array, n: number, p: number): { breaks: number[]; spans: number[] } {
  const breaks = [U[p]],
    spans: number[] = [];
  for (let k = p; k < n; k++)
    if (U[k + 1] > U[k]) {
      spans.push(k);
      breaks.push(U[k + 1]);
    }
  return { breaks, spans };
}

/**
 * The Bézier control points of span k (U[k] < U[k + 1]) of a B-spline of degree p whose control points
 * are rows of `dim` numbers in P (row i at offset + i · stride): point a is the blossom at (U[k]
 * repeated p − a times, U[k + 1] repeated a times), written to out at outOffset + a · dim. `work` holds
 * at least (p + 1) · dim numbers.
 */
export function spanBezier(
  U: Float64Array,
  p: number,
  k: number,
  P: Float64Array,
  offset: number,
  stride: number,
  dim: number,
  out: Float64Array,
  outOffset: number,
  work: Float64Array,
): void {
  const lo = U[k],
    hi = U[k + 1];
  for (let a = 0; a <= p; a++) {
    for (let i = 0; i <= p; i++) for (let d = 0; d < dim; d++) work[i * dim + d] = P[offset + (k - p + i) * stride + d];
    // de Boor's triangle with parameter t_r at level r: the first p − a levels at lo, the rest at hi
    for (let r = 1; r <= p; r++) {
      const t = r <= p - a ? lo : hi;
      for (let i = p; i >= r; i--) {
        const ui = U[k - p + i];
        const al = (t - ui) / (U[k + 1 + i - r] - ui);
        for (let d = 0; d < dim; d++) work[i * dim + d] = (1 - al) * work[(i - 1) * dim + d] + al * work[i * dim + d];
      }
    }
    for (let d = 0; d < dim; d++) out[outOffset + a * dim + d] = work[p * dim + d];
  }
}

/** The surface's Bézier patches (see the file's comment); the knots must bound at least one span each way. */
export function bezierPatches(s: NurbsSurface): BezierPatches {
  const { degreeU: pu, degreeV: pv, nU, nV, knotsU, knotsV, pw } = s;
  const U = spansOf(knotsU, nU, pu),
    V = spansOf(knotsV, nV, pv);
  const nbU = U.spans.length,
    nbV = V.spans.length;
  // first along u, every column j of control points at once (a row of nV · 4 numbers per u index)
  const rowLen = 4 * nV;
  const alongU = new Float64Array(nbU * (pu + 1) * rowLen);
  const work = new Float64Array((Math.max(pu, pv) + 1) * Math.max(rowLen, 4));
  for (let i = 0; i < nbU; i++)
    spanBezier(knotsU, pu, U.spans[i], pw, 0, rowLen, rowLen, alongU, i * (pu + 1) * rowLen, work);
  // then along v, each of those rows
  const q = new Float64Array(nbU * nbV * (pu + 1) * (pv + 1) * 4);
  const row = new Float64Array((pv + 1) * 4);
  for (let i = 0; i < nbU; i++)
    for (let a = 0; a <= pu; a++) {
      const from = (i * (pu + 1) + a) * rowLen;
      for (let j = 0; j < nbV; j++) {
        spanBezier(knotsV, pv, V.spans[j], alongU, from, 4, 4, row, 0, work);
        q.set(row, 4 * ((i * nbV + j) * (pu + 1) + a) * (pv + 1));
      }
    }
  return { pu, pv, ub: Float64Array.from(U.breaks), vb: Float64Array.from(V.breaks), q };
}

/**
 * S and its first partial derivatives from homogeneous control points (x·w, y·w, z·w, w) and the basis
 * functions and their derivatives of both directions: point (a, b) of the (pu + 1) × (pv + 1) net at
 * pw[base + a · rowStride + 4b], weighted by Nu[a]·Nv[b] (Du, Dv: the derivatives). Writes S into out[0..2],
 * ∂S/∂u into out[3..5], ∂S/∂v into out[6..8] (the quotient rule on the homogeneous sums). Each row's sums
 * along v are taken first, then weighted along u. Shared by the B-spline and the Bézier evaluation.
 */
export function derivativeSums(
  pw: Float64Array,
  base: number,
  rowStride: number,
  pu: number,
  pv: number,
  Nu: ArrayLike<number>,
  Du: ArrayLike<number>,
  Nv: ArrayLike<number>,
  Dv: ArrayLike<number>,
  out: Float64Array,
): void {
  let x = 0,
    y = 0,
    z = 0,
    w = 0,
    xu = 0,
    yu = 0,
    zu = 0,
    wu = 0,
    xv = 0,
    yv = 0,
    zv = 0,
    wv = 0;
  for (let a = 0; a <= pu; a++) {
    // the row's sums along v (value and v derivative), then weighted along u
    let rx = 0,
      ry = 0,
      rz = 0,
      rw = 0,
      vx = 0,
      vy = 0,
      vz = 0,
      vw = 0;
    let o = base + a * rowStride;
    for (let b = 0; b <= pv; b++, o += 4) {
      const n = Nv[b],
        d = Dv[b];
      rx += n * pw[o];
      ry += n * pw[o + 1];
      rz += n * pw[o + 2];
      rw += n * pw[o + 3];
      vx += d * pw[o];
      vy += d * pw[o + 1];
      vz += d * pw[o + 2];
      vw += d * pw[o + 3];
    }
    const f = Nu[a],
      fu = Du[a];
    x += f * rx;
    y += f * ry;
    z += f * rz;
    w += f * rw;
    xu += fu * rx;
    yu += fu * ry;
    zu += fu * rz;
    wu += fu * rw;
    xv += f * vx;
    yv += f * vy;
    zv += f * vz;
    wv += f * vw;
  }
  const sx = x / w,
    sy = y / w,
    sz = z / w;
  out[0] = sx;
  out[1] = sy;
  out[2] = sz;
  out[3] = (xu - wu * sx) / w;
  out[4] = (yu - wu * sy) / w;
  out[5] = (zu - wu * sz) / w;
  out[6] = (xv - wv * sx) / w;
  out[7] = (yv - wv * sy) / w;
  out[8] = (zv - wv * sz) / w;
}

/** The patch index along breaks b holding t: b[i] ≤ t < b[i + 1], the first or last patch beyond the ends. */
function patchOf(b: Float64Array, t: number): number {
  let lo = 0,
    hi = b.length - 1;
  if (t >= b[hi - 1]) return hi - 1;
  while (hi - lo > 1) {
    const m = (lo + hi) >> 1;
    if (t < b[m]) hi = m;
    else lo = m;
  }
  return lo;
}

/**
 * The Bernstein polynomials of degree p at t ∈ [0, 1] into out[0..p] (the triangle of The NURBS Book
 * A1.3), and with `lower`, those of degree p − 1 into lower[0..p − 1] (for derivatives).
 */
export function bernstein(p: number, t: number, out: Float64Array, lower?: Float64Array): void {
  const t1 = 1 - t;
  out[0] = 1;
  for (let j = 1; j <= p; j++) {
    if (j === p && lower) for (let r = 0; r < p; r++) lower[r] = out[r];
    let saved = 0;
    for (let r = 0; r < j; r++) {
      const tmp = out[r];
      out[r] = saved + t1 * tmp;
      saved = t * tmp;
    }
    out[j] = saved;
  }
}

/** Scratch of the evaluators (per thread; no evaluation re-enters another). */
let BU = new Float64Array(8),
  BV = new Float64Array(8),
  LU = new Float64Array(8),
  LV = new Float64Array(8),
  DU = new Float64Array(8),
  DV = new Float64Array(8);

/** Grows the scratch arrays to degree p. */
function scratch(p: number): void {
  if (BU.length <= p) {
    BU = new Float64Array(2 * (p + 1));
    BV = new Float64Array(2 * (p + 1));
    LU = new Float64Array(2 * (p + 1));
    LV = new Float64Array(2 * (p + 1));
    DU = new Float64Array(2 * (p + 1));
    DV = new Float64Array(2 * (p + 1));
  }
}

/** S(u, v) into out[0..2]; u, v beyond the domain evaluate the end patches' polynomials. */
export function evalPatches(z: BezierPatches, u: number, v: number, out: Float64Array): void {
  const { pu, pv, ub, vb } = z;
  scratch(Math.max(pu, pv));
  const i = patchOf(ub, u),
    j = patchOf(vb, v);
  bernstein(pu, (u - ub[i]) / (ub[i + 1] - ub[i]), BU);
  bernstein(pv, (v - vb[j]) / (vb[j + 1] - vb[j]), BV);
  sumPatch(z, i, j, out);
}

/** The weighted sum of patch (i, j) with the Bernstein values in BU, BV, divided by its weight, into out. */
function sumPatch(z: BezierPatches, i: number, j: number, out: Float64Array, at = 0): void {
  const { pu, pv, q } = z;
  const nbV = z.vb.length - 1;
  let o = 4 * ((i * nbV + j) * (pu + 1)) * (pv + 1);
  let x = 0,
    y = 0,
    zz = 0,
    w = 0;
  for (let a = 0; a <= pu; a++) {
    const fa = BU[a];
    for (let b = 0; b <= pv; b++, o += 4) {
      const f = fa * BV[b];
      x += f * q[o];
      y += f * q[o + 1];
      zz += f * q[o + 2];
      w += f * q[o + 3];
    }
  }
  out[at] = x / w;
  out[at + 1] = y / w;
  out[at + 2] = zz / w;
}

/**
 * S at every (us[i], vs[j]) into out at 3 · (i · vs.length + j), each point exactly as evalPatches gives
 * it (the patch and Bernstein values of every u and every v found once).
 */
export function evalPatchesGrid(
  z: BezierPatches,
  us: ArrayLike<number>,
  vs: ArrayLike<number>,
  out: Float64Array,
): void {
  const { pu, pv, ub, vb } = z;
  scratch(Math.max(pu, pv));
  const nv = vs.length;
  const jv = new Int32Array(nv),
    bv = new Float64Array(nv * (pv + 1));
  for (let k = 0; k < nv; k++) {
    const j = patchOf(vb, vs[k]);
    jv[k] = j;
    bernstein(pv, (vs[k] - vb[j]) / (vb[j + 1] - vb[j]), BV);
    for (let b = 0; b <= pv; b++) bv[k * (pv + 1) + b] = BV[b];
  }
  for (let m = 0; m < us.length; m++) {
    const i = patchOf(ub, us[m]);
    bernstein(pu, (us[m] - ub[i]) / (ub[i + 1] - ub[i]), BU);
    for (let k = 0; k < nv; k++) {
      for (let b = 0; b <= pv; b++) BV[b] = bv[k * (pv + 1) + b];
      sumPatch(z, i, jv[k], out, 3 * (m * nv + k));
    }
  }
}

/**
 * S(u, v) into out[0..2] (as evalPatches gives it up to the order of the sums) and ∂S/∂u, ∂S/∂v (per
 * unit of u, v) into out[3..5], out[6..8]: the Bernstein derivatives p (B_{a−1, p−1} − B_{a, p−1}) over
 * the patch's length, summed as the B-spline evaluation sums (derivativeSums).
 */
export function evalPatchesDerivs(z: BezierPatches, u: number, v: number, out: Float64Array): void {
  const { pu, pv, ub, vb, q } = z;
  scratch(Math.max(pu, pv));
  const i = patchOf(ub, u),
    j = patchOf(vb, v);
  const lu = ub[i + 1] - ub[i],
    lv = vb[j + 1] - vb[j];
  bernstein(pu, (u - ub[i]) / lu, BU, LU);
  bernstein(pv, (v - vb[j]) / lv, BV, LV);
  // the Bernstein derivatives p (B_{a−1, p−1} − B_{a, p−1}) over the patch's length
  for (let a = 0; a <= pu; a++) DU[a] = (pu * ((a > 0 ? LU[a - 1] : 0) - (a < pu ? LU[a] : 0))) / lu;
  for (let b = 0; b <= pv; b++) DV[b] = (pv * ((b > 0 ? LV[b - 1] : 0) - (b < pv ? LV[b] : 0))) / lv;
  const nbV = vb.length - 1;
  derivativeSums(q, 4 * ((i * nbV + j) * (pu + 1)) * (pv + 1), 4 * (pv + 1), pu, pv, BU, DU, BV, DV, out);
}

/**
 * One non-empty span [a, b] of a NURBS curve in Bézier form (homogeneous control points, 4 numbers
 * each): points within it at a fraction of evalCurve's cost, for the curve's tessellation. Reused from
 * span to span (set).
 */
export class CurveSpan {
  private q = new Float64Array(32);
  private work = new Float64Array(32);
  private b = new Float64Array(9);
  private p = 1;
  private a = 0;
  private len = 1;

  /** Takes span k of the curve of degree p on knots U with homogeneous control points pw. */
  set(U: Float64Array, p: number, k: number, pw: Float64Array): void {
    if (this.q.length < 4 * (p + 1)) {
      this.q = new Float64Array(8 * (p + 1));
      this.work = new Float64Array(8 * (p + 1));
      this.b = new Float64Array(2 * (p + 1));
    }
    spanBezier(U, p, k, pw, 0, 4, 4, this.q, 0, this.work);
    this.p = p;
    this.a = U[k];
    this.len = U[k + 1] - U[k];
  }

  /** The curve's point at t (within the span) into out[at..at + 2]. */
  at(t: number, out: Float64Array, at = 0): void {
    const { p, q, b } = this;
    bernstein(p, (t - this.a) / this.len, b);
    let x = 0,
      y = 0,
      z = 0,
      w = 0;
    for (let i = 0, o = 0; i <= p; i++, o += 4) {
      x += b[i] * q[o];
      y += b[i] * q[o + 1];
      z += b[i] * q[o + 2];
      w += b[i] * q[o + 3];
    }
    out[at] = x / w;
    out[at + 1] = y / w;
    out[at + 2] = z / w;
  }
}
