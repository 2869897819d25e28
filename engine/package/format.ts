/**
 * Binary layout of the `.sc` scene package (ARCHITECTURE.md "The `.sc` package"). One place that
 * knows byte offsets; engine/package/writer.ts and engine/package/reader.ts both use it.
 *
 * Everything is little-endian and every array starts on a 4-byte boundary relative to its frame
 * (the header or a chunk), so a reader that copies one frame into its own ArrayBuffer can view the
 * arrays without copying them again.
 *
 * Stream = header frame, then `chunkCount` chunk frames. Every frame starts with an 8-byte prefix
 * [magic: 4 ASCII bytes][byteLength: u32, whole frame including the prefix], so a push parser learns
 * how many bytes to wait for from the first 8 bytes.
 *
 * Header frame (HEADER_BYTES = 96):
 *   0  magic 'KSC1'          4  byteLength u32 (96)    8  version u32 (1)     12 units u32 (1 = mm)
 *   16 bounds 6 × f64 (mm: minX minY minZ maxX maxY maxZ)
 *   64 objectCount u32       68 chunkCount u32         72 triangleCount u32   76 edgeCount u32
 *   80 chordalMm f64         88 angularDeg f64
 *
 * Chunk frame (CHUNK_HEADER_BYTES = 80, then arrays):
 *   0  magic 'KSCC'          4  byteLength u32         8  index u32           12 vertexCount u32
 *   16 triangleCount u32     20 objectRangeCount u32   24 edgeCount u32       28 edgeRangeCount u32
 *   32 bounds 6 × f64 (quantisation box, mm)
 *   80 positions u16 × 3V (padded to 4)   indices u16 × 3T (padded to 4)
 *      objects u32 × 5·objectRangeCount   edges u16 × 2E (vertex index pairs, padded to 4)
 *      edgeObjects u32 × 3·edgeRangeCount
 *
 * Version 2: at most 65,536 vertices per chunk so indices are 16-bit; vertices are
 * welded per object (no per-vertex normals: the renderer shades flat from screen-space derivatives, which
 * is exact for plates and shows the tessellation of curved hull plates); edges index the chunk's vertices
 * (an edge end that is no triangle corner gets a vertex of its own inside the object's vertex range).
 * The per-vertex object slot the renderer needs is derived from `objects` (ranges are contiguous), so it
 * costs no bytes on the wire. On the GPU that is 6 B/vertex position + 2 B/vertex slot + 6 B/triangle
 * index + 4 B/edge.
 */
import type { Box3Tuple } from '../model/types';

/** Magic of the header frame. */
export const HEADER_MAGIC = 'KSC1';
/** Magic of a chunk frame. */
export const CHUNK_MAGIC = 'KSCC';
/** The only format version this code writes and reads. */
export const FORMAT_VERSION = 2;
/** Units code for millimetres (the only unit). */
export const UNITS_MM = 1;
/** Size of the header frame, bytes. */
export const HEADER_BYTES = 96;
/** Size of a chunk frame's fixed header, bytes. */
export const CHUNK_HEADER_BYTES = 80;
/** Size of the frame prefix (magic + byteLength), bytes. */
export const FRAME_PREFIX_BYTES = 8;
/** Most vertices in one chunk (16-bit indices). */
export const MAX_CHUNK_VERTICES = 65_536;
/** Largest quantised coordinate: world = min + q × (max − min) / QUANT_MAX. */
export const QUANT_MAX = 65535;

/** Counts that fix a chunk's array layout. */
export interface ChunkCounts {
  vertexCount: number;
  triangleCount: number;
  objectRangeCount: number;
  edgeCount: number;
  edgeRangeCount: number;
}

/** Byte offsets (from the chunk frame's start) of each array of a chunk, and the frame's total length. */
export interface ChunkLayout {
  positions: number;
  indices: number;
  objects: number;
  edges: number;
  edgeObjects: number;
  byteLength: number;
}

/** Rounds a byte count up to a multiple of 4. */
export function align4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * Computes where each array of a chunk lives for the given counts (see the file comment).
 * All offsets are multiples of 4.
 */
export function chunkLayout(c: ChunkCounts): ChunkLayout {
  const positions = CHUNK_HEADER_BYTES;
  const indices = positions + align4(c.vertexCount * 3 * 2);
  const objects = indices + align4(c.triangleCount * 3 * 2);
  const edges = objects + c.objectRangeCount * 5 * 4;
  const edgeObjects = edges + align4(c.edgeCount * 2 * 2);
  const byteLength = edgeObjects + c.edgeRangeCount * 3 * 4;
  return { positions, indices, objects, edges, edgeObjects, byteLength };
}

/** Writes 4 ASCII characters at `offset`. */
export function writeMagic(view: DataView, offset: number, magic: string): void {
  for (let i = 0; i < 4; i++) view.setUint8(offset + i, magic.charCodeAt(i));
}

/** Reads 4 bytes at `offset` as ASCII (non-printable bytes shown as \xNN so errors stay readable). */
export function readMagic(bytes: Uint8Array, offset: number): string {
  let s = '';
  for (let i = 0; i < 4; i++) {
    const b = bytes[offset + i];
    s += b >= 32 && b < 127 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return s;
}

/** Writes a box as 6 little-endian f64 at `offset`. */
export function writeBox(view: DataView, offset: number, box: Box3Tuple): void {
  for (let i = 0; i < 6; i++) view.setFloat64(offset + i * 8, box[i], true);
}

/** Reads 6 little-endian f64 at `offset` as a box. */
export function readBox(view: DataView, offset: number): Box3Tuple {
  const b = [0, 0, 0, 0, 0, 0] as Box3Tuple;
  for (let i = 0; i < 6; i++) b[i] = view.getFloat64(offset + i * 8, true);
  return b;
}

/**
 * Quantisation step per axis for a box: (max − min) / QUANT_MAX, 0 for a flat axis.
 * Returns [sx, sy, sz] in mm per quantum.
 */
export function quantScale(box: Box3Tuple): [number, number, number] {
  const s = (lo: number, hi: number) => (hi > lo ? (hi - lo) / QUANT_MAX : 0);
  return [s(box[0], box[3]), s(box[1], box[4]), s(box[2], box[5])];
}

/** Quantises one coordinate into 0..QUANT_MAX over [lo, lo + step·QUANT_MAX] (clamped). */
export function quantise(v: number, lo: number, step: number): number {
  if (step === 0) return 0;
  const q = Math.round((v - lo) / step);
  return q < 0 ? 0 : Math.min(q, QUANT_MAX);
}

/**
 * Dequantises xyz triplets of a Uint16Array over `box` into world millimetres.
 * Error against the original is ≤ half a quantum per axis plus Float32 rounding of the result.
 */
export function dequantise(q: Uint16Array, box: Box3Tuple): Float32Array {
  return dequantiseInto(q, box, new Float32Array(q.length));
}

/**
 * dequantise into `out` (at least q.length values; the section index writes straight into the
 * WebAssembly kernel's memory). @returns out
 */
export function dequantiseInto(q: Uint16Array, box: Box3Tuple, out: Float32Array): Float32Array {
  const [sx, sy, sz] = quantScale(box);
  for (let i = 0; i + 2 < q.length; i += 3) {
    out[i] = box[0] + q[i] * sx;
    out[i + 1] = box[1] + q[i + 1] * sy;
    out[i + 2] = box[2] + q[i + 2] * sz;
  }
  return out;
}
