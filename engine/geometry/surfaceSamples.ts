/**
 * A parametric surface sampled on a grid, and the point queries paramSheet.ts meshes with (OCX_GUIDE §5.2.3):
 * the grid (metric scales of u and v, closure, curvature), the nearest sample by blocks, closest-point
 * inversion by Gauss–Newton and ray hits along a hole's axis. Samples are cached per surface. Units: mm.
 */
import { len3 } from './curves';
import { nthValue } from './selectNth';
import type { ParamSurface } from './paramSheet';
/** Samples of a surface on a grid, with the metric scales of u and v and the closure flags. */
export interface Sampled {
  s: ParamSurface;
  nu: number;
  nv: number;
  /** xyz of sample (i, j) at 3 * (i * (nv + 1) + j). */
  xyz: Float64Array;
  /** mm per unit of u and of v (median over the samples). */
  su: number;
  sv: number;
  periodicU: boolean;
  periodicV: boolean;
  /** Largest curvature seen between samples (1/mm), for the cell size. */
  kappa: number;
  /** The same along u only and along v only (1/mm); along the diagonals: kappaDiagonal(). */
  kappaU: number;
  kappaV: number;
  /** kappaDiagonal's value once found (NaN before). */
  kappaD: number;
  /**
   * The last curvature (1/mm) diagonalBendsMore was asked about (NaN: none) and its answer: every plate
   * on the surface asks about the same one.
   */
  diagK: number;
  diagAbove: boolean;
  /** Box of the samples [min xyz, max xyz] grown by the chord of a sample cell (mm). */
  box: number[];
  /** Boxes of blocks of samples for the nearest-sample search (sampleBlocks). */
  blocks: Float64Array;
}

/** True when point p lies outside the sampled surface's box grown by tolMm. */
export function outsideBox(g: Sampled, x: number, y: number, z: number, tolMm: number): boolean {
  const b = g.box;
  return (
    x < b[0] - tolMm || y < b[1] - tolMm || z < b[2] - tolMm || x > b[3] + tolMm || y > b[4] + tolMm || z > b[5] + tolMm
  );
}

/** True when point l[o..o+2] lies outside box `hull` (ParamSurface.hull) grown by tolMm. */
export function outsideHull(hull: ArrayLike<number>, l: ArrayLike<number>, o: number, tolMm: number): boolean {
  return (
    l[o] < hull[0] - tolMm ||
    l[o + 1] < hull[1] - tolMm ||
    l[o + 2] < hull[2] - tolMm ||
    l[o] > hull[3] + tolMm ||
    l[o + 1] > hull[4] + tolMm ||
    l[o + 2] > hull[5] + tolMm
  );
}

export const N_SAMPLES = 24;
/** Most grid cells of one sheet (the chordal cell size grows beyond it: area stays within 0.1 %). */
export const MAX_CELLS = 2500;
/** Gap (mm) up to which a surface's opposite edges count as joined (a closed surface). */
export const CLOSED_MM = 1;
const SAMPLED = new WeakMap<ParamSurface, Sampled>();

export function sampled(s: ParamSurface): Sampled {
  let g = SAMPLED.get(s);
  if (!g) SAMPLED.set(s, (g = sample(s, CLOSED_MM)));
  return g;
}

