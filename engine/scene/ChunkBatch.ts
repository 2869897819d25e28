/**
 * One `.sc` chunk on the GPU (ARCHITECTURE.md "The `.sc` package"; viewer.md §4 "Loading"
 * "Scale"): one THREE.Mesh of the chunk's triangles, a THREE.Line of its feature edges that shares
 * the mesh's vertex buffers (edges are 16-bit line strips, scene/edgeStrips.ts), a second mesh for the translucent pass (shown
 * only while an object is translucent), and a three-mesh-bvh BVH for picking, built on request
 * (Engine builds them chunk by chunk in idle slices; a pick on a chunk without one builds it first).
 *
 * GPU bytes: Uint16 xyz positions (6 B/vertex), Uint16 triangle indices — a list part and a strip part
 * (scene/triangleStrips.ts; about 4 B per triangle, 6 for a chunk that keeps its list) drawn by one group
 * per part, the list kept on the CPU for picking —, Uint16 edge
 * strips (a little over 2 B per segment; pairs, 4 B, in a chunk with 65,536 vertices) and the block texture from which the shader reads each vertex's object
 * (scene/vertexBlocks.ts: object ranges padded to blocks of 8 vertices, 2 B per block — 4 when the
 * chunk's objects span 65,535 indices or more — instead of a 2 B/vertex slot attribute), and at most one
 * LOD index buffer (6 B per kept triangle). See `geometryBytes` and `lodBytes`.
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
  type DataTexture,
  DoubleSide,
  FrontSide,
  Line,
  LineSegments,
  Matrix4,
  Mesh,
  type MeshBasicMaterial,
  type Plane,
  type Ray,
  Vector3,
  type LineBasicMaterial,
  type MeshLambertMaterial,
} from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import type { SceneChunk } from '../package/types';
import { buildTriangleLookup, objectAtTriangle, type TriangleObjectLookup } from '../interaction/objectLookup';
import {
  createEdgeMaterial,
  createStencilMaterial,
  createSurfaceMaterial,
  type ChunkBlockUniforms,
  type ObjectStateUniforms,
} from './chunkMaterial';
import { gatherNearRay, snapTables, type SnapTables } from './chunkSnap';
import { ROW_RANGES_MAX, visibleRowRanges, type RowRanges } from '../render/rowRanges';
import { ChunkEdgeOrder } from './edgeLod';
import { buildLodLevel, vertexFacing, type LodLevel } from './lodCluster';
import { simplifyChunk } from './lodSimplify';
import { orderChunkBySize, rowsAtLeast, type SizeOrder } from './sizeOrder';
import { chunkStrips, type TriangleStrips } from './triangleStrips';
import { alignObjectVertices, vertexBlockBytes, vertexBlockTexture } from './vertexBlocks';

/** Cell size (mm) of LOD level 0; level L clusters vertices in cells of LOD_BASE_MM · 2^L. */
export const LOD_BASE_MM = 25;
/**
 * A LOD level is kept only when it has at most this share of the chunk's triangles: its indices cost
 * 6 bytes per kept triangle, so a level that keeps more buys too few triangles for its bytes (full detail is
 * drawn instead). One level per chunk: a view that needs another replaces it (built again when needed).
 * 0.35 keeps the GPU geometry of the 10k bench ship at ≤ 12 B per triangle after its views with as many
 * triangles drawn while orbiting as before slivers were dropped (0.6 would halve them at ~14 B per
 * triangle; bench/README.md "GPU geometry bytes per triangle").
 */
export const LOD_KEEP_MAX = 0.35;
export const LOD_LEVELS_KEPT = 1;
/** LOD levels leave out clustered triangles narrower than this share of their cell (scene/lodCluster.ts). */
export const LOD_SLIVER = 0.2;
/**
 * Error bound (mm) of the edge collapses every LOD level starts from (scene/lodSimplify.ts): half a level-0
 * cell, so the collapses add at most half the finest cell to each level's clustering. A bound growing with
 * the level kept fewer triangles at levels 3–4 but missed the surface by 1.3–2.1 cells at the 99th percentile,
 * against 0.5–0.9 with this one (bench/README.md "LOD levels: vertex clustering and meshoptimizer").
 */
export const LOD_SIMPLIFY_MM = LOD_BASE_MM / 2;

