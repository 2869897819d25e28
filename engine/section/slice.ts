/**
 * Plane slicing kernels (viewer.md §4 "Section drawing", §9 polyline tolerances):
 * triangles ∩ axis plane → raw segments, edge segments ∩ plane → points / in-plane pieces, and
 * segments → chained polylines. Pure functions on typed arrays; world millimetres.
 *
 * Robustness: a vertex exactly on the plane counts as on the positive side (simulation of simplicity),
 * so a closed mesh always yields closed loops, and every crossing point is interpolated from the
 * negative to the positive vertex, so the two triangles sharing an edge produce bit-identical points.
 */
import { hypot3 } from '../geometry/curves';
import { POLYLINE_TOLERANCE_MM, type SectionPolyline } from './types';

/** A growable buffer of raw segments (x0 y0 z0 x1 y1 z1, mm): `data[0 .. length)` is filled. Reset `length` to reuse it. */
export interface SegmentBuffer {
  data: Float64Array;
  length: number;
}

/** A new empty segment buffer (room for `segments` segments; it grows as needed). */
export function segmentBuffer(segments = 1024): SegmentBuffer {
  return { data: new Float64Array(Math.max(1, segments) * 6), length: 0 };
}

/**
 * Appends to `out` the segments (x0 y0 z0 x1 y1 z1, mm) where triangles `indices[start .. start+count)`
 * of `positions` cross the plane `axis` = `c`. The axis coordinate of every output point is exactly `c`
 * unless `project` is given, in which case it is set to `project` (used to draw an object that lies in
 * or ends on the plane at the plane's coordinate). @returns the number of segments appended.
 */
export function sliceTriangles(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  start: number,
  count: number,
  axis: 0 | 1 | 2,
  c: number,
  out: number[],
  project = c,
): number {
  const buf = sliceScratch;
  buf.length = 0;
  const n = sliceTrianglesInto(positions, indices, start, count, axis, c, buf, project);
  for (let i = 0; i < buf.length; i++) out.push(buf.data[i]);
  return n;
}
const sliceScratch = segmentBuffer();

/**
 * sliceTriangles writing into a typed segment buffer (no per-segment allocation): the kernel the
 * section uses. Same segments, same order, bit-identical values. @returns the number of segments appended.
 */
export function sliceTrianglesInto(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  start: number,
  count: number,
  axis: 0 | 1 | 2,
  c: number,
  out: SegmentBuffer,
  project = c,
): number {
  let n = 0;
  const end = start + count;
  let w = out.length,
    data = out.data;
  for (let t = start; t + 2 < end; t += 3) {
    const a = indices[t] * 3,
      b = indices[t + 1] * 3,
      d = indices[t + 2] * 3;
    const da = positions[a + axis] - c,
      db = positions[b + axis] - c,
      dd = positions[d + axis] - c;
    const na = da < 0,
      nb = db < 0,
      nd = dd < 0;
    if (na === nb && nb === nd) continue;
    // The lone vertex is the one whose side differs from the other two.
    let lone: number, o1: number, o2: number, dl: number, d1: number, d2: number;
    if (na !== nb && na !== nd) {
      lone = a;
      dl = da;
      o1 = b;
      d1 = db;
      o2 = d;
      d2 = dd;
    } else if (nb !== na && nb !== nd) {
      lone = b;
      dl = db;
      o1 = d;
      d1 = dd;
      o2 = a;
      d2 = da;
    } else {
      lone = d;
      dl = dd;
      o1 = a;
      d1 = da;
      o2 = b;
      d2 = db;
    }
    if (w + 6 > data.length) {
      const grown = new Float64Array(data.length * 2);
      grown.set(data.subarray(0, w));
      out.data = data = grown;
    }
    crossing(positions, lone, dl, o1, d1, axis, project, data, w);
    crossing(positions, lone, dl, o2, d2, axis, project, data, w + 3);
    w += 6;
    n++;
  }
  out.length = w;
  return n;
}

