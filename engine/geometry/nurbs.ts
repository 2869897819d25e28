/**
 * NURBS curve and surface kernels (OCX_GUIDE §4.1 "NURBS3D", §4.3 "NURBSSurface"): evaluation with
 * rational weights and repeated knots, knot-vector repair, and adaptive discretisation of curves with a
 * chordal tolerance. Pure functions; coordinates in whatever unit the caller uses (the importer: mm).
 */
import { CurveSpan, derivativeSums } from './bezier';
import { len3 } from './curves';

/** A NURBS curve: degree p, knot vector U (length n + p + 1), homogeneous control points (x·w, y·w, z·w, w)*. */
export interface NurbsCurve {
  degree: number;
  knots: Float64Array;
  /** Packed homogeneous control points, 4 numbers per point. */
  pw: Float64Array;
}

/** A tensor-product NURBS surface; control point (i, j) is at index i·nV + j (U outer, V inner; §4.3). */
export interface NurbsSurface {
  degreeU: number;
  degreeV: number;
  knotsU: Float64Array;
  knotsV: Float64Array;
  nU: number;
  nV: number;
  /** Packed homogeneous control points, 4 numbers per point, U-major. */
  pw: Float64Array;
}

/**
 * Packs xyz control points and weights into homogeneous coordinates.
 * @param xyz control points, 3 numbers each; @param weights one per point (missing = 1).
 */
export function homogeneous(xyz: ArrayLike<number>, weights?: ArrayLike<number>): Float64Array {
  const n = Math.floor(xyz.length / 3);
  const pw = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const w = weights && i < weights.length && Number.isFinite(weights[i]) && weights[i] > 0 ? weights[i] : 1;
    pw[4 * i] = xyz[3 * i] * w;
    pw[4 * i + 1] = xyz[3 * i + 1] * w;
    pw[4 * i + 2] = xyz[3 * i + 2] * w;
    pw[4 * i + 3] = w;
  }
  return pw;
}

/**
 * Makes a knot vector usable for nCtrl control points of degree p: trims surplus end knots symmetrically
 * (CADMATIC writes one too many, OCX_GUIDE §4.3) and checks it is non-decreasing.
 * With `trim` false (the conversion's geometry healing off) a vector of the wrong length is refused instead.
 * @returns the repaired vector, or null when it cannot be repaired (too few knots, decreasing values).
 */
export function repairKnots(knots: ArrayLike<number>, nCtrl: number, p: number, trim = true): Float64Array | null {
  const want = nCtrl + p + 1;
  if (knots.length < want || p < 1 || nCtrl <= p) return null;
  if (!trim && knots.length !== want) return null;
  // the kept window knots[lo, hi): a count per value instead of slicing and counting the whole vector at
  // every step (a file with millions of surplus knots would take hours)
  let lo = 0,
    hi = knots.length;
  let count: Map<number, number> | null = null;
  if (hi - lo > want) {
    count = new Map();
    // NaN is never counted: it equals no knot, not even itself
    for (let i = 0; i < hi; i++) if (!Number.isNaN(knots[i])) count.set(knots[i], (count.get(knots[i]) ?? 0) + 1);
  }
  const drop = (i: number) => count?.set(knots[i], (count.get(knots[i]) ?? 1) - 1);
  let front = true;
  while (hi - lo > want) {
    // drop a surplus end knot where the end multiplicity exceeds p + 1, else alternate ends
    const endMult = count?.get(knots[hi - 1]) ?? 0,
      frontMult = count?.get(knots[lo]) ?? 0;
    if (endMult > p + 1) drop(--hi);
    else if (frontMult > p + 1) drop(lo++);
    else {
      if (front) drop(lo++);
      else drop(--hi);
      front = !front;
    }
  }
  const k = Array.prototype.slice.call(knots, lo, hi) as number[];
  for (let i = 1; i < k.length; i++) if (!(k[i] >= k[i - 1])) return null;
  if (!(k[nCtrl] > k[p])) return null;
  return Float64Array.from(k);
}

/**
 * A knot vector with more than nCtrl + p + 1 knots read as a periodic one (the form CADMATIC writes a
 * closed cylinder or pipe in: nCtrl control points, none repeated, and nCtrl + p + 2 knots that repeat
 * with a fixed period, knots[i + nCtrl] − knots[i] = T; OCX_GUIDE §4.3). The closed spline is evaluated
 * as an ordinary one over the first p control points appended again after the last, with the knots
 * continued by the period: nCtrl + 2p + 1 knots, domain [knots[p], knots[p] + T].
 * @returns the unwrapped knots, or null when the vector is not periodic with nCtrl knots per period.
 */