/**
 * The picking BVH's split rule and leaf size (three-mesh-bvh `strategy`, `targetLeafSize`). Its bytes are
 * 32 per node plus the indirect buffer (2 B per triangle; 4 in a chunk of more than 65,536 triangles), so
 * nodes per triangle set its size. Surface-area splits with leaves of up to 16 triangles need 0.19 nodes
 * per triangle against 0.32 for centre splits with 10, and their tighter boxes still make rays cheaper:
 * on the 10k and 100k bench ships 12.1–12.4 → 7.7–7.9 B per triangle, pick CPU time −5…10 %, build CPU
 * ×2–3 in the idle builder (bench/README.md "GPU geometry bytes per triangle", round 3).
 */
export const BVH_STRATEGY = SAH;
export const BVH_LEAF_TRIANGLES = 16;

const QMAX = 65535;

/** A pick hit inside one chunk: world point (mm) and distance along the ray (mm). */
export interface ChunkHit {
  nodeId: number;
  point: [number, number, number];
  distance: number;
}

/** GPU bytes of a chunk's buffers at load, per kind: positions (padding vertices included), triangle indices, feature-edge indices, block texture. */
export interface GeometryBytes {
  positions: number;
  indices: number;
  edges: number;
  blocks: number;
}

/** Meshes, edges, block texture and BVH of one chunk. Dispose with dispose(). */
export class ChunkBatch {
  readonly index: number;
  readonly mesh: Mesh;
  /** Second draw of the same geometry for objects with opacity < 1 (invisible unless enabled). */
  readonly translucentMesh: Mesh;
  readonly edges: Line | null;
  /** Fewer edge segments where cells of the surfaces' LOD grid are under a pixel or two (./edgeLod.ts). */
  private readonly edgeOrder: ChunkEdgeOrder | null;
  readonly triangles: number;
  readonly vertexCount: number;
  readonly edgeCount: number;
  /** Bytes of geometry on the GPU: positions (padding included), triangle and edge indices, block texture. */
  readonly geometryBytes: number;
  /** The same bytes per buffer kind (LOD indices are counted apart: `lodBytes`). */
  readonly bytes: GeometryBytes;
  /** World bounds of the chunk (mm), for culling. */
  readonly worldBox: Box3;
  readonly chunk: SceneChunk;
  private bvh: MeshBVH | null = null;
  private readonly lookup: TriangleObjectLookup;
  private readonly blockTexture: DataTexture;
  private readonly materials: [MeshLambertMaterial, MeshLambertMaterial, LineBasicMaterial];
  private readonly inverse = new Matrix4();
  private readonly blockUniforms: ChunkBlockUniforms;
  private readonly uniforms: ObjectStateUniforms;
  /** Rows largest first with their index-buffer prefixes (scene/sizeOrder.ts). */
  private readonly order: SizeOrder;
  /**
   * The drawn index buffer's list and strip parts (scene/triangleStrips.ts), or null when the chunk draws
   * its triangle list (rows end at the order's `indexEnd`). Read-only; for tests and benches.
   */
  readonly strips: TriangleStrips | null;
  /** The full-detail index buffer's parts as draw ranges: the list alone, or the list and strip parts. */
  private readonly parts: DrawPart[];
  /**
   * The chunk's triangle list on the CPU (never drawn): picking's BVH and snapping read it. The mesh's
   * geometry itself when the chunk draws its list.
   */
  readonly pickGeometry: BufferGeometry;
  private translucentRows = false;
  private ownTranslucent: BufferGeometry | null = null;
  private facing: Uint8Array | null = null;
  /** The chunk after the LOD levels' edge collapses (scene/lodSimplify.ts), made at the first level. */
  private simplified: SceneChunk | undefined = undefined;
  private readonly lods = new Map<number, { level: LodLevel; geometry: BufferGeometry; used: number }>();
  /** Levels that would keep too many triangles (full detail is as good). */
  private readonly uselessLods = new Set<number>();
  private lodClock = 0;
  /** The chunk's surfaces through a LOD index (shares the vertex buffers and materials; see setDetail). */
  readonly lodMesh: Mesh;
  /**
   * The chunk's surfaces and edges drawn as ranges of their visible object rows (see drawRows): own
   * geometries on the same GPU buffers, with one draw group per range. Hidden unless drawRows chose them.
   */
  readonly rowMesh: Mesh;
  readonly rowEdges: Line | null;
  /** Triangles drawn after the last setDetail (and drawRows). */
  drawnTriangles = 0;
  /** Object rows (size order) whose surfaces, and whose edges, the last setDetail draws: prefixes. */
  private drawnRows = 0;
  private drawnEdgeRows = 0;
  /** The LOD level the last setDetail draws through (null: full detail). */
  private lodInUse: LodLevel | null = null;

