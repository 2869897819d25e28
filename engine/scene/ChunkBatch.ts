/**
 * One `.sc` chunk on the GPU (ARCHITECTURE.md "The `.sc` package"; viewer.md §4 "Loading"): a single
 * THREE.Mesh of the chunk's triangles and a THREE.LineSegments of its feature edges, plus a three-mesh-bvh
 * BVH for picking, built as soon as the chunk arrives.
 *
 * Quantisation: the Uint16 positions are uploaded as they are (not normalised, values 0..65535); the mesh
 * and the edges carry scale = (max − min) / 65535 per axis (1 on a flat axis, whose values are all 0) and
 * position = min, so model-matrix × q = world mm. Normals are Int8 normalised (world directions; the
 * material cancels the scale, see chunkMaterial.ts). A Float32 `objectIndex` attribute per vertex
 * (exact up to 2^24 objects) lets the shader read the object's state.
 *
 * Ownership: the geometry keeps views on the chunk's typed arrays (no copy); the chunk must not be reused.
 */
import {
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  LineSegments,
  Matrix4,
  Mesh,
  Ray,
  Vector3,
  type LineBasicMaterial,
  type Material,
} from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { SceneChunk } from '../package/types';
import { buildTriangleLookup, objectAtTriangle, type TriangleObjectLookup } from '../interaction/objectLookup';

const QMAX = 65535;

/** A pick hit inside one chunk: world point (mm) and distance along the ray (mm). */
export interface ChunkHit {
  nodeId: number;
  point: [number, number, number];
  distance: number;
}

/** Mesh, edges and BVH of one chunk. Dispose with dispose(). */
export class ChunkBatch {
  readonly index: number;
  readonly mesh: Mesh;
  readonly edges: LineSegments | null;
  readonly triangles: number;
  readonly vertexCount: number;
  private readonly bvh: MeshBVH | null;
  private readonly lookup: TriangleObjectLookup;
  private readonly objectRanges: Uint32Array;
  private readonly chunk: SceneChunk;
  private readonly inverse = new Matrix4();

  /**
   * Builds the GPU objects of `chunk` with the shared materials.
   * @throws Error naming the chunk when arrays have inconsistent lengths or ranges fall outside them.
   */
  constructor(chunk: SceneChunk, surface: Material, edgeMaterial: LineBasicMaterial) {
    this.index = chunk.index;
    this.chunk = chunk;
    const where = `Chunk ${chunk.index}`;
    if (chunk.positions.length % 3 !== 0) throw new Error(`${where}: positions length ${chunk.positions.length} is not a multiple of 3`);
    if (chunk.normals.length !== chunk.positions.length) throw new Error(`${where}: normals and positions differ in length`);
    if (chunk.indices.length % 3 !== 0) throw new Error(`${where}: index count ${chunk.indices.length} is not a multiple of 3`);
    if (chunk.edges.length % 6 !== 0) throw new Error(`${where}: edge values ${chunk.edges.length} are not a multiple of 6`);
    this.vertexCount = chunk.positions.length / 3;
    this.triangles = chunk.indices.length / 3;
    this.objectRanges = chunk.objects;
    this.lookup = buildTriangleLookup(chunk.objects);

    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(chunk.positions, 3, false));
    geometry.setAttribute('normal', new BufferAttribute(chunk.normals, 3, true));
    geometry.setAttribute('objectIndex', new BufferAttribute(vertexObjectIndex(chunk.objects, this.vertexCount, 5, 1, 2, 1, where), 1));
    const idx = this.vertexCount <= 65536 ? Uint16Array.from(chunk.indices) : chunk.indices;
    geometry.setIndex(new BufferAttribute(idx, 1));
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
    this.mesh = new Mesh(geometry, surface);
    placeQuantised(this.mesh, chunk);
    this.mesh.name = `chunk-${chunk.index}`;
    this.inverse.copy(this.mesh.matrixWorld).invert();
    // indirect: keep the index buffer in package order so object ranges stay valid.
    this.bvh = this.triangles > 0 ? new MeshBVH(geometry, { indirect: true }) : null;

