/**
 * One `.sc` chunk on the GPU (ARCHITECTURE.md "The `.sc` package"; viewer.md §4 "Loading"; issue 4
 * "Scale"): one THREE.Mesh of the chunk's triangles, a THREE.LineSegments of its feature edges that shares
 * the mesh's vertex buffers (edges are 16-bit index pairs), a second mesh for the translucent pass (shown
 * only while an object is translucent), and a three-mesh-bvh BVH for picking, built on request
 * (Engine builds them chunk by chunk in idle slices; a pick on a chunk without one builds it first).
 *
 * GPU bytes: Uint16 xyz positions (6 B/vertex), a Uint16 object slot (2 B/vertex: the row of the chunk's
 * object table; the chunk's slot texture maps it to the global object index), Uint16 triangle indices
 * (6 B/triangle) and Uint16 edge indices (4 B/edge). See `geometryBytes`.
 *
 * Quantisation: positions are uploaded as they are (values 0..65535); the meshes carry
 * scale = (max − min) / 65535 per axis (1 on a flat axis, whose values are all 0) and position = min,
 * so model-matrix × q = world mm.
 *
 * Ownership: the geometry keeps views on the chunk's typed arrays (no copy); the chunk must not be reused.
 */
import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  DataTexture,
  DoubleSide,
  FloatType,
  LineSegments,
  Matrix4,
  Mesh,
  type MeshBasicMaterial,
  NearestFilter,
  type Plane,
  Ray,
  RedFormat,
  Vector3,
  type LineBasicMaterial,
  type MeshLambertMaterial,
} from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { SceneChunk } from '../package/types';
import { buildTriangleLookup, objectAtTriangle, type TriangleObjectLookup } from '../interaction/objectLookup';
import { createEdgeMaterial, createStencilMaterial, createSurfaceMaterial, type ChunkSlotUniform, type ObjectStateUniforms } from './chunkMaterial';
import { TEXTURE_ROW } from './ObjectStateTable';

const QMAX = 65535;

/** A pick hit inside one chunk: world point (mm) and distance along the ray (mm). */
export interface ChunkHit {
  nodeId: number;
  point: [number, number, number];
  distance: number;
}

/** Meshes, edges, slot texture and BVH of one chunk. Dispose with dispose(). */
export class ChunkBatch {
  readonly index: number;
  readonly mesh: Mesh;
  /** Second draw of the same geometry for objects with opacity < 1 (invisible unless enabled). */
  readonly translucentMesh: Mesh;
  readonly edges: LineSegments | null;
  readonly triangles: number;
  readonly vertexCount: number;
  readonly edgeCount: number;
  /** Bytes of vertex and index buffers on the GPU (positions, slots, triangle and edge indices). */
  readonly geometryBytes: number;
  /** World bounds of the chunk (mm), for culling. */
  readonly worldBox: Box3;
  readonly chunk: SceneChunk;
  private bvh: MeshBVH | null = null;
  private readonly lookup: TriangleObjectLookup;
  private readonly slotTexture: DataTexture;
  private readonly materials: [MeshLambertMaterial, MeshLambertMaterial, LineBasicMaterial];
  private readonly inverse = new Matrix4();
  private readonly slot: ChunkSlotUniform;
  private readonly uniforms: ObjectStateUniforms;