  /**
   * Builds the GPU objects of `chunk` with materials on the shared state uniforms.
   * @throws Error naming the chunk when arrays have inconsistent lengths or ranges fall outside them.
   */
  constructor(chunk: SceneChunk, uniforms: ObjectStateUniforms) {
    this.index = chunk.index;
    this.chunk = chunk;
    const where = `Chunk ${chunk.index}`;
    if (chunk.positions.length % 3 !== 0)
      throw new Error(`${where}: positions length ${chunk.positions.length} is not a multiple of 3`);
    if (chunk.indices.length % 3 !== 0)
      throw new Error(`${where}: index count ${chunk.indices.length} is not a multiple of 3`);
    if (chunk.edges.length % 2 !== 0)
      throw new Error(`${where}: edge index count ${chunk.edges.length} is not a multiple of 2`);
    // Object ranges on whole blocks first (new vertex numbering): everything below sees the padded chunk.
    const blocks = alignObjectVertices(chunk);
    this.vertexCount = chunk.positions.length / 3;
    this.triangles = chunk.indices.length / 3;
    this.edgeCount = chunk.edges.length / 2;
    this.order = orderChunkBySize(chunk);
    const strips = chunkStrips(chunk.indices, this.order.indexEnd);
    this.strips = strips;
    const indexEnd = this.order.indexEnd;
    this.parts = strips
      ? [
          { ends: strips.listEnds, offset: 0, tally: strips.listEnds },
          {
            ends: strips.stripEnds,
            offset: strips.stripStart,
            tally: indexEnd.map((e, r) => e - strips.listEnds[r]),
          },
        ]
      : [{ ends: indexEnd, offset: 0, tally: indexEnd }];
    this.lookup = buildTriangleLookup(chunk.objects);
    this.blockTexture = vertexBlockTexture(blocks);
    const blockUniforms: ChunkBlockUniforms = {
      uVertexBlocks: { value: this.blockTexture },
      uVertexBlockShift: { value: blocks.shift },
      uVertexBlockWidth: { value: this.blockTexture.image.width },
      uVertexBlockBase: { value: blocks.base },
    };
    this.blockUniforms = blockUniforms;
    this.uniforms = uniforms;
    this.materials = [
      createSurfaceMaterial(uniforms, blockUniforms),
      createSurfaceMaterial(uniforms, blockUniforms, true),
      createEdgeMaterial(uniforms, blockUniforms),
    ];

    const position = new BufferAttribute(chunk.positions, 3, false);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', position);
    geometry.setIndex(new BufferAttribute(strips?.indices ?? chunk.indices, 1));
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
    if (strips) {
      this.pickGeometry = new BufferGeometry();
      this.pickGeometry.setAttribute('position', position);
      this.pickGeometry.setIndex(new BufferAttribute(chunk.indices, 1));
      this.pickGeometry.boundingBox = geometry.boundingBox;
      this.pickGeometry.boundingSphere = geometry.boundingSphere;
    } else this.pickGeometry = geometry;
    // Draw groups, not a draw range, say what the full-detail meshes draw: a prefix of rows is a range in
    // each part of a strip buffer (see setPrefix).
    geometry.addGroup(0, chunk.indices.length, 0);
    this.mesh = new Mesh(geometry, [this.materials[0]]);
    this.translucentMesh = new Mesh(geometry, [this.materials[1]]);
    this.translucentMesh.visible = false;
    this.translucentMesh.renderOrder = 1;
    for (const m of [this.mesh, this.translucentMesh]) placeQuantised(m, chunk);
    this.mesh.name = `chunk-${chunk.index}`;
    this.lodMesh = new Mesh(geometry, this.materials[0]);
    this.lodMesh.visible = false;
    placeQuantised(this.lodMesh, chunk);
    this.lodMesh.name = `chunk-${chunk.index}-lod`;
    const rowGeometry = new BufferGeometry();
    rowGeometry.setAttribute('position', position);
    rowGeometry.boundingBox = geometry.boundingBox;
    rowGeometry.boundingSphere = geometry.boundingSphere;
    this.rowMesh = new Mesh(rowGeometry, [this.materials[0]]);
    this.rowMesh.visible = false;
    placeQuantised(this.rowMesh, chunk);
    this.rowMesh.name = `chunk-${chunk.index}-rows`;
    this.translucentMesh.name = `chunk-${chunk.index}-translucent`;
    this.inverse.copy(this.mesh.matrixWorld).invert();
    this.worldBox = (geometry.boundingBox ?? new Box3()).clone().applyMatrix4(this.mesh.matrixWorld);

    if (this.edgeCount > 0) {
      // Same position attribute: three uploads the buffer once and both draws use it. The edge index is
      // the order's own (strips, rewritten per level; ./edgeLod.ts), snapping indexes chunk.edges by segment.
      this.edgeOrder = new ChunkEdgeOrder(chunk, this.order, position, this.materials[2], (l) => LOD_BASE_MM * 2 ** l);
      this.edges = this.edgeOrder.lines;
      this.edges.geometry.boundingBox = geometry.boundingBox;
      this.edges.geometry.boundingSphere = geometry.boundingSphere;
      placeQuantised(this.edges, chunk);
      this.edges.name = `chunk-${chunk.index}-edges`;
      const g = new BufferGeometry();
      g.setAttribute('position', position);
      g.setIndex(this.edges.geometry.getIndex());
      g.boundingBox = geometry.boundingBox;
      g.boundingSphere = geometry.boundingSphere;
      this.rowEdges = this.edgeOrder.strips
        ? new Line(g, [this.materials[2]])
        : new LineSegments(g, [this.materials[2]]);
      this.rowEdges.visible = false;
      placeQuantised(this.rowEdges, chunk);
      this.rowEdges.name = `chunk-${chunk.index}-edge-rows`;
    } else {
      this.edges = null;
      this.edgeOrder = null;
      this.rowEdges = null;
    }
    this.bytes = {
      positions: chunk.positions.byteLength,
      indices: (strips?.indices ?? chunk.indices).byteLength,
      edges: this.edgeOrder?.bytes ?? 0,
      blocks: vertexBlockBytes(blocks),
    };
    this.geometryBytes = this.bytes.positions + this.bytes.indices + this.bytes.edges + this.bytes.blocks;
  }

