/**
 * Plane slicing kernels (issue 5 item 5; viewer.md §4 "Section drawing", §9 polyline tolerances):
 * triangles ∩ axis plane → raw segments, edge segments ∩ plane → points / in-plane pieces, and
 * segments → chained polylines. Pure functions on typed arrays; world millimetres.
 *
 * Robustness: a vertex exactly on the plane counts as on the positive side (simulation of simplicity),
 * so a closed mesh always yields closed loops, and every crossing point is interpolated from the
 * negative to the positive vertex, so the two triangles sharing an edge produce bit-identical points.
 */
import { POLYLINE_TOLERANCE_MM, type SectionPolyline } from './types';

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
  let n = 0;
  const end = start + count;
  for (let t = start; t + 2 < end; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, d = indices[t + 2] * 3;
    const da = positions[a + axis] - c, db = positions[b + axis] - c, dd = positions[d + axis] - c;
    const na = da < 0, nb = db < 0, nd = dd < 0;
    if (na === nb && nb === nd) continue;
    // The lone vertex is the one whose side differs from the other two.
    let lone: number, o1: number, o2: number, dl: number, d1: number, d2: number;
    if (na !== nb && na !== nd) { lone = a; dl = da; o1 = b; d1 = db; o2 = d; d2 = dd; }
    else if (nb !== na && nb !== nd) { lone = b; dl = db; o1 = d; d1 = dd; o2 = a; d2 = da; }
    else { lone = d; dl = dd; o1 = a; d1 = da; o2 = b; d2 = db; }
    crossing(positions, lone, dl, o1, d1, axis, project, out);
    crossing(positions, lone, dl, o2, d2, axis, project, out);
    n++;
  }
  return n;
}

/** Pushes the crossing point of edge (p, q) with the plane, interpolated from the negative to the positive end. */
function crossing(pos: ArrayLike<number>, p: number, dp: number, q: number, dq: number, axis: number, project: number, out: number[]): void {
  let neg = p, pos_ = q, dn = dp, dpos = dq;
  if (dp >= 0) { neg = q; pos_ = p; dn = dq; dpos = dp; }
  const t = dn / (dn - dpos);
  for (let k = 0; k < 3; k++) out.push(k === axis ? project : pos[neg + k] + (pos[pos_ + k] - pos[neg + k]) * t);
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
    const d0 = edges[o + axis] - c, d1 = edges[o + 3 + axis] - c;
    if (Math.abs(d0) <= tol && Math.abs(d1) <= tol) {
      for (let k = 0; k < 6; k++) inPlane.push(k % 3 === axis ? c : edges[o + k]);
    } else if ((d0 < 0) !== (d1 < 0)) {
      const t = d0 / (d0 - d1);
      for (let k = 0; k < 3; k++) points.push(k === axis ? c : edges[o + k] + (edges[o + 3 + k] - edges[o + k]) * t);
    }
  }
}

const keyOf = (x: number, y: number, z: number): string => `${Math.round(x * 1000)},${Math.round(y * 1000)},${Math.round(z * 1000)}`;

/**
 * Chains raw segments (6 values each, mm) into polylines. Segments shorter than the zero-length
 * tolerance (1e-6 m = 1e-3 mm) are dropped; endpoints are joined when equal to 1e-3 mm, then open
 * chains whose ends lie within the closed tolerance (0.001 m = 1 mm) are joined, and a chain whose ends
 * meet within it is closed (its repeated last point removed). viewer.md §9 "polyline closed tolerance
 * 0.001, zero-length below 1e-6" (metres, scaled ×1000 for mm).
 */
