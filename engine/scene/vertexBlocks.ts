/**
 * Object of a vertex without a per-vertex attribute (viewer.md §4 "Scale": GPU bytes per triangle). Each
 * object's vertices are one contiguous range of its chunk (package/types.ts SceneChunk `objects`). When a
 * chunk arrives its ranges are moved to start on multiples of a block size B (8, or less when the padded
 * chunk would pass 65,536 vertices), so every block of B vertices belongs to one object, and one integer
 * texel per block holds that object's global index minus the chunk's smallest one (`base`): R16UI when the
 * chunk's objects span fewer than 65,535 indices (2 bytes a block; the usual case, chunks are spatial
 * groups of neighbouring parts), R32UI otherwise. The texture is as wide as its texels divided evenly over
 * its rows (at most TEXTURE_ROW wide), so it wastes fewer texels than it has rows. The chunk shader
 * (scene/chunkMaterial.ts) reads it at `gl_VertexID >> log2 B` (the vertex index of an indexed draw): one
 * texture fetch, as the slot attribute needed before, for 2/B bytes per vertex plus the padding vertices
 * (6 bytes each) instead of 2 bytes per vertex. On the bench ships B = 8 and the padding adds ~4 % vertices.
 *
 * Padding vertices repeat the last vertex of their object and belong to no triangle or edge; object rows
 * keep their vertex counts, so everything that walks a row's range (bounds, size order, LOD, snapping,
 * the BVH) sees the same vertices as before. `objectAtVertex` is the shader's lookup on the CPU.
 */
import { DataTexture, NearestFilter, RedIntegerFormat, UnsignedIntType, UnsignedShortType } from 'three';
import { MAX_CHUNK_VERTICES } from '../package/format';
import type { SceneChunk } from '../package/types';
import { TEXTURE_ROW } from './ObjectStateTable';

/** Preferred vertices per block; halved while the padded chunk would not fit 16-bit indices. */
export const VERTEX_BLOCK = 8;

/** Block size and per-block object of one chunk. */
export interface VertexBlocks {
  /** Vertices per block (8, 4, 2 or 1) and its log2 (the shader shifts gl_VertexID by it). */
  size: number;
  shift: number;
  /** Smallest global object index of the chunk's rows (0 when it has none). */
  base: number;
  /**
   * Global object index minus `base` of each block; NO_OBJECT_16 / NO_OBJECT_32 (the type's largest
   * value) for blocks in no object. 16-bit when every index of the chunk fits below NO_OBJECT_16.
   */
  objects: Uint16Array | Uint32Array;
}

/** Block value of a block in no object (16-bit and 32-bit tables). */
export const NO_OBJECT_16 = 0xffff;
export const NO_OBJECT_32 = 0xffffffff;

/**
 * Moves the vertex ranges of `chunk` (in place: new arrays for all of its fields, row starts
 * rewritten; nothing is copied when the ranges already sit on blocks) to multiples of the largest block size ≤ VERTEX_BLOCK that keeps the chunk within
 * MAX_CHUNK_VERTICES, and returns the blocks. Rows may be in any order; triangles and edges keep their
 * corners' positions exactly.
 * @throws Error naming the chunk when the object table length is not a multiple of 5, a range exceeds
 *   the vertices, two rows' vertex ranges overlap, or (when vertices move) an index names no vertex;
 *   the chunk is unchanged then.
 */
