/**
 * The definition plane of a planar part (viewer.md §3 "Surface object": definitionPlane point + normal):
 * the largest planar face of its triangles (a thickened plate or bracket has two, the
 * first found wins), or for an outline-only object (a HOLE: edges, no triangles) the plane of its
 * largest closed edge loop. Returns the plane, in-plane axes and the face's boundary loops projected
 * into those axes. Pure geometry, world millimetres throughout.
 */
import { chainSegments } from '../section/slice';

/** xyz, mm. */
export type P3 = [number, number, number];

/** Geometry of one part: triangles and/or edge segments, world mm. */
export interface PartGeometry {
  /** 9 values per triangle (three xyz vertices), mm; may be empty. */
  triangles: ArrayLike<number>;
  /** 6 values per segment, mm; may be empty. Used when there are no triangles. */
  edges: ArrayLike<number>;
}

/**
 * A plane with right-handed in-plane axes (u × v = normal). Horizontal faces (|nz| largest): u along
 * world X; otherwise v along world Z (u then along Y on a transverse face, X on a longitudinal one).
 */
export interface PlaneFrame {
  /** Area centroid of the face, mm. */
  origin: P3;
  normal: P3;
  u: P3;
  v: P3;
}

/** A planar face: its frame, area (mm²) and boundary loops in (u, v) mm relative to the origin. */
export interface PlanarFace {
  frame: PlaneFrame;
  area: number;
  /** Closed loops as [u0, v0, u1, v1, ...] (no repeated last point); the first is the outer loop, counter-clockwise. */
  loops: number[][];
}

/** Options of findPlanarFace. */
export interface PlanarFaceOptions {
  /** Distance of a vertex from the face's plane still counted on it, mm (default 0.5; raise it for quantised geometry). */
  planeTolerance?: number;
  /** Smallest share of the total triangle area the largest face must hold for the part to count as planar (default 0.3). */
  minAreaShare?: number;
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): P3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: P3): P3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return l > 0 ? [a[0] / l, a[1] / l, a[2] / l] : [0, 0, 0];
};

/** In-plane axes for a unit normal (see PlaneFrame). */
export function planeAxes(n: P3): { u: P3; v: P3 } {
  if (Math.abs(n[2]) >= Math.max(Math.abs(n[0]), Math.abs(n[1]))) {
    const u = unit([1 - n[0] * n[0], -n[0] * n[1], -n[0] * n[2]]);
    return { u, v: cross(n, u) };
  }
  const v = unit([-n[2] * n[0], -n[2] * n[1], 1 - n[2] * n[2]]);
  return { u: cross(v, n), v };
}

/** Seeds tried for the largest face (largest triangles first). */
const SEEDS = 8;

/**
 * The largest planar face of a part, or null when the part has none worth the name: no geometry, a
 * largest face below `minAreaShare` of the area (a curved plate), or edges that form no closed planar
 * loop. Never throws for odd geometry; non-finite coordinates are skipped.
 */
