/**
 * Level of detail by vertex clustering: an extra index buffer
 * per chunk and level that draws the chunk's objects with their vertices snapped to a grid of `cellMm`
 * cells — triangles whose corners fall into fewer than three cells disappear, the rest are re-indexed
 * to one existing vertex per cell. No vertex is created or moved, so the LOD indices share the chunk's
 * vertex buffers (positions and object slots) and add only 6 bytes per kept triangle.
 *
 * Clusters never cross objects (each object row clusters alone) nor facing directions: a vertex's class
 * is the dominant axis and sign of its area-weighted normal, so the two faces of a thin plate (opposite
 * normals, millimetres apart) stay two surfaces while its rim and its small holes and arcs collapse.
 * Rows keep the chunk's size order (scene/sizeOrder.ts), so the size prefixes still apply: `indexEnd[k]`
 * is the LOD index count of rows 0..k. World units mm; positions are the chunk's quantised Uint16 xyz.
 *
 * Slivers go too: a clustered triangle narrower than `minHeightMm` (twice its area over its longest side)
 * covers under a fraction of a pixel wherever the level is drawn — mostly the rims of plates and flanges,
 * whose two faces stay. ChunkBatch passes LOD_SLIVER of the cell, so a level keeps fewer triangles (fewer
 * to draw, fewer index bytes) without a visible change at the distance it is drawn from.
 */
import type { SceneChunk } from '../package/types';

/** One LOD level of a chunk: cell size (mm), triangle indices, per-row prefix ends. */
export interface LodLevel {
  cellMm: number;
  indices: Uint16Array;
  indexEnd: Uint32Array;
}

const QMAX = 65535;

/** mm per quantum on each axis of a chunk's bounds (1 on a flat axis). */
function stepOf(b: ArrayLike<number>): number[] {
  return [0, 1, 2].map((a) => (b[a + 3] > b[a] ? (b[a + 3] - b[a]) / QMAX : 1));
}

/**
 * Facing class per vertex (0..5: +x, −x, +y, −y, +z, −z of the area-weighted normal; 6 when the vertex
 * belongs to no triangle).
 */
export function vertexFacing(chunk: SceneChunk): Uint8Array {
  const { positions: q, indices: idx, bounds: b } = chunk;
  const s = stepOf(b);
  const n = new Float32Array(q.length);
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t] * 3,
      c = idx[t + 1] * 3,
      d = idx[t + 2] * 3;
    const ux = (q[c] - q[a]) * s[0],
      uy = (q[c + 1] - q[a + 1]) * s[1],
      uz = (q[c + 2] - q[a + 2]) * s[2];
    const vx = (q[d] - q[a]) * s[0],
      vy = (q[d + 1] - q[a + 1]) * s[1],
      vz = (q[d + 2] - q[a + 2]) * s[2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    for (const v of [a, c, d]) {
      n[v] += nx;
      n[v + 1] += ny;
      n[v + 2] += nz;
    }
  }
  const out = new Uint8Array(q.length / 3).fill(6);
  for (let v = 0; v < out.length; v++) {
    const x = n[v * 3],
      y = n[v * 3 + 1],
      z = n[v * 3 + 2];
    const ax = Math.abs(x),
      ay = Math.abs(y),
      az = Math.abs(z);
    if (ax === 0 && ay === 0 && az === 0) continue;
    out[v] = ax >= ay && ax >= az ? (x >= 0 ? 0 : 1) : ay >= az ? (y >= 0 ? 2 : 3) : z >= 0 ? 4 : 5;
  }
  return out;
}

/**
 * Builds the LOD level of `chunk` for cells of `cellMm` (> 0) with the vertex classes of
 * `vertexFacing`, leaving out clustered triangles narrower than `minHeightMm` (≥ 0, mm; 0 keeps them).
 * Rows are taken in the chunk's current order.
 * @throws Error when the cell size is not a positive number or the sliver width is negative.
 */
export function buildLodLevel(chunk: SceneChunk, facing: Uint8Array, cellMm: number, minHeightMm = 0): LodLevel {
  if (!(cellMm > 0)) throw new Error(`LOD cell size ${cellMm} mm is not positive`);
  if (!(minHeightMm >= 0)) throw new Error(`LOD sliver width ${minHeightMm} mm is negative`);
  const { positions: q, indices: idx, objects, bounds: b } = chunk;
  const s = stepOf(b);
  const sx = s[0],
    sy = s[1],
    sz = s[2];
  const minH2 = minHeightMm * minHeightMm;
  // Cell size in quantised units per axis (a flat axis has step 1 and a single cell).
  const cq = [0, 1, 2].map((a) => (b[a + 3] > b[a] ? Math.max(1, (cellMm * QMAX) / (b[a + 3] - b[a])) : QMAX + 1));
  const rows = objects.length / 5;
  const out = new Uint16Array(idx.length);
  const indexEnd = new Uint32Array(rows);
  const rep = new Map<number, number>();
  const remap = new Int32Array(q.length / 3).fill(-1);
  let n = 0;
  for (let r = 0; r < rows; r++) {
    const v0 = objects[r * 5 + 1],
      vc = objects[r * 5 + 2],
      i0 = objects[r * 5 + 3],
      ic = objects[r * 5 + 4];
    rep.clear();
    for (let v = v0; v < v0 + vc; v++) {
      const cx = Math.floor(q[v * 3] / cq[0]),
        cy = Math.floor(q[v * 3 + 1] / cq[1]),
        cz = Math.floor(q[v * 3 + 2] / cq[2]);
      // Exact numeric key: at most 65536 cells per axis (17 bits each) and 3 bits of class.
      const key = ((cx * 131072 + cy) * 131072 + cz) * 8 + facing[v];
      const first = rep.get(key);
      if (first === undefined) {
        rep.set(key, v);
        remap[v] = v;
      } else remap[v] = first;
    }
    for (let t = i0; t < i0 + ic; t += 3) {
      const a = remap[idx[t]],
        c = remap[idx[t + 1]],
        d = remap[idx[t + 2]];
      if (a < 0 || c < 0 || d < 0 || a === c || c === d || a === d) continue;
      if (minH2 > 0) {
        // height² = |u × v|² / longest side², in mm.
        const ux = (q[c * 3] - q[a * 3]) * sx,
          uy = (q[c * 3 + 1] - q[a * 3 + 1]) * sy,
          uz = (q[c * 3 + 2] - q[a * 3 + 2]) * sz;
        const vx = (q[d * 3] - q[a * 3]) * sx,
          vy = (q[d * 3 + 1] - q[a * 3 + 1]) * sy,
          vz = (q[d * 3 + 2] - q[a * 3 + 2]) * sz;
        const wx = vx - ux,
          wy = vy - uy,
          wz = vz - uz;
        const nx = uy * vz - uz * vy,
          ny = uz * vx - ux * vz,
          nz = ux * vy - uy * vx;
        const longest2 = Math.max(
          ux * ux + uy * uy + uz * uz,
          vx * vx + vy * vy + vz * vz,
          wx * wx + wy * wy + wz * wz,
        );
        if (nx * nx + ny * ny + nz * nz < minH2 * longest2) continue;
      }
      out[n++] = a;
      out[n++] = c;
      out[n++] = d;
    }
    indexEnd[r] = n;
  }
  return { cellMm, indices: out.slice(0, n), indexEnd };
}