/** Writes at `out[w..w+3)` the crossing point of edge (p, q) with the plane, interpolated from the negative to the positive end. */
function crossing(
  pos: ArrayLike<number>,
  p: number,
  dp: number,
  q: number,
  dq: number,
  axis: number,
  project: number,
  out: Float64Array,
  w: number,
): void {
  let neg = p,
    pos_ = q,
    dn = dp,
    dpos = dq;
  if (dp >= 0) {
    neg = q;
    pos_ = p;
    dn = dq;
    dpos = dp;
  }
  const t = dn / (dn - dpos);
  const x = pos[neg] + (pos[pos_] - pos[neg]) * t;
  const y = pos[neg + 1] + (pos[pos_ + 1] - pos[neg + 1]) * t;
  const z = pos[neg + 2] + (pos[pos_ + 2] - pos[neg + 2]) * t;
  out[w] = axis === 0 ? project : x;
  out[w + 1] = axis === 1 ? project : y;
  out[w + 2] = axis === 2 ? project : z;
}

/**
 * Edge segments (seams, feature lines) against the plane: pieces lying in the plane within `tol` (mm)
 * go to `inPlane` as segments; segments crossing it give points in `points` (xyz). Both are projected
 * to axis = c.
 */
export function sliceEdges(
  edges: ArrayLike<number>,
  segStart: number,
  segCount: number,
  axis: 0 | 1 | 2,
  c: number,
  tol: number,
  inPlane: number[],
  points: number[],
): void {
  for (let s = segStart; s < segStart + segCount; s++) {
    const o = s * 6;
    const d0 = edges[o + axis] - c,
      d1 = edges[o + 3 + axis] - c;
    if (Math.abs(d0) <= tol && Math.abs(d1) <= tol) {
      for (let k = 0; k < 6; k++) inPlane.push(k % 3 === axis ? c : edges[o + k]);
    } else if (d0 < 0 !== d1 < 0) {
      const t = d0 / (d0 - d1);
      for (let k = 0; k < 3; k++) points.push(k === axis ? c : edges[o + k] + (edges[o + 3 + k] - edges[o + k]) * t);
    }
  }
}

/**
 * Chains raw segments (6 values each, mm) into polylines. Segments shorter than the zero-length
 * tolerance (1e-6 m = 1e-3 mm) are dropped; endpoints are joined when equal to 1e-3 mm, then open
 * chains whose ends lie within the closed tolerance (0.001 m = 1 mm) are joined, and a chain whose ends
 * meet within it is closed (its repeated last point removed). viewer.md §9 "polyline closed tolerance
 * 0.001, zero-length below 1e-6" (metres, scaled ×1000 for mm).
 *
 * Endpoints are welded through an open-addressing hash of their coordinates rounded to 1e-3 mm (typed
 * arrays, no per-point objects or strings), then walked through a compact vertex → endpoints table.
 * With `collinearTol` > 0 (mm; sections pass POLYLINE_TOLERANCE_MM.collinear) each result then drops the
 * points within it of the line between their neighbours (`dropCollinear`).
 */