    if (chunk.edges.length > 0) {
      const eg = new BufferGeometry();
      eg.setAttribute('position', new BufferAttribute(chunk.edges, 3, false));
      eg.setAttribute('objectIndex', new BufferAttribute(vertexObjectIndex(chunk.edgeObjects, chunk.edges.length / 3, 3, 1, 2, 2, `${where} edges`), 1));
      eg.computeBoundingSphere();
      this.edges = new LineSegments(eg, edgeMaterial);
      placeQuantised(this.edges, chunk);
      this.edges.name = `chunk-${chunk.index}-edges`;
    } else {
      this.edges = null;
    }
  }

  /**
   * Nearest hit of a world-space ray (mm) on a visible object, or null. `isHidden(nodeId)` is consulted per
   * candidate triangle, so hidden objects are never picked (all hits along the ray are examined).
   */
  raycast(worldRay: Ray, isHidden: (nodeId: number) => boolean): ChunkHit | null {
    if (!this.bvh) return null;
    const local = worldRay.clone().applyMatrix4(this.inverse);
    const hits = this.bvh.raycast(local, DoubleSide);
    let best: ChunkHit | null = null;
    const p = new Vector3();
    for (const h of hits) {
      if (h.faceIndex == null) continue;
      const nodeId = objectAtTriangle(this.lookup, h.faceIndex);
      if (nodeId < 0 || isHidden(nodeId)) continue;
      p.copy(h.point).applyMatrix4(this.mesh.matrixWorld);
      const distance = p.distanceTo(worldRay.origin);
      if (!best || distance < best.distance) best = { nodeId, point: [p.x, p.y, p.z], distance };
    }
    return best;
  }

  /**
   * Grows per-object world bounds (6 values per object: min xyz, max xyz; mm) by this chunk's vertices.
   * Objects outside `bounds.length / 6` are ignored.
   */
  growObjectBounds(bounds: Float64Array): void {
    const q = this.chunk.positions, b = this.chunk.bounds;
    const s = quantStep(b);
    const n = bounds.length / 6;
    for (let r = 0; r + 4 < this.objectRanges.length; r += 5) {
      const obj = this.objectRanges[r], v0 = this.objectRanges[r + 1], vc = this.objectRanges[r + 2];
      if (obj >= n) continue;
      const o = obj * 6;
      for (let v = v0; v < v0 + vc; v++) {
        for (let a = 0; a < 3; a++) {
          const w = b[a] + q[v * 3 + a] * s[a];
          if (w < bounds[o + a]) bounds[o + a] = w;
          if (w > bounds[o + 3 + a]) bounds[o + 3 + a] = w;
        }
      }
    }
  }

  /** Frees geometries and the BVH (materials are shared and owned by the scene). */
  dispose(): void {
    this.mesh.geometry.dispose();
    this.edges?.geometry.dispose();
    this.mesh.removeFromParent();
    this.edges?.removeFromParent();
  }
}

/** Per-axis mm per quantum, 1 on a flat axis (its quantised values are all 0). */
function quantStep(b: ArrayLike<number>): [number, number, number] {
  const s = (a: number) => (b[a + 3] > b[a] ? (b[a + 3] - b[a]) / QMAX : 1);
  return [s(0), s(1), s(2)];
}

function placeQuantised(obj: Mesh | LineSegments, chunk: SceneChunk): void {
  const s = quantStep(chunk.bounds);
  obj.scale.set(s[0], s[1], s[2]);
  obj.position.set(chunk.bounds[0], chunk.bounds[1], chunk.bounds[2]);
  obj.updateMatrix();
  obj.updateMatrixWorld(true);
  obj.matrixAutoUpdate = false;
}

/**
 * Float32 object index per vertex from a range table of `stride` values per row with the object at 0,
 * start at `startAt`, count at `countAt`, in units of `unit` vertices (1 for vertices, 2 for segments).
 */
function vertexObjectIndex(
  ranges: Uint32Array, vertexCount: number, stride: number, startAt: number, countAt: number, unit: number, where: string,
): Float32Array {
  if (ranges.length % stride !== 0) throw new Error(`${where}: range table length ${ranges.length} is not a multiple of ${stride}`);
  const out = new Float32Array(vertexCount);
  for (let r = 0; r < ranges.length; r += stride) {
    const start = ranges[r + startAt] * unit, count = ranges[r + countAt] * unit;
    if (start + count > vertexCount) throw new Error(`${where}: object ${ranges[r]} range ${start}+${count} exceeds ${vertexCount} vertices`);
    out.fill(ranges[r], start, start + count);
  }
  return out;
}