export function unwrapPeriodicKnots(knots: ArrayLike<number>, nCtrl: number, p: number): Float64Array | null {
  const L = knots.length;
  if (p < 1 || nCtrl <= p || L <= nCtrl + p + 1) return null;
  for (let i = 1; i < L; i++) if (!(knots[i] >= knots[i - 1])) return null;
  const T = knots[nCtrl] - knots[0];
  if (!(T > 0)) return null;
  const eps = 1e-9 * Math.max(1, Math.abs(knots[0]), Math.abs(knots[L - 1]));
  for (let i = 0; i + nCtrl < L; i++) if (Math.abs(knots[i + nCtrl] - knots[i] - T) > eps) return null;
  const out = new Float64Array(nCtrl + 2 * p + 1);
  for (let i = 0; i < out.length; i++) out[i] = i < L ? knots[i] : out[i - nCtrl] + T;
  if (!(out[nCtrl + p] > out[p])) return null;
  return out;
}

/** A knot vector made usable: the knots and how many leading control points to append again (periodic). */
export interface UsableKnots {
  knots: Float64Array;
  /** 0, or p for a periodic vector (control points 0..p−1 appended after the last). */
  wrap: number;
}

/**
 * The knot vector of nCtrl control points of degree p made usable: a periodic vector unwrapped
 * (unwrapPeriodicKnots), else the surplus end knots trimmed (repairKnots). With `heal` false only a vector
 * of the right length is accepted. @returns null when neither reading works.
 */
export function usableKnots(knots: ArrayLike<number>, nCtrl: number, p: number, heal = true): UsableKnots | null {
  const periodic = heal ? unwrapPeriodicKnots(knots, nCtrl, p) : null;
  if (periodic) return { knots: periodic, wrap: p };
  const k = repairKnots(knots, nCtrl, p, heal);
  return k ? { knots: k, wrap: 0 } : null;
}

/**
 * Knot span index k with U[k] <= t < U[k+1], clamped to [p, n-1] (n = number of control points); at or
 * past the domain's end the last non-empty span (the end of an unwrapped periodic vector can sit inside
 * a repeated knot, so U[n-1] = U[n] is possible).
 */
export function findSpan(n: number, p: number, U: ArrayLike<number>, t: number): number {
  if (t >= U[n]) {
    let k = n - 1;
    while (k > p && U[k] >= U[n]) k--;
    return k;
  }
  if (t <= U[p]) return p;
  let lo = p,
    hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (t < U[mid]) hi = mid;
    else lo = mid;
  }
  return lo;
}

/** The p + 1 non-zero B-spline basis functions at t in span k (The NURBS Book A2.2), written to out. */
export function basisFunctions(k: number, t: number, p: number, U: ArrayLike<number>, out: Float64Array): void {
  // every left/right entry read below is written first in this call: shared scratch
  if (LEFT.length < p + 1) {
    LEFT = new Float64Array(2 * (p + 1));
    RIGHT = new Float64Array(2 * (p + 1));
  }
  const left = LEFT,
    right = RIGHT;
  out[0] = 1;
  for (let j = 1; j <= p; j++) {
    left[j] = t - U[k + 1 - j];
    right[j] = U[k + j] - t;
    let saved = 0;
    for (let r = 0; r < j; r++) {
      const den = right[r + 1] + left[j - r];
      const tmp = den !== 0 ? out[r] / den : 0;
      out[r] = saved + right[r + 1] * tmp;
      saved = left[j - r] * tmp;
    }
    out[j] = saved;
  }
}

/** Scratch of basisFunctions and the evaluators (per thread; no evaluation re-enters another). */
let LEFT = new Float64Array(8);
let RIGHT = new Float64Array(8);
let NU = new Float64Array(8);
let NV = new Float64Array(8);

/** Parameter domain [U[p], U[n]] of a curve. */
export function curveDomain(c: NurbsCurve): [number, number] {
  const n = c.pw.length / 4;
  return [c.knots[c.degree], c.knots[n]];
}

