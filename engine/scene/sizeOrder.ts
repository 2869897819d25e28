/**
 * Small-object culling by draw range (orbit frame time): a chunk's object
 * rows, triangles and feature edges are reordered once, when the chunk arrives, so that objects come
 * largest first. Then "draw every object of at least s mm" is a prefix of the index buffer, and the
 * renderer skips objects smaller than about one pixel (and edges of objects smaller than a few pixels)
 * with one `setDrawRange` per chunk and frame — no per-object draw calls, no re-upload.
 *
 * The reorder is in place on the SceneChunk (package/types.ts), keeping its invariants: `objects` rows
 * stay [objectIndex, vertexStart, vertexCount, indexStart, indexCount] (rows now in size order, index
 * ranges contiguous in that order), `indices` hold the same triangles, `edges` the same pairs with `edgeObjects` ranges moved along (edges of
 * objects without a row go last and are never drawn by the prefix). Vertices
 * do not move, so BVHs, slots and positions are unaffected. Sizes are world-box diagonals in mm.
 */
import type { SceneChunk } from '../package/types';

/** Per row (in the new order): world diagonal (mm, descending), end of its triangles and edges in the index buffers. */
export interface SizeOrder {
  /** World-box diagonal of each row's vertices, mm, non-increasing. */
  sizes: Float64Array;
  /** indexEnd[k]: number of triangle indices of rows 0..k. */
  indexEnd: Uint32Array;
  /** edgeEnd[k]: number of edge indices of rows 0..k (edges grouped by object, edgeObjects). */
  edgeEnd: Uint32Array;
}

const QMAX = 65535;

/**
 * Extent of one object's vertex range in a chunk's 16-bit quantised positions (`q`, 3 per vertex): writes
 * [x0, y0, z0, x1, y1, z1] in quantised units (0..65535 across the chunk's bounds) into `out`.
 * @returns false, leaving `out` as an empty box (min > max), when the range has no vertices.
 */
export function quantizedRangeBox(q: ArrayLike<number>, v0: number, vc: number, out: Float64Array): boolean {
  let x0 = QMAX,
    y0 = QMAX,
    z0 = QMAX,
    x1 = -1,
    y1 = -1,
    z1 = -1;
  for (let v = v0; v < v0 + vc; v++) {
    const x = q[v * 3],
      y = q[v * 3 + 1],
      z = q[v * 3 + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  out[0] = x0;
  out[1] = y0;
  out[2] = z0;
  out[3] = x1;
  out[4] = y1;
  out[5] = z1;
  return vc > 0;
}

/**
 * Reorders `chunk` largest object first (in place) and returns the prefix tables.
 * @throws Error naming the chunk when a row's ranges fall outside the vertex or index arrays.
 */
export function orderChunkBySize(chunk: SceneChunk): SizeOrder {
  const { objects, positions: q, bounds: b, indices, edges } = chunk;
  const rows = objects.length / 5;
  const vertexCount = q.length / 3;
  const step = [0, 1, 2].map((a) => (b[a + 3] > b[a] ? (b[a + 3] - b[a]) / QMAX : 1));
  const size = new Float64Array(rows);
  const box = new Float64Array(6);
  for (let r = 0; r < rows; r++) {
    const v0 = objects[r * 5 + 1],
      vc = objects[r * 5 + 2],
      i0 = objects[r * 5 + 3],
      ic = objects[r * 5 + 4];
    if (v0 + vc > vertexCount || i0 + ic > indices.length) {
      throw new Error(
        `Chunk ${chunk.index}: object ${objects[r * 5]} ranges ${v0}+${vc} / ${i0}+${ic} exceed the chunk's arrays`,
      );
    }
    size[r] = quantizedRangeBox(q, v0, vc, box)
      ? Math.hypot((box[3] - box[0]) * step[0], (box[4] - box[1]) * step[1], (box[5] - box[2]) * step[2])
      : 0;
  }
  const order = Array.from({ length: rows }, (_, i) => i).sort((a, c) => size[c] - size[a] || a - c);

  // Triangles: copy each row's index range to its new place.
  const oldObjects = objects.slice();
  const oldIndices = indices.slice();
  const sizes = new Float64Array(rows);
  const indexEnd = new Uint32Array(rows);
  let at = 0;
  order.forEach((r, k) => {
    const i0 = oldObjects[r * 5 + 3],
      ic = oldObjects[r * 5 + 4];
    indices.set(oldIndices.subarray(i0, i0 + ic), at);
    for (let f = 0; f < 5; f++) objects[k * 5 + f] = oldObjects[r * 5 + f];
    objects[k * 5 + 3] = at;
    at += ic;
    indexEnd[k] = at;
    sizes[k] = size[r];
  });

  // Edges: the per-object segment ranges (edgeObjects) move into the rows' new order.
  const eo = chunk.edgeObjects;
  const rankOf = new Map<number, number>();
  for (let k = rows - 1; k >= 0; k--) rankOf.set(objects[k * 5], k);
  const groups = eo.length / 3;
  const gOrder = Array.from({ length: groups }, (_, g) => g).sort(
    (g, h) => (rankOf.get(eo[g * 3]) ?? rows) - (rankOf.get(eo[h * 3]) ?? rows) || g - h,
  );
  const oldEdges = edges.slice();
  const oldEo = eo.slice();
  const perRank = new Uint32Array(rows + 1);
  let seg = 0;
  gOrder.forEach((g, k) => {
    const obj = oldEo[g * 3],
      s0 = oldEo[g * 3 + 1],
      sc = oldEo[g * 3 + 2];
    if ((s0 + sc) * 2 > oldEdges.length)
      throw new Error(
        `Chunk ${chunk.index}: edge range ${s0}+${sc} of object ${obj} exceeds ${oldEdges.length / 2} segments`,
      );
    edges.set(oldEdges.subarray(s0 * 2, (s0 + sc) * 2), seg * 2);
    eo[k * 3] = obj;
    eo[k * 3 + 1] = seg;
    eo[k * 3 + 2] = sc;
    seg += sc;
    perRank[rankOf.get(obj) ?? rows] += sc * 2;
  });
  if (seg * 2 < oldEdges.length) {
    // Segments no object range names keep their place after all named ones.
    const named = new Uint8Array(oldEdges.length / 2);
    for (let g = 0; g < groups; g++) named.fill(1, oldEo[g * 3 + 1], oldEo[g * 3 + 1] + oldEo[g * 3 + 2]);
    for (let e = 0; e < named.length; e++) if (!named[e]) edges.set(oldEdges.subarray(e * 2, e * 2 + 2), seg++ * 2);
  }
  const edgeEnd = new Uint32Array(rows);
  let acc = 0;
  for (let k = 0; k < rows; k++) edgeEnd[k] = acc += perRank[k];
  return { sizes, indexEnd, edgeEnd };
}

/** Number of rows whose size is at least `minMm` (sizes non-increasing; binary search). */
export function rowsAtLeast(sizes: Float64Array, minMm: number): number {
  let lo = 0,
    hi = sizes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sizes[mid] >= minMm) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