export function findPlanarFace(g: PartGeometry, options: PlanarFaceOptions = {}): PlanarFace | null {
  const tol = options.planeTolerance ?? 0.5;
  const t = g.triangles,
    nt = Math.floor(t.length / 9);
  if (nt === 0) return edgeLoopFace(g.edges, tol);
  const normals = new Float64Array(nt * 3),
    areas = new Float64Array(nt);
  let total = 0;
  for (let i = 0; i < nt; i++) {
    const o = i * 9;
    const e1 = [t[o + 3] - t[o], t[o + 4] - t[o + 1], t[o + 5] - t[o + 2]],
      e2 = [t[o + 6] - t[o], t[o + 7] - t[o + 1], t[o + 8] - t[o + 2]];
    const c = cross(e1, e2),
      l = Math.hypot(c[0], c[1], c[2]);
    if (!(l > 0) || !Number.isFinite(l)) continue;
    areas[i] = l / 2;
    total += l / 2;
    normals.set([c[0] / l, c[1] / l, c[2] / l], i * 3);
  }
  if (!(total > 0)) return edgeLoopFace(g.edges, tol);
  const order = Array.from({ length: nt }, (_, i) => i)
    .filter((i) => areas[i] > 0)
    .sort((a, b) => areas[b] - areas[a]);
  let best: { members: number[]; area: number } | null = null;
  const tried: { n: P3; d: number }[] = [];
  for (const seed of order) {
    if (tried.length >= SEEDS) break;
    const n: P3 = [normals[seed * 3], normals[seed * 3 + 1], normals[seed * 3 + 2]];
    const d = n[0] * t[seed * 9] + n[1] * t[seed * 9 + 1] + n[2] * t[seed * 9 + 2];
    if (tried.some((p) => dot(p.n, n) > 0.999 && Math.abs(p.d - d) <= tol)) continue;
    tried.push({ n, d });
    const members: number[] = [];
    let area = 0;
    for (const i of order) {
      if (dot(n, normals.subarray(i * 3, i * 3 + 3)) < 0.5) continue;
      const o = i * 9;
      let on = true;
      for (let k = 0; k < 9 && on; k += 3)
        on = Math.abs(n[0] * t[o + k] + n[1] * t[o + k + 1] + n[2] * t[o + k + 2] - d) <= tol;
      if (!on) continue;
      members.push(i);
      area += areas[i];
    }
    if (!best || area > best.area) best = { members, area };
  }
  if (!best || best.area < (options.minAreaShare ?? 0.3) * total) return null;
  // Area-weighted normal and centroid of the face.
  let nx = 0,
    ny = 0,
    nz = 0,
    cx = 0,
    cy = 0,
    cz = 0;
  for (const i of best.members) {
    const a = areas[i],
      o = i * 9;
    nx += normals[i * 3] * a;
    ny += normals[i * 3 + 1] * a;
    nz += normals[i * 3 + 2] * a;
    cx += ((t[o] + t[o + 3] + t[o + 6]) / 3) * a;
    cy += ((t[o + 1] + t[o + 4] + t[o + 7]) / 3) * a;
    cz += ((t[o + 2] + t[o + 5] + t[o + 8]) / 3) * a;
  }
  const normal = unit([nx, ny, nz]);
  const origin: P3 = [cx / best.area, cy / best.area, cz / best.area];
  return faceFromSegments(boundarySegments(t, best.members), normal, origin, best.area);
}

/** Boundary edges (used by one triangle of the face) as segments; vertices welded at 1e-3 mm. */
function boundarySegments(t: ArrayLike<number>, members: readonly number[]): number[] {
  const key = (o: number) => `${Math.round(t[o] * 1000)},${Math.round(t[o + 1] * 1000)},${Math.round(t[o + 2] * 1000)}`;
  const count = new Map<string, { n: number; seg: number[] }>();
  for (const i of members) {
    const o = i * 9;
    const ks = [key(o), key(o + 3), key(o + 6)];
    for (let e = 0; e < 3; e++) {
      const a = ks[e],
        b = ks[(e + 1) % 3];
      if (a === b) continue;
      const k = a < b ? `${a}|${b}` : `${b}|${a}`;
      const hit = count.get(k);
      if (hit) hit.n++;
      else {
        const pa = o + e * 3,
          pb = o + ((e + 1) % 3) * 3;
        count.set(k, { n: 1, seg: [t[pa], t[pa + 1], t[pa + 2], t[pb], t[pb + 1], t[pb + 2]] });
      }
    }
  }
  const out: number[] = [];
  for (const { n, seg } of count.values()) if (n === 1) out.push(...seg);
  return out;
}