/** Evaluates the curve at t into out[0..2] (rational: evaluated in homogeneous space). */
export function evalCurve(c: NurbsCurve, t: number, out: number[] | Float64Array): void {
  const p = c.degree,
    n = c.pw.length / 4;
  const k = findSpan(n, p, c.knots, t);
  if (NU.length < p + 1) NU = new Float64Array(2 * (p + 1));
  const N = NU;
  basisFunctions(k, t, p, c.knots, N);
  let x = 0,
    y = 0,
    z = 0,
    w = 0;
  for (let j = 0; j <= p; j++) {
    const i = 4 * (k - p + j);
    x += N[j] * c.pw[i];
    y += N[j] * c.pw[i + 1];
    z += N[j] * c.pw[i + 2];
    w += N[j] * c.pw[i + 3];
  }
  out[0] = x / w;
  out[1] = y / w;
  out[2] = z / w;
}

/**
 * The basis functions of one direction of a surface for the last two parameters they were found at.
 * Point inversion evaluates S(u, v), S(u + h, v) and S(u, v + h) in turn (its finite differences), so
 * one direction's parameter repeats from one evaluation to the next: its span and functions are looked
 * up instead of found again — the same numbers, so the same point to the bit.
 */
interface BasisMemo {
  /** The surface whose direction the slots hold (null: none yet). */
  owner: NurbsSurface | null;
  t: [number, number];
  span: [number, number];
  basis: [Float64Array, Float64Array];
  /** The functions' first derivatives (memos used with derivatives only). */
  deriv: [Float64Array, Float64Array];
  /** The slot the next new parameter replaces. */
  next: number;
}

/**
 * Per thread (module state), of u and of v: evalSurface's, and evalSurfaceDerivs' (the surface normals
 * of a sheet's vertices, taken in the grid's order: neighbours share a u or a v).
 */
const memoU = newMemo(),
  memoV = newMemo(),
  memoDU = newMemo(),
  memoDV = newMemo();

function newMemo(): BasisMemo {
  return {
    owner: null,
    t: [NaN, NaN],
    span: [0, 0],
    basis: [new Float64Array(8), new Float64Array(8)],
    deriv: [new Float64Array(8), new Float64Array(8)],
    next: 0,
  };
}

/** Same parameter: equal, and zeros of the same sign (−0 and 0 may give different signs of zero). */
function sameT(a: number, b: number): boolean {
  return a === b && (a !== 0 || Object.is(a, b));
}

/**
 * The slot of memo m holding the span and basis functions of degree p at t on knots U (n control points)
 * of surface s — with `derivs`, also their first derivatives (basisAndDerivatives) — found now into the
 * older slot unless one of the two holds them already. A memo is used either with or without derivatives.
 */
function memoSlot(
  m: BasisMemo,
  s: NurbsSurface,
  n: number,
  p: number,
  U: Float64Array,
  t: number,
  derivs = false,
): number {
  if (m.owner === s) {
    if (sameT(t, m.t[0])) return 0;
    if (sameT(t, m.t[1])) return 1;
  } else {
    m.owner = s;
    m.t[0] = m.t[1] = NaN;
  }
  const slot = m.next;
  m.next = 1 - slot;
  if (m.basis[slot].length < p + 1) {
    m.basis[slot] = new Float64Array(2 * (p + 1));
    m.deriv[slot] = new Float64Array(2 * (p + 1));
  }
  m.span[slot] = findSpan(n, p, U, t);
  if (derivs) basisAndDerivatives(m.span[slot], t, p, U, m.basis[slot], m.deriv[slot]);
  else basisFunctions(m.span[slot], t, p, U, m.basis[slot]);
  m.t[slot] = t;
  return slot;
}

/** Evaluates the surface at (u, v) into out[0..2]. */
export function evalSurface(s: NurbsSurface, u: number, v: number, out: number[] | Float64Array): void {
  const su = memoSlot(memoU, s, s.nU, s.degreeU, s.knotsU, u);
  const sv = memoSlot(memoV, s, s.nV, s.degreeV, s.knotsV, v);
  const ku = memoU.span[su],
    kv = memoV.span[sv];
  const Nu = memoU.basis[su],
    Nv = memoV.basis[sv];
  let x = 0,
    y = 0,
    z = 0,
    w = 0;
  for (let a = 0; a <= s.degreeU; a++) {
    const i = ku - s.degreeU + a;
    for (let b = 0; b <= s.degreeV; b++) {
      const j = kv - s.degreeV + b;
      const f = Nu[a] * Nv[b],
        o = 4 * (i * s.nV + j);
      x += f * s.pw[o];
      y += f * s.pw[o + 1];
      z += f * s.pw[o + 2];
      w += f * s.pw[o + 3];
    }
  }
  out[0] = x / w;
  out[1] = y / w;
  out[2] = z / w;
}

