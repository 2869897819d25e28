/**
 * Streaming reader of the `.sc` scene package (ARCHITECTURE.md "The `.sc` package"; layout in
 * ./format.ts). A push parser: feed it the pieces of an HTTP body as they arrive, split anywhere; it
 * emits the header and then each chunk as soon as its last byte is in.
 *
 * Ownership: each emitted chunk's arrays are views on one ArrayBuffer that the reader allocated for
 * that chunk alone and never touches again, so the caller may transfer `chunk.positions.buffer`.
 */
import type { SceneChunk, SceneEvent, SceneHeader } from './types';
import {
  CHUNK_HEADER_BYTES,
  CHUNK_MAGIC,
  FORMAT_VERSION,
  FRAME_PREFIX_BYTES,
  HEADER_BYTES,
  HEADER_MAGIC,
  MAX_CHUNK_VERTICES,
  UNITS_MM,
  type ChunkLayout,
  chunkLayout,
  dequantise,
  readBox,
  readMagic,
} from './format';

/** Largest chunk frame accepted (bytes); guards against a corrupt length allocating gigabytes. */
const MAX_CHUNK_BYTES = 1 << 30;

/**
 * Push parser of a `.sc` byte stream.
 * Errors (thrown from push/end) name what is wrong and the absolute byte offset in the stream:
 * bad magic, unsupported version or units, impossible lengths, chunk index out of sequence, object
 * ranges or triangle indices out of range, bytes after the last chunk, and truncation.
 */
export class ScenePackageReader {
  private header: SceneHeader | null = null;
  private chunksRead = 0;
  /** Absolute stream offset of the frame being assembled. */
  private frameStart = 0;
  private prefix = new Uint8Array(FRAME_PREFIX_BYTES);
  private prefixFill = 0;
  private frame: Uint8Array | null = null;
  private frameFill = 0;
  private received = 0;
  private failed: Error | null = null;

  /** Feeds the next bytes; returns the events completed by them (possibly none). */
  push(bytes: Uint8Array): SceneEvent[] {
    if (this.failed) throw this.failed;
    const events: SceneEvent[] = [];
    try {
      let p = 0;
      while (p < bytes.length) {
        if (this.header && this.chunksRead === this.header.chunkCount)
          throw new Error(`Scene package has unexpected bytes after the last chunk at byte ${this.received + p}`);
        if (!this.frame) {
          const n = Math.min(FRAME_PREFIX_BYTES - this.prefixFill, bytes.length - p);
          this.prefix.set(bytes.subarray(p, p + n), this.prefixFill);
          this.prefixFill += n;
          p += n;
          if (this.prefixFill < FRAME_PREFIX_BYTES) break;
          this.frame = new Uint8Array(this.frameLength());
          this.frame.set(this.prefix);
          this.frameFill = FRAME_PREFIX_BYTES;
        }
        const n = Math.min(this.frame.length - this.frameFill, bytes.length - p);
        this.frame.set(bytes.subarray(p, p + n), this.frameFill);
        this.frameFill += n;
        p += n;
        if (this.frameFill === this.frame.length) {
          events.push(this.completeFrame(this.frame));
          this.frameStart += this.frame.length;
          this.frame = null;
          this.prefixFill = 0;
        }
      }
      this.received += bytes.length;
    } catch (e) {
      this.failed = e as Error;
      throw e;
    }
    return events;
  }

  /**
   * Declares the end of the stream.
   * @throws Error 'Scene package truncated at byte N' when the stream stopped before the header or
   *   the last chunk was complete (N = bytes received).
   */
  end(): void {
    if (this.failed) throw this.failed;
    const complete =
      this.header !== null && this.chunksRead === this.header.chunkCount && !this.frame && this.prefixFill === 0;
    if (!complete) throw new Error(`Scene package truncated at byte ${this.received}`);
  }

  /** The header once read, else null. */
  get sceneHeader(): SceneHeader | null {
    return this.header;
  }