export function sample(s: ParamSurface, tolMm: number): Sampled {
  const nu = N_SAMPLES,
    nv = N_SAMPLES;
  const xyz = new Float64Array(3 * (nu + 1) * (nv + 1));
  const us = new Float64Array(nu + 1),
    vs = new Float64Array(nv + 1);
  for (let i = 0; i <= nu; i++) us[i] = s.u0 + ((s.u1 - s.u0) * i) / nu;
  for (let j = 0; j <= nv; j++) vs[j] = s.v0 + ((s.v1 - s.v0) * j) / nv;
  if (s.evalGrid) s.evalGrid(us, vs, xyz);
  else {
    const p = new Float64Array(3);
    for (let i = 0; i <= nu; i++)
      for (let j = 0; j <= nv; j++) {
        s.eval(us[i], vs[j], p);
        xyz.set(p, 3 * (i * (nv + 1) + j));
      }
  }
  const w = nv + 1;
  // typed arrays: their order statistics need no comparator calls
  const lu = new Float64Array(nu * nv),
    lv = new Float64Array(nu * nv);
  for (let i = 0; i < nu; i++)
    for (let j = 0; j < nv; j++) {
      lu[i * nv + j] = dist(xyz, 3 * (i * w + j), 3 * ((i + 1) * w + j));
      lv[i * nv + j] = dist(xyz, 3 * (i * w + j), 3 * (i * w + j + 1));
    }
  // the larger of the two directions' curvatures per sample; the 90th percentile over the samples (a
  // pole or a degenerate edge of the parametrisation would otherwise set it). Also each direction's
  // own and the diagonals' (a twisted surface bends along its diagonals while straight along u and v)
  const m = (nu - 1) * (nv - 1);
  const ks = new Float64Array(m),
    kus = new Float64Array(m),
    kvs = new Float64Array(m);
  for (let i = 1; i < nu; i++)
    for (let j = 1; j < nv; j++) {
      const o = (i - 1) * (nv - 1) + j - 1,
        c = 3 * (i * w + j);
      // the chords' lengths are the sample spacings found above (hypot3 does not depend on the sign)
      kus[o] = turn(xyz, c - 3 * w, c, c + 3 * w, lu[(i - 1) * nv + j], lu[i * nv + j]);
      kvs[o] = turn(xyz, c - 3, c, c + 3, lv[i * nv + j - 1], lv[i * nv + j]);
      ks[o] = Math.max(kus[o], kvs[o]);
    }
  const kappa = pct90(ks),
    kappaU = pct90(kus),
    kappaV = pct90(kvs);
  const medU = median(lu),
    medV = median(lv);
  const su = (medU * nu) / (s.u1 - s.u0) || 1,
    sv = (medV * nv) / (s.v1 - s.v0) || 1;
  let periodicU = true,
    periodicV = true;
  for (let j = 0; j <= nv && periodicU; j++) periodicU = dist(xyz, 3 * j, 3 * (nu * w + j)) <= tolMm;
  for (let i = 0; i <= nu && periodicV; i++) periodicV = dist(xyz, 3 * i * w, 3 * (i * w + nv)) <= tolMm;
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < xyz.length; i += 3)
    for (let k = 0; k < 3; k++) {
      box[k] = Math.min(box[k], xyz[i + k]);
      box[3 + k] = Math.max(box[3 + k], xyz[i + k]);
    }
  // the surface bulges between samples by at most about a sample chord
  const grow = Math.max(medU, medV);
  for (let k = 0; k < 3; k++) {
    box[k] -= grow;
    box[3 + k] += grow;
  }
  return {
    s,
    nu,
    nv,
    xyz,
    su,
    sv,
    periodicU,
    periodicV,
    kappa,
    kappaU,
    kappaV,
    kappaD: NaN,
    diagK: NaN,
    diagAbove: false,
    box,
    blocks: sampleBlocks(xyz, nu, nv),
  };
}

/**
 * The 90th percentile over the inner samples of the larger curvature along the two diagonals of the
 * sample grid (1/mm; a twisted surface bends along its diagonals while straight along u and v). Found
 * when first asked for. The meshing only compares it with a curvature: diagonalBendsMore does that for
 * less (this is its definition, and its tests' reference).
 */
export function kappaDiagonal(g: Sampled): number {
  if (!Number.isNaN(g.kappaD)) return g.kappaD;
  const { xyz, nu, nv } = g;
  const w = nv + 1;
  const kds = new Float64Array((nu - 1) * (nv - 1));
  for (let i = 1; i < nu; i++)
    for (let j = 1; j < nv; j++) {
      const c = 3 * (i * w + j);
      kds[(i - 1) * (nv - 1) + j - 1] = Math.max(
        turn(xyz, c - 3 * w - 3, c, c + 3 * w + 3),
        turn(xyz, c - 3 * w + 3, c, c + 3 * w - 3),
      );
    }
  g.kappaD = pct90(kds);
  return g.kappaD;
}