export function chainSegments(segments: ArrayLike<number>, closedTol = POLYLINE_TOLERANCE_MM.closed, zeroLen = POLYLINE_TOLERANCE_MM.zeroLength): SectionPolyline[] {
  const nSeg = Math.floor(segments.length / 6);
  const ends = new Map<string, number[]>();
  const keep: boolean[] = new Array(nSeg).fill(false);
  for (let s = 0; s < nSeg; s++) {
    const o = s * 6;
    const len = Math.hypot(segments[o + 3] - segments[o], segments[o + 4] - segments[o + 1], segments[o + 5] - segments[o + 2]);
    if (len < zeroLen) continue;
    keep[s] = true;
    for (const e of [0, 1]) {
      const k = keyOf(segments[o + e * 3], segments[o + e * 3 + 1], segments[o + e * 3 + 2]);
      let l = ends.get(k);
      if (!l) ends.set(k, (l = []));
      l.push(s * 2 + e);
    }
  }
  const used = new Uint8Array(nSeg);
  const chains: number[][] = [];
  const pt = (s: number, e: number): [number, number, number] => [segments[s * 6 + e * 3], segments[s * 6 + e * 3 + 1], segments[s * 6 + e * 3 + 2]];
  // Walks from end `e` of segment `s`, returning the points after it.
  const walk = (s: number, e: number): number[] => {
    const pts: number[] = [];
    let cur = s, curEnd = e;
    for (;;) {
      const p = pt(cur, curEnd);
      const list = ends.get(keyOf(p[0], p[1], p[2]))!;
      let next = -1;
      for (const id of list) if (!used[id >> 1]) { next = id; break; }
      if (next < 0) return pts;
      const ns = next >> 1, ne = next & 1;
      used[ns] = 1;
      const far = pt(ns, 1 - ne);
      pts.push(far[0], far[1], far[2]);
      cur = ns; curEnd = 1 - ne;
    }
  };
  for (let s = 0; s < nSeg; s++) {
    if (!keep[s] || used[s]) continue;
    used[s] = 1;
    const fwd = walk(s, 1);
    const back = walk(s, 0);
    const pts: number[] = [];
    for (let i = back.length - 3; i >= 0; i -= 3) pts.push(back[i], back[i + 1], back[i + 2]);
    pts.push(...pt(s, 0), ...pt(s, 1), ...fwd);
    chains.push(pts);
  }
  return finishChains(chains, closedTol, zeroLen);
}

const dist = (a: number[], i: number, b: number[], j: number): number => Math.hypot(a[i] - b[j], a[i + 1] - b[j + 1], a[i + 2] - b[j + 2]);

/** Joins open chains whose ends meet within `tol`, closes chains whose ends meet, drops zero-length ones. */
function finishChains(chains: number[][], tol: number, zeroLen: number): SectionPolyline[] {
  const isClosed = (p: number[]) => p.length >= 9 && dist(p, 0, p, p.length - 3) <= tol;
  let open = chains.filter((p) => !isClosed(p));
  const done: SectionPolyline[] = [];
  for (const p of chains) if (isClosed(p)) done.push({ points: p.slice(0, p.length - 3), closed: true });
  let merged = true;
  while (merged && open.length > 1) {
    merged = false;
    outer: for (let i = 0; i < open.length; i++) {
      for (let j = i + 1; j < open.length; j++) {
        const a = open[i], b = open[j];
        const ae = a.length - 3, be = b.length - 3;
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
    if (isClosed(p)) done.push({ points: p.slice(0, p.length - 3), closed: true });
    else if (polylineLength(p, false) >= zeroLen) done.push({ points: p, closed: false });
  }
  open = [];
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
  for (let i = 1; i < n; i++)
    L += Math.hypot(points[i * 3] - points[i * 3 - 3], points[i * 3 + 1] - points[i * 3 - 2], points[i * 3 + 2] - points[i * 3 - 1]);
  if (closed && n > 2) L += Math.hypot(points[0] - points[n * 3 - 3], points[1] - points[n * 3 - 2], points[2] - points[n * 3 - 1]);
  return L;
}

/** Absolute area (mm²) of a closed polyline lying in the plane normal to `axis` (shoelace on the other two axes). */
export function polygonArea(points: ArrayLike<number>, axis: 0 | 1 | 2): number {
  const u = axis === 0 ? 1 : 0, v = axis === 2 ? 1 : 2;
  const n = Math.floor(points.length / 3);
  let a = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    a += points[i * 3 + u] * points[j * 3 + v] - points[j * 3 + u] * points[i * 3 + v];
  }
  return Math.abs(a) / 2;
}
