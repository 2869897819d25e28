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
import { hypot3 } from './curves';
import { clipRingToBox, holesInside, signedArea2d, triangulateGrid } from './region2d';
import { boundaryRings, weld } from './surfaceMesh';
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

/** Samples of a surface on a grid, with the metric scales of u and v and the closure flags. */
interface Sampled {
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
  /** The same along u only, along v only, and along the diagonals of the sample grid (1/mm). */
  kappaU: number;
  kappaV: number;
  kappaD: number;
  /** Box of the samples [min xyz, max xyz] grown by the chord of a sample cell (mm). */
  box: number[];
  /** Boxes of blocks of samples for the nearest-sample search (sampleBlocks). */
  blocks: Float64Array;
}

/** True when point p lies outside the sampled surface's box grown by tolMm. */
function outsideBox(g: Sampled, x: number, y: number, z: number, tolMm: number): boolean {
  const b = g.box;
  return (
    x < b[0] - tolMm || y < b[1] - tolMm || z < b[2] - tolMm || x > b[3] + tolMm || y > b[4] + tolMm || z > b[5] + tolMm
  );
}

/** True when point l[o..o+2] lies outside box `hull` (ParamSurface.hull) grown by tolMm. */
function outsideHull(hull: ArrayLike<number>, l: ArrayLike<number>, o: number, tolMm: number): boolean {
  return (
    l[o] < hull[0] - tolMm ||
    l[o + 1] < hull[1] - tolMm ||
    l[o + 2] < hull[2] - tolMm ||
    l[o] > hull[3] + tolMm ||
    l[o + 1] > hull[4] + tolMm ||
    l[o + 2] > hull[5] + tolMm
  );
}

const N_SAMPLES = 24;
/** Most grid cells of one sheet (the chordal cell size grows beyond it: area stays within 0.1 %). */
const MAX_CELLS = 2500;
/** Gap (mm) up to which a surface's opposite edges count as joined (a closed surface). */
const CLOSED_MM = 1;
const SAMPLED = new WeakMap<ParamSurface, Sampled>();

function sampled(s: ParamSurface): Sampled {
  let g = SAMPLED.get(s);
  if (!g) SAMPLED.set(s, (g = sample(s, CLOSED_MM)));
  return g;
}

function sample(s: ParamSurface, tolMm: number): Sampled {
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
  const at = (i: number, j: number) => 3 * (i * (nv + 1) + j);
  const d = (a: number, b: number) => hypot3(xyz[a] - xyz[b], xyz[a + 1] - xyz[b + 1], xyz[a + 2] - xyz[b + 2]);
  // typed arrays: their numeric sort needs no comparator calls
  const lu = new Float64Array(nu * nv),
    lv = new Float64Array(nu * nv);
  let kappa = 0;
  for (let i = 0; i < nu; i++)
    for (let j = 0; j < nv; j++) {
      lu[i * nv + j] = d(at(i, j), at(i + 1, j));
      lv[i * nv + j] = d(at(i, j), at(i, j + 1));
    }
  // curvature from the turn of consecutive sample chords along both directions
  const turn = (a: number, b: number, c: number) => {
    const x1 = xyz[b] - xyz[a],
      y1 = xyz[b + 1] - xyz[a + 1],
      z1 = xyz[b + 2] - xyz[a + 2];
    const x2 = xyz[c] - xyz[b],
      y2 = xyz[c + 1] - xyz[b + 1],
      z2 = xyz[c + 2] - xyz[b + 2];
    const l1 = hypot3(x1, y1, z1),
      l2 = hypot3(x2, y2, z2);
    if (l1 < 1e-9 || l2 < 1e-9) return 0;
    const cos = Math.max(-1, Math.min(1, (x1 * x2 + y1 * y2 + z1 * z2) / (l1 * l2)));
    return Math.acos(cos) / ((l1 + l2) / 2);
  };
  // the larger of the two directions' curvatures per sample; the 90th percentile over the samples (a
  // pole or a degenerate edge of the parametrisation would otherwise set it). Also each direction's
  // own and the diagonals' (a twisted surface bends along its diagonals while straight along u and v)
  const m = (nu - 1) * (nv - 1);
  const ks = new Float64Array(m),
    kus = new Float64Array(m),
    kvs = new Float64Array(m),
    kds = new Float64Array(m);
  for (let i = 1; i < nu; i++)
    for (let j = 1; j < nv; j++) {
      const o = (i - 1) * (nv - 1) + j - 1;
      kus[o] = turn(at(i - 1, j), at(i, j), at(i + 1, j));
      kvs[o] = turn(at(i, j - 1), at(i, j), at(i, j + 1));
      ks[o] = Math.max(kus[o], kvs[o]);
      kds[o] = Math.max(
        turn(at(i - 1, j - 1), at(i, j), at(i + 1, j + 1)),
        turn(at(i - 1, j + 1), at(i, j), at(i + 1, j - 1)),
      );
    }
  const pct90 = (a: Float64Array) => (a.length ? a.sort()[Math.floor(0.9 * (a.length - 1))] : 0);
  kappa = pct90(ks);
  const kappaU = pct90(kus),
    kappaV = pct90(kvs),
    kappaD = pct90(kds);
  const med = (a: Float64Array) => a.sort()[a.length >> 1] || 0;
  const su = (med(lu) * nu) / (s.u1 - s.u0) || 1,
    sv = (med(lv) * nv) / (s.v1 - s.v0) || 1;
  let periodicU = true,
    periodicV = true;
  for (let j = 0; j <= nv && periodicU; j++) periodicU = d(at(0, j), at(nu, j)) <= tolMm;
  for (let i = 0; i <= nu && periodicV; i++) periodicV = d(at(i, 0), at(i, nv)) <= tolMm;
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < xyz.length; i += 3)
    for (let k = 0; k < 3; k++) {
      box[k] = Math.min(box[k], xyz[i + k]);
      box[3 + k] = Math.max(box[3 + k], xyz[i + k]);
    }
  // the surface bulges between samples by at most about a sample chord
  const grow = Math.max(med(lu), med(lv));
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
    kappaD,
    box,
    blocks: sampleBlocks(xyz, nu, nv),
  };
}