  /**
   * Builds the GPU objects of `chunk` with materials on the shared state uniforms.
   * @throws Error naming the chunk when arrays have inconsistent lengths or ranges fall outside them.
   */
  constructor(chunk: SceneChunk, uniforms: ObjectStateUniforms) {
    this.index = chunk.index;
    this.chunk = chunk;
    const where = `Chunk ${chunk.index}`;
    if (chunk.positions.length % 3 !== 0) throw new Error(`${where}: positions length ${chunk.positions.length} is not a multiple of 3`);
    if (chunk.indices.length % 3 !== 0) throw new Error(`${where}: index count ${chunk.indices.length} is not a multiple of 3`);
    if (chunk.edges.length % 2 !== 0) throw new Error(`${where}: edge index count ${chunk.edges.length} is not a multiple of 2`);
    this.vertexCount = chunk.positions.length / 3;
    this.triangles = chunk.indices.length / 3;
    this.edgeCount = chunk.edges.length / 2;
    this.lookup = buildTriangleLookup(chunk.objects);
    const slots = vertexSlots(chunk.objects, this.vertexCount, where);
    this.slotTexture = slotObjectTexture(chunk.objects);
    const slot: ChunkSlotUniform = { uSlotObjects: { value: this.slotTexture } };
    this.slot = slot;
    this.uniforms = uniforms;
    this.materials = [createSurfaceMaterial(uniforms, slot), createSurfaceMaterial(uniforms, slot, true), createEdgeMaterial(uniforms, slot)];

    const position = new BufferAttribute(chunk.positions, 3, false);
    const slotAttr = new BufferAttribute(slots, 1, false);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', position);
    geometry.setAttribute('objectSlot', slotAttr);
    geometry.setIndex(new BufferAttribute(chunk.indices, 1));
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
    this.mesh = new Mesh(geometry, this.materials[0]);
    this.translucentMesh = new Mesh(geometry, this.materials[1]);
    this.translucentMesh.visible = false;
    this.translucentMesh.renderOrder = 1;
    for (const m of [this.mesh, this.translucentMesh]) placeQuantised(m, chunk);
    this.mesh.name = `chunk-${chunk.index}`;
    this.translucentMesh.name = `chunk-${chunk.index}-translucent`;
    this.inverse.copy(this.mesh.matrixWorld).invert();
    this.worldBox = (geometry.boundingBox ?? new Box3()).clone().applyMatrix4(this.mesh.matrixWorld);

    if (this.edgeCount > 0) {
      const eg = new BufferGeometry();
      // Same attribute objects: three uploads each buffer once and both draws use it.
      eg.setAttribute('position', position);
      eg.setAttribute('objectSlot', slotAttr);
      eg.setIndex(new BufferAttribute(chunk.edges, 1));
      eg.boundingBox = geometry.boundingBox;
      eg.boundingSphere = geometry.boundingSphere;
      this.edges = new LineSegments(eg, this.materials[2]);
      placeQuantised(this.edges, chunk);
      this.edges.name = `chunk-${chunk.index}-edges`;
    } else {
      this.edges = null;
    }
    this.geometryBytes = chunk.positions.byteLength + slots.byteLength + chunk.indices.byteLength + chunk.edges.byteLength;
  }

  /** True once the picking BVH exists. */
  get hasBvh(): boolean {
    return this.bvh !== null || this.triangles === 0;
  }

  /** Builds the picking BVH now (a few ms to tens of ms for a full chunk); no-op when built. */
  buildBvh(): void {
    if (this.bvh || this.triangles === 0) return;
    // indirect: keep the index buffer in package order so object ranges stay valid.
    this.bvh = new MeshBVH(this.mesh.geometry, { indirect: true });
  }

  /** Bytes held by the BVH (0 before it is built). */
  get bvhBytes(): number {
    if (!this.bvh) return 0;
    const b = this.bvh as unknown as { _roots?: ArrayBuffer[]; _indirectBuffer?: Uint32Array | null };
    return (b._roots ?? []).reduce((n, r) => n + r.byteLength, 0) + (b._indirectBuffer?.byteLength ?? 0);
  }

  /**
   * Clips the chunk's surfaces and edges by `planes` (three.js local clipping; the renderer needs
   * localClippingEnabled), or stops clipping with null. Changing between on and off recompiles once.
   */
  setClippingPlanes(planes: Plane[] | null): void {
    for (const m of this.materials) {
      if (m.clippingPlanes === planes) continue;
      m.clippingPlanes = planes;
      m.needsUpdate = true;
    }
  }

  /**
   * A stencil-parity mesh of this chunk for the clipping cap of a plane (chunkMaterial
   * createStencilMaterial), clipped by `planes`, drawn with `renderOrder`. The caller owns it: remove it
   * from the scene and call `disposeStencilMesh` when done (the geometry stays the chunk's).
   */
  createStencilMesh(planes: Plane[], renderOrder: number): Mesh {
    const m = new Mesh(this.mesh.geometry, createStencilMaterial(this.uniforms, this.slot, planes));
    placeQuantised(m, this.chunk);
    m.renderOrder = renderOrder;
    m.name = `chunk-${this.chunk.index}-cap-stencil`;
    return m;
  }

  /** Frees the material of a mesh from createStencilMesh (not the shared geometry). */
  static disposeStencilMesh(m: Mesh): void {
    m.removeFromParent();
    (m.material as MeshBasicMaterial).dispose();
  }

  /** Shows or hides the translucent pass of this chunk. */
  setTranslucentPass(on: boolean): void {
    this.translucentMesh.visible = on && this.mesh.visible;
  }