export function chainSegments(
  segments: ArrayLike<number>,
  closedTol: number = POLYLINE_TOLERANCE_MM.closed,
  zeroLen: number = POLYLINE_TOLERANCE_MM.zeroLength,
  collinearTol = 0,
): SectionPolyline[] {
  const nSeg = Math.floor(segments.length / 6);
  let cap = 16;
  while (cap < nSeg * 4) cap <<= 1;
  const mask = cap - 1;
  // Scratch tables reused across calls (typed-array allocation dominates for the many small objects of a section).
  const sc = scratch(nSeg, cap);
  const keep = sc.keep,
    vertOf = sc.vertOf,
    table = sc.table,
    vq = sc.vq;
  keep.fill(0, 0, nSeg);
  vertOf.fill(-1, 0, nSeg * 2);
  table.fill(-1, 0, cap);
  let nv = 0;
  for (let s = 0; s < nSeg; s++) {
    const o = s * 6;
    const dx = segments[o + 3] - segments[o],
      dy = segments[o + 4] - segments[o + 1],
      dz = segments[o + 5] - segments[o + 2];
    if (!(Math.sqrt(dx * dx + dy * dy + dz * dz) >= zeroLen)) continue;
    keep[s] = 1;
    for (let e = 0; e < 2; e++) {
      const qx = Math.round(segments[o + e * 3] * 1000),
        qy = Math.round(segments[o + e * 3 + 1] * 1000),
        qz = Math.round(segments[o + e * 3 + 2] * 1000);
      let h = (Math.imul(qx | 0, 73856093) ^ Math.imul(qy | 0, 19349663) ^ Math.imul(qz | 0, 83492791)) & mask;
      let v = table[h];
      while (v >= 0 && !(vq[v * 3] === qx && vq[v * 3 + 1] === qy && vq[v * 3 + 2] === qz)) {
        h = (h + 1) & mask;
        v = table[h];
      }
      if (v < 0) {
        v = nv++;
        table[h] = v;
        vq[v * 3] = qx;
        vq[v * 3 + 1] = qy;
        vq[v * 3 + 2] = qz;
      }
      vertOf[s * 2 + e] = v;
    }
  }
  // Endpoints per vertex (CSR), in segment order.
  const start = sc.start,
    fill = sc.fill,
    list = sc.list,
    used = sc.used;
  start.fill(0, 0, nv + 1);
  for (let i = 0; i < nSeg * 2; i++) if (vertOf[i] >= 0) start[vertOf[i] + 1]++;
  for (let v = 0; v < nv; v++) start[v + 1] += start[v];
  fill.set(start.subarray(0, nv));
  for (let i = 0; i < nSeg * 2; i++) if (vertOf[i] >= 0) list[fill[vertOf[i]]++] = i;
  used.fill(0, 0, nSeg);

  // Each chain is walked from its first unused segment forwards and backwards into typed scratch, then
  // copied once into its output array; closed chains (ends within closedTol) go straight to the result.
  const fwd = sc.fwd,
    back = sc.back;
  const done: SectionPolyline[] = [],
    open: number[][] = [];
  for (let s = 0; s < nSeg; s++) {
    if (!keep[s] || used[s]) continue;
    used[s] = 1;
    const nf = walkChain(segments, vertOf, start, list, used, s * 2 + 1, fwd);
    const nb = walkChain(segments, vertOf, start, list, used, s * 2, back);
    const o = s * 6;
    const total = nb + 6 + nf;
    // First point: the last one walked backwards, else the segment's start.
    const fx = nb ? back[nb - 3] : segments[o],
      fy = nb ? back[nb - 2] : segments[o + 1],
      fz = nb ? back[nb - 1] : segments[o + 2];
    const lx = nf ? fwd[nf - 3] : segments[o + 3],
      ly = nf ? fwd[nf - 2] : segments[o + 4],
      lz = nf ? fwd[nf - 1] : segments[o + 5];
    const ex = fx - lx,
      ey = fy - ly,
      ez = fz - lz;
    const closed = total >= 9 && Math.sqrt(ex * ex + ey * ey + ez * ez) <= closedTol;
    const stop = closed ? total - 3 : total;
    // A closed chain is final (a typed array, as every result); an open one may still be joined (a plain array).
    const pts = closed ? new Float64Array(stop) : new Array<number>(stop);
    let n = 0;
    for (let i = nb - 3; i >= 0 && n < stop; i -= 3, n += 3) {
      pts[n] = back[i];
      pts[n + 1] = back[i + 1];
      pts[n + 2] = back[i + 2];
    }
    for (let i = 0; i < 6 && n < stop; i++, n++) pts[n] = segments[o + i];
    for (let i = 0; n < stop; i++, n++) pts[n] = fwd[i];
    if (pts instanceof Float64Array) done.push({ points: withoutCollinear(pts, true, collinearTol), closed: true });
    else open.push(pts);
  }
  return finishChains(done, open, closedTol, zeroLen, collinearTol);
}

/**
 * Whether point `p` (offset into `pts`, xyz) lies within √`tol2` of the straight line from point `k` to
 * point `n` and strictly between them (its projection inside the segment). The kernel's `is_collinear`
 * repeats it operation for operation.
 */
function isCollinear(pts: ArrayLike<number>, k: number, p: number, n: number, tol2: number): boolean {
  const ux = pts[n] - pts[k],
    uy = pts[n + 1] - pts[k + 1],
    uz = pts[n + 2] - pts[k + 2];
  const vx = pts[p] - pts[k],
    vy = pts[p + 1] - pts[k + 1],
    vz = pts[p + 2] - pts[k + 2];
  const l2 = ux * ux + uy * uy + uz * uz;
  const d = ux * vx + uy * vy + uz * vz;
  if (!(d > 0 && d < l2)) return false;
  const cx = uy * vz - uz * vy,
    cy = uz * vx - ux * vz,
    cz = ux * vy - uy * vx;
  return cx * cx + cy * cy + cz * cz < tol2 * l2;
}