/** Scratch of basisAndDerivatives (the triangular table of The NURBS Book A2.3). */
let NDU = new Float64Array(64);

/**
 * The p + 1 non-zero B-spline basis functions of degree p at t in span k (into N, as basisFunctions
 * gives them) and their first derivatives (into dN), from one triangular table (The NURBS Book A2.3,
 * first derivatives only). One-sided (the span to the right) at a knot.
 */
export function basisAndDerivatives(
  k: number,
  t: number,
  p: number,
  U: ArrayLike<number>,
  N: Float64Array,
  dN: Float64Array,
): void {
  const w = p + 1;
  if (NDU.length < w * w) NDU = new Float64Array(4 * w * w);
  if (LEFT.length < w) {
    LEFT = new Float64Array(2 * w);
    RIGHT = new Float64Array(2 * w);
  }
  // ndu[j][r] at j·w + r: the functions of degree j (upper triangle, r ≤ j as ndu[r][j]) and the knot
  // differences (lower triangle)
  const ndu = NDU,
    left = LEFT,
    right = RIGHT;
  ndu[0] = 1;
  for (let j = 1; j <= p; j++) {
    left[j] = t - U[k + 1 - j];
    right[j] = U[k + j] - t;
    let saved = 0;
    for (let r = 0; r < j; r++) {
      const den = right[r + 1] + left[j - r];
      ndu[j * w + r] = den;
      const tmp = den !== 0 ? ndu[r * w + j - 1] / den : 0;
      ndu[r * w + j] = saved + right[r + 1] * tmp;
      saved = left[j - r] * tmp;
    }
    ndu[j * w + j] = saved;
  }
  for (let r = 0; r <= p; r++) N[r] = ndu[r * w + p];
  for (let r = 0; r <= p; r++) {
    // p · (N_{r−1, p−1} / (U[k+r] − U[k−p+r]) − N_{r, p−1} / (U[k+r+1] − U[k−p+r+1]))
    let d = 0;
    if (r >= 1) {
      const den = ndu[p * w + r - 1];
      if (den !== 0) d += ndu[(r - 1) * w + p - 1] / den;
    }
    if (r <= p - 1) {
      const den = ndu[p * w + r];
      if (den !== 0) d -= ndu[r * w + p - 1] / den;
    }
    dN[r] = p * d;
  }
}

/**
 * Evaluates the surface and its first partial derivatives at (u, v): out[0..2] = S, out[3..5] = ∂S/∂u,
 * out[6..8] = ∂S/∂v (rational: the quotient rule on the homogeneous sums). One-sided at a knot (the
 * span to the right), like the basis functions. S may differ from evalSurface's in the last bits (the
 * sums are taken row by row). The spans and functions of a parameter given in one of the last two calls
 * are looked up, not found again (the same numbers: the same result to the bit).
 */
export function evalSurfaceDerivs(s: NurbsSurface, u: number, v: number, out: Float64Array): void {
  const pu = s.degreeU,
    pv = s.degreeV;
  // the spans and functions of the last two parameters of each direction looked up (the same numbers)
  const su = memoSlot(memoDU, s, s.nU, pu, s.knotsU, u, true);
  const sv = memoSlot(memoDV, s, s.nV, pv, s.knotsV, v, true);
  const ku = memoDU.span[su],
    kv = memoDV.span[sv];
  const Nu = memoDU.basis[su],
    Nv = memoDV.basis[sv],
    Du = memoDU.deriv[su],
    Dv = memoDV.deriv[sv];
  derivativeSums(s.pw, 4 * ((ku - pu) * s.nV + kv - pv), 4 * s.nV, pu, pv, Nu, Du, Nv, Dv, out);
}

/**
 * Evaluates the surface on the grid us × vs into out (xyz of (us[i], vs[j]) at 3 · (i · vs.length + j)),
 * each point exactly as evalSurface gives it: the spans and basis functions of every u and every v are
 * found once instead of once per point.
 */
