/**
 * Decoded shapes of the `.sc` scene package (ARCHITECTURE.md "The `.sc` package"). The binary layout
 * lives in engine/package/format.ts; these are what the streaming reader hands to the renderer and what
 * the writer takes. All coordinates are millimetres in world space.
 */
import type { Box3Tuple } from '../model/types';

/** Package header: written first, so a reader knows the model's extent before any geometry arrives. */
export interface SceneHeader {
  /** Format version (currently 2, see format.ts). */
  version: number;
  /** Always 'mm'. */
  units: 'mm';
  /** World bounds of all geometry, mm. */
  bounds: Box3Tuple;
  /** Number of objects in the object table (object indices are 0..objectCount-1). */
  objectCount: number;
  /** Number of chunks that follow. */
  chunkCount: number;
  /** Total triangles and edge segments over all chunks. */
  triangleCount: number;
  edgeCount: number;
  /** Tessellation tolerances the importer used. */
  tolerances: { chordalMm: number; angularDeg: number };
}

/**
 * One independent chunk of geometry (format version 2). Positions are quantised to 16 bits over the
 * chunk's bounds: world = bounds.min + q × (bounds.max − bounds.min) / 65535, so a renderer can upload
 * `positions` unchanged and place the mesh with scale (max − min) / 65535 and offset min. At most 65,536
 * vertices, so indices are 16-bit. Vertices are welded per object; there are no normals (flat shading).
 * Each object's vertices and indices are contiguous; `objects` says where.
 */
export interface SceneChunk {
  /** Chunk sequence number, 0..chunkCount-1 (large and central geometry first). */
  index: number;
  /** Quantisation box, mm. */
  bounds: Box3Tuple;
  /** Quantised xyz, 3·V values. */
  positions: Uint16Array;
  /** Triangle indices into this chunk's vertices, 3·T values. */
  indices: Uint16Array;
  /**
   * Object ranges, 5 values per object present in the chunk:
   * [objectIndex, vertexStart, vertexCount, indexStart, indexCount]. Row r is the object's "slot" r.
   */
  objects: Uint32Array;
  /** Edge line segments as pairs of vertex indices into `positions`, 2 values per segment. */
  edges: Uint16Array;
  /** Edge ranges, 3 values per object with edges: [objectIndex, segmentStart, segmentCount]. */
  edgeObjects: Uint32Array;
}

/** An event from the streaming package reader: the header once, then each chunk as soon as it is complete. */
export type SceneEvent = { type: 'header'; header: SceneHeader } | { type: 'chunk'; chunk: SceneChunk };