/**
 * Drops, in place, the points of `pts` (xyz mm) that lie within `tol` mm of the straight line from the
 * last point kept to the next point (for a closed polyline the last point's next is the first); the first
 * point, and an open polyline's last, are always kept. @returns the number of values kept (at the front).
 * The kernel's `drop_collinear` (wasm/src/chain.rs) does the same.
 */
function dropCollinear(pts: Float64Array, closed: boolean, tol: number): number {
  const n = Math.floor(pts.length / 3);
  if (!(tol > 0) || n < 3) return n * 3;
  const tol2 = tol * tol;
  let w = 1;
  const last = closed ? n : n - 1;
  for (let i = 1; i < last; i++) {
    if (isCollinear(pts, (w - 1) * 3, i * 3, (i + 1 < n ? i + 1 : 0) * 3, tol2)) continue;
    // w ≤ i: the points still to be read (after i, and the first) are untouched.
    pts.copyWithin(w * 3, i * 3, i * 3 + 3);
    w++;
  }
  if (!closed) {
    pts.copyWithin(w * 3, (n - 1) * 3, n * 3);
    w++;
  }
  return w * 3;
}

/** `pts` without its collinear points (`dropCollinear`), a shorter copy when some were dropped. */
function withoutCollinear(pts: Float64Array, closed: boolean, tol: number): Float64Array {
  const kept = dropCollinear(pts, closed, tol);
  return kept < pts.length ? pts.slice(0, kept) : pts;
}

/**
 * Walks from endpoint `cur` (segment·2 + end) through unused segments, writing the far point of each
 * into `out` (xyz) and marking it used. @returns the number of values written.
 */
function walkChain(
  segments: ArrayLike<number>,
  vertOf: Int32Array,
  start: Int32Array,
  list: Int32Array,
  used: Uint8Array,
  cur: number,
  out: Float64Array,
): number {
  let w = 0;
  for (;;) {
    const v = vertOf[cur];
    let next = -1;
    for (let k = start[v], e = start[v + 1]; k < e; k++)
      if (!used[list[k] >> 1]) {
        next = list[k];
        break;
      }
    if (next < 0) return w;
    const ns = next >> 1,
      far = ns * 2 + (1 - (next & 1));
    used[ns] = 1;
    const o = far * 3;
    out[w] = segments[o];
    out[w + 1] = segments[o + 1];
    out[w + 2] = segments[o + 2];
    w += 3;
    cur = far;
  }
}

interface ChainScratch {
  keep: Uint8Array;
  used: Uint8Array;
  vertOf: Int32Array;
  table: Int32Array;
  vq: Float64Array;
  start: Int32Array;
  fill: Int32Array;
  list: Int32Array;
  fwd: Float64Array;
  back: Float64Array;
  segs: number;
  cap: number;
}
let chainScratch: ChainScratch | null = null;

/** Scratch tables for chaining `nSeg` segments with a hash table of `cap` slots, grown as needed. */
function scratch(nSeg: number, cap: number): ChainScratch {
  const s = chainScratch;
  if (s && s.segs >= nSeg && s.cap >= cap) return s;
  const n = Math.max(nSeg, s?.segs ?? 0, 256),
    c = Math.max(cap, s?.cap ?? 0, 1024);
  chainScratch = {
    keep: new Uint8Array(n),
    used: new Uint8Array(n),
    vertOf: new Int32Array(n * 2),
    table: new Int32Array(c),
    vq: new Float64Array(n * 6),
    start: new Int32Array(n * 2 + 1),
    fill: new Int32Array(n * 2),
    list: new Int32Array(n * 2),
    fwd: new Float64Array(n * 3 + 3),
    back: new Float64Array(n * 3 + 3),
    segs: n,
    cap: c,
  };
  return chainScratch;
}

const dist = (a: number[], i: number, b: number[], j: number): number => {
  const x = a[i] - b[j],
    y = a[i + 1] - b[j + 1],
    z = a[i + 2] - b[j + 2];
  return Math.sqrt(x * x + y * y + z * z);
};

/**
 * Joins open chains whose ends meet within `tol`, closes chains whose ends meet, drops zero-length ones
 * and (with `collinearTol` > 0) each result's collinear points;
 * appends the results to `done` (already holding the chains closed by chaining) and returns it.
 */