export function evalSurfaceGrid(
  s: NurbsSurface,
  us: ArrayLike<number>,
  vs: ArrayLike<number>,
  out: Float64Array,
): void {
  const pu = s.degreeU,
    pv = s.degreeV,
    nu = us.length,
    nv = vs.length;
  const Bu = new Float64Array(nu * (pu + 1)),
    Bv = new Float64Array(nv * (pv + 1));
  const Ku = new Int32Array(nu),
    Kv = new Int32Array(nv);
  if (NU.length < pu + 1) NU = new Float64Array(2 * (pu + 1));
  if (NV.length < pv + 1) NV = new Float64Array(2 * (pv + 1));
  for (let i = 0; i < nu; i++) {
    Ku[i] = findSpan(s.nU, pu, s.knotsU, us[i]);
    basisFunctions(Ku[i], us[i], pu, s.knotsU, NU);
    for (let a = 0; a <= pu; a++) Bu[i * (pu + 1) + a] = NU[a];
  }
  for (let j = 0; j < nv; j++) {
    Kv[j] = findSpan(s.nV, pv, s.knotsV, vs[j]);
    basisFunctions(Kv[j], vs[j], pv, s.knotsV, NV);
    for (let b = 0; b <= pv; b++) Bv[j * (pv + 1) + b] = NV[b];
  }
  const pw = s.pw;
  for (let i = 0; i < nu; i++) {
    const ku = Ku[i],
      bu = i * (pu + 1);
    for (let j = 0; j < nv; j++) {
      const kv = Kv[j],
        bv = j * (pv + 1);
      let x = 0,
        y = 0,
        z = 0,
        w = 0;
      // the sums in evalSurface's order: the same rounding
      for (let a = 0; a <= pu; a++) {
        const row = ku - pu + a;
        for (let b = 0; b <= pv; b++) {
          const f = Bu[bu + a] * Bv[bv + b],
            o = 4 * (row * s.nV + kv - pv + b);
          x += f * pw[o];
          y += f * pw[o + 1];
          z += f * pw[o + 2];
          w += f * pw[o + 3];
        }
      }
      const q = 3 * (i * nv + j);
      out[q] = x / w;
      out[q + 1] = y / w;
      out[q + 2] = z / w;
    }
  }
}

function collinearSpan(c: NurbsCurve, first: number, last: number, tol: number): boolean {
  const pw = c.pw;
  const ax = pw[4 * first] / pw[4 * first + 3],
    ay = pw[4 * first + 1] / pw[4 * first + 3],
    az = pw[4 * first + 2] / pw[4 * first + 3];
  const bx = pw[4 * last] / pw[4 * last + 3],
    by = pw[4 * last + 1] / pw[4 * last + 3],
    bz = pw[4 * last + 2] / pw[4 * last + 3];
  const dx = bx - ax,
    dy = by - ay,
    dz = bz - az;
  const len2 = dx * dx + dy * dy + dz * dz;
  for (let i = first + 1; i < last; i++) {
    const w = pw[4 * i + 3];
    const px = pw[4 * i] / w - ax,
      py = pw[4 * i + 1] / w - ay,
      pz = pw[4 * i + 2] / w - az;
    const s = len2 > 0 ? (px * dx + py * dy + pz * dz) / len2 : 0;
    if (s < -1e-9 || s > 1 + 1e-9) return false;
    const ex = px - s * dx,
      ey = py - s * dy,
      ez = pz - s * dz;
    if (ex * ex + ey * ey + ez * ez > tol * tol * 1e-4) return false;
  }
  return true;
}

/**
 * Discretises a curve into a polyline (xyz triplets) whose chords deviate from the curve by at most
 * chordTol and turn by at most angTolRad per segment. Degree-1 curves give their control points; spans
 * whose control points are collinear (NAPA's tripled-knot polygons, §4.1) give only their end points.
 */
export function tessellateCurve(c: NurbsCurve, chordTol: number, angTolRad = Math.PI / 12): number[] {
  const p = c.degree,
    n = c.pw.length / 4,
    U = c.knots;
  const out: number[] = [];
  const pt = [0, 0, 0];
  const push = (t: number) => {
    evalCurve(c, t, pt);
    out.push(pt[0], pt[1], pt[2]);
  };
  const span = SPAN;
  let first = p;
  while (first < n && !(U[first + 1] > U[first])) first++;
  if (p > 1 && first < n) {
    // the start from the first non-empty span's Bézier form: also where the knot vector repeats its
    // first knot more than p + 1 times and the B-spline basis at U[p] divides by zero
    span.set(U, p, first, c.pw);
    span.at(U[first], PTS, 0);
    out.push(PTS[0], PTS[1], PTS[2]);
  } else push(U[p]);
  const cosAng = Math.cos(angTolRad);
  for (let k = p; k < n; k++) {
    const a = U[k],
      b = U[k + 1];
    if (!(b > a)) continue;
    if (p === 1 || collinearSpan(c, k - p, k, chordTol)) {
      push(b);
      continue;
    }
    // the span's points from its Bézier form (no divisions per point), in the scratch array's first
    // three slots: a, b and the middle
    span.set(U, p, k, c.pw);
    span.at(a, PTS, 0);
    span.at(b, PTS, 3);
    span.at((a + b) / 2, PTS, 6);
    subdivide(span, a, b, 0, 3, 6, chordTol, cosAng, 0, out);
  }
  return out;
}