  private frameLength(): number {
    const magic = readMagic(this.prefix, 0);
    const length = new DataView(this.prefix.buffer).getUint32(4, true);
    const at = this.frameStart;
    if (!this.header) {
      if (magic !== HEADER_MAGIC)
        throw new Error(`Not a scene package: magic "${magic}" at byte ${at}, expected "${HEADER_MAGIC}"`);
      if (length !== HEADER_BYTES)
        throw new Error(`Scene package header length ${length} at byte ${at + 4}, expected ${HEADER_BYTES}`);
      return length;
    }
    if (magic !== CHUNK_MAGIC)
      throw new Error(
        `Scene package chunk ${this.chunksRead} has magic "${magic}" at byte ${at}, expected "${CHUNK_MAGIC}"`,
      );
    if (length < CHUNK_HEADER_BYTES || length % 4 !== 0 || length > MAX_CHUNK_BYTES)
      throw new Error(`Scene package chunk ${this.chunksRead} has invalid byte length ${length} at byte ${at + 4}`);
    return length;
  }

  private completeFrame(frame: Uint8Array): SceneEvent {
    return this.header
      ? { type: 'chunk', chunk: this.readChunk(frame) }
      : { type: 'header', header: (this.header = this.readHeader(frame)) };
  }

  private readHeader(frame: Uint8Array): SceneHeader {
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    const at = this.frameStart;
    const version = view.getUint32(8, true);
    if (version !== FORMAT_VERSION)
      throw new Error(
        `Unsupported scene package version ${version} at byte ${at + 8} (this reader knows ${FORMAT_VERSION})`,
      );
    const units = view.getUint32(12, true);
    if (units !== UNITS_MM) throw new Error(`Unknown scene package units code ${units} at byte ${at + 12} (1 = mm)`);
    const bounds = readBox(view, 16);
    if (bounds.some((v) => !Number.isFinite(v)))
      throw new Error(`Scene package bounds are not finite at byte ${at + 16}`);
    return {
      version,
      units: 'mm',
      bounds,
      objectCount: view.getUint32(64, true),
      chunkCount: view.getUint32(68, true),
      triangleCount: view.getUint32(72, true),
      edgeCount: view.getUint32(76, true),
      tolerances: { chordalMm: view.getFloat64(80, true), angularDeg: view.getFloat64(88, true) },
    };
  }

  private readChunk(frame: Uint8Array): SceneChunk {
    const buffer = frame.buffer as ArrayBuffer;
    const view = new DataView(buffer);
    const at = this.frameStart;
    const header = this.header!;
    const index = view.getUint32(8, true);
    if (index !== this.chunksRead)
      throw new Error(`Scene package chunk index ${index} at byte ${at + 8}, expected ${this.chunksRead}`);
    const counts = {
      vertexCount: view.getUint32(12, true),
      triangleCount: view.getUint32(16, true),
      objectRangeCount: view.getUint32(20, true),
      edgeCount: view.getUint32(24, true),
      edgeRangeCount: view.getUint32(28, true),
    };
    const layout = chunkLayout(counts);
    if (layout.byteLength !== frame.length)
      throw new Error(
        `Scene package chunk ${index} at byte ${at}: byte length ${frame.length} does not match its counts (${layout.byteLength})`,
      );
    const bounds = readBox(view, 32);
    if (bounds.some((v) => !Number.isFinite(v)))
      throw new Error(`Scene package chunk ${index} bounds are not finite at byte ${at + 32}`);
    const chunk: SceneChunk = {
      index,
      bounds,
      positions: new Uint16Array(buffer, layout.positions, counts.vertexCount * 3),
      indices: new Uint16Array(buffer, layout.indices, counts.triangleCount * 3),
      objects: new Uint32Array(buffer, layout.objects, counts.objectRangeCount * 5),
      edges: new Uint16Array(buffer, layout.edges, counts.edgeCount * 2),
      edgeObjects: new Uint32Array(buffer, layout.edgeObjects, counts.edgeRangeCount * 3),
    };
    if (counts.vertexCount > MAX_CHUNK_VERTICES)
      throw new Error(
        `Scene package chunk ${index} has ${counts.vertexCount} vertices at byte ${at + 12}, more than ${MAX_CHUNK_VERTICES}`,
      );
    this.validateRanges(chunk, header, at, layout);
    this.chunksRead++;
    return chunk;
  }

