/**
 * Snapping kernel (viewer.md §9 "Snapping", §3 "Snap settings"). Pure: the engine
 * feeds the geometry near the pick ray (feature-edge segments and triangles from its BVH), the
 * world→screen projection and the cursor; the kernel returns the best snap point.
 *
 * Candidates (all within the screen tolerance, default 15 px):
 * - 1 end point: an end of an edge segment;
 * - 2 intersection point: where two edge segments cross (closest points within 0.5 % of the shorter
 *   segment's length, at least 0.01 mm);
 * - 3 polygon point: a vertex of a candidate triangle;
 * - 4 nearest point: the point of an edge nearest to the cursor on screen.
 * Ranking: the highest closeness × priority multiplier wins, closeness = tolerance − screen distance
 * (end point 1.3, intersection 1.2, polygon point 1.1, nearest 1.0). So an end point 3.6 px away still
 * beats the edge point 2 px away (1.3 × 11.4 > 13), while far from the end the edge point wins; a plain
 * distance ÷ multiplier would let the nearest point of an edge hide its ends and crossings almost always. When no candidate is within the tolerance
 * and nearest point is on, the surface hit under the cursor is returned as a nearest point.
 * With frame tables the result's infos also carry the frame (101), longitudinal (102) and vertical
 * (103) numbers at the point. World units mm, screen units px.
 */
import type { FrameTables } from '../model/types';
import { frameAxis, numberAtCoordinate } from '../reference/frameSystem';

/** Snap types of viewer.md §9. */
export const SNAP_TYPE = {
  endPoint: 1,
  intersectionPoint: 2,
  polygonPoint: 3,
  nearestPoint: 4,
  frame: 101,
  longitudinal: 102,
  vertical: 103,
} as const;

/** Priority multipliers of viewer.md §9 by snap type 1–4. */
export const SNAP_MULTIPLIER: Readonly<Record<1 | 2 | 3 | 4, number>> = { 1: 1.3, 2: 1.2, 3: 1.1, 4: 1.0 };

/** Snap settings (viewer.md §3): four options, all on by default; tolerance 15 px. */
export interface SnapSettings {
  endPoint: boolean;
  intersectionPoint: boolean;
  polygonPoint: boolean;
  nearestPoint: boolean;
  tolerancePx: number;
}

export const DEFAULT_SNAP_SETTINGS: Readonly<SnapSettings> = {
  endPoint: true,
  intersectionPoint: true,
  polygonPoint: true,
  nearestPoint: true,
  tolerancePx: 15,
};

/** World (mm) → screen (px); null when the point is behind the camera / not visible. */
export type ScreenProjector = (x: number, y: number, z: number) => [number, number] | null;

/** What the engine gathers near the pick ray. */
export interface SnapInput {
  /** Cursor position, px (same space as the projector's output). */
  cursor: [number, number];
  project: ScreenProjector;
  /** Edge segments (x0 y0 z0 x1 y1 z1)*, mm. */
  edges?: ArrayLike<number>;
  /** Triangles as 9 values each (three xyz vertices), mm. */
  triangles?: ArrayLike<number>;
  /** The ray's surface hit, mm, or null. */
  hit?: [number, number, number] | null;
  /** Reference planes for the 101–103 infos. */
  frames?: FrameTables;
}

/** One info of a snap result (viewer.md §3 "snap result (point plus infos with type and value)"). */
export interface SnapInfo {
  /** 1–4 (how the point was found; value = screen distance px) or 101–103 (value = frame number). */
  type: number;
  value: number;
}

/** Tagged snap result. */
export type SnapResult =
  | {
      type: 'snap';
      point: [number, number, number];
      snapType: 1 | 2 | 3 | 4;
      screenDistance: number;
      infos: SnapInfo[];
    }
  | { type: 'miss' };

interface Cand {
  p: [number, number, number];
  t: 1 | 2 | 3 | 4;
  d: number;
}

/**
 * The best snap point for `input` under `settings` (see the file comment for the rules).
 * @returns `{ type: 'miss' }` when nothing qualifies.
 */