/** tessellateCurve's span (per thread: no tessellation re-enters another; reused, not made per curve). */
const SPAN = new CurveSpan();

/** Deepest level of subdivide (a span is split into at most 2^12 chords). */
const MAX_DEPTH = 12;
/** Points of subdivide, xyz at offsets: the span's ends and middle, then four per level. */
const PTS = new Float64Array(9 + 12 * (MAX_DEPTH + 1));

/**
 * Splits span [a, b] of the curve (c: the span in Bézier form) until its chord is within tol of the
 * curve and turns by less than the angle: the points at a, b and (a + b) / 2 are at offsets pa, pb, pm
 * of PTS, evaluated by the caller (a half's ends and middle are its parent's points, so each level
 * evaluates only its two quarter points, into its own four slots).
 */
function subdivide(
  c: CurveSpan,
  a: number,
  b: number,
  pa: number,
  pb: number,
  pm: number,
  tol: number,
  cosAng: number,
  depth: number,
  out: number[],
): void {
  const P = PTS;
  const tq = a + (b - a) / 4,
    tr = a + (3 * (b - a)) / 4;
  const pq = 9 + 12 * depth,
    pr = pq + 3;
  c.at(tq, P, pq);
  c.at(tr, P, pr);
  const err = Math.max(segmentDistance(P, pm, pa, pb), segmentDistance(P, pq, pa, pb), segmentDistance(P, pr, pa, pb));
  const d1x = P[pm] - P[pa],
    d1y = P[pm + 1] - P[pa + 1],
    d1z = P[pm + 2] - P[pa + 2],
    d2x = P[pb] - P[pm],
    d2y = P[pb + 1] - P[pm + 1],
    d2z = P[pb + 2] - P[pm + 2];
  const l1 = len3(d1x, d1y, d1z),
    l2 = len3(d2x, d2y, d2z);
  const cos = l1 > 0 && l2 > 0 ? (d1x * d2x + d1y * d2y + d1z * d2z) / (l1 * l2) : 1;
  if (depth < MAX_DEPTH && (err > tol || (cos < cosAng && l1 + l2 > tol))) {
    // a half's middle is this span's quarter point when the two parameters are the same number
    // (they may differ in the last bit: then it is evaluated at its own)
    const m = (a + b) / 2;
    const ml = (a + m) / 2,
      mr = (m + b) / 2;
    let pml = pq,
      pmr = pr;
    if (ml !== tq) c.at(ml, P, (pml = pq + 6));
    if (mr !== tr) c.at(mr, P, (pmr = pq + 9));
    subdivide(c, a, m, pa, pm, pml, tol, cosAng, depth + 1, out);
    subdivide(c, m, b, pm, pb, pmr, tol, cosAng, depth + 1, out);
    return;
  }
  out.push(P[pb], P[pb + 1], P[pb + 2]);
}

/** Distance of the point at offset p of P from the segment between the points at offsets a and b. */
function segmentDistance(P: Float64Array, p: number, a: number, b: number): number {
  const dx = P[b] - P[a],
    dy = P[b + 1] - P[a + 1],
    dz = P[b + 2] - P[a + 2];
  const l2 = dx * dx + dy * dy + dz * dz;
  const px = P[p] - P[a],
    py = P[p + 1] - P[a + 1],
    pz = P[p + 2] - P[a + 2];
  let s = l2 > 0 ? (px * dx + py * dy + pz * dz) / l2 : 0;
  s = Math.max(0, Math.min(1, s));
  return len3(px - s * dx, py - s * dy, pz - s * dz);
}

/** Distance of point p from segment ab (xyz arrays). */
export function distToSegment(p: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dx = b[0] - a[0],
    dy = b[1] - a[1],
    dz = b[2] - a[2];
  const l2 = dx * dx + dy * dy + dz * dz;
  let s = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy + (p[2] - a[2]) * dz) / l2 : 0;
  s = Math.max(0, Math.min(1, s));
  return len3(p[0] - a[0] - s * dx, p[1] - a[1] - s * dy, p[2] - a[2] - s * dz);
}