/**
 * kappaDiagonal(g) > k, the same answer found without the percentile's value: the 90th percentile of
 * the m inner samples' diagonal curvatures exceeds k when at least m − ⌊0.9 (m − 1)⌋ of them do, and
 * whether one does is mostly clear from bounds on its turns that need no hypot3 and no acos
 * (turnAbove); only a turn whose bounds hold k is found exactly. The answer is given as soon as the
 * count decides it, and kept for the next plate on the surface (the same k: the larger of kappaU and
 * kappaV). Coordinates that are not finite or beyond 1e100 mm take kappaDiagonal itself.
 */
export function diagonalBendsMore(g: Sampled, k: number): boolean {
  if (!Number.isNaN(g.kappaD)) return g.kappaD > k;
  if (k === g.diagK) return g.diagAbove;
  g.diagK = k;
  g.diagAbove = countsAbove(g, k);
  return g.diagAbove;
}

/** diagonalBendsMore's count, found anew. */
function countsAbove(g: Sampled, k: number): boolean {
  const { xyz, nu, nv } = g;
  const m = (nu - 1) * (nv - 1);
  let plain = m > 0 && !Number.isNaN(k);
  for (let i = 0; i < xyz.length && plain; i++) plain = Math.abs(xyz[i]) <= 1e100;
  if (!plain) return kappaDiagonal(g) > k;
  const w = nv + 1;
  const need = m - Math.floor(0.9 * (m - 1));
  let above = 0,
    seen = 0;
  for (let i = 1; i < nu; i++)
    for (let j = 1; j < nv; j++) {
      const c = 3 * (i * w + j);
      // the larger of the two diagonals' turns exceeds k when either does
      if (turnAbove(xyz, c - 3 * w - 3, c, c + 3 * w + 3, k) || turnAbove(xyz, c - 3 * w + 3, c, c + 3 * w - 3, k))
        above++;
      seen++;
      if (above >= need) return true;
      if (above + (m - seen) < need) return false;
    }
  return above >= need;
}

/**
 * Bound (absolute) on how far the cosine of a turn computed with √(x² + y² + z²) chord lengths may lie
 * from turn()'s, whose hypot3 lengths differ from them by a few units in the last place: 1e-13 is
 * some 50 times that.
 */
const COS_SLACK = 1e-13;
/** Relative slack for the roundings of the bounds' own arithmetic and of turn()'s acos and division. */
const REL_SLACK = 1e-12;

/**
 * turn(xyz, a, b, c) > k, decided from bounds where they suffice: with s = √(2 (1 − cos θ)) = 2 sin(θ/2),
 * s ≤ θ ≤ s / √(1 − s²/4) (θ = 2 asin(s/2) and x ≤ asin x ≤ x / √(1 − x²)), the cosine taken within
 * COS_SLACK either way; turn() itself when k lies between the bounds, near a half turn (s ≥ 1.5, where
 * the upper bound loosens) or at chords so short that turn() gives 0.
 */
function turnAbove(xyz: Float64Array, a: number, b: number, c: number, k: number): boolean {
  const x1 = xyz[b] - xyz[a],
    y1 = xyz[b + 1] - xyz[a + 1],
    z1 = xyz[b + 2] - xyz[a + 2];
  const x2 = xyz[c] - xyz[b],
    y2 = xyz[c + 1] - xyz[b + 1],
    z2 = xyz[c + 2] - xyz[b + 2];
  const l1 = Math.sqrt(x1 * x1 + y1 * y1 + z1 * z1),
    l2 = Math.sqrt(x2 * x2 + y2 * y2 + z2 * z2);
  if (!(l1 >= 2e-9 && l2 >= 2e-9)) return turn(xyz, a, b, c) > k;
  const oneMinus = 1 - (x1 * x2 + y1 * y2 + z1 * z2) / (l1 * l2);
  const sLo = Math.sqrt(Math.max(0, 2 * (oneMinus - COS_SLACK))),
    sHi = Math.sqrt(Math.max(0, 2 * (oneMinus + COS_SLACK)));
  if (!(sHi < 1.5)) return turn(xyz, a, b, c) > k;
  const mean = (l1 + l2) / 2;
  const lo = (sLo * (1 - REL_SLACK)) / (mean * (1 + REL_SLACK)),
    hi = ((sHi / Math.sqrt(1 - (sHi * sHi) / 4)) * (1 + REL_SLACK)) / (mean * (1 - REL_SLACK));
  if (lo > k) return true;
  if (hi < k) return false;
  return turn(xyz, a, b, c) > k;
}

