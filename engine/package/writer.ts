/**
 * Writer of the `.sc` scene package (ARCHITECTURE.md "The `.sc` package"; layout in ./format.ts).
 * Takes the importer's part meshes (world mm) and returns the header frame followed by chunk frames.
 */
import type { Box3Tuple, PartMesh } from '../model/types';
import { emptyBox, growBox, isBoxValid } from '../model/types';
import {
  CHUNK_HEADER_BYTES,
  CHUNK_MAGIC,
  FORMAT_VERSION,
  HEADER_BYTES,
  HEADER_MAGIC,
  MAX_CHUNK_VERTICES,
  UNITS_MM,
  chunkLayout,
  quantScale,
  quantise,
  writeBox,
  writeMagic,
} from './format';
import { type ChunkPart, groupIntoChunks, mergeMeshesByObject } from './chunking';

/** What the header needs besides the meshes. */
export interface ScenePackageInfo {
  /** World bounds of all geometry, mm (ModelInfo.bounds). Grown by the meshes if they reach outside. */
  bounds: Box3Tuple;
  /** Number of rows in the object table; every mesh.object must be below it. */
  objectCount: number;
  /** Tessellation tolerances the importer used. */
  tolerances: { chordalMm: number; angularDeg: number };
}

/** Chunk size limits. */
export interface ScenePackageOptions {
  /** Most triangles per chunk (default 65,536). */
  maxChunkTriangles?: number;
  /** Most vertices per chunk (default and maximum 65,536: indices are 16-bit). */
  maxChunkVertices?: number;
}

/** Default chunk limits: about 64k vertices (ARCHITECTURE.md suggests chunks a renderer uploads at once). */
export const DEFAULT_MAX_CHUNK_VERTICES = 65_536;
export const DEFAULT_MAX_CHUNK_TRIANGLES = 65_536;

/**
 * Encodes meshes into a `.sc` package: element 0 is the header frame (96 bytes), then one frame per
 * chunk in streaming order (large and central geometry first). Concatenate them for a file or an
 * HTTP body. Vertices are welded per object and chunk (format version 2, see format.ts). Parts of one object are merged; a part is split by triangles, keeping its object index,
 * only when it alone exceeds the chunk limits.
 * @throws Error naming the mesh when positions are not xyz triplets, an index is out of range, a
 *   coordinate is not finite, or mesh.object is outside 0..objectCount-1.
 */
export function encodeScenePackage(
  meshes: PartMesh[],
  info: ScenePackageInfo,
  options: ScenePackageOptions = {},
): Uint8Array[] {
  const maxV = options.maxChunkVertices ?? DEFAULT_MAX_CHUNK_VERTICES;
  const maxT = options.maxChunkTriangles ?? DEFAULT_MAX_CHUNK_TRIANGLES;
  if (!(maxV >= 3) || !(maxT >= 1))
    throw new Error(`Chunk limits must allow one triangle (vertices ${maxV}, triangles ${maxT})`);
  if (maxV > MAX_CHUNK_VERTICES)
    throw new Error(`Chunk vertex limit ${maxV} exceeds ${MAX_CHUNK_VERTICES} (16-bit indices)`);
  meshes.forEach((m, i) => validateMesh(m, i, info.objectCount));

  const parts = mergeMeshesByObject(meshes);
  const bounds: Box3Tuple = [...info.bounds] as Box3Tuple;
  for (const p of parts) {
    growBox(bounds, p.positions);
    if (p.edges) growBox(bounds, p.edges);
  }
  if (!isBoxValid(bounds)) bounds.splice(0, 6, 0, 0, 0, 0, 0, 0);

  const chunks = groupIntoChunks(parts, bounds, maxV, maxT);
  let triangleCount = 0;
  let edgeCount = 0;
  const frames: Uint8Array[] = [new Uint8Array(0)];
  chunks.forEach((chunkParts, index) => {
    const frame = encodeChunk(chunkParts, index);
    triangleCount += frame.triangles;
    edgeCount += frame.edges;
    frames.push(frame.bytes);
  });
  frames[0] = encodeHeader(bounds, info, chunks.length, triangleCount, edgeCount);
  return frames;
}