  /**
   * Nearest hit of a world-space ray (mm) on a visible object, or null. `isHidden(nodeId)` is consulted per
   * candidate triangle, so hidden objects are never picked (all hits along the ray are examined);
   * `accept(worldPoint)` may reject hits further (e.g. clipped away).
   */
  raycast(worldRay: Ray, isHidden: (nodeId: number) => boolean, accept?: (p: Vector3) => boolean): ChunkHit | null {
    if (this.triangles === 0) return null;
    this.buildBvh();
    const local = worldRay.clone().applyMatrix4(this.inverse);
    const hits = this.bvh!.raycast(local, DoubleSide);
    let best: ChunkHit | null = null;
    const p = new Vector3();
    for (const h of hits) {
      if (h.faceIndex == null) continue;
      const nodeId = objectAtTriangle(this.lookup, h.faceIndex);
      if (nodeId < 0 || isHidden(nodeId)) continue;
      p.copy(h.point).applyMatrix4(this.mesh.matrixWorld);
      if (accept && !accept(p)) continue;
      const distance = p.distanceTo(worldRay.origin);
      if (!best || distance < best.distance) best = { nodeId, point: [p.x, p.y, p.z], distance };
    }
    return best;
  }

  /**
   * Geometry near a world ray for snapping (issue 5 item 2; viewer.md §9 "Snapping"): a three-mesh-bvh
   * shapecast collects the triangles whose world bounds, grown by `radius` (mm), meet the ray within
   * `maxDistance` (mm along the ray), skipping hidden objects and triangles `keep` rejects (given their
   * world bounds). Their corners are appended to `triangles` (9 values each, world mm, at most
   * `maxTriangles` in all) and the feature edges touching their vertices to `edges` (6 values each).
   * Returns the number of triangles added.
   */
  gatherNearRay(
    worldRay: Ray, radius: number, maxDistance: number, isHidden: (nodeId: number) => boolean,
    triangles: number[], edges: number[], maxTriangles: number, keep?: (box: Box3) => boolean,
  ): number {
    if (this.triangles === 0) return 0;
    this.buildBvh();
    const bvh = this.bvh!;
    const c = this.chunk, b = c.bounds, q = c.positions, idx = c.indices;
    const s = quantStep(b);
    const wb = new Box3();
    const hitPoint = new Vector3();
    const near = (box: Box3): boolean => {
      wb.min.set(box.min.x - radius, box.min.y - radius, box.min.z - radius);
      wb.max.set(box.max.x + radius, box.max.y + radius, box.max.z + radius);
      if (wb.containsPoint(worldRay.origin)) return true;
      const p = worldRay.intersectBox(wb, hitPoint);
      return p !== null && p.distanceTo(worldRay.origin) <= maxDistance;
    };
    const local = new Box3();
    const tri = new Box3();
    const verts = new Set<number>();
    let added = 0;
    const toWorld = (src: Box3, dst: Box3) => {
      dst.min.set(b[0] + src.min.x * s[0], b[1] + src.min.y * s[1], b[2] + src.min.z * s[2]);
      dst.max.set(b[0] + src.max.x * s[0], b[1] + src.max.y * s[1], b[2] + src.max.z * s[2]);
      return dst;
    };
    bvh.shapecast({
      intersectsBounds: (box) => near(toWorld(box, local)),
      intersectsRange: (offset, count) => {
        for (let i = offset; i < offset + count; i++) {
          if (triangles.length / 9 >= maxTriangles) return true;
          const t = bvh.resolveTriangleIndex(i);
          const nodeId = objectAtTriangle(this.lookup, t);
          if (nodeId < 0 || isHidden(nodeId)) continue;
          tri.makeEmpty();
          const corner = new Array<number>(9);
          for (let v = 0; v < 3; v++) {
            const vi = idx[t * 3 + v];
            for (let a = 0; a < 3; a++) corner[v * 3 + a] = b[a] + q[vi * 3 + a] * s[a];
            tri.expandByPoint(hitPoint.set(corner[v * 3], corner[v * 3 + 1], corner[v * 3 + 2]));
          }
          if (!near(tri) || (keep && !keep(tri))) continue;
          for (let v = 0; v < 3; v++) verts.add(idx[t * 3 + v]);
          for (const x of corner) triangles.push(x);
          added++;
        }
        return false;
      },
    });
    if (verts.size > 0 && this.edgeCount > 0) {
      const adj = this.vertexEdges();
      for (const v of verts) {
        for (let k = adj.start[v]; k < adj.start[v + 1]; k++) {
          const e = adj.edges[k];
          const a = c.edges[e * 2], z = c.edges[e * 2 + 1];
          // Each edge once: report it from its lower vertex when both ends were gathered.
          if (verts.has(a) && verts.has(z) && v !== Math.min(a, z)) continue;
          for (const vi of [a, z]) for (let ax = 0; ax < 3; ax++) edges.push(b[ax] + q[vi * 3 + ax] * s[ax]);
        }
      }
    }
    return added;
  }

