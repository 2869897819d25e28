/**
 * The first step of a chunk's LOD levels: meshoptimizer's edge-collapse simplifier (WebAssembly, npm
 * `meshoptimizer`) removes the vertices a surface does not need within a small absolute error — the fine
 * tessellation of flat plates around holes and cut-outs, of curved plates meshed to a chord tolerance —
 * before vertex clustering (./lodCluster.ts) collapses what is smaller than a level's cell. Clustering alone
 * cannot drop a vertex whose neighbours lie in other cells; edge collapse cannot drop a thin rim or a
 * part smaller than a pixel; together, on the generated 10k and 100k ships, levels 1–4 draw 2.5–6× fewer
 * triangles than clustering alone at about the same error in cells (bench/README.md "LOD levels: vertex clustering and
 * meshoptimizer").
 *
 * Collapses never create or move a vertex and follow the mesh's edges, which never join two objects (they
 * share no vertex index), so the result indexes the chunk's own vertex buffer and each object row keeps its
 * own triangles; where two objects' vertices coincide, simplifyChunk checks it. World units mm.
 */
import { MeshoptSimplifier } from 'meshoptimizer';
import { decodeChunkPositions } from '../package/reader';
import type { SceneChunk } from '../package/types';

let state: 'loading' | 'ready' | 'failed' = 'loading';

/**
 * Resolves once meshoptimizer's simplifier is usable (true) or known not to be (false, with one log
 * line: LOD levels are then built by vertex clustering alone). Loading starts when this module is imported.
 */
export const simplifierLoaded: Promise<boolean> = (
  MeshoptSimplifier.supported ? MeshoptSimplifier.ready : Promise.reject(new Error('no WebAssembly'))
).then(
  () => {
    state = 'ready';
    return true;
  },
  (e: unknown) => {
    state = 'failed';
    console.warn(
      `LOD simplifier: meshoptimizer not loaded (${e instanceof Error ? e.message : String(e)}); LOD levels by vertex clustering alone`,
    );
    return false;
  },
);

/** True once the simplifier can run (see simplifierLoaded). */
export function simplifierReady(): boolean {
  return state === 'ready';
}

/**
 * `chunk` with its triangles simplified by edge collapse within `errorMm` (> 0, mm) of the surface, as a
 * chunk of the same vertices: `indices` the kept triangles grouped by object row in the rows' current order,
 * `objects` a copy whose index ranges point into them (vertex ranges unchanged). Rows may end up with no
 * triangle. Returns `chunk` itself when a kept triangle would join two objects' vertices, and null while
 * the simplifier is not loaded (or never will be).
 * @throws Error when the error bound is not a positive number.
 */
export function simplifyChunk(chunk: SceneChunk, errorMm: number): SceneChunk | null {
  if (!(errorMm > 0)) throw new Error(`LOD simplification error ${errorMm} mm is not positive`);
  if (state !== 'ready') return null;
  const { positions: q, objects } = chunk;
  const [kept] = MeshoptSimplifier.simplify(
    Uint32Array.from(chunk.indices),
    decodeChunkPositions(chunk),
    3,
    0,
    errorMm,
    ['ErrorAbsolute'],
  );
  const rows = objects.length / 5;
  const rowOf = new Int32Array(q.length / 3).fill(-1);
  for (let r = 0; r < rows; r++) rowOf.fill(r, objects[r * 5 + 1], objects[r * 5 + 1] + objects[r * 5 + 2]);
  // Coincident vertices of two objects are one point to the simplifier (it keeps such seams whole); a
  // triangle that came out on another object's vertex would draw a part with a corner of its neighbour, so
  // the chunk is then left as it is.
  for (let t = 0; t < kept.length; t += 3)
    if (rowOf[kept[t]] < 0 || rowOf[kept[t + 1]] !== rowOf[kept[t]] || rowOf[kept[t + 2]] !== rowOf[kept[t]])
      return chunk;
  const out = objects.slice();
  for (let r = 0; r < rows; r++) out[r * 5 + 4] = 0;
  for (let t = 0; t < kept.length; t += 3) out[rowOf[kept[t]] * 5 + 4] += 3;
  for (let r = 0, at = 0; r < rows; r++) {
    out[r * 5 + 3] = at;
    at += out[r * 5 + 4];
  }
  // Counting sort by row: meshoptimizer keeps the input's triangle order, but nothing promises it.
  const next = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) next[r] = out[r * 5 + 3];
  const indices = new Uint16Array(kept.length);
  for (let t = 0; t < kept.length; t += 3) {
    const at = next[rowOf[kept[t]]];
    indices[at] = kept[t];
    indices[at + 1] = kept[t + 1];
    indices[at + 2] = kept[t + 2];
    next[rowOf[kept[t]]] = at + 3;
  }
  return { ...chunk, indices, objects: out };
}