/** Distance (mm) between the points at offsets a and b of xyz. */
function dist(xyz: Float64Array, a: number, b: number): number {
  return len3(xyz[a] - xyz[b], xyz[a + 1] - xyz[b + 1], xyz[a + 2] - xyz[b + 2]);
}

/**
 * Curvature (1/mm) at the middle of three points (offsets a, b, c of xyz): the turn of the two chords over
 * their mean length. l1, l2: the chords' lengths when already known (dist of a, b and of b, c).
 */
function turn(xyz: Float64Array, a: number, b: number, c: number, l1 = dist(xyz, b, a), l2 = dist(xyz, c, b)): number {
  const x1 = xyz[b] - xyz[a],
    y1 = xyz[b + 1] - xyz[a + 1],
    z1 = xyz[b + 2] - xyz[a + 2];
  const x2 = xyz[c] - xyz[b],
    y2 = xyz[c + 1] - xyz[b + 1],
    z2 = xyz[c + 2] - xyz[b + 2];
  if (l1 < 1e-9 || l2 < 1e-9) return 0;
  const cos = Math.max(-1, Math.min(1, (x1 * x2 + y1 * y2 + z1 * z2) / (l1 * l2)));
  return Math.acos(cos) / ((l1 + l2) / 2);
}

/** The 90th percentile of a (the element a sort puts at ⌊0.9 (n − 1)⌋), 0 when empty; reorders a. */
function pct90(a: Float64Array): number {
  return a.length ? (nthValue(a, Math.floor(0.9 * (a.length - 1))) as number) : 0;
}

/** The median of a (the element a sort puts at ⌊n / 2⌋), 0 when empty or NaN; reorders a. */
function median(a: Float64Array): number {
  return nthValue(a, a.length >> 1) || 0;
}

/** Scratch of nearestSample: each block's lower bound of the squared distance. */
let BLOCK_LB = new Float64Array(32);

/**
 * The index (i · (nv + 1) + j) of the sample nearest to (x, y, z), the lowest index among equally near
 * ones (what a scan of all samples in order finds): blocks whose box is farther than the best sample so
 * far are skipped, the nearest box first.
 */
export function nearestSample(g: Sampled, x: number, y: number, z: number): number {
  const { xyz, blocks } = g,
    nb = blocks.length / 10;
  if (BLOCK_LB.length < nb) BLOCK_LB = new Float64Array(nb);
  const lb = BLOCK_LB;
  let first = 0;
  for (let b = 0; b < nb; b++) {
    const o = 10 * b;
    const dx = Math.max(blocks[o] - x, 0, x - blocks[o + 3]),
      dy = Math.max(blocks[o + 1] - y, 0, y - blocks[o + 4]),
      dz = Math.max(blocks[o + 2] - z, 0, z - blocks[o + 5]);
    lb[b] = dx * dx + dy * dy + dz * dz;
    if (lb[b] < lb[first]) first = b;
  }
  let best = Infinity,
    at = -1;
  const w = g.nv + 1;
  for (let q = -1; q < nb; q++) {
    const b = q < 0 ? first : q;
    if (q === first || lb[b] > best) continue;
    const o = 10 * b;
    for (let i = blocks[o + 6]; i < blocks[o + 7]; i++)
      for (let j = blocks[o + 8]; j < blocks[o + 9]; j++) {
        const k = i * w + j,
          m = 3 * k;
        const dd = (xyz[m] - x) ** 2 + (xyz[m + 1] - y) ** 2 + (xyz[m + 2] - z) ** 2;
        if (dd < best || (dd === best && k < at)) {
          best = dd;
          at = k;
        }
      }
  }
  return at < 0 ? 0 : at;
}

/** Samples per side of a block of nearestSample. */
const BLOCK = 5;