  private adjacency: { start: Uint32Array; edges: Uint32Array } | null = null;

  /** Feature edges per vertex (CSR), built on first use. */
  private vertexEdges(): { start: Uint32Array; edges: Uint32Array } {
    if (this.adjacency) return this.adjacency;
    const e = this.chunk.edges;
    const start = new Uint32Array(this.vertexCount + 1);
    for (let i = 0; i < e.length; i++) start[e[i] + 1]++;
    for (let v = 0; v < this.vertexCount; v++) start[v + 1] += start[v];
    const fill = start.slice(0, this.vertexCount);
    const edges = new Uint32Array(e.length);
    for (let i = 0; i < e.length; i++) edges[fill[e[i]]++] = i >> 1;
    this.adjacency = { start, edges };
    return this.adjacency;
  }

  /**
   * Grows per-object world bounds (6 values per object: min xyz, max xyz; mm) by this chunk's vertices.
   * Objects outside `bounds.length / 6` are ignored.
   */
  growObjectBounds(bounds: Float64Array): void {
    const q = this.chunk.positions, b = this.chunk.bounds, r = this.chunk.objects;
    const s = quantStep(b);
    const n = bounds.length / 6;
    for (let row = 0; row + 4 < r.length; row += 5) {
      const obj = r[row], v0 = r[row + 1], vc = r[row + 2];
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

  /** Frees geometries, materials, the slot texture and the BVH. */
  dispose(): void {
    this.mesh.geometry.dispose();
    this.edges?.geometry.dispose();
    for (const m of this.materials) m.dispose();
    this.slotTexture.dispose();
    this.bvh = null;
    this.mesh.removeFromParent();
    this.translucentMesh.removeFromParent();
    this.edges?.removeFromParent();
  }
}

/** Per-axis mm per quantum, 1 on a flat axis (its quantised values are all 0). */
export function quantStep(b: ArrayLike<number>): [number, number, number] {
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
  // Culling is done per chunk by the engine on world boxes (scene/culling.ts).
  obj.frustumCulled = false;
}

/**
 * Uint16 slot per vertex: the row of `objects` (5 values per row) whose vertex range holds the vertex.
 * @throws Error when a range exceeds the vertices or the chunk has more than 65,536 object rows.
 */
export function vertexSlots(objects: Uint32Array, vertexCount: number, where: string): Uint16Array {
  if (objects.length % 5 !== 0) throw new Error(`${where}: object table length ${objects.length} is not a multiple of 5`);
  const rows = objects.length / 5;
  if (rows > 65536) throw new Error(`${where}: ${rows} objects exceed 65,536 slots`);
  const out = new Uint16Array(vertexCount);
  for (let r = 0; r < rows; r++) {
    const start = objects[r * 5 + 1], count = objects[r * 5 + 2];
    if (start + count > vertexCount) throw new Error(`${where}: object ${objects[r * 5]} range ${start}+${count} exceeds ${vertexCount} vertices`);
    out.fill(r, start, start + count);
  }
  return out;
}

/** R32F texture of the global object index per slot (exact to 2^24 objects), TEXTURE_ROW texels a row. */
function slotObjectTexture(objects: Uint32Array): DataTexture {
  const rows = objects.length / 5;
  const height = Math.max(1, Math.ceil(rows / TEXTURE_ROW));
  const width = rows <= TEXTURE_ROW ? Math.max(1, rows) : TEXTURE_ROW;
  const data = new Float32Array(width * height);
  for (let r = 0; r < rows; r++) data[r] = objects[r * 5];
  // A texture narrower than TEXTURE_ROW only occurs with a single row, where x = slot is still right.
  const t = new DataTexture(data, width, height, RedFormat, FloatType);
  t.magFilter = NearestFilter;
  t.minFilter = NearestFilter;
  t.generateMipmaps = false;
  t.needsUpdate = true;
  return t;
}
