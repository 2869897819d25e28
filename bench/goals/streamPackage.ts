/**
 * A `.sc` package for a model whose meshes do not fit in memory at once (the goals bench's 2,000,000-part
 * ship): the importer hands each part group's meshes over as soon as they are tessellated
 * (ImportOptions.onMeshes); they are merged by object, split to the chunk limits and appended to a spill
 * file on disk with only their box and counts kept; the chunks are then planned on those sizes
 * (engine/package/chunking.ts planChunks, the same plan encodeScenePackage makes) and encoded one by one
 * from the spill into the package file (engine/package/writer.ts encodeChunk), the header written last.
 * Memory: the importer's object table plus ~100 bytes per part piece, never the whole geometry.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import type { Box3Tuple, PartMesh } from '../../engine/model/types';
import { emptyBox, growBox, isBoxValid } from '../../engine/model/types';
import {
  type ChunkItemSize,
  type ChunkPart,
  chunkItemSize,
  mergeMeshesByObject,
  planChunks,
  splitPart,
} from '../../engine/package/chunking';
import { HEADER_BYTES } from '../../engine/package/format';
import {
  DEFAULT_MAX_CHUNK_TRIANGLES,
  DEFAULT_MAX_CHUNK_VERTICES,
  encodeChunk,
  encodeHeader,
} from '../../engine/package/writer';

/** What streamPackage wrote, and where its time and memory went. */
export interface StreamPackageStats {
  objects: number;
  pieces: number;
  chunks: number;
  triangles: number;
  /** Package size, bytes. */
  bytes: number;
  /** Spill file size, bytes (deleted at the end). */
  spillBytes: number;
  /** Import (parse + tessellation + spill writes), planning and chunk encoding, ms. */
  importMs: number;
  planMs: number;
  encodeMs: number;
  /** Largest RSS of this process seen between phases and every 256 groups, MB. */
  peakRssMB: number;
}

/** Spill writes are gathered into a buffer of this size before each write. */
const SPILL_BUFFER_BYTES = 64 << 20;

/**
 * Imports the OCX file `ocx` (`threads` tessellation threads besides this one, importOcxFile) and writes its `.sc` package to `sc` without holding the whole
 * geometry in memory; the spill file is `${sc}.spill`, removed afterwards.
 * @throws OcxImportError for a refused file, file system errors as they come, or Error when a chunk
 *   cannot be encoded (encodeChunk).
 */