/** Boxes of blocks of BLOCK × BLOCK samples: per block min xyz, max xyz, then i0, i1, j0, j1 (ends exclusive). */
export function sampleBlocks(xyz: Float64Array, nu: number, nv: number): Float64Array {
  const bi = Math.ceil((nu + 1) / BLOCK),
    bj = Math.ceil((nv + 1) / BLOCK);
  const out = new Float64Array(10 * bi * bj);
  let o = 0;
  for (let a = 0; a < bi; a++)
    for (let b = 0; b < bj; b++, o += 10) {
      const i0 = a * BLOCK,
        i1 = Math.min(nu + 1, i0 + BLOCK),
        j0 = b * BLOCK,
        j1 = Math.min(nv + 1, j0 + BLOCK);
      out.fill(Infinity, o, o + 3);
      out.fill(-Infinity, o + 3, o + 6);
      for (let i = i0; i < i1; i++)
        for (let j = j0; j < j1; j++)
          for (let k = 0; k < 3; k++) {
            const x = xyz[3 * (i * (nv + 1) + j) + k];
            if (x < out[o + k]) out[o + k] = x;
            if (x > out[o + 3 + k]) out[o + 3 + k] = x;
          }
      out[o + 6] = i0;
      out[o + 7] = i1;
      out[o + 8] = j0;
      out[o + 9] = j1;
    }
  return out;
}

/** Scratch points of invert and rayHit (no allocation per call). */
const Q = new Float64Array(3),
  QU = new Float64Array(3),
  QV = new Float64Array(3);

/** Distance (mm) of S(u, v) from p. */
export function distAt(s: ParamSurface, u: number, v: number, p: ArrayLike<number>): number {
  s.eval(u, v, Q);
  return len3(Q[0] - p[0], Q[1] - p[1], Q[2] - p[2]);
}

/** A parameter kept in [a, b]: wrapped for a closed direction, clamped otherwise. */
export function keepIn(x: number, a: number, b: number, closed: boolean): number {
  return closed ? wrap(x, a, b) : Math.min(b, Math.max(a, x));
}

/** gaussNewtonStep's results: du, dv, then JᵀJ's diagonal a11, a22 and −Jᵀ(S − p) as r1, r2. */
export const GN = new Float64Array(6);

/**
 * The Gauss–Newton step towards the closest point of a surface to p (mm) from S = D[0..2] with the
 * partial derivatives ∂S/∂u = D[3..5] and ∂S/∂v = D[6..8]: the normal equations (JᵀJ) δ = −Jᵀ(S − p) by
 * Cramer's rule. Writes δ = (du, dv), a11, a22, r1, r2 into GN; false (GN unchanged) when JᵀJ is singular.
 */
export function gaussNewtonStep(D: ArrayLike<number>, p: ArrayLike<number>): boolean {
  const fx = D[0] - p[0],
    fy = D[1] - p[1],
    fz = D[2] - p[2];
  const a11 = D[3] * D[3] + D[4] * D[4] + D[5] * D[5],
    a12 = D[3] * D[6] + D[4] * D[7] + D[5] * D[8],
    a22 = D[6] * D[6] + D[7] * D[7] + D[8] * D[8];
  const r1 = -(D[3] * fx + D[4] * fy + D[5] * fz),
    r2 = -(D[6] * fx + D[7] * fy + D[8] * fz);
  const det = a11 * a22 - a12 * a12;
  if (!(Math.abs(det) > 1e-30)) return false;
  GN[0] = (r1 * a22 - r2 * a12) / det;
  GN[1] = (a11 * r2 - a12 * r1) / det;
  GN[2] = a11;
  GN[3] = a22;
  GN[4] = r1;
  GN[5] = r2;
  return true;
}

/** Scratch of invert: S(u, v) and its forward-difference derivatives, as gaussNewtonStep takes them. */
const FD = new Float64Array(9);

/** Gauss–Newton steps shorter than this (mm, in the metric parameter plane) end invert: converged. */
export const STEP_MM = 1e-6;

/**
 * Closest point of the surface to p by Gauss–Newton from (u, v) (clamped to the domain, wrapped in a
 * closed direction); writes the parameters into uv and returns the distance (mm). A surface with
 * analytic derivatives takes invertByDerivs; one without, forward differences.
 */