function finishChains(
  done: SectionPolyline[],
  open: number[][],
  tol: number,
  zeroLen: number,
  collinearTol: number,
): SectionPolyline[] {
  const isClosed = (p: number[]) => p.length >= 9 && dist(p, 0, p, p.length - 3) <= tol;
  let merged = true;
  while (merged && open.length > 1) {
    merged = false;
    outer: for (let i = 0; i < open.length; i++) {
      for (let j = i + 1; j < open.length; j++) {
        const a = open[i],
          b = open[j];
        const ae = a.length - 3,
          be = b.length - 3;
        let joined: number[] | null = null;
        if (dist(a, ae, b, 0) <= tol) joined = a.concat(b.slice(3));
        else if (dist(b, be, a, 0) <= tol) joined = b.concat(a.slice(3));
        else if (dist(a, ae, b, be) <= tol) joined = a.concat(reversePts(b).slice(3));
        else if (dist(a, 0, b, 0) <= tol) joined = reversePts(a).concat(b.slice(3));
        if (joined) {
          open.splice(j, 1);
          open[i] = joined;
          merged = true;
          break outer;
        }
      }
    }
  }
  for (const p of open) {
    if (isClosed(p))
      done.push({
        points: withoutCollinear(Float64Array.from(p.slice(0, p.length - 3)), true, collinearTol),
        closed: true,
      });
    else if (polylineLength(p, false) >= zeroLen)
      done.push({ points: withoutCollinear(Float64Array.from(p), false, collinearTol), closed: false });
  }
  return done;
}

function reversePts(p: number[]): number[] {
  const r: number[] = [];
  for (let i = p.length - 3; i >= 0; i -= 3) r.push(p[i], p[i + 1], p[i + 2]);
  return r;
}

/** Length (mm) of flat xyz points, including the closing segment when `closed`. */
export function polylineLength(points: ArrayLike<number>, closed: boolean): number {
  let L = 0;
  const n = Math.floor(points.length / 3);
  for (let i = 1; i < n; i++) {
    const x = points[i * 3] - points[i * 3 - 3],
      y = points[i * 3 + 1] - points[i * 3 - 2],
      z = points[i * 3 + 2] - points[i * 3 - 1];
    L += Math.sqrt(x * x + y * y + z * z);
  }
  if (closed && n > 2)
    L += hypot3(points[0] - points[n * 3 - 3], points[1] - points[n * 3 - 2], points[2] - points[n * 3 - 1]);
  return L;
}

/** Absolute area (mm²) of a closed polyline lying in the plane normal to `axis` (shoelace on the other two axes). */
export function polygonArea(points: ArrayLike<number>, axis: 0 | 1 | 2): number {
  const u = axis === 0 ? 1 : 0,
    v = axis === 2 ? 1 : 2;
  const n = Math.floor(points.length / 3);
  let a = 0;
  // The same terms in the same order as with j = (i + 1) % n, without a division per point.
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    a += points[i * 3 + u] * points[j * 3 + v] - points[j * 3 + u] * points[i * 3 + v];
  }
  return Math.abs(a) / 2;
}

/**
 * `polylineLength(points, true)` and `polygonArea(points, axis)` of a closed polyline (flat xyz, mm) in one
 * pass over its points, bit-identical to the two (each sum keeps its terms and their order).
 * Writes the perimeter (mm) to out[0] and the area (mm²) to out[1] (no array per call: a section computes
 * this for every plate it cuts).
 */
export function closedLengthAndArea(points: ArrayLike<number>, axis: 0 | 1 | 2, out: Float64Array): void {
  const u = axis === 0 ? 1 : 0,
    v = axis === 2 ? 1 : 2;
  const n = Math.floor(points.length / 3);
  if (n === 0) {
    out[0] = out[1] = 0;
    return;
  }
  let L = 0,
    a = 0;
  for (let i = 1; i < n; i++) {
    const x = points[i * 3] - points[i * 3 - 3],
      y = points[i * 3 + 1] - points[i * 3 - 2],
      z = points[i * 3 + 2] - points[i * 3 - 1];
    L += Math.sqrt(x * x + y * y + z * z);
    a += points[i * 3 - 3 + u] * points[i * 3 + v] - points[i * 3 + u] * points[i * 3 - 3 + v];
  }
  a += points[(n - 1) * 3 + u] * points[v] - points[u] * points[(n - 1) * 3 + v];
  if (n > 2) L += hypot3(points[0] - points[n * 3 - 3], points[1] - points[n * 3 - 2], points[2] - points[n * 3 - 1]);
  out[0] = L;
  out[1] = Math.abs(a) / 2;
}