  /**
   * The triangle list of what setDetail draws now (for occluders, render/softOcclusion.ts): the LOD
   * level's indices or the chunk's own list, and the count of its drawn prefix; null when neither is drawn.
   */
  drawnTriangleList(): { index: Uint16Array; count: number } | null {
    if (this.lodMesh.visible && this.lodInUse) {
      const index = this.lodMesh.geometry.index?.array;
      if (!(index instanceof Uint16Array)) return null;
      return { index, count: Math.min(index.length, this.lodMesh.geometry.drawRange.count) };
    }
    if (!this.mesh.visible) return null;
    return { index: this.chunk.indices, count: this.drawnRows > 0 ? this.order.indexEnd[this.drawnRows - 1] : 0 };
  }

  /**
   * The draw ranges [start, count] of size-ordered row `row` in the full-detail index buffer: its part of
   * the list and, with strips, of the strip part (empty parts left out).
   */
  drawnRowRanges(row: number): [number, number][] {
    const out: [number, number][] = [];
    for (const { ends, offset } of this.parts) {
      const from = endAt(ends, row);
      if (ends[row] > from) out.push([offset + from, ends[row] - from]);
    }
    return out;
  }

  /** Sets the full-detail meshes' draw groups to rows 0..k−1: one group per non-empty part. */
  private setPrefix(k: number): void {
    const g = this.mesh.geometry;
    const groups = g.groups;
    let n = 0;
    for (const { ends, offset } of this.parts) {
      const count = endAt(ends, k);
      if (count <= 0) continue;
      if (n < groups.length) {
        groups[n].start = offset;
        groups[n].count = count;
      } else g.addGroup(offset, count, 0);
      n++;
    }
    groups.length = n;
  }

  /** True when the last cull draws the chunk's surfaces (full detail, a LOD level or by rows). */
  get drawn(): boolean {
    return this.mesh.visible || this.lodMesh.visible || this.rowMesh.visible;
  }

  /** True once the picking BVH exists. */
  get hasBvh(): boolean {
    return this.bvh !== null || this.triangles === 0;
  }

  /** Builds the picking BVH and the snapping tables now (a few ms to tens of ms for a full chunk); no-op when built. */
  buildBvh(): void {
    if (this.bvh || this.triangles === 0) return;
    // indirect: keep the index buffer in package order so object ranges stay valid. The range is the whole
    // index buffer: three-mesh-bvh would otherwise take the draw range the level of detail last set and
    // leave the smaller objects out of picking for good.
    this.bvh = new MeshBVH(this.pickGeometry, {
      indirect: true,
      range: { start: 0, count: this.chunk.indices.length },
      strategy: BVH_STRATEGY,
      targetLeafSize: BVH_LEAF_TRIANGLES,
    });
    // The snapping tables too, so the first snap on this chunk does not pay for them.
    this.snapTables();
  }

