/**
 * Touch-mode box selection (viewer.md §4 "Selection": right-to-left selects touching entities) of the
 * objects straddling the rectangle's edge, through the chunks' triangle BVHs (three-mesh-bvh `shapecast`,
 * the picking BVHs built after loading) instead of every triangle of each object: per chunk, one frustum
 * query visits only BVH nodes whose projected box meets the rectangle; a node projected wholly inside it
 * decides its triangles' objects without projecting them; the query stops once every straddling object of
 * the chunk is decided. The triangle test is the kernel's (./boxSelect.ts RectTriangleTest), so the
 * answer is the per-object scan's (tests/engine/scene/ModelScene.boxSelect.test.ts).
 */
import type { Box3 } from 'three';
import { CONTAINED, INTERSECTED, type MeshBVH, NOT_INTERSECTED } from 'three-mesh-bvh';
import type { SceneChunk } from '../package/types';
import { BoxClass, type RectTriangleTest } from './boxSelect';
import { objectAtTriangle, type TriangleObjectLookup } from './objectLookup';

/** What the query needs of one chunk: its triangles (quantised, SceneChunk), BVH over them and triangle → object. */
export interface IndexedChunk {
  chunk: Pick<SceneChunk, 'positions' | 'indices' | 'bounds'>;
  /** Built over the chunk's whole index buffer with `indirect: true`; null when the chunk has no triangles. */
  bvh: MeshBVH | null;
  lookup: TriangleObjectLookup;
}

const QMAX = 65535;

/**
 * Calls `touched(id)`, in ascending order, for each of `ids` (ascending, < objectCount) with a triangle
 * that `test.triangleTouches`. `chunksOf(id, fn)` calls `fn(chunkIndex)` for each chunk holding triangles
 * of the object. Every chunk named must have its BVH (or no triangles).
 */
export function touchingThroughBvh(
  chunks: ArrayLike<IndexedChunk>,
  chunksOf: (id: number, fn: (chunk: number) => void) => void,
  objectCount: number,
  ids: Int32Array,
  test: RectTriangleTest,
  touched: (id: number) => void,
): void {
  // 1: straddling and undecided, 2: touched.
  const state = new Uint8Array(objectCount);
  // The straddling objects of each chunk.
  const inChunk = new Map<number, number[]>();
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    state[id] = 1;
    chunksOf(id, (c) => {
      const list = inChunk.get(c);
      if (list) list.push(id);
      else inChunk.set(c, [id]);
    });
  }
  const world = new Float64Array(6);
  for (const ci of [...inChunk.keys()].sort((a, b) => a - b)) {
    const { chunk, bvh, lookup } = chunks[ci];
    if (!bvh) continue;
    // Objects decided in an earlier chunk need no more tests here.
    let remaining = 0;
    for (const id of inChunk.get(ci)!) if (state[id] === 1) remaining++;
    if (remaining === 0) continue;
    const { positions: q, indices: idx, bounds: o } = chunk;
    const st = [0, 1, 2].map((a) => (o[a + 3] > o[a] ? (o[a + 3] - o[a]) / QMAX : 1));
    bvh.shapecast({
      intersectsBounds: (box: Box3) => {
        // The node's box in world mm with the vertices' own dequantisation (o + q · step).
        world[0] = o[0] + box.min.x * st[0];
        world[1] = o[1] + box.min.y * st[1];
        world[2] = o[2] + box.min.z * st[2];
        world[3] = o[0] + box.max.x * st[0];
        world[4] = o[1] + box.max.y * st[1];
        world[5] = o[2] + box.max.z * st[2];
        const cls = test.classifyNode(world, 0);
        return cls === BoxClass.Disjoint ? NOT_INTERSECTED : cls === BoxClass.Contained ? CONTAINED : INTERSECTED;
      },
      intersectsRange: (offset: number, count: number, contained: boolean) => {
        for (let i = offset; i < offset + count; i++) {
          const tri = bvh.resolveTriangleIndex(i);
          const id = objectAtTriangle(lookup, tri);
          if (id < 0 || state[id] !== 1) continue;
          // Inside a contained node every corner is in front and projects inside the rectangle.
          if (!contained && !test.triangleTouches(q, idx, tri * 3, o, st)) continue;
          state[id] = 2;
          remaining--;
          if (remaining === 0) return true;
        }
        return false;
      },
    });
  }
  for (let k = 0; k < ids.length; k++) if (state[ids[k]] === 2) touched(ids[k]);
}