/**
 * Closest point of the surface to p by Gauss–Newton from (u, v) (clamped to the domain, wrapped in a
 * closed direction); writes the parameters into uv and returns the distance (mm).
 */
/** Scratch of nearestSample: each block's lower bound of the squared distance. */
let BLOCK_LB = new Float64Array(32);

/**
 * The index (i · (nv + 1) + j) of the sample nearest to (x, y, z), the lowest index among equally near
 * ones (what a scan of all samples in order finds): blocks whose box is farther than the best sample so
 * far are skipped, the nearest box first.
 */
function nearestSample(g: Sampled, x: number, y: number, z: number): number {
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
function sampleBlocks(xyz: Float64Array, nu: number, nv: number): Float64Array {
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
function distAt(s: ParamSurface, u: number, v: number, p: ArrayLike<number>): number {
  s.eval(u, v, Q);
  return hypot3(Q[0] - p[0], Q[1] - p[1], Q[2] - p[2]);
}

/** A parameter kept in [a, b]: wrapped for a closed direction, clamped otherwise. */
function keepIn(x: number, a: number, b: number, closed: boolean): number {
  return closed ? wrap(x, a, b) : Math.min(b, Math.max(a, x));
}

function invert(g: Sampled, p: ArrayLike<number>, uv: Float64Array, guess: boolean): number {
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
  const hu = 1e-6 * (s.u1 - s.u0),
    hv = 1e-6 * (s.v1 - s.v0);
  let d = distAt(s, u, v, p);
  for (let it = 0; it < 20 && d > 1e-3; it++) {
    // q (= Q) holds S(u, v): distAt evaluated it last, for the start or the accepted step
    const fx = q[0] - p[0],
      fy = q[1] - p[1],
      fz = q[2] - p[2];
    const ue = u + hu <= s.u1 ? hu : -hu,
      ve = v + hv <= s.v1 ? hv : -hv;
    s.eval(u + ue, v, qu);
    s.eval(u, v + ve, qv);
    const ax = (qu[0] - q[0]) / ue,
      ay = (qu[1] - q[1]) / ue,
      az = (qu[2] - q[2]) / ue;
    const bx = (qv[0] - q[0]) / ve,
      by = (qv[1] - q[1]) / ve,
      bz = (qv[2] - q[2]) / ve;
    const a11 = ax * ax + ay * ay + az * az,
      a12 = ax * bx + ay * by + az * bz,
      a22 = bx * bx + by * by + bz * bz;
    const r1 = -(ax * fx + ay * fy + az * fz),
      r2 = -(bx * fx + by * fy + bz * fz);
    const det = a11 * a22 - a12 * a12;
    if (!(Math.abs(det) > 1e-30)) break;
    let du = (r1 * a22 - r2 * a12) / det,
      dv = (a11 * r2 - a12 * r1) / det;
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

/** Scratch columns of rayHit's Newton system. */
const RA = new Float64Array(3),
  RB = new Float64Array(3),
  RC = new Float64Array(3),
  RF = new Float64Array(3);

/** Determinant of the 3×3 matrix with columns x, y, z. */
function det3(x: Float64Array, y: Float64Array, z: Float64Array): number {
  return x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1]) + z[0] * (x[1] * y[2] - x[2] * y[1]);
}

/**
 * Where the line through p along `axis` meets the surface, by Newton on S(u, v) − t·axis = p from the
 * (u, v) in uv (the closest point); writes the hit into uv and returns true, or false (uv unchanged)
 * when the iteration does not converge within the domain.
 */
function rayHit(g: Sampled, p: ArrayLike<number>, axis: ArrayLike<number>, uv: Float64Array): boolean {
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
    if (hypot3(f0, f1, f2) < 1e-4) {
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

/** A loop's edges are split no finer than its perimeter / EDGE_SAMPLES (toPlane). */
const EDGE_SAMPLES = 256;

function wrap(x: number, a: number, b: number): number {
  const p = b - a;
  return x - Math.floor((x - a) / p) * p;
}

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
 * chordMm / 4 from the middle of the edge's chord in the plane, or the edge spans more than a quarter
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
  const minLen = per / EDGE_SAMPLES,
    tolPlane = chordMm / 4;
  const uv = new Float64Array(2);
  const xy: number[] = [];
  let maxDistance = 0;
  const pu = (s.u1 - s.u0) * g.su,
    pv = (s.v1 - s.v0) * g.sv;
  const p = new Float64Array(3);
  const P = new Float64Array(2); // the last mapped point (x, y)
  /** Maps point (px, py, pz) from the parameters in uv (or the nearest sample when !guess) into P, next to (nx, ny). */
  const map = (px: number, py: number, pz: number, guess: boolean, nx: number, ny: number) => {
    p[0] = px;
    p[1] = py;
    p[2] = pz;
    let d = invert(g, p, uv, guess);
    if (guess && d > tolMm) d = invert(g, p, uv, false); // the neighbour misled it
    if (axis && d > 1e-3 && rayHit(g, p, axis, uv)) d = 0;
    if (d > maxDistance) maxDistance = d;
    let x = uv[0] * g.su,
      y = uv[1] * g.sv;
    if (!Number.isNaN(nx)) {
      if (g.periodicU) x += Math.round((nx - x) / pu) * pu;
      if (g.periodicV) y += Math.round((ny - y) / pv) * pv;
    }
    P[0] = x;
    P[1] = y;
    return d;
  };
  /** Pushes the points that split the edge from A (xyz at a, plane xa, ya) to B, in order. */
  const refine = (a: number[], xa: number, ya: number, b: number[], xb: number, yb: number, len: number): void => {
    if (len <= minLen) return;
    const mx = (xa + xb) / 2,
      my = (ya + yb) / 2;
    uv[0] = g.periodicU ? wrap(mx / g.su, s.u0, s.u1) : Math.min(s.u1, Math.max(s.u0, mx / g.su));
    uv[1] = g.periodicV ? wrap(my / g.sv, s.v0, s.v1) : Math.min(s.v1, Math.max(s.v0, my / g.sv));
    const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    const d = map(mid[0], mid[1], mid[2], true, xa, ya);
    const x = P[0],
      y = P[1];
    const wide = (g.periodicU && Math.abs(xb - xa) > pu / 4) || (g.periodicV && Math.abs(yb - ya) > pv / 4);
    if (!wide && d <= tolMm && Math.hypot(x - mx, y - my) <= tolPlane) return;
    refine(a, xa, ya, mid, x, y, len / 2);
    xy.push(x, y);
    refine(mid, x, y, b, xb, yb, len / 2);
  };
  const A = [0, 0, 0],
    B = [0, 0, 0];
  for (let i = 0; i <= m && m > 0; i++) {
    const k = i % m;
    B[0] = loop3[3 * k];
    B[1] = loop3[3 * k + 1];
    B[2] = loop3[3 * k + 2];
    if (i === 0) {
      map(B[0], B[1], B[2], false, NaN, NaN);
      xy.push(P[0], P[1]);
    } else {
      const xa = xy[xy.length - 2],
        ya = xy[xy.length - 1];
      // the closing edge ends at the first point, unwrapped next to the last one
      map(B[0], B[1], B[2], true, xa, ya);
      const xb = P[0],
        yb = P[1],
        ub = uv[0],
        vb = uv[1];
      refine(A, xa, ya, B, xb, yb, hypot3(B[0] - A[0], B[1] - A[1], B[2] - A[2]));
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
    if (g.periodicU) windU = Math.round((xy[n - 2] - xy[0]) / pu);
    if (g.periodicV) windV = Math.round((xy[n - 1] - xy[1]) / pv);
  }
  return { xy, windU, windV, maxDistance };
}

const ring = (r: number[]): Ring => {
  const out: Ring = [];
  for (let i = 0; i + 1 < r.length; i += 2) out.push([r[i], r[i + 1]]);
  return out;
};

/** A ring (xy pairs) closed as polygon-clipping writes its output: the first point repeated at the end. */
const closedRing = (r: number[]): Ring => {
  const out = ring(r);
  if (out.length) out.push([out[0][0], out[0][1]]);
  return out;
};

/**
 * The area below a loop that winds once around the closed u direction, within one period
 * [x0, x0 + P] of the metric plane: the loop repeated over three periods, closed far below, cut to the
 * period's box. Exclusive-or of two such areas is the band between their loops.
 */
function curtain(l: PlaneLoop, x0: number, P: number, yLow: number, yHigh: number): number[] {
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
  pts.push(pts[pts.length - 2], yLow, pts[0], yLow);
  return clipRingToBox(pts, x0, yLow, x0 + P, yHigh);
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
  let winding = 0;
  for (const c of all) {
    if (c.windU !== 0) {
      const r = curtain(c, x0, P, yLow, yHigh);
      if (r.length >= 6) rings.push([ring(r)]);
      winding++;
    } else if (c.xy.length >= 6) rings.push([ring(c.xy)]);
  }
  if (!rings.length) return null;
  let region: Polygon[];
  try {
    // one ordinary loop that does not cross itself is the region as it is (the boolean only normalises it)
    const simple = all.length === 1 && winding === 0 ? simpleRing(all[0].xy) : null;
    region = simple ? [[closedRing(simple)]] : polygonClipping.xor(rings[0], ...rings.slice(1));
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
  const pos: number[] = [],
    idx: number[] = [],
    uvs: number[] = []; // the parameters of each vertex, for its normal
  const q = new Float64Array(3);
  for (const poly of region) {
    // in the plane scaled by the stretch, where the cells are square
    const squeeze = (r: Ring) => {
      const out: number[] = [];
      for (const [x, y] of r) out.push(x / ax, y / ay);
      out.length -= 2; // the closing point
      return out;
    };
    const outer = ax === 1 && ay === 1 ? poly[0].slice(0, -1).flat() : squeeze(poly[0]);
    const hs = poly.slice(1).map((r) => (ax === 1 && ay === 1 ? r.slice(0, -1).flat() : squeeze(r)));
    const r = triangulateGrid(outer, hs, cell);
    const base = pos.length / 3;
    for (let i = 0; i < r.points.length; i += 2) {
      const px = r.points[i] * ax,
        py = r.points[i + 1] * ay;
      const u = g.periodicU ? wrap(px / g.su, s.u0, s.u1) : Math.min(s.u1, Math.max(s.u0, px / g.su)),
        v = Math.min(s.v1, Math.max(s.v0, py / g.sv));
      s.eval(u, v, q);
      pos.push(q[0], q[1], q[2]);
      uvs.push(u, v);
    }
    for (const i of r.indices) idx.push(base + i);
  }
  // one vertex where the grid meets itself across the seam of a closed surface
  if (g.periodicU) {
    let big = 0;
    for (const v of pos) big = Math.max(big, Math.abs(v));
    const remap: number[] = [];
    const w = weld({ positions: pos, indices: idx }, 1e-4 + 1e-9 * big, remap);
    const kept: number[] = new Array((w.positions.length / 3) * 2);
    for (let i = remap.length - 1; i >= 0; i--) {
      kept[2 * remap[i]] = uvs[2 * i];
      kept[2 * remap[i] + 1] = uvs[2 * i + 1];
    }
    uvs.length = 0;
    uvs.push(...kept);
    pos.length = 0;
    pos.push(...w.positions);
    idx.length = 0;
    for (let t = 0; t < w.indices.length; t += 3) {
      const a = w.indices[t],
        b = w.indices[t + 1],
        c = w.indices[t + 2];
      if (a !== b && b !== c && a !== c) idx.push(a, b, c);
    }
  }
  // per-vertex normals from the triangles (orientation of the parameter plane: Su × Sv)
  const P3 = Float64Array.from(pos);
  const normals = new Float64Array(P3.length);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t],
      b = 3 * idx[t + 1],
      c = 3 * idx[t + 2];
    const ux = P3[b] - P3[a],
      uy = P3[b + 1] - P3[a + 1],
      uz = P3[b + 2] - P3[a + 2];
    const vx = P3[c] - P3[a],
      vy = P3[c + 1] - P3[a + 1],
      vz = P3[c + 2] - P3[a + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    for (const o of [a, b, c]) {
      normals[o] += nx;
      normals[o + 1] += ny;
      normals[o + 2] += nz;
    }
  }
  for (let i = 0; i < normals.length; i += 3) {
    const l = hypot3(normals[i], normals[i + 1], normals[i + 2]) || 1;
    normals[i] /= l;
    normals[i + 1] /= l;
    normals[i + 2] /= l;
  }
  surfaceNormals(g, uvs, normals);
  const indices = Uint32Array.from(idx);
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
 * spans up to the chordal size of that direction's own curvature, at most a quarter of the region's
 * extent (four rows at least). Only when the other direction clearly carries the curvature (16 × the
 * straight one's, and the diagonals bend no more: a twisted surface is straight along u and v but not
 * along its diagonals).
 */
function stretch(g: Sampled, region: Polygon[], cell: number, chordMm: number): [number, number] {
  const { kappaU: ku, kappaV: kv, kappaD: kd } = g;
  const kMax = Math.max(ku, kv);
  if (!(kMax > 0) || kd > kMax || 16 * Math.min(ku, kv) > kMax) return [1, 1];
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
  const a = Math.max(1, Math.min(own, (hi - lo) / 4) / cell);
  if (!Number.isFinite(a)) return [1, 1];
  return alongY ? [1, a] : [a, 1];
}

/**
 * Replaces the triangles' vertex normals (in `normals`, unit, per vertex) by the surface's own, Su × Sv
 * at each vertex's parameters (uv pairs), turned to the side the triangles face: a vertex of the
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
  for (let k = 0; 2 * k + 1 < uvs.length; k++) {
    const u = uvs[2 * k],
      v = uvs[2 * k + 1];
    // central differences inside the domain, one-sided at its edges
    const ua = Math.max(s.u0, u - du),
      ub = Math.min(s.u1, u + du),
      va = Math.max(s.v0, v - dv),
      vb = Math.min(s.v1, v + dv);
    s.eval(ub, v, a);
    s.eval(ua, v, b);
    const sx = a[0] - b[0],
      sy = a[1] - b[1],
      sz = a[2] - b[2];
    s.eval(u, vb, a);
    s.eval(u, va, b);
    const tx = a[0] - b[0],
      ty = a[1] - b[1],
      tz = a[2] - b[2];
    const nx = sy * tz - sz * ty,
      ny = sz * tx - sx * tz,
      nz = sx * ty - sy * tx;
    const l = hypot3(nx, ny, nz);
    if (!(l > 1e-12 * (hypot3(sx, sy, sz) * hypot3(tx, ty, tz) + 1e-300))) continue;
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
    t = { u0: s.v0, u1: s.v1, v0: s.u0, v1: s.u1, eval: (v, u, out) => s.eval(u, v, out) };
    if (s.evalGrid)
      t.evalGrid = (vs, us, out) => {
        // the surface's own grid (us × vs), written transposed
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
      };
    TRANSPOSED.set(s, t);
    TRANSPOSED.set(t, s);
  }
  return t;
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
  return p.reduce((a, r, k) => a + (k ? -1 : 1) * Math.abs(signedArea2d(r.slice(0, -1).flat())), 0);
}