export async function streamPackage(
  ocx: string,
  sc: string,
  log: (msg: string) => void = () => undefined,
  threads = 0,
): Promise<StreamPackageStats> {
  const maxV = DEFAULT_MAX_CHUNK_VERTICES,
    maxT = DEFAULT_MAX_CHUNK_TRIANGLES;
  const spillPath = `${sc}.spill`;
  const spill = openSync(spillPath, 'w+');
  let peakRss = 0;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  };
  // Per piece: object, spill offset, float counts of positions and edges, index count.
  const sizes: ChunkItemSize[] = [];
  let meta = new Float64Array(1 << 20);
  const bounds: Box3Tuple = emptyBox();
  const buf = Buffer.allocUnsafe(SPILL_BUFFER_BYTES);
  let bufUsed = 0,
    spillBytes = 0,
    groups = 0;
  const flush = () => {
    if (bufUsed) writeSync(spill, buf, 0, bufUsed, spillBytes - bufUsed);
    bufUsed = 0;
  };
  const put = (a: Float32Array | Uint32Array) => {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    if (bufUsed + bytes.length > buf.length) flush();
    if (bytes.length > buf.length) writeSync(spill, bytes, 0, bytes.length, spillBytes);
    else {
      buf.set(bytes, bufUsed);
      bufUsed += bytes.length;
    }
    spillBytes += bytes.length;
  };
  const spillPiece = (p: ChunkPart) => {
    const k = sizes.length;
    if ((k + 1) * 5 > meta.length) {
      const grown = new Float64Array(meta.length * 2);
      grown.set(meta);
      meta = grown;
    }
    const size = chunkItemSize(p);
    sizes.push(size);
    growBox(bounds, [size.box[0], size.box[1], size.box[2], size.box[3], size.box[4], size.box[5]]);
    meta.set([p.object, spillBytes, p.positions.length, p.indices.length, p.edges?.length ?? 0], k * 5);
    put(p.positions);
    put(p.indices);
    if (p.edges) put(p.edges);
  };
  let t = performance.now();
  const onMeshes = (meshes: PartMesh[]) => {
    for (const part of mergeMeshesByObject(meshes)) for (const piece of splitPart(part, maxV, maxT)) spillPiece(piece);
    if (++groups % 256 === 0) sample();
    if (groups % 4096 === 0)
      log(
        `${groups} part groups, ${sizes.length} pieces spilled (${(spillBytes / 1e6).toFixed(0)} MB), ` +
          `${((performance.now() - t) / 1000).toFixed(0)} s, RSS ${(process.memoryUsage.rss() / 1e6).toFixed(0)} MB`,
      );
  };

  t = performance.now();
  log(`importing ${ocx} with the meshes spilled to ${spillPath} …`);
  let imported: Awaited<ReturnType<typeof importOcxFile>> | null = await importOcxFile(ocx, { threads, onMeshes });
  flush();
  sample();
  const importMs = performance.now() - t;
  const info = {
    bounds: [...imported.info.bounds] as Box3Tuple,
    objectCount: imported.objects.length,
    tolerances: imported.info.tolerances,
  };
  imported = null; // the object table and properties are not needed for the package
  growBox(bounds, info.bounds.slice(0, 3));
  growBox(bounds, info.bounds.slice(3, 6));
  if (!isBoxValid(bounds)) bounds.splice(0, 6, 0, 0, 0, 0, 0, 0);

  t = performance.now();
  log(`planning ${sizes.length} pieces of ${info.objectCount} objects into chunks …`);
  const plan = planChunks(sizes, bounds, maxV, maxT);
  const pieceCount = sizes.length;
  sizes.length = 0;
  const planMs = performance.now() - t;
  sample();

  t = performance.now();
  log(`encoding ${plan.length} chunks into ${sc} …`);
  const out = openSync(sc, 'w');
  let offset = HEADER_BYTES,
    triangles = 0,
    edges = 0;
  try {
    writeSync(out, new Uint8Array(HEADER_BYTES), 0, HEADER_BYTES, 0);
    plan.forEach((pieces, index) => {
      const parts = pieces.map((k) => readPiece(spill, meta, k));
      const frame = encodeChunk(parts, index);
      writeSync(out, frame.bytes, 0, frame.bytes.length, offset);
      offset += frame.bytes.length;
      triangles += frame.triangles;
      edges += frame.edges;
      if (index % 256 === 0) sample();
    });
    if (triangles > 0xffffffff) throw new Error(`Scene package: ${triangles} triangles exceed the header's u32 count`);
    const header = encodeHeader(bounds, info, plan.length, triangles, edges);
    writeSync(out, header, 0, header.length, 0);
  } finally {
    closeSync(out);
    closeSync(spill);
    unlinkSync(spillPath);
  }
  return {
    objects: info.objectCount,
    pieces: pieceCount,
    chunks: plan.length,
    triangles,
    bytes: offset,
    spillBytes,
    importMs,
    planMs,
    encodeMs: performance.now() - t,
    peakRssMB: peakRss / 1e6,
  };
}

/** Reads spilled piece `k` back (its own arrays, 4-byte aligned copies). */
function readPiece(fd: number, meta: Float64Array, k: number): ChunkPart {
  const [object, at, np, ni, ne] = meta.subarray(k * 5, k * 5 + 5);
  const bytes = (np + ni + ne) * 4;
  const raw = new ArrayBuffer(bytes);
  readSync(fd, new Uint8Array(raw), 0, bytes, at);
  return {
    object,
    positions: new Float32Array(raw, 0, np),
    indices: new Uint32Array(raw, np * 4, ni),
    edges: ne ? new Float32Array(raw, (np + ni) * 4, ne) : null,
  };
}