/**
 * Appends meshes to an encoded package as a batch of chunks of their own (the CAD components of a revision,
 * issue "CAD components" §2): the new chunks follow the package's last chunk (numbered on from it) and never
 * mix with its geometry, so the existing chunk frames stay byte for byte and only the header changes.
 * @param headerFrame the package's current header frame (HEADER_BYTES).
 * @param objectCount the object table's new row count (the appended meshes' objects are below it).
 * @returns the replacement header frame and the chunk frames to write after the last existing chunk.
 * @throws Error when the header frame is not a package header, or as encodeScenePackage for a bad mesh.
 */
export function appendToScenePackage(
  headerFrame: Uint8Array,
  meshes: PartMesh[],
  objectCount: number,
  options: ScenePackageOptions = {},
): { header: Uint8Array; chunks: Uint8Array[] } {
  if (headerFrame.length < HEADER_BYTES) throw new Error('Scene package header is truncated');
  const view = new DataView(headerFrame.buffer, headerFrame.byteOffset, HEADER_BYTES);
  const magic = String.fromCharCode(...headerFrame.subarray(0, 4));
  if (magic !== HEADER_MAGIC || view.getUint32(8, true) !== FORMAT_VERSION)
    throw new Error(`Not a version ${FORMAT_VERSION} scene package header`);
  const bounds = [0, 1, 2, 3, 4, 5].map((i) => view.getFloat64(16 + i * 8, true)) as Box3Tuple;
  const oldObjects = view.getUint32(64, true);
  const oldChunks = view.getUint32(68, true);
  let triangleCount = view.getUint32(72, true);
  let edgeCount = view.getUint32(76, true);
  const tolerances = { chordalMm: view.getFloat64(80, true), angularDeg: view.getFloat64(88, true) };
  if (objectCount < oldObjects) throw new Error(`Scene package: ${objectCount} objects is fewer than ${oldObjects}`);
  const maxV = options.maxChunkVertices ?? DEFAULT_MAX_CHUNK_VERTICES;
  const maxT = options.maxChunkTriangles ?? DEFAULT_MAX_CHUNK_TRIANGLES;
  meshes.forEach((m, i) => validateMesh(m, i, objectCount));
  const parts = mergeMeshesByObject(meshes);
  // An empty model's header box is all zeros: the appended geometry alone then gives the bounds.
  const grown: Box3Tuple = oldChunks === 0 ? emptyBox() : ([...bounds] as Box3Tuple);
  for (const p of parts) {
    growBox(grown, p.positions);
    if (p.edges) growBox(grown, p.edges);
  }
  const finalBounds = isBoxValid(grown) ? grown : bounds;
  const chunks = groupIntoChunks(parts, finalBounds, maxV, maxT).map((chunkParts, i) => {
    const frame = encodeChunk(chunkParts, oldChunks + i);
    triangleCount += frame.triangles;
    edgeCount += frame.edges;
    return frame.bytes;
  });
  const header = encodeHeader(
    finalBounds,
    { bounds: finalBounds, objectCount, tolerances },
    oldChunks + chunks.length,
    triangleCount,
    edgeCount,
  );
  return { header, chunks };
}

/** Concatenates package frames into one buffer (for a file or a test). */
export function concatFrames(frames: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of frames) {
    out.set(f, o);
    o += f.length;
  }
  return out;
}

