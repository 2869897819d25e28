/**
 * Object of a vertex without a per-vertex attribute (viewer.md §4 "Scale": GPU bytes per triangle). Each
 * object's vertices are one contiguous range of its chunk (package/types.ts SceneChunk `objects`), so the
 * chunk's vertices fall into runs [firstVertex, next run's firstVertex) of one object each. The chunk
 * shader (scene/chunkMaterial.ts) finds the run of `gl_VertexID` (the vertex index of an indexed draw)
 * in two small textures instead of reading a 2-byte slot attribute per vertex:
 *
 * - runs: RG32F, one texel per run in vertex order: (first vertex, global object index), then a sentinel
 *   whose first vertex is above any vertex index;
 * - blocks: RG32F, one texel per RUN_BLOCK vertices: (run holding the block's first vertex, its object).
 *
 * The shader starts at the block's run and steps forward while the next run starts at or before the
 * vertex; a block holds at most RUN_BLOCK run starts (runs are non-empty), so the loop is bounded by
 * RUN_BLOCK and takes one step for most vertices (objects have ~50 vertices). `objectAtVertex` is the
 * same search on the CPU (tests compare it with the ranges). Both textures are TEXTURE_ROW texels wide
 * (a single row narrower when it holds fewer texels), like the object state table.
 */
import { DataTexture, FloatType, NearestFilter, RGFormat } from 'three';
import { TEXTURE_ROW } from './ObjectStateTable';

/** Vertices per block-table texel: the shader's search loop runs at most this many steps. */
export const RUN_BLOCK = 32;

/** Runs and block table of one chunk (2 floats per texel, see the module comment). */
export interface VertexRuns {
  /** (first vertex, object index) per run in vertex order, then the sentinel; 2·(runCount + 1) values. */
  runs: Float32Array;
  runCount: number;
  /** (run index, object index) of the first vertex of each block of RUN_BLOCK vertices. */
  blocks: Float32Array;
}

/** First vertex of the sentinel run: above any vertex index of a chunk (at most 65,536 vertices). */
const SENTINEL = 2 ** 24;

/**
 * Runs of `objects` (5 values per row: [objectIndex, vertexStart, vertexCount, indexStart, indexCount],
 * rows in any order) over `vertexCount` vertices. Rows without vertices make no run; vertices in no
 * row's range (none in a valid package) read as the run before them.
 * @throws Error naming `where` when the table length is not a multiple of 5, a range exceeds the
 *   vertices, or two rows' vertex ranges overlap.
 */
export function vertexRuns(objects: Uint32Array, vertexCount: number, where: string): VertexRuns {
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
  const runCount = rows.length;
  const runs = new Float32Array(2 * (runCount + 1));
  for (let i = 0; i < runCount; i++) {
    const r = rows[i];
    if (i > 0) {
      const p = rows[i - 1];
      if (objects[p + 1] + objects[p + 2] > objects[r + 1])
        throw new Error(
          `${where}: vertex ranges of objects ${objects[p]} (${objects[p + 1]}+${objects[p + 2]}) and ${objects[r]} (${objects[r + 1]}+${objects[r + 2]}) overlap`,
        );
    }
    runs[2 * i] = objects[r + 1];
    runs[2 * i + 1] = objects[r];
  }
  runs[2 * runCount] = SENTINEL;
  const blockCount = Math.max(1, Math.ceil(vertexCount / RUN_BLOCK));
  const blocks = new Float32Array(2 * blockCount);
  let run = 0;
  for (let b = 0; b < blockCount; b++) {
    const v = b * RUN_BLOCK;
    while (run + 1 < runCount && runs[2 * (run + 1)] <= v) run++;
    blocks[2 * b] = run;
    blocks[2 * b + 1] = runs[2 * run + 1];
  }
  return { runs, runCount, blocks };
}

/**
 * Object index of vertex `v` by the shader's search (block texel, then forward steps); -1 for a chunk
 * without runs.
 */
export function objectAtVertex(r: VertexRuns, v: number): number {
  if (r.runCount === 0) return -1;
  const b = Math.floor(v / RUN_BLOCK);
  let run = r.blocks[2 * b];
  let object = r.blocks[2 * b + 1];
  for (let k = 0; k < RUN_BLOCK; k++) {
    if (r.runs[2 * (run + 1)] > v) break;
    run++;
    object = r.runs[2 * run + 1];
  }
  return object;
}

/** The runs and blocks as RG32F textures (nearest filtering, no mipmaps). */
export function vertexRunTextures(r: VertexRuns): { runs: DataTexture; blocks: DataTexture } {
  return { runs: rgTexture(r.runs), blocks: rgTexture(r.blocks) };
}

/** GPU bytes of the two textures of `r` (rows padded to TEXTURE_ROW texels, 8 bytes a texel). */
export function vertexRunBytes(r: VertexRuns): number {
  const texels = (n: number) => (n <= TEXTURE_ROW ? n : Math.ceil(n / TEXTURE_ROW) * TEXTURE_ROW);
  return 8 * (texels(r.runs.length / 2) + texels(r.blocks.length / 2));
}

function rgTexture(values: Float32Array): DataTexture {
  const n = values.length / 2;
  const width = n <= TEXTURE_ROW ? n : TEXTURE_ROW;
  const height = Math.ceil(n / width);
  const data = new Float32Array(width * height * 2);
  data.set(values);
  const t = new DataTexture(data, width, height, RGFormat, FloatType);
  t.magFilter = NearestFilter;
  t.minFilter = NearestFilter;
  t.generateMipmaps = false;
  t.needsUpdate = true;
  return t;
}