  private validateRanges(c: SceneChunk, h: SceneHeader, at: number, layout: ChunkLayout): void {
    const nv = c.positions.length / 3;
    for (let k = 0; k < c.indices.length; k++)
      if (c.indices[k] >= nv)
        throw new Error(
          `Scene package chunk ${c.index}: triangle index ${c.indices[k]} out of range (${nv} vertices) at byte ${at + layout.indices + k * 2}`,
        );
    for (let k = 0; k < c.edges.length; k++)
      if (c.edges[k] >= nv)
        throw new Error(
          `Scene package chunk ${c.index}: edge vertex ${c.edges[k]} out of range (${nv} vertices) at byte ${at + layout.edges + k * 2}`,
        );
    const objectsAt = layout.objects,
      edgeObjectsAt = layout.edgeObjects;
    for (let r = 0; r < c.objects.length; r += 5) {
      const [obj, vs, vc, is, ic] = c.objects.subarray(r, r + 5);
      if (obj >= h.objectCount || vs + vc > nv || is + ic > c.indices.length || ic % 3 !== 0)
        throw new Error(
          `Scene package chunk ${c.index}: object range [${obj}, ${vs}, ${vc}, ${is}, ${ic}] out of range at byte ${at + objectsAt + r * 4}`,
        );
    }
    const ne = c.edges.length / 2;
    for (let r = 0; r < c.edgeObjects.length; r += 3) {
      const [obj, es, ec] = c.edgeObjects.subarray(r, r + 3);
      if (obj >= h.objectCount || es + ec > ne)
        throw new Error(
          `Scene package chunk ${c.index}: edge range [${obj}, ${es}, ${ec}] out of range at byte ${at + edgeObjectsAt + r * 4}`,
        );
    }
  }
}

/** World-mm xyz of a chunk's vertices (dequantised over chunk.bounds), 3 values per vertex. */
export function decodeChunkPositions(chunk: SceneChunk): Float32Array {
  return dequantise(chunk.positions, chunk.bounds);
}

/**
 * World-mm edge segments of a chunk (x0 y0 z0 x1 y1 z1 per segment), resolved through the vertex indices.
 * `positions`: the chunk's decodeChunkPositions when the caller has them already (they are not made twice).
 */
export function decodeChunkEdges(chunk: SceneChunk, positions?: Float32Array): Float32Array {
  const pos = positions ?? decodeChunkPositions(chunk);
  const e = chunk.edges;
  const out = new Float32Array(e.length * 3);
  // A plain copy per coordinate: a subarray per vertex cost an object each (a fifth of a section index build).
  for (let k = 0, o = 0; k < e.length; k++, o += 3) {
    const v = e[k] * 3;
    out[o] = pos[v];
    out[o + 1] = pos[v + 1];
    out[o + 2] = pos[v + 2];
  }
  return out;
}

/** Reads a complete package held in memory (tests, Node tools). @throws like ScenePackageReader. */
export function decodeScenePackage(bytes: Uint8Array): { header: SceneHeader; chunks: SceneChunk[] } {
  const reader = new ScenePackageReader();
  const events = reader.push(bytes);
  reader.end();
  const chunks: SceneChunk[] = [];
  let header: SceneHeader | null = null;
  for (const e of events) {
    if (e.type === 'header') header = e.header;
    else chunks.push(e.chunk);
  }
  return { header: header!, chunks };
}