export function alignObjectVertices(chunk: SceneChunk): VertexBlocks {
  const { objects, positions } = chunk;
  const where = `Chunk ${chunk.index}`;
  const vertexCount = positions.length / 3;
  if (objects.length % 5 !== 0)
    throw new Error(`${where}: object table length ${objects.length} is not a multiple of 5`);
  const rows: number[] = [];
  for (let r = 0; r < objects.length; r += 5) {
    const start = objects[r + 1],
      count = objects[r + 2];
    if (start + count > vertexCount)
      throw new Error(`${where}: object ${objects[r]} range ${start}+${count} exceeds ${vertexCount} vertices`);
    if (count > 0) rows.push(r);
  }
  rows.sort((a, b) => objects[a + 1] - objects[b + 1]);
  for (let i = 1; i < rows.length; i++) {
    const p = rows[i - 1],
      r = rows[i];
    if (objects[p + 1] + objects[p + 2] > objects[r + 1])
      throw new Error(
        `${where}: vertex ranges of objects ${objects[p]} (${objects[p + 1]}+${objects[p + 2]}) and ${objects[r]} (${objects[r + 1]}+${objects[r + 2]}) overlap`,
      );
  }
  // New start of each row for block size b (vertices outside every row keep their place after the previous row).
  const layout = (b: number) => {
    const starts = new Uint32Array(rows.length);
    let next = 0,
      prevEnd = 0;
    rows.forEach((r, i) => {
      next += objects[r + 1] - prevEnd; // vertices between rows (none in a valid package) move along
      next = Math.ceil(next / b) * b;
      starts[i] = next;
      next += objects[r + 2];
      prevEnd = objects[r + 1] + objects[r + 2];
    });
    return { starts, total: Math.ceil((next + vertexCount - prevEnd) / b) * b };
  };
  let size = VERTEX_BLOCK,
    l = layout(size);
  while (size > 1 && l.total > MAX_CHUNK_VERTICES) l = layout((size /= 2));
  const total = Math.max(l.total, vertexCount);
  if (total !== vertexCount || rows.some((r, i) => objects[r + 1] !== l.starts[i])) {
    // Old → new vertex index, then the arrays through it.
    const map = new Uint32Array(vertexCount);
    const out = new Uint16Array(total * 3);
    let prevEnd = 0,
      shift = 0;
    rows.forEach((r, i) => {
      const s = objects[r + 1],
        n = objects[r + 2];
      for (let v = prevEnd; v < s; v++) map[v] = v + shift;
      shift = l.starts[i] - s;
      for (let v = s; v < s + n; v++) map[v] = v + shift;
      prevEnd = s + n;
    });
    for (let v = prevEnd; v < vertexCount; v++) map[v] = v + shift;
    // Padding after each row repeats its last vertex (inside the chunk's box, in no triangle); then every
    // vertex goes to its new place (over the padding where vertices outside the rows sit).
    rows.forEach((r, i) => {
      const last = (objects[r + 1] + objects[r + 2] - 1) * 3;
      const end = i + 1 < rows.length ? l.starts[i + 1] : total;
      for (let v = l.starts[i] + objects[r + 2]; v < end; v++)
        for (let a = 0; a < 3; a++) out[v * 3 + a] = positions[last + a];
    });
    for (let v = 0; v < vertexCount; v++) for (let a = 0; a < 3; a++) out[map[v] * 3 + a] = positions[v * 3 + a];
    const remap = (a: Uint16Array, what: string) => {
      const b = new Uint16Array(a.length);
      for (let k = 0; k < a.length; k++) {
        if (a[k] >= vertexCount) throw new Error(`${where}: ${what} ${k} names vertex ${a[k]} of ${vertexCount}`);
        b[k] = map[a[k]];
      }
      return b;
    };
    const indices = remap(chunk.indices, 'triangle index'),
      edges = remap(chunk.edges, 'edge index');
    // Every array of the chunk is replaced, so the package frame they viewed can be freed.
    const table = objects.slice();
    rows.forEach((r, i) => {
      table[r + 1] = l.starts[i];
    });
    chunk.positions = out;
    chunk.indices = indices;
    chunk.edges = edges;
    chunk.objects = table;
    chunk.edgeObjects = chunk.edgeObjects.slice();
  }
  const table = chunk.objects;
  let base = Infinity,
    top = -1;
  for (const r of rows) {
    base = Math.min(base, table[r]);
    top = Math.max(top, table[r]);
  }
  if (top < 0) base = 0;
  const blocks =
    top - base < NO_OBJECT_16
      ? new Uint16Array(Math.max(1, Math.ceil(total / size))).fill(NO_OBJECT_16)
      : new Uint32Array(Math.max(1, Math.ceil(total / size))).fill(NO_OBJECT_32);
  for (const r of rows) {
    const first = table[r + 1] / size,
      end = Math.ceil((table[r + 1] + table[r + 2]) / size);
    blocks.fill(table[r] - base, first, end);
  }
  return { size, shift: Math.log2(size), base, objects: blocks };
}

/** Global object index of vertex `v` by the shader's lookup (−1 outside every object). */
export function objectAtVertex(b: VertexBlocks, v: number): number {
  const k = b.objects[Math.floor(v / b.size)];
  return k === (b.objects instanceof Uint16Array ? NO_OBJECT_16 : NO_OBJECT_32) ? -1 : b.base + k;
}

/** Texture width and height of `n` texels: rows of at most TEXTURE_ROW texels, filled evenly. */
export function blockTextureSize(n: number): { width: number; height: number } {
  const height = Math.max(1, Math.ceil(n / TEXTURE_ROW));
  return { width: Math.max(1, Math.ceil(n / height)), height };
}

/**
 * The block table as an R16UI or R32UI texture of blockTextureSize (block k at texel (k % width,
 * k / width)); the shader adds `base`.
 */
export function vertexBlockTexture(b: VertexBlocks): DataTexture {
  const { width, height } = blockTextureSize(b.objects.length);
  const wide = b.objects instanceof Uint32Array;
  const data = wide ? new Uint32Array(width * height) : new Uint16Array(width * height);
  data.set(b.objects);
  const t = new DataTexture(data, width, height, RedIntegerFormat, wide ? UnsignedIntType : UnsignedShortType);
  t.internalFormat = wide ? 'R32UI' : 'R16UI';
  // Rows of an odd number of 16-bit texels are not 4-byte aligned.
  t.unpackAlignment = wide ? 4 : 2;
  t.magFilter = NearestFilter;
  t.minFilter = NearestFilter;
  t.generateMipmaps = false;
  t.needsUpdate = true;
  return t;
}

/** GPU bytes of the block texture of `b` (2 or 4 bytes a texel, the last row's padding included). */
export function vertexBlockBytes(b: VertexBlocks): number {
  const { width, height } = blockTextureSize(b.objects.length);
  return width * height * b.objects.BYTES_PER_ELEMENT;
}