function validateMesh(m: PartMesh, i: number, objectCount: number): void {
  const where = `mesh ${i} (object ${m.object})`;
  if (!Number.isInteger(m.object) || m.object < 0 || m.object >= objectCount)
    throw new Error(`Scene package: ${where} has object index outside 0..${objectCount - 1}`);
  if (m.positions.length % 3 !== 0)
    throw new Error(`Scene package: ${where} positions length ${m.positions.length} is not a multiple of 3`);
  if (m.indices.length % 3 !== 0)
    throw new Error(`Scene package: ${where} indices length ${m.indices.length} is not a multiple of 3`);
  if (m.normals && m.normals.length !== m.positions.length)
    throw new Error(
      `Scene package: ${where} has ${m.normals.length} normal values for ${m.positions.length} position values`,
    );
  if (m.edges && m.edges.length % 6 !== 0)
    throw new Error(`Scene package: ${where} edges length ${m.edges.length} is not a multiple of 6`);
  const v = m.positions.length / 3;
  for (let k = 0; k < m.indices.length; k++)
    if (m.indices[k] >= v)
      throw new Error(`Scene package: ${where} index ${m.indices[k]} at ${k} is out of range (${v} vertices)`);
  for (let k = 0; k < m.positions.length; k++)
    if (!Number.isFinite(m.positions[k])) throw new Error(`Scene package: ${where} position value ${k} is not finite`);
  if (m.edges)
    for (let k = 0; k < m.edges.length; k++)
      if (!Number.isFinite(m.edges[k])) throw new Error(`Scene package: ${where} edge value ${k} is not finite`);
}

/**
 * The header frame (HEADER_BYTES) of a package with these bounds (mm), chunk, triangle and edge counts; for
 * writers that encode chunk by chunk (encodeChunk) and write the header last.
 */
export function encodeHeader(
  bounds: Box3Tuple,
  info: ScenePackageInfo,
  chunkCount: number,
  triangleCount: number,
  edgeCount: number,
): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  writeMagic(view, 0, HEADER_MAGIC);
  view.setUint32(4, HEADER_BYTES, true);
  view.setUint32(8, FORMAT_VERSION, true);
  view.setUint32(12, UNITS_MM, true);
  writeBox(view, 16, bounds);
  view.setUint32(64, info.objectCount, true);
  view.setUint32(68, chunkCount, true);
  view.setUint32(72, triangleCount, true);
  view.setUint32(76, edgeCount, true);
  view.setFloat64(80, info.tolerances.chordalMm, true);
  view.setFloat64(88, info.tolerances.angularDeg, true);
  return bytes;
}

/** One part welded and quantised over the chunk box: its vertex list, triangle and edge indices (local). */
interface WeldedPart {
  object: number;
  q: number[];
  tris: number[];
  edges: number[];
}

/**
 * Quantises a part over the chunk box and welds vertices with equal quantised coordinates (per object);
 * edge ends reuse a triangle corner when they coincide with one, else get a vertex of their own.
 */
function weldPart(p: ChunkPart, box: Box3Tuple, step: [number, number, number]): WeldedPart {
  const map = new Map<number, number>();
  const q: number[] = [];
  const vertexOf = (x: number, y: number, z: number): number => {
    const a = quantise(x, box[0], step[0]),
      b = quantise(y, box[1], step[1]),
      c = quantise(z, box[2], step[2]);
    const key = a + b * 65536 + c * 4294967296;
    let v = map.get(key);
    if (v === undefined) {
      v = q.length / 3;
      map.set(key, v);
      q.push(a, b, c);
    }
    return v;
  };
  const remap = new Int32Array(p.positions.length / 3).fill(-1);
  const tris: number[] = new Array(p.indices.length);
  for (let k = 0; k < p.indices.length; k++) {
    const i = p.indices[k];
    if (remap[i] < 0) remap[i] = vertexOf(p.positions[i * 3], p.positions[i * 3 + 1], p.positions[i * 3 + 2]);
    tris[k] = remap[i];
  }
  const edges: number[] = [];
  if (p.edges)
    for (let k = 0; k + 2 < p.edges.length; k += 3) edges.push(vertexOf(p.edges[k], p.edges[k + 1], p.edges[k + 2]));
  return { object: p.object, q, tris, edges };
}

