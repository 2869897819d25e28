/**
 * Snapping candidates from one chunk (viewer.md §9 "Snapping"): a three-mesh-bvh
 * shapecast, nearest BVH node first along the ray, collects the triangles whose world bounds, grown by
 * `radius` (mm), meet the ray within `maxDistance` (mm along the ray), skipping hidden objects and
 * triangles `keep` rejects (given their world bounds). Their corners are appended to `triangles`
 * (9 values each, world mm, at most `maxTriangles` in all, so the nearest are kept) and the feature
 * edges touching their vertices to `edges` (6 values each). Allocation-light: the box tests run on
 * numbers, vertices are marked in a reused byte table. Used through ChunkBatch.gatherNearRay.
 */
import { Box3, type Ray } from 'three';
import type { MeshBVH } from 'three-mesh-bvh';
import { objectAtTriangle, type TriangleObjectLookup } from '../interaction/objectLookup';
import type { SceneChunk } from '../package/types';
import { quantStep } from './ChunkBatch';

/** What the gathering needs of a chunk: its BVH, triangle → object lookup, edges per vertex (CSR) and a zeroed byte per vertex. */
export interface SnapTables {
  chunk: SceneChunk;
  bvh: MeshBVH;
  lookup: TriangleObjectLookup;
  adjacency: { start: Uint32Array; edges: Uint32Array };
  marks: Uint8Array;
}

/** Builds the snapping tables of a chunk (the edges-per-vertex table is O(vertices + edges)). */
export function snapTables(
  chunk: SceneChunk,
  bvh: MeshBVH,
  lookup: TriangleObjectLookup,
  vertexCount: number,
): SnapTables {
  const e = chunk.edges;
  const start = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < e.length; i++) start[e[i] + 1]++;
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, vertexCount);
  const edges = new Uint32Array(e.length);
  for (let i = 0; i < e.length; i++) edges[fill[e[i]]++] = i >> 1;
  return { chunk, bvh, lookup, adjacency: { start, edges }, marks: new Uint8Array(vertexCount) };
}

/** Appends the candidates near `worldRay` (see the file comment). Returns the number of triangles added. */
export function gatherNearRay(
  t: SnapTables,
  worldRay: Ray,
  radius: number,
  maxDistance: number,
  isHidden: (nodeId: number) => boolean,
  triangles: number[],
  edges: number[],
  maxTriangles: number,
  keep?: (box: Box3) => boolean,
): number {
  const { bvh, lookup } = t;
  const c = t.chunk,
    b = c.bounds,
    q = c.positions,
    idx = c.indices;
  const s = quantStep(b);
  const ox = worldRay.origin.x,
    oy = worldRay.origin.y,
    oz = worldRay.origin.z;
  const ix = 1 / worldRay.direction.x,
    iy = 1 / worldRay.direction.y,
    iz = 1 / worldRay.direction.z;
  // Entry distance of the ray into a world box grown by radius, or Infinity when it misses / is too far.
  const entry = (x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number => {
    let t0 = 0,
      t1 = maxDistance;
    let a = (x0 - radius - ox) * ix,
      z = (x1 + radius - ox) * ix;
    if (a > z) {
      const w = a;
      a = z;
      z = w;
    }
    if (a > t0) t0 = a;
    if (z < t1) t1 = z;
    a = (y0 - radius - oy) * iy;
    z = (y1 + radius - oy) * iy;
    if (a > z) {
      const w = a;
      a = z;
      z = w;
    }
    if (a > t0) t0 = a;
    if (z < t1) t1 = z;
    a = (z0 - radius - oz) * iz;
    z = (z1 + radius - oz) * iz;
    if (a > z) {
      const w = a;
      a = z;
      z = w;
    }
    if (a > t0) t0 = a;
    if (z < t1) t1 = z;
    return t0 <= t1 ? t0 : Infinity;
  };
  const nodeEntry = (box: Box3) =>
    entry(
      b[0] + box.min.x * s[0],
      b[1] + box.min.y * s[1],
      b[2] + box.min.z * s[2],
      b[0] + box.max.x * s[0],
      b[1] + box.max.y * s[1],
      b[2] + box.max.z * s[2],
    );
  const mark = t.marks;
  const marked: number[] = [];
  const tri = new Box3();
  let added = 0;
  bvh.shapecast({
    boundsTraverseOrder: nodeEntry,
    intersectsBounds: (box) => nodeEntry(box) < Infinity,
    intersectsRange: (offset, count) => {
      for (let i = offset; i < offset + count; i++) {
        if (triangles.length / 9 >= maxTriangles) return true;
        const tr = bvh.resolveTriangleIndex(i);
        const nodeId = objectAtTriangle(lookup, tr);
        if (nodeId < 0 || isHidden(nodeId)) continue;
        const va = idx[tr * 3] * 3,
          vb = idx[tr * 3 + 1] * 3,
          vc = idx[tr * 3 + 2] * 3;
        const ax = b[0] + q[va] * s[0],
          ay = b[1] + q[va + 1] * s[1],
          az = b[2] + q[va + 2] * s[2];
        const bx = b[0] + q[vb] * s[0],
          by = b[1] + q[vb + 1] * s[1],
          bz = b[2] + q[vb + 2] * s[2];
        const cx = b[0] + q[vc] * s[0],
          cy = b[1] + q[vc + 1] * s[1],
          cz = b[2] + q[vc + 2] * s[2];
        const x0 = Math.min(ax, bx, cx),
          y0 = Math.min(ay, by, cy),
          z0 = Math.min(az, bz, cz);
        const x1 = Math.max(ax, bx, cx),
          y1 = Math.max(ay, by, cy),
          z1 = Math.max(az, bz, cz);
        if (entry(x0, y0, z0, x1, y1, z1) === Infinity) continue;
        if (keep) {
          tri.min.set(x0, y0, z0);
          tri.max.set(x1, y1, z1);
          if (!keep(tri)) continue;
        }
        for (const v of [va, vb, vc])
          if (!mark[v / 3]) {
            mark[v / 3] = 1;
            marked.push(v / 3);
          }
        triangles.push(ax, ay, az, bx, by, bz, cx, cy, cz);
        added++;
      }
      return false;
    },
  });
  if (marked.length > 0 && c.edges.length > 0) {
    const adj = t.adjacency;
    for (const v of marked) {
      for (let k = adj.start[v]; k < adj.start[v + 1]; k++) {
        const e = adj.edges[k];
        const a = c.edges[e * 2],
          z = c.edges[e * 2 + 1];
        // Each edge once: report it from its lower vertex when both ends were gathered.
        if (mark[a] && mark[z] && v !== Math.min(a, z)) continue;
        edges.push(b[0] + q[a * 3] * s[0], b[1] + q[a * 3 + 1] * s[1], b[2] + q[a * 3 + 2] * s[2]);
        edges.push(b[0] + q[z * 3] * s[0], b[1] + q[z * 3 + 1] * s[1], b[2] + q[z * 3 + 2] * s[2]);
      }
    }
  }
  for (const v of marked) mark[v] = 0;
  return added;
}