  /**
   * Bytes held by the BVH (0 before it is built): its node buffers (32 B per node) and the indirect buffer
   * (triangle numbers in tree order). It keeps no copy of positions or indices: it reads the chunk's
   * 16-bit geometry in place.
   */
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
      // Cut solids are open: draw the inner faces too while clipping.
      if (m !== this.materials[2]) m.side = planes ? DoubleSide : FrontSide;
      m.needsUpdate = true;
    }
  }

  /**
   * Level of detail for the next frame: draws only objects whose world diagonal is at least
   * `surfaceMinMm`, and edges only of objects of at least `edgeMinMm` (objects are stored largest first,
   * so each is one draw-range prefix; 0 draws everything). `lodLevel` ≥ 0 draws the surfaces through the
   * vertex-clustered indices of cells LOD_BASE_MM · 2^level (scene/lodCluster.ts) instead of the full
   * ones; a level not built yet is built when `mayBuild`, else the nearest finer built level (or full
   * detail) stands in. Returns the triangles drawn and whether the wanted level is still missing.
   */
  setDetail(
    surfaceMinMm: number,
    edgeMinMm: number,
    lodLevel = -1,
    mayBuild = true,
  ): { triangles: number; pending: boolean; built: boolean } {
    const o = this.order;
    const k = rowsAtLeast(o.sizes, surfaceMinMm);
    let built = false;
    if (lodLevel >= 0 && !this.lods.has(lodLevel) && !this.uselessLods.has(lodLevel) && mayBuild) {
      this.buildLod(lodLevel);
      built = true;
    }
    let use = -1;
    for (let l = lodLevel; l >= 0 && !this.uselessLods.has(l); l--)
      if (this.lods.has(l)) {
        use = l;
        break;
      }
    this.setPrefix(k);
    let count = k > 0 ? o.indexEnd[k - 1] : 0;
    this.drawnRows = k;
    this.lodInUse = null;
    this.hideRows();
    if (use >= 0) {
      const lod = this.lods.get(use)!;
      lod.used = ++this.lodClock;
      this.lodInUse = lod.level;
      count = k > 0 ? lod.level.indexEnd[k - 1] : 0;
      this.lodMesh.geometry = lod.geometry;
      lod.geometry.setDrawRange(0, count);
      this.lodMesh.visible = this.mesh.visible;
      this.mesh.visible = false;
    } else {
      this.lodMesh.visible = false;
    }
    let edgesPending = false;
    if (this.edges && this.edgeOrder) {
      const ke = rowsAtLeast(o.sizes, Math.max(edgeMinMm, surfaceMinMm));
      this.drawnEdgeRows = ke;
      // Hidden edges (interactive detail) are not reordered.
      const visible = this.edges.visible;
      const p = this.edgeOrder.select(
        lodLevel,
        ke,
        mayBuild && visible,
        () => (this.facing ??= vertexFacing(this.chunk)),
      );
      edgesPending = p && visible;
    }
    this.drawnTriangles = count / 3;
    return {
      triangles: this.drawnTriangles,
      pending: (lodLevel >= 0 && use !== lodLevel && !this.uselessLods.has(lodLevel)) || edgesPending,
      built,
    };
  }

  /**
   * Draws only the object rows that may show, after setDetail and once the chunk is known to be drawn:
   * `visible(r)` says whether row r (size order; the rows setDetail draws, at most) may show. The
   * surfaces (full detail or the LOD level in use) and the edges each switch to their ranges mesh when
   * rows are left out (render/rowRanges.ts: at most `maxRanges` draw calls each; small gaps are
   * drawn). Returns the triangles left out (also taken off drawnTriangles).
   */
  drawRows(visible: (row: number) => boolean, maxRanges = ROW_RANGES_MAX): number {
    let hiddenTriangles = 0;
    const surfaces = this.lodMesh.visible ? this.lodMesh : this.mesh.visible ? this.mesh : null;
    if (surfaces) {
      const g = this.rowMesh.geometry;
      const lod = this.lodInUse;
      const parts = lod ? [{ ends: lod.indexEnd, offset: 0, tally: lod.indexEnd }] : this.parts;
      // Each part its own ranges (a share of the calls); a part with nothing worth leaving out is drawn whole.
      const share = Math.max(1, Math.ceil(maxRanges / parts.length));
      const k = this.drawnRows;
      const ranges = parts.map((p) => visibleRowRanges(p.ends, k, visible, share, undefined, p.tally));
      let hidden = -1;
      if (ranges.some((r) => r)) {
        g.clearGroups();
        hidden = 0;
        parts.forEach((p, i) => {
          const r = ranges[i];
          if (r) {
            addRangeGroups(g, r, p.offset);
            hidden += r.hidden;
          } else if (endAt(p.ends, k) > 0) g.addGroup(p.offset, endAt(p.ends, k), 0);
        });
      }
      if (hidden >= 0) {
        if (g.index !== surfaces.geometry.index) g.setIndex(surfaces.geometry.index);
        this.rowMesh.visible = true;
        surfaces.visible = false;
        hiddenTriangles = hidden / 3;
        this.drawnTriangles -= hiddenTriangles;
      }
    }
    if (this.edges?.visible && this.edgeOrder && this.rowEdges) {
      const r = visibleRowRanges(this.edgeOrder.rowEnds, this.drawnEdgeRows, visible, maxRanges);
      if (r) {
        this.rowEdges.geometry.clearGroups();
        addRangeGroups(this.rowEdges.geometry, r, 0);
        this.rowEdges.visible = true;
        this.edges.visible = false;
      }
    }
    return hiddenTriangles;
  }

  /** Hides the ranges meshes (the chunk is not drawn, or drawn whole). */
  hideRows(): void {
    this.rowMesh.visible = false;
    if (this.rowEdges) this.rowEdges.visible = false;
  }

  /**
   * Builds LOD `level` (cells of LOD_BASE_MM · 2^level mm) now; its indices join the GPU bytes. A level
   * that keeps more than LOD_KEEP_MAX of the triangles is not worth its bytes: it is recorded as absent
   * (full detail is drawn instead). At most LOD_LEVELS_KEPT levels stay; the least recently used goes.
   */
  buildLod(level: number): void {
    if (this.lods.has(level) || this.uselessLods.has(level)) return;
    this.facing ??= vertexFacing(this.chunk);
    // Made once and kept (29–38 % of the chunks' indices on the bench ships, CPU memory); until meshoptimizer has
    // loaded, levels cluster the full triangles.
    this.simplified ??= simplifyChunk(this.chunk, LOD_SIMPLIFY_MM) ?? undefined;
    const cell = LOD_BASE_MM * 2 ** level;
    const lv = buildLodLevel(this.simplified ?? this.chunk, this.facing, cell, LOD_SLIVER * cell);
    if (lv.indices.length > LOD_KEEP_MAX * this.chunk.indices.length) {
      this.uselessLods.add(level);
      return;
    }
    while (this.lods.size >= LOD_LEVELS_KEPT) {
      let oldest = -1,
        at = Infinity;
      for (const [l, v] of this.lods)
        if (v.used < at) {
          at = v.used;
          oldest = l;
        }
      const drop = this.lods.get(oldest)!;
      if (this.rowMesh.geometry.index === drop.geometry.index) this.rowMesh.geometry.setIndex(null);
      // The position buffer is the chunk's own: disposing the level's geometry with it would delete it
      // on the GPU too, to be uploaded again by the next draw.
      drop.geometry.deleteAttribute('position');
      drop.geometry.dispose();
      this.lodBytes -= drop.level.indices.byteLength;
      this.lods.delete(oldest);
    }
    const g = new BufferGeometry();
    g.setAttribute('position', this.mesh.geometry.getAttribute('position'));
    g.setIndex(new BufferAttribute(lv.indices, 1));
    g.boundingBox = this.mesh.geometry.boundingBox;
    g.boundingSphere = this.mesh.geometry.boundingSphere;
    this.lods.set(level, { level: lv, geometry: g, used: ++this.lodClock });
    this.lodBytes += lv.indices.byteLength;
  }

  /** Bytes of the LOD index buffers built so far (GPU). */
  lodBytes = 0;

  /**
   * Which objects the translucent pass draws, after an opacity change: 'all' (the whole model is see-
   * through: the pass draws the full geometry), a predicate on object index (the pass gets its own
   * index buffer of just those objects' triangles, so it costs nothing for the opaque rest), or null.
   * Returns true when this chunk has anything to draw in that pass.
   */
  setTranslucentObjects(which: 'all' | ((objectIndex: number) => boolean) | null): boolean {
    if (this.ownTranslucent) {
      this.ownTranslucent.dispose();
      this.ownTranslucent = null;
    }
    this.translucentMesh.geometry = this.mesh.geometry;
    this.translucentRows = which !== null;
    if (which === null || which === 'all') return this.translucentRows;
    const o = this.chunk.objects,
      idx = this.chunk.indices;
    let n = 0;
    for (let r = 0; r < o.length; r += 5) if (which(o[r])) n += o[r + 4];
    this.translucentRows = n > 0;
    if (n === 0) return false;
    const out = new Uint16Array(n);
    let at = 0;
    for (let r = 0; r < o.length; r += 5) {
      if (!which(o[r])) continue;
      out.set(idx.subarray(o[r + 3], o[r + 3] + o[r + 4]), at);
      at += o[r + 4];
    }
    const g = new BufferGeometry();
    g.setAttribute('position', this.mesh.geometry.getAttribute('position'));
    g.setIndex(new BufferAttribute(out, 1));
    g.addGroup(0, out.length, 0);
    g.boundingBox = this.mesh.geometry.boundingBox;
    g.boundingSphere = this.mesh.geometry.boundingSphere;
    this.ownTranslucent = g;
    this.translucentMesh.geometry = g;
    return true;
  }

  /** True when the translucent pass of this chunk has objects to draw. */
  get hasTranslucent(): boolean {
    return this.translucentRows;
  }

  /** Bytes of the translucent pass's own index buffer (0 when it draws the full geometry or nothing). */
  get translucentBytes(): number {
    return this.ownTranslucent ? (this.ownTranslucent.index?.array.byteLength ?? 0) : 0;
  }

  /**
   * A stencil-parity mesh of this chunk for the clipping cap of a plane (chunkMaterial
   * createStencilMaterial), clipped by `planes`, drawn with `renderOrder`. The caller owns it: remove it
   * from the scene and call `disposeStencilMesh` when done (the geometry stays the chunk's).
   */
  createStencilMesh(planes: Plane[], renderOrder: number): Mesh {
    // The full-detail geometry's groups (both parts of a strip buffer), so the material is a list of one.
    const m = new Mesh(this.mesh.geometry, [createStencilMaterial(this.uniforms, this.blockUniforms, planes)]);
    placeQuantised(m, this.chunk);
    m.renderOrder = renderOrder;
    m.name = `chunk-${this.chunk.index}-cap-stencil`;
    return m;
  }

  /** Frees the material of a mesh from createStencilMesh (not the shared geometry). */
  static disposeStencilMesh(m: Mesh): void {
    m.removeFromParent();
    for (const x of Array.isArray(m.material) ? m.material : [m.material]) (x as MeshBasicMaterial).dispose();
  }

  /** Shows or hides the translucent pass of this chunk (drawn only when `on`, the chunk is drawn and holds a translucent object). */
  setTranslucentPass(on: boolean): void {
    this.translucentMesh.visible = on && this.translucentRows && this.mesh.visible;
  }

  /**
   * Nearest hits of a world-space ray (mm) on visible objects: `primary` among objects `isSecondary`
   * rejects (steel), `secondary` among the others (compartment spaces); null when none. `isHidden(nodeId)`
   * is consulted per candidate triangle, so hidden objects are never picked (all hits along the ray are
   * examined); `accept(worldPoint)` may reject hits further (e.g. clipped away).
   */
  raycast(
    worldRay: Ray,
    isHidden: (nodeId: number) => boolean,
    accept?: (p: Vector3) => boolean,
    isSecondary?: (nodeId: number) => boolean,
  ): { primary: ChunkHit | null; secondary: ChunkHit | null } {
    const out: { primary: ChunkHit | null; secondary: ChunkHit | null } = { primary: null, secondary: null };
    if (this.triangles === 0) return out;
    this.buildBvh();
    const local = worldRay.clone().applyMatrix4(this.inverse);
    const hits = this.bvh!.raycast(local, DoubleSide);
    const p = new Vector3();
    for (const h of hits) {
      if (h.faceIndex == null) continue;
      const nodeId = objectAtTriangle(this.lookup, h.faceIndex);
      if (nodeId < 0 || isHidden(nodeId)) continue;
      p.copy(h.point).applyMatrix4(this.mesh.matrixWorld);
      if (accept && !accept(p)) continue;
      const distance = p.distanceTo(worldRay.origin);
      const slot = isSecondary?.(nodeId) ? 'secondary' : 'primary';
      const best = out[slot];
      if (!best || distance < best.distance) out[slot] = { nodeId, point: [p.x, p.y, p.z], distance };
    }
    return out;
  }

  /**
   * Geometry near a world ray for snapping: see scene/chunkSnap.ts gatherNearRay (nearest BVH node first,
   * at most `maxTriangles` triangles in all). Returns the number of triangles added.
   */
  gatherNearRay(
    worldRay: Ray,
    radius: number,
    maxDistance: number,
    isHidden: (nodeId: number) => boolean,
    triangles: number[],
    edges: number[],
    maxTriangles: number,
    keep?: (box: Box3) => boolean,
  ): number {
    if (this.triangles === 0 || triangles.length / 9 >= maxTriangles) return 0;
    this.buildBvh();
    return gatherNearRay(
      this.snapTables(),
      worldRay,
      radius,
      maxDistance,
      isHidden,
      triangles,
      edges,
      maxTriangles,
      keep,
    );
  }

  private snapCache: SnapTables | null = null;

  /** The chunk's snapping tables (BVH, triangle → object lookup, edges per vertex, vertex marks), built once. */
  private snapTables(): SnapTables {
    return (this.snapCache ??= snapTables(this.chunk, this.bvh!, this.lookup, this.vertexCount));
  }

  /**
   * Grows per-object world bounds (6 values per object: min xyz, max xyz; mm) by this chunk's vertices.
   * Objects outside `bounds.length / 6` are ignored.
   */
  growObjectBounds(bounds: Float64Array): void {
    const q = this.chunk.positions,
      b = this.chunk.bounds,
      r = this.chunk.objects;
    const s = quantStep(b);
    const n = bounds.length / 6;
    for (let row = 0; row + 4 < r.length; row += 5) {
      const obj = r[row],
        v0 = r[row + 1],
        vc = r[row + 2];
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

  /** Frees geometries, materials, the block texture and the BVH. */
  dispose(): void {
    this.mesh.geometry.dispose();
    if (this.pickGeometry !== this.mesh.geometry) this.pickGeometry.dispose();
    for (const l of this.lods.values()) l.geometry.dispose();
    this.ownTranslucent?.dispose();
    this.lods.clear();
    this.edgeOrder?.dispose();
    for (const m of this.materials) m.dispose();
    this.blockTexture.dispose();
    this.bvh = null;
    this.mesh.removeFromParent();
    this.translucentMesh.removeFromParent();
    this.lodMesh.removeFromParent();
    this.edges?.removeFromParent();
    // The ranges geometries share the buffers freed above; disposing them frees their vertex-array states.
    this.rowMesh.geometry.dispose();
    this.rowEdges?.geometry.dispose();
    this.rowMesh.removeFromParent();
    this.rowEdges?.removeFromParent();
  }
}

/**
 * One part of an index buffer as draw ranges: rows end at `ends` (prefix ends, in indices from `offset`),
 * and `tally` gives the same rows' ends in triangle-list indices (what a hidden row leaves out).
 */
interface DrawPart {
  ends: ArrayLike<number>;
  offset: number;
  tally: ArrayLike<number>;
}

/** End of rows 0..k−1 in prefix ends `ends` (0 for none). */
function endAt(ends: ArrayLike<number>, k: number): number {
  return k > 0 ? ends[k - 1] : 0;
}

/** One draw group (material 0) per range, the ranges shifted by `offset` indices. */
function addRangeGroups(g: BufferGeometry, r: RowRanges, offset: number): void {
  for (let k = 0; k < r.count; k++) g.addGroup(offset + r.starts[k], r.counts[k], 0);
}

/** Per-axis mm per quantum, 1 on a flat axis (its quantised values are all 0). */
export function quantStep(b: ArrayLike<number>): [number, number, number] {
  const s = (a: number) => (b[a + 3] > b[a] ? (b[a + 3] - b[a]) / QMAX : 1);
  return [s(0), s(1), s(2)];
}

function placeQuantised(obj: Mesh | Line, chunk: SceneChunk): void {
  const s = quantStep(chunk.bounds);
  obj.scale.set(s[0], s[1], s[2]);
  obj.position.set(chunk.bounds[0], chunk.bounds[1], chunk.bounds[2]);
  obj.updateMatrix();
  obj.updateMatrixWorld(true);
  obj.matrixAutoUpdate = false;
  // Culling is done per chunk by the engine on world boxes (scene/culling.ts).
  obj.frustumCulled = false;
}