export function invert(g: Sampled, p: ArrayLike<number>, uv: Float64Array, guess: boolean): number {
  const { s } = g;
  const q = Q,
    qu = QU,
    qv = QV;
  let u = uv[0],
    v = uv[1];
  if (!guess) {
    const k = nearestSample(g, p[0], p[1], p[2]),
      i = Math.floor(k / (g.nv + 1)),
      j = k - i * (g.nv + 1);
    u = s.u0 + ((s.u1 - s.u0) * i) / g.nu;
    v = s.v0 + ((s.v1 - s.v0) * j) / g.nv;
  }
  if (s.evalDerivs) return invertByDerivs(g, p, uv, u, v);
  const hu = 1e-6 * (s.u1 - s.u0),
    hv = 1e-6 * (s.v1 - s.v0);
  let d = distAt(s, u, v, p);
  for (let it = 0; it < 20 && d > 1e-3; it++) {
    // q (= Q) holds S(u, v): distAt evaluated it last, for the start or the accepted step
    const ue = u + hu <= s.u1 ? hu : -hu,
      ve = v + hv <= s.v1 ? hv : -hv;
    s.eval(u + ue, v, qu);
    s.eval(u, v + ve, qv);
    for (let k = 0; k < 3; k++) {
      FD[k] = q[k];
      FD[3 + k] = (qu[k] - q[k]) / ue;
      FD[6 + k] = (qv[k] - q[k]) / ve;
    }
    if (!gaussNewtonStep(FD, p)) break;
    let du = GN[0],
      dv = GN[1];
    // converged: a step this short moves the point by less than STEP_MM (the finite-difference
    // Jacobian's tail would otherwise creep on, or fail six halvings, at round-off level)
    if (Math.abs(du) * g.su + Math.abs(dv) * g.sv < STEP_MM) break;
    // damped step: accept only an improvement
    let accepted = false;
    for (let k = 0; k < 6 && !accepted; k++) {
      const nu = keepIn(u + du, s.u0, s.u1, g.periodicU),
        nv = keepIn(v + dv, s.v0, s.v1, g.periodicV);
      const nd = distAt(s, nu, nv, p);
      if (nd < d) {
        u = nu;
        v = nv;
        d = nd;
        accepted = true;
      } else {
        du /= 2;
        dv /= 2;
      }
    }
    if (!accepted) break;
  }
  uv[0] = u;
  uv[1] = v;
  return d;
}

/** Scratch of invertByDerivs: S, ∂S/∂u, ∂S/∂v at the current point and at a trial point. */
const DC = new Float64Array(9),
  DT = new Float64Array(9);

/**
 * invert's Gauss–Newton iteration from (u, v) with the surface's analytic derivatives: each trial point
 * is evaluated with its derivatives, which the next step uses when it is accepted (one evaluation per
 * step instead of a point and two finite differences). Same stopping rules as invert; at an edge of the
 * domain a step that points out of it moves along the edge instead.
 */
function invertByDerivs(g: Sampled, p: ArrayLike<number>, uv: Float64Array, u: number, v: number): number {
  const s = g.s as Required<ParamSurface>;
  let D = DC,
    T = DT;
  s.evalDerivs(u, v, D);
  let d = len3(D[0] - p[0], D[1] - p[1], D[2] - p[2]);
  for (let it = 0; it < 20 && d > 1e-3; it++) {
    if (!gaussNewtonStep(D, p)) break;
    let du = GN[0],
      dv = GN[1];
    const a11 = GN[2],
      a22 = GN[3],
      r1 = GN[4],
      r2 = GN[5];
    // on an edge of the domain with the step pointing out of it: the closest point along that edge
    // (the step of the other parameter alone), not a clamped step that cannot improve
    const outU = !g.periodicU && ((u >= s.u1 && du > 0) || (u <= s.u0 && du < 0)),
      outV = !g.periodicV && ((v >= s.v1 && dv > 0) || (v <= s.v0 && dv < 0));
    if (outU && outV) break;
    if (outU) {
      du = 0;
      dv = a22 > 0 ? r2 / a22 : 0;
    } else if (outV) {
      dv = 0;
      du = a11 > 0 ? r1 / a11 : 0;
    }
    if (Math.abs(du) * g.su + Math.abs(dv) * g.sv < STEP_MM) break;
    let accepted = false;
    for (let k = 0; k < 6 && !accepted; k++) {
      const nu = keepIn(u + du, s.u0, s.u1, g.periodicU),
        nv = keepIn(v + dv, s.v0, s.v1, g.periodicV);
      s.evalDerivs(nu, nv, T);
      const nd = len3(T[0] - p[0], T[1] - p[1], T[2] - p[2]);
      if (nd < d) {
        u = nu;
        v = nv;
        d = nd;
        const t = D;
        D = T;
        T = t;
        accepted = true;
      } else {
        du /= 2;
        dv /= 2;
      }
    }
    if (!accepted) break;
  }
  uv[0] = u;
  uv[1] = v;
  return d;
}