/**
 * One chunk frame of `parts` (world mm, together within the chunk limits; pieces of one object merged),
 * numbered `index`, with its triangle and edge counts.
 * @throws Error when the welded chunk needs more than MAX_CHUNK_VERTICES vertices.
 */
export function encodeChunk(
  parts: ChunkPart[],
  index: number,
): { bytes: Uint8Array; triangles: number; edges: number } {
  const box = emptyBox();
  for (const p of parts) {
    growBox(box, p.positions);
    if (p.edges) growBox(box, p.edges);
  }
  if (!isBoxValid(box)) box.splice(0, 6, 0, 0, 0, 0, 0, 0);
  const step = quantScale(box);
  // Pieces of one object that landed in the same chunk (e.g. an edge-only piece) become one range.
  const merged = mergeMeshesByObject(parts.map((p) => ({ ...p, normals: null })));
  const welded = merged.map((p) => weldPart(p, box, step));
  let vertexCount = 0,
    triangleCount = 0,
    edgeCount = 0,
    objectRangeCount = 0,
    edgeRangeCount = 0;
  for (const w of welded) {
    vertexCount += w.q.length / 3;
    triangleCount += w.tris.length / 3;
    if (w.q.length > 0) objectRangeCount++;
    if (w.edges.length > 0) {
      edgeCount += w.edges.length / 2;
      edgeRangeCount++;
    }
  }
  if (vertexCount > MAX_CHUNK_VERTICES)
    throw new Error(`Scene package chunk ${index} needs ${vertexCount} vertices, more than ${MAX_CHUNK_VERTICES}`);
  const counts = { vertexCount, triangleCount, objectRangeCount, edgeCount, edgeRangeCount };
  const layout = chunkLayout(counts);
  const buffer = new ArrayBuffer(layout.byteLength);
  const view = new DataView(buffer);
  writeMagic(view, 0, CHUNK_MAGIC);
  view.setUint32(4, layout.byteLength, true);
  view.setUint32(8, index, true);
  view.setUint32(12, vertexCount, true);
  view.setUint32(16, triangleCount, true);
  view.setUint32(20, objectRangeCount, true);
  view.setUint32(24, edgeCount, true);
  view.setUint32(28, edgeRangeCount, true);
  writeBox(view, 32, box);
  if (CHUNK_HEADER_BYTES !== 80) throw new Error('chunk header layout changed without updating the writer');

  const pos = new Uint16Array(buffer, layout.positions, vertexCount * 3);
  const idx = new Uint16Array(buffer, layout.indices, triangleCount * 3);
  const obj = new Uint32Array(buffer, layout.objects, objectRangeCount * 5);
  const edg = new Uint16Array(buffer, layout.edges, edgeCount * 2);
  const eob = new Uint32Array(buffer, layout.edgeObjects, edgeRangeCount * 3);
  let v0 = 0,
    i0 = 0,
    o = 0,
    e0 = 0,
    eo = 0;
  for (const w of welded) {
    const nv = w.q.length / 3;
    pos.set(w.q, v0 * 3);
    for (let k = 0; k < w.tris.length; k++) idx[i0 + k] = w.tris[k] + v0;
    if (nv > 0) obj.set([w.object, v0, nv, i0, w.tris.length], o++ * 5);
    if (w.edges.length > 0) {
      for (let k = 0; k < w.edges.length; k++) edg[e0 * 2 + k] = w.edges[k] + v0;
      eob.set([w.object, e0, w.edges.length / 2], eo++ * 3);
      e0 += w.edges.length / 2;
    }
    v0 += nv;
    i0 += w.tris.length;
  }
  return { bytes: new Uint8Array(buffer), triangles: triangleCount, edges: edgeCount };
}