/** Projects closed chains of `segments` into the frame; the largest loop first, counter-clockwise. */
function faceFromSegments(segments: number[], normal: P3, origin: P3, area: number): PlanarFace | null {
  const { u, v } = planeAxes(normal);
  const loops: { pts: number[]; area: number }[] = [];
  for (const c of chainSegments(segments)) {
    if (!c.closed || c.points.length < 9) continue;
    const pts: number[] = [];
    for (let i = 0; i < c.points.length; i += 3) {
      const d = [c.points[i] - origin[0], c.points[i + 1] - origin[1], c.points[i + 2] - origin[2]];
      pts.push(dot(d, u), dot(d, v));
    }
    loops.push({ pts, area: signedArea(pts) });
  }
  if (loops.length === 0) return null;
  loops.sort((a, b) => Math.abs(b.area) - Math.abs(a.area));
  if (loops[0].area < 0) loops[0].pts = reverse2(loops[0].pts);
  return { frame: { origin, normal, u, v }, area, loops: loops.map((l) => l.pts) };
}

/** Outline-only objects: the plane of the largest closed loop of the edges (Newell normal, area centroid). */
function edgeLoopFace(edges: ArrayLike<number>, tol: number): PlanarFace | null {
  const chains = chainSegments(edges).filter((c) => c.closed && c.points.length >= 9);
  let best: { p: ArrayLike<number>; n: P3; a: number } | null = null;
  for (const c of chains) {
    const p = c.points;
    let nx = 0,
      ny = 0,
      nz = 0;
    for (let i = 0; i < p.length; i += 3) {
      const j = (i + 3) % p.length;
      nx += (p[i + 1] - p[j + 1]) * (p[i + 2] + p[j + 2]);
      ny += (p[i + 2] - p[j + 2]) * (p[i] + p[j]);
      nz += (p[i] - p[j]) * (p[i + 1] + p[j + 1]);
    }
    const a = Math.hypot(nx, ny, nz) / 2;
    if (a > 0 && (!best || a > best.a)) best = { p, n: unit([nx, ny, nz]), a };
  }
  if (!best) return null;
  const { p, n } = best;
  // Planarity: every vertex within max(tol, 1 % of the loop size) of the mean plane.
  const m: P3 = [0, 0, 0];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) m[k] += p[i + k] / (p.length / 3);
  let size = 0,
    off = 0;
  for (let i = 0; i < p.length; i += 3) {
    const d = [p[i] - m[0], p[i + 1] - m[1], p[i + 2] - m[2]];
    size = Math.max(size, Math.hypot(d[0], d[1], d[2]));
    off = Math.max(off, Math.abs(dot(d, n)));
  }
  if (off > Math.max(tol, 0.01 * size)) return null;
  // Area centroid in the plane (shoelace over the projected loop).
  const { u, v } = planeAxes(n);
  const q: number[] = [];
  for (let i = 0; i < p.length; i += 3) {
    const d = [p[i] - m[0], p[i + 1] - m[1], p[i + 2] - m[2]];
    q.push(dot(d, u), dot(d, v));
  }
  const [cu, cv] = centroid2(q);
  const origin: P3 = [m[0] + cu * u[0] + cv * v[0], m[1] + cu * u[1] + cv * v[1], m[2] + cu * u[2] + cv * v[2]];
  return faceFromSegments(Array.from(edges), n, origin, best.a);
}

/** Signed area of a 2D loop [u0, v0, ...] (counter-clockwise positive). */
export function signedArea(p: ArrayLike<number>): number {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
}

/** Area centroid of a 2D loop (vertex mean when the area is zero). */
export function centroid2(p: ArrayLike<number>): [number, number] {
  let a = 0,
    x = 0,
    y = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    const c = p[i] * p[j + 1] - p[j] * p[i + 1];
    a += c;
    x += (p[i] + p[j]) * c;
    y += (p[i + 1] + p[j + 1]) * c;
  }
  if (Math.abs(a) < 1e-12) {
    let sx = 0,
      sy = 0;
    for (let i = 0; i < p.length; i += 2) {
      sx += p[i];
      sy += p[i + 1];
    }
    return [sx / (p.length / 2), sy / (p.length / 2)];
  }
  return [x / (3 * a), y / (3 * a)];
}

function reverse2(p: number[]): number[] {
  const out: number[] = [];
  for (let i = p.length - 2; i >= 0; i -= 2) out.push(p[i], p[i + 1]);
  return out;
}