/** Scratch columns of rayHit's Newton system. */
const RA = new Float64Array(3),
  RB = new Float64Array(3),
  RC = new Float64Array(3),
  RF = new Float64Array(3);

/** Determinant of the 3×3 matrix with columns x, y, z. */
export function det3(x: Float64Array, y: Float64Array, z: Float64Array): number {
  return x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1]) + z[0] * (x[1] * y[2] - x[2] * y[1]);
}

/**
 * Where the line through p along `axis` meets the surface, by Newton on S(u, v) − t·axis = p from the
 * (u, v) in uv (the closest point); writes the hit into uv and returns true, or false (uv unchanged)
 * when the iteration does not converge within the domain.
 */
export function rayHit(g: Sampled, p: ArrayLike<number>, axis: ArrayLike<number>, uv: Float64Array): boolean {
  const { s } = g;
  const q = Q,
    qu = QU,
    qv = QV;
  let u = uv[0],
    v = uv[1];
  s.eval(u, v, q);
  let t = (q[0] - p[0]) * axis[0] + (q[1] - p[1]) * axis[1] + (q[2] - p[2]) * axis[2];
  const hu = 1e-6 * (s.u1 - s.u0),
    hv = 1e-6 * (s.v1 - s.v0);
  for (let it = 0; it < 30; it++) {
    if (it) s.eval(u, v, q); // the first: evaluated above
    const f0 = q[0] - t * axis[0] - p[0],
      f1 = q[1] - t * axis[1] - p[1],
      f2 = q[2] - t * axis[2] - p[2];
    if (len3(f0, f1, f2) < 1e-4) {
      uv[0] = u;
      uv[1] = v;
      return true;
    }
    const ue = u + hu <= s.u1 ? hu : -hu,
      ve = v + hv <= s.v1 ? hv : -hv;
    s.eval(u + ue, v, qu);
    s.eval(u, v + ve, qv);
    // columns: dS/du, dS/dv, −axis; solve J·d = −f by Cramer's rule
    const a = RA,
      b = RB,
      c = RC,
      f = RF;
    for (let k = 0; k < 3; k++) {
      a[k] = (qu[k] - q[k]) / ue;
      b[k] = (qv[k] - q[k]) / ve;
      c[k] = -axis[k];
    }
    const D = det3(a, b, c);
    if (!(Math.abs(D) > 1e-12)) return false;
    f[0] = -f0;
    f[1] = -f1;
    f[2] = -f2;
    const du = det3(f, b, c) / D,
      dv = det3(a, f, c) / D,
      dt = det3(a, b, f) / D;
    u += du;
    v += dv;
    t += dt;
    if (g.periodicU) u = wrap(u, s.u0, s.u1);
    if (g.periodicV) v = wrap(v, s.v0, s.v1);
    if (u < s.u0 - 1e-9 || u > s.u1 + 1e-9 || v < s.v0 - 1e-9 || v > s.v1 + 1e-9 || !Number.isFinite(t)) return false;
  }
  return false;
}

/** x wrapped into [a, b) (a closed direction's parameter). */
export function wrap(x: number, a: number, b: number): number {
  const p = b - a;
  return x - Math.floor((x - a) / p) * p;
}
