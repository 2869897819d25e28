/**
 * Which vertices of a chunk its triangles use, for box selection's vertex tests (./boxTriangles.ts,
 * TrianglePiece.used). A chunk may hold vertices no triangle uses (an object's vertices are welded, and
 * its triangles need not use all of them), so "a vertex inside the rectangle" says nothing about an
 * object's triangles unless the vertex is known to be used.
 */

/** What the bits are computed from: a chunk's vertex positions (3 per vertex), triangles and object rows. */
export interface UsedVerticesChunk {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
  /** Object rows of 5: [object, vertexStart, vertexCount, indexStart, indexCount] (engine/package/types.ts). */
  objects: ArrayLike<number>;
}

/**
 * One bit per vertex (`bits[v >> 3] >> (v & 7) & 1`), set when a triangle uses vertex v — or null when
 * the rows do not keep to their own vertices (a triangle of a row uses a vertex outside the row's vertex
 * range, or two rows' vertex ranges overlap), so a row's bits would not be its own. O(vertices + indices).
 */
export function usedVertexBits(c: UsedVerticesChunk): Uint8Array | null {
  const nv = Math.floor(c.positions.length / 3);
  const r = c.objects,
    idx = c.indices;
  const rows = Math.floor(r.length / 5);
  // Vertex ranges must not overlap: check them in start order (rows are usually in it already).
  let sorted = true;
  for (let k = 1; k < rows && sorted; k++) if (r[k * 5 + 1] < r[(k - 1) * 5 + 1]) sorted = false;
  const order = Int32Array.from({ length: rows }, (_, k) => k);
  if (!sorted) order.sort((a, b) => r[a * 5 + 1] - r[b * 5 + 1]);
  let end = 0;
  for (let k = 0; k < rows; k++) {
    const o = order[k] * 5;
    if (r[o + 2] === 0) continue;
    if (r[o + 1] < end || r[o + 1] + r[o + 2] > nv) return null;
    end = r[o + 1] + r[o + 2];
  }
  const bits = new Uint8Array((nv + 7) >> 3);
  for (let k = 0; k < rows; k++) {
    const o = k * 5;
    const v0 = r[o + 1],
      v1 = v0 + r[o + 2];
    for (let i = r[o + 3], e = r[o + 3] + r[o + 4]; i < e; i++) {
      const v = idx[i];
      if (!(v >= v0 && v < v1)) return null;
      bits[v >> 3] |= 1 << (v & 7);
    }
  }
  return bits;
}