export function computeSnap(input: SnapInput, settings: SnapSettings = DEFAULT_SNAP_SETTINGS): SnapResult {
  const tol = settings.tolerancePx;
  const [cx, cy] = input.cursor;
  const edges = input.edges ?? [];
  const tris = input.triangles ?? [];
  let best: Cand | null = null;
  let bestScore = -Infinity;
  // Candidates are compared before anything is allocated: most lose.
  const better = (t: 1 | 2 | 3 | 4, d: number) => d <= tol && SNAP_MULTIPLIER[t] * (tol - d) > bestScore;
  const take = (x: number, y: number, z: number, t: 1 | 2 | 3 | 4, d: number) => {
    best = { p: [x, y, z], t, d };
    bestScore = SNAP_MULTIPLIER[t] * (tol - d);
  };
  const offer = (p: [number, number, number], t: 1 | 2 | 3 | 4, d: number) => {
    if (better(t, d)) take(p[0], p[1], p[2], t, d);
  };
  const screenDist = (x: number, y: number, z: number): number => {
    const s = input.project(x, y, z);
    return s ? Math.hypot(s[0] - cx, s[1] - cy) : Infinity;
  };

  // Edges near the cursor on screen (others cannot give any candidate).
  const near: number[] = [];
  const nEdges = Math.floor(edges.length / 6);
  for (let e = 0; e < nEdges; e++) {
    const o = e * 6;
    const a = input.project(edges[o], edges[o + 1], edges[o + 2]);
    const b = input.project(edges[o + 3], edges[o + 4], edges[o + 5]);
    if (!a || !b) continue;
    const { d, t } = pointSegment2d(cx, cy, a[0], a[1], b[0], b[1]);
    if (d > tol) continue;
    near.push(e);
    if (settings.endPoint) {
      const da = Math.hypot(a[0] - cx, a[1] - cy),
        db = Math.hypot(b[0] - cx, b[1] - cy);
      if (better(1, da)) take(edges[o], edges[o + 1], edges[o + 2], 1, da);
      if (better(1, db)) take(edges[o + 3], edges[o + 4], edges[o + 5], 1, db);
    }
    if (settings.nearestPoint && better(4, d)) {
      take(
        edges[o] + (edges[o + 3] - edges[o]) * t,
        edges[o + 1] + (edges[o + 4] - edges[o + 1]) * t,
        edges[o + 2] + (edges[o + 5] - edges[o + 2]) * t,
        4,
        d,
      );
    }
  }
  if (settings.intersectionPoint) {
    const m = Math.min(near.length, 64);
    for (let i = 0; i < m; i++)
      for (let j = i + 1; j < m; j++) {
        const x = segmentIntersection3d(edges, near[i] * 6, near[j] * 6);
        if (x) offer(x, 2, screenDist(x[0], x[1], x[2]));
      }
  }
  if (settings.polygonPoint) {
    for (let v = 0; v + 2 < tris.length; v += 3) {
      const d = screenDist(tris[v], tris[v + 1], tris[v + 2]);
      if (better(3, d)) take(tris[v], tris[v + 1], tris[v + 2], 3, d);
    }
  }
  let chosen = best as Cand | null;
  if (!chosen && settings.nearestPoint && input.hit)
    chosen = { p: [...input.hit] as [number, number, number], t: 4, d: screenDist(...input.hit) };
  if (!chosen) return { type: 'miss' };
  const d = Number.isFinite(chosen.d) ? chosen.d : 0;
  const infos: SnapInfo[] = [{ type: chosen.t, value: d }];
  if (input.frames) {
    const keys = ['x', 'y', 'z'] as const;
    keys.forEach((k, i) => {
      const n = numberAtCoordinate(frameAxis(input.frames!, k), chosen!.p[i]);
      if (n !== null) infos.push({ type: 101 + i, value: n });
    });
  }
  return { type: 'snap', point: chosen.p, snapType: chosen.t, screenDistance: d, infos };
}

/** Distance (px) from (px, py) to segment a–b and the segment parameter t ∈ [0, 1] of the nearest point. */
export function pointSegment2d(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): { d: number; t: number } {
  const vx = bx - ax,
    vy = by - ay;
  const L2 = vx * vx + vy * vy;
  const t = L2 > 0 ? Math.min(1, Math.max(0, ((px - ax) * vx + (py - ay) * vy) / L2)) : 0;
  return { d: Math.hypot(ax + vx * t - px, ay + vy * t - py), t };
}

/**
 * Crossing point (mm) of the segments starting at offsets `i` and `j` of `e` (6 values each): the
 * midpoint of their closest points when those are interior (not both at shared ends) and within
 * max(0.01 mm, 0.5 % of the shorter segment). Null for parallel or distant segments.
 */
export function segmentIntersection3d(e: ArrayLike<number>, i: number, j: number): [number, number, number] | null {
  // Scalars only: called for every pair of edges near the cursor.
  const d1x = e[i + 3] - e[i],
    d1y = e[i + 4] - e[i + 1],
    d1z = e[i + 5] - e[i + 2];
  const d2x = e[j + 3] - e[j],
    d2y = e[j + 4] - e[j + 1],
    d2z = e[j + 5] - e[j + 2];
  const rx = e[i] - e[j],
    ry = e[i + 1] - e[j + 1],
    rz = e[i + 2] - e[j + 2];
  const a = d1x * d1x + d1y * d1y + d1z * d1z,
    b = d1x * d2x + d1y * d2y + d1z * d2z,
    c = d2x * d2x + d2y * d2y + d2z * d2z;
  const d = d1x * rx + d1y * ry + d1z * rz,
    f = d2x * rx + d2y * ry + d2z * rz;
  const den = a * c - b * b;
  if (a === 0 || c === 0 || den <= 1e-12 * a * c) return null;
  const s = (b * f - c * d) / den,
    t = (a * f - b * d) / den;
  if (s < 0 || s > 1 || t < 0 || t > 1) return null;
  const px = e[i] + d1x * s,
    py = e[i + 1] + d1y * s,
    pz = e[i + 2] + d1z * s;
  const qx = e[j] + d2x * t,
    qy = e[j + 1] + d2y * t,
    qz = e[j + 2] + d2z * t;
  const tol = Math.max(0.01, 0.005 * Math.sqrt(Math.min(a, c)));
  const gx = px - qx,
    gy = py - qy,
    gz = pz - qz;
  if (gx * gx + gy * gy + gz * gz > tol * tol) return null;
  // Segments that only share an end point: that is an end point, not an intersection.
  if ((s === 0 || s === 1) && (t === 0 || t === 1)) return null;
  return [(px + qx) / 2, (py + qy) / 2, (pz + qz) / 2];
}
