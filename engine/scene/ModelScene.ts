/**
 * The loaded model inside the render engine: the chunk batches under one THREE.Group, the per-object
 * state table (visibility, selection, hover, colour), per-object world bounds grown from the chunks, and
 * the node hierarchy from the object table. Picking and "bounds of the visible objects" (viewer.md §2
 * "Fit to window") live here. No renderer needed, so it is tested in Node.
 */
import { Group, type Vector3, type Box3, type Plane, type Ray } from 'three';
import type { EngineObjectTable, SelectionItem } from '../EngineApi';
import {
  boxSelect,
  type BoxSelectMode,
  type ScreenProjection,
  type ScreenRect,
  type TrianglePiece,
} from '../interaction/boxSelect';
import { ObjectBoundsTreeBuild, type ObjectBoundsTree } from '../interaction/objectBoundsTree';
import { boxesAlongRay, type RayBoxEntries } from '../interaction/rayBoxes';
import { usedVertexBits } from '../interaction/usedVertices';
import { BOX_WARM_UP_BOXES, warmUpBox } from '../interaction/boxWarmUp';
import { cullBoxes } from './culling';
import { ChunkOcclusion, nearestDepth, type OcclusionGl } from '../render/chunkOcclusion';
import { SoftOcclusion, viewAspect, type DrawnIndex } from '../render/softOcclusion';
import { rangesPerBuffer } from '../render/rowRanges';
import type { Box3Tuple } from '../model/types';
import type { SceneChunk, SceneHeader } from '../package/types';
import { buildChildren, collectSubtrees, owningMainObject, type NodeChildren } from '../interaction/objectLookup';
import { ChunkBatch, LOD_BASE_MM, quantStep, type ChunkHit } from './ChunkBatch';
import { DEFAULT_OBJECT_COLOR, OBJECT_FLAGS, ObjectStateTable } from './ObjectStateTable';
import type { ObjectStateUniforms } from './chunkMaterial';
import { colorForType } from './typeColors';
import { paintStateTable, type PaintGroup, type PaintStyle } from './objectPaint';

/** Default opacity of compartments (spaces, not steel): translucent, drawn after the steel. */
export const COMPARTMENT_OPACITY = 0.25;
/** Objects smaller than this many pixels (world diagonal) are not drawn; edges only of objects of at least EDGE_MIN_PX. */
export const DETAIL_MIN_PX = 1;
export const EDGE_MIN_PX = 12;
/** LOD cells (scene/lodCluster.ts) are at most this many pixels; time (ms) spent building LOD levels per frame at most. */
export const LOD_MAX_PX = 1.5;
/**
 * Interactive detail (frames drawn while the camera is navigated, see `interactive`): no edges, objects
 * under NAV_DETAIL_MIN_PX skipped, LOD cells up to NAV_LOD_MAX_PX pixels. Chosen by measurement on the
 * 10k and 100k bench ships (bench/README.md "Engine performance notes"): hull and main structure stay
 * recognisable in the moving frames.
 */
export const NAV_DETAIL_MIN_PX = 4;
export const NAV_LOD_MAX_PX = 4;
export const LOD_BUILD_MS_PER_FRAME = 12;

const clock = (): number => (globalThis.performance ? globalThis.performance.now() : Date.now());

/** The coarsest LOD level whose cell (LOD_BASE_MM · 2^level) is at most `cellMm`, or -1 for full detail. */
export function lodLevelFor(cellMm: number): number {
  if (!(cellMm >= LOD_BASE_MM)) return -1;
  return Math.min(8, Math.floor(Math.log2(cellMm / LOD_BASE_MM)));
}

/** One model's scene content. Create per loaded package; dispose() frees it. */
export class ModelScene {
  readonly root = new Group();
  readonly header: SceneHeader;
  readonly state: ObjectStateTable;
  readonly chunks: ChunkBatch[] = [];
  /** 6 values per object (min xyz, max xyz), mm; +/-Infinity until the object's geometry arrives. */
  readonly objectBounds: Float64Array;
  private table: EngineObjectTable | null = null;
  private children: NodeChildren | null = null;
  triangles = 0;
  /** Chunks drawn by the last cull(). */
  chunksDrawn = 0;
  /** Level-of-detail thresholds in pixels (see DETAIL_MIN_PX, EDGE_MIN_PX); 0 draws everything. */
  detailMinPx = DETAIL_MIN_PX;
  edgeMinPx = EDGE_MIN_PX;
  /**
   * Interactive detail while the camera moves (the engine sets it from interaction/NavigationQuality):
   * cull() then draws no edges, skips objects under `navDetailMinPx` and uses LOD cells up to
   * `navLodMaxPx` pixels — except while clipping, which keeps full detail (caps need closed solids).
   */
  interactive = false;
  navDetailMinPx = NAV_DETAIL_MIN_PX;
  navLodMaxPx = NAV_LOD_MAX_PX;
  /** True when the last cull() drew interactive detail (interactive and not clipping). */
  interactiveDrawn = false;
  /** True while the package streams in: LOD levels wait until it has arrived (the engine clears it). */
  loading = true;
  /**
   * Time (ms) the next cull() may spend building LOD levels: the engine sets LOD_BUILD_MS_PER_FRAME or
   * half the last frame's time, whichever is more (so slow, software-rendered frames converge as fast).
   */
  lodBuildMs = LOD_BUILD_MS_PER_FRAME;
  /** LOD cells at most this many pixels (0: no LOD); see LOD_MAX_PX. */
  lodMaxPx = LOD_MAX_PX;
  /** True when the last cull() drew a chunk with a coarser or finer LOD than wanted (more frames will refine). */
  lodPending = false;
  /** Triangles in the draw ranges of the last cull() (after small-object culling). */
  trianglesDrawn = 0;
  /** GPU vertex + index bytes of all chunks at load (LOD indices built later: see lodBytes). */
  geometryBytes = 0;
  /**
   * Occlusion culling of chunks hidden behind others (render/chunkOcclusion.ts), once `useOcclusion`
   * gave it a WebGL2 context; off while clipping (caps need every cut solid) and while the whole model
   * is see-through. Switching it off draws every chunk in the view again. Off by default: in Chromium's
   * software WebGL (SwiftShader) each query costs so much that orbit frames at 500k parts took 105 s
   * against 5 s without (bench/README.md "Occlusion culling of chunks"); turn on where queries are cheap.
   */
  occlusionEnabled = false;
  /** Chunks in the view dropped as hidden by the last cull(). */
  chunksOccluded = 0;
  /** True when the last cull() left occlusion answers to read: the engine draws another frame. */
  occlusionPending = false;
  private occlusion: ChunkOcclusion | null = null;
  private occlusionWasOn = false;
  /**
   * Occlusion culling of chunks on the CPU (render/softOcclusion.ts): the big plates each frame draws
   * are rasterised into a coarse depth buffer and chunks whose box lies wholly behind them are not
   * drawn; the answer is ready in the same frame, nothing visible is dropped. On by default; off while
   * clipping and while the whole model is see-through, like the query-based culling.
   */
  softOcclusionEnabled = true;
  /** Chunks in the view dropped by the CPU culler in the last cull() (included in chunksOccluded). */
  chunksSoftOccluded = 0;
  /**
   * In the full-quality frame, chunks the CPU culler keeps are drawn by ranges of the object rows whose
   * own box may show (render/rowRanges.ts, ChunkBatch.drawRows): at the bench ship's fitted views half
   * of the triangles and edges a still frame would draw belong to objects hidden inside chunks that
   * show (bench/README.md "Hidden objects in the still frame"). Not in interactive frames (the CPU time
   * goes to the moving frame) nor with query-based culling (its queries wrap one draw per chunk).
   */
  rowOcclusionEnabled = true;
  /** Triangles left out by drawing visible rows only in the last cull(). */
  trianglesRowOccluded = 0;
  /** CPU time (ms) of the last cull()'s CPU occlusion culling, and the occluder triangles it rasterised. */
  softOcclusionMs = 0;
  softOccluderTriangles = 0;
  private readonly softOcclusion = new SoftOcclusion();
  /** Chunks dropped by the CPU culler in the last cull(), 1 per chunk. */
  private softDropped = new Uint8Array(0);
  /** What the depth buffer depends on (view-projection, object states, detail, chunks) and its serial number. */
  private readonly viewKey = new Float64Array(22);
  private viewSerial = 0;

  /** Bytes of the LOD index buffers built so far and of the translucent passes' own index buffers. */
  get lodBytes(): number {
    return this.chunks.reduce((n, c) => n + c.lodBytes + c.translucentBytes, 0);
  }
  /** Chunk rows per object as a linked list: first row per object, then (chunk, row, next) per row. */
  private readonly firstRow: Int32Array;
  private rowChunk = new Int32Array(1024);
  private rowIndex = new Int32Array(1024);
  private rowNext = new Int32Array(1024);
  private rows = 0;
  private translucentOn = false;
  private clipPlanes: Plane[] | null = null;
  /** World boxes of the chunks (6 values each, mm) in one array for picking's ray test (interaction/rayBoxes.ts). */
  private chunkBoxes = new Float64Array(6 * 64);
  private readonly rayChunks: RayBoxEntries = { ids: [], distances: [] };

  /**
   * @param table the object table (may be null: then picks still work but selection items cannot be named).
   * @throws Error when the table's arrays differ in length or a parent is invalid.
   */
  constructor(
    header: SceneHeader,
    table: EngineObjectTable | null,
    private readonly uniforms: ObjectStateUniforms,
  ) {
    this.header = header;
    const count = Math.max(header.objectCount, table ? table.ids.length : 0);
    this.state = new ObjectStateTable(count);
    if (table) this.setTable(table);
    this.objectBounds = new Float64Array(count * 6);
    for (let i = 0; i < count; i++)
      this.objectBounds.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], i * 6);
    this.firstRow = new Int32Array(count).fill(-1);
    uniforms.uObjectFlags.value = this.state.flagTexture;
    uniforms.uObjectColors.value = this.state.colorTexture;
    this.root.name = 'model';
  }

  /**
   * Attaches the object table (ids, types, parents): enables selection items, Main Objects mapping,
   * subtree visibility and per-type colours. Nodes beyond the state table are ignored.
   * @throws Error when the arrays differ in length or a parent is invalid.
   */
  setTable(table: EngineObjectTable): void {
    if (table.types.length !== table.ids.length || table.parents.length !== table.ids.length) {
      throw new Error(
        `Object table arrays differ in length (ids ${table.ids.length}, types ${table.types.length}, parents ${table.parents.length})`,
      );
    }
    if (table.ids.length > this.state.count) {
      throw new Error(
        `Object table has ${table.ids.length} objects but the scene package declares ${this.state.count}`,
      );
    }
    this.children = buildChildren(table.parents);
    this.table = table;
    table.types.forEach((type, i) => this.state.setColor([i], colorForType(type)));
    // Compartments are closed solids of space, not steel: caps of a clipped hull show only the steel cut.
    const compartments = table.types.flatMap((type, i) => (type === 'COMPARTMENT' ? [i] : []));
    this.state.setFlag(compartments, OBJECT_FLAGS.noCap, true);
    // Compartments are drawn see-through after the steel (and picked only where no steel is hit).
    this.state.setOpacity(compartments, COMPARTMENT_OPACITY);
    this.updateTranslucentPass();
  }

  /** The object table (ids, types, parents) or null before it arrives. */
  get objectTable(): EngineObjectTable | null {
    return this.table;
  }

  /** Number of nodes (objects) the state table covers. */
  get nodeCount(): number {
    return this.state.count;
  }

  /** Builds a chunk's mesh, edges and BVH and adds them to the scene. Returns the batch. */
  addChunk(chunk: SceneChunk): ChunkBatch {
    const batch = new ChunkBatch(chunk, this.uniforms);
    batch.growObjectBounds(this.objectBounds);
    const ci = this.chunks.length;
    this.chunks.push(batch);
    if (this.chunkBoxes.length < this.chunks.length * 6) {
      const grown = new Float64Array(this.chunkBoxes.length * 2);
      grown.set(this.chunkBoxes);
      this.chunkBoxes = grown;
    }
    const wb = batch.worldBox;
    this.chunkBoxes.set([wb.min.x, wb.min.y, wb.min.z, wb.max.x, wb.max.y, wb.max.z], ci * 6);
    this.occlusion?.wrapDraw(ci, [batch.mesh, batch.lodMesh]);
    this.triangles += batch.triangles;
    this.geometryBytes += batch.geometryBytes;
    for (let r = 0; r * 5 < chunk.objects.length; r++) this.linkRow(chunk.objects[r * 5], ci, r);
    batch.setTranslucentObjects(this.translucentWhich());
    batch.setTranslucentPass(this.translucentOn);
    batch.setClippingPlanes(this.clipPlanes);
    this.root.add(batch.mesh);
    this.root.add(batch.translucentMesh);
    this.root.add(batch.lodMesh);
    if (batch.edges) this.root.add(batch.edges);
    this.root.add(batch.rowMesh);
    if (batch.rowEdges) this.root.add(batch.rowEdges);
    return batch;
  }

  /**
   * Gives the scene a WebGL2 context for occlusion queries (render/chunkOcclusion.ts); null or a
   * second call changes nothing. The test boxes join `root`.
   */
  useOcclusion(gl: OcclusionGl | null): void {
    if (!gl || this.occlusion) return;
    this.occlusion = new ChunkOcclusion(gl);
    this.root.add(this.occlusion.group);
    this.chunks.forEach((c, i) => this.occlusion?.wrapDraw(i, [c.mesh, c.lodMesh]));
  }

  /** True when chunk `i` is dropped as hidden behind others now (occlusion culling). */
  isChunkOccluded(i: number): boolean {
    if (this.softDropped[i] === 1) return true;
    return this.occlusion !== null && this.occlusionWasOn && this.occlusion.isOccluded(i);
  }

  /** Serial number of the view key: changes whenever the camera, object states, detail or chunk set change. */
  private viewSignature(viewProjection: ArrayLike<number>, detailPx: number, lodPx: number, nav: boolean): number {
    const k = this.viewKey;
    let changed = false;
    const put = (i: number, v: number) => {
      if (k[i] !== v) {
        k[i] = v;
        changed = true;
      }
    };
    for (let i = 0; i < 16; i++) put(i, viewProjection[i]);
    put(16, this.state.version);
    put(17, this.chunks.length);
    put(18, detailPx);
    put(19, lodPx);
    put(20, nav ? 1 : 0);
    put(21, this.uniforms.uModelOpacity.value);
    if (changed) this.viewSerial++;
    return this.viewSerial;
  }

  /**
   * Front-to-back draw order of the chunks in the view (nearest box corner first), as fractional
   * render orders in [0, 1): big occluders such as the shell, whose boxes reach nearest, fill the
   * depth buffer before the structure behind them (fewer fragments shaded, occlusion tests that see
   * what hides them). Other objects keep their integer orders.
   */
  private orderFrontToBack(viewProjection: ArrayLike<number>, boxes: Float64Array, draw: Uint8Array): void {
    const ids: number[] = [];
    const depth = new Float64Array(this.chunks.length);
    for (let i = 0; i < this.chunks.length; i++) {
      if (!draw[i]) continue;
      ids.push(i);
      depth[i] = nearestDepth(viewProjection, boxes, i * 6);
    }
    ids.sort((a, b) => depth[a] - depth[b] || a - b);
    ids.forEach((i, rank) => {
      const c = this.chunks[i];
      const order = rank / ids.length;
      c.mesh.renderOrder = order;
      c.lodMesh.renderOrder = order;
      c.rowMesh.renderOrder = order;
      if (c.edges) c.edges.renderOrder = order;
      if (c.rowEdges) c.rowEdges.renderOrder = order;
    });
  }

  private linkRow(object: number, chunk: number, row: number): void {
    if (!(object < this.firstRow.length)) return;
    if (this.rows === this.rowChunk.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.rowChunk = grow(this.rowChunk);
      this.rowIndex = grow(this.rowIndex);
      this.rowNext = grow(this.rowNext);
    }
    const k = this.rows++;
    this.rowChunk[k] = chunk;
    this.rowIndex[k] = row;
    this.rowNext[k] = this.firstRow[object];
    this.firstRow[object] = k;
  }

  /**
   * Calls `fn` with the world corners (mm, 9 values) of every triangle of object `id`, over all chunks
   * holding it, until `fn` returns true.
   */
  forEachTriangle(id: number, fn: (tri: Float64Array) => boolean): void {
    if (!(id >= 0 && id < this.firstRow.length)) return;
    const tri = new Float64Array(9);
    for (let k = this.firstRow[id]; k >= 0; k = this.rowNext[k]) {
      const c = this.chunks[this.rowChunk[k]].chunk;
      const r = this.rowIndex[k] * 5;
      const i0 = c.objects[r + 3],
        ic = c.objects[r + 4];
      const b = c.bounds,
        q = c.positions,
        idx = c.indices;
      const s = quantStep(b);
      for (let i = i0; i < i0 + ic; i += 3) {
        for (let v = 0; v < 3; v++) {
          const vi = idx[i + v] * 3;
          tri[v * 3] = b[0] + q[vi] * s[0];
          tri[v * 3 + 1] = b[1] + q[vi + 1] * s[1];
          tri[v * 3 + 2] = b[2] + q[vi + 2] * s[2];
        }
        if (fn(tri)) return;
      }
    }
  }

  /**
   * Calls `fn` with the triangles of object `id` in each chunk holding it, as the chunk stores them
   * (quantised positions, see interaction/boxSelect.ts TrianglePiece; one piece object reused), until `fn`
   * returns true.
   */
  forEachPiece(id: number, fn: (piece: TrianglePiece) => boolean): void {
    if (!(id >= 0 && id < this.firstRow.length)) return;
    const piece = this.piece;
    for (let k = this.firstRow[id]; k >= 0; k = this.rowNext[k]) {
      const c = this.chunks[this.rowChunk[k]].chunk;
      const r = this.rowIndex[k] * 5;
      piece.positions = c.positions;
      piece.indices = c.indices;
      piece.start = c.objects[r + 3];
      piece.end = c.objects[r + 3] + c.objects[r + 4];
      piece.origin = c.bounds;
      piece.step = quantStep(c.bounds);
      piece.vertexStart = c.objects[r + 1];
      piece.vertexEnd = c.objects[r + 1] + c.objects[r + 2];
      piece.used = this.usedVertices[this.rowChunk[k]] ?? null;
      if (fn(piece)) return;
    }
  }
  private readonly piece: TrianglePiece = { positions: [], indices: [], start: 0, end: 0, origin: [], step: [] };

  /**
   * Works on the hierarchy of object bounds for box selection (interaction/objectBoundsTree.ts), then on
   * the chunks' used-vertex bits (interaction/usedVertices.ts), for up to `budgetMs`; the idle builder
   * (./ModelLoader.ts) calls it once the package is in. Returns true when both are complete for the
   * chunks loaded so far (a later chunk grows the bounds: the hierarchy starts again). A box before then
   * finishes the hierarchy; chunks without bits are tested on their triangles.
   */
  buildBoxTree(budgetMs: number): boolean {
    if (this.boxTreeReady) return true;
    const t0 = clock();
    if (!this.buildBoundsTree(budgetMs)) return false;
    // At least one chunk per call, so tiny slices still finish.
    for (let ci = this.usedVertices.length; ci < this.chunks.length; ci++) {
      this.usedVertices.push(usedVertexBits(this.chunks[ci].chunk));
      if (ci + 1 < this.chunks.length && clock() - t0 > budgetMs) return false;
    }
    return true;
  }

  /**
   * Runs the next warm-up box (interaction/boxWarmUp.ts) through the box kernel in `view` and discards
   * its result; null (walk mode: no box selection) ends the warm-up. Returns true once all are done (also
   * when the hierarchy is not complete yet, so the caller builds that first: see buildBoxTree).
   */
  warmBoxSelect(view: ScreenProjection | null): boolean {
    if (this.boxWarmed >= BOX_WARM_UP_BOXES || !this.boxTreeReady) return true;
    if (!view || !(view.width > 0 && view.height > 0)) {
      this.boxWarmed = BOX_WARM_UP_BOXES;
      return true;
    }
    const { rect, mode } = warmUpBox(this.boxWarmed++, view.width, view.height);
    this.boxSelect(rect, mode, view, 'structural-details');
    return this.boxWarmed >= BOX_WARM_UP_BOXES;
  }
  /** Warm-up boxes run so far (see warmBoxSelect). */
  private boxWarmed = 0;

  /** True when the idle builder has nothing left: picking BVHs, box hierarchy and its warm-up. */
  get idleDone(): boolean {
    return this.boxTreeReady && this.boxWarmed >= BOX_WARM_UP_BOXES && this.chunks.every((c) => c.hasBvh);
  }

  /** The hierarchy part of buildBoxTree. */
  private buildBoundsTree(budgetMs: number): boolean {
    if (this.boxTree && this.boxTreeChunks === this.chunks.length) return true;
    if (!this.boxTreeBuild || this.boxTreeChunks !== this.chunks.length) {
      this.boxTree = null;
      this.boxTreeBuild = new ObjectBoundsTreeBuild(this.objectBounds, this.nodeCount);
      this.boxTreeChunks = this.chunks.length;
    }
    const tree = this.boxTreeBuild.run(budgetMs, clock);
    if (!tree) return false;
    this.boxTree = tree;
    this.boxTreeBuild = null;
    return true;
  }

  /** True when box selection needs no hierarchy work first (see buildBoxTree). */
  get boxTreeReady(): boolean {
    return (
      this.boxTree !== null &&
      this.boxTreeChunks === this.chunks.length &&
      this.usedVertices.length === this.chunks.length
    );
  }
  /** Per chunk (in load order) the vertices its triangles use, or null when its rows share vertices. */
  private readonly usedVertices: (Uint8Array | null)[] = [];
  private boxTree: ObjectBoundsTree | null = null;
  private boxTreeBuild: ObjectBoundsTreeBuild | null = null;
  private boxTreeChunks = -1;

  /**
   * Box selection (viewer.md §4): visible objects inside (left-to-right) or touched by (right-to-left) the
   * screen rectangle, mapped to the selectable node of the mode, each once, in ascending id order. A query
   * over the hierarchy of object bounds (finished here when the idle builder has not yet).
   */
  boxSelect(
    rect: ScreenRect,
    mode: BoxSelectMode,
    view: ScreenProjection,
    selectionMode: 'structural-details' | 'main-objects',
  ): number[] {
    this.buildBoundsTree(Infinity);
    const hidden = this.state.flags;
    const ids = boxSelect(
      {
        objectCount: this.nodeCount,
        bounds: this.objectBounds,
        eligible: (i) => (hidden[i] & OBJECT_FLAGS.hidden) === 0,
        forEachPiece: (i, fn) => this.forEachPiece(i, fn),
      },
      rect,
      mode,
      view,
      this.boxTree!,
    );
    // Structural details: the ids are the nodes, already unique and ascending.
    if (selectionMode !== 'main-objects' || !this.table) return ids;
    return [...new Set(ids.map((i) => this.selectableNode(i, selectionMode)))].sort((a, b) => a - b);
  }

  /**
   * Hides chunks outside the view (column-major view-projection matrix) and, with `mmPerPixel` (world
   * size of a pixel at a chunk's box, mm), skips objects under `detailMinPx` and edges of objects under
   * `edgeMinPx` in the chunks drawn, and draws each chunk through the LOD level whose cells are at most
   * `lodMaxPx` (not while clipping: caps need the closed solids), building missing levels for up to
   * `lodBuildMs` (`lodPending` tells whether more frames will refine). With `interactive` (and no
   * clipping) the thresholds are `navDetailMinPx` / `navLodMaxPx` (when larger) and no edges are drawn.
   * Returns how many chunks stay drawn.
   */
  cull(viewProjection: ArrayLike<number>, mmPerPixel?: (box: Box3) => number): number {
    const boxes = new Float64Array(this.chunks.length * 6);
    this.chunks.forEach((c, i) =>
      boxes.set(
        [c.worldBox.min.x, c.worldBox.min.y, c.worldBox.min.z, c.worldBox.max.x, c.worldBox.max.y, c.worldBox.max.z],
        i * 6,
      ),
    );
    const inView = cullBoxes(viewProjection, boxes);
    const nav = this.interactive && !this.clipPlanes;
    const detailPx = nav ? Math.max(this.detailMinPx, this.navDetailMinPx) : this.detailMinPx;
    const lodPx = nav && this.lodMaxPx > 0 ? Math.max(this.lodMaxPx, this.navLodMaxPx) : this.lodMaxPx;
    let mask = inView;
    const occ =
      this.occlusion && this.occlusionEnabled && !this.clipPlanes && this.uniforms.uModelOpacity.value >= 0.999
        ? this.occlusion
        : null;
    if (occ) {
      // After a pause (clipping, culling switched off) the old answers are stale: draw everything, test anew.
      if (!this.occlusionWasOn) occ.reset();
      occ.poll();
      // Chunks whose opaque draw cannot answer for them: a translucent pass, or nothing drawn last time.
      const boxOnly = new Uint8Array(this.chunks.length);
      this.chunks.forEach((c, i) => {
        boxOnly[i] = (this.translucentOn && c.hasTranslucent) || c.drawnTriangles === 0 ? 1 : 0;
      });
      const key = this.viewSignature(viewProjection, detailPx, lodPx, nav);
      mask = occ.select(inView, boxes, viewProjection, key, boxOnly);
    } else this.occlusion?.select(new Uint8Array(this.chunks.length), boxes, viewProjection, NaN);
    this.occlusionWasOn = occ !== null;
    this.chunksOccluded = occ ? occ.occluded : 0;
    this.occlusionPending = occ ? occ.pending : false;
    this.orderFrontToBack(viewProjection, boxes, mask);
    let drawn = 0,
      drawnTriangles = 0,
      pending = false;
    const start = clock();
    this.chunks.forEach((c, i) => {
      const on = mask[i] === 1;
      c.mesh.visible = on;
      c.lodMesh.visible = false;
      c.hideRows();
      if (c.edges) c.edges.visible = on && !nav;
      c.setTranslucentPass(this.translucentOn);
      if (!on) return;
      drawn++;
      const px = mmPerPixel ? mmPerPixel(c.worldBox) : 0;
      const level = this.clipPlanes || !(lodPx > 0) ? -1 : lodLevelFor(px * lodPx);
      const d = c.setDetail(
        px * detailPx,
        px * this.edgeMinPx,
        level,
        !this.loading && clock() - start < this.lodBuildMs,
      );
      if (d.pending) pending = true;
      drawnTriangles += d.triangles;
    });
    this.lodPending = pending;
    const soft = this.softCull(viewProjection, boxes, mask, this.rowOcclusionEnabled && !nav && !occ);
    this.chunksDrawn = drawn - soft.dropped;
    this.trianglesDrawn = drawnTriangles - soft.triangles - soft.rowTriangles;
    this.chunksOccluded += soft.dropped;
    this.interactiveDrawn = nav;
    return drawn;
  }

  /**
   * CPU occlusion culling (render/softOcclusion.ts) of the chunks `mask` draws, once their detail for
   * this frame is set (occluders are what each chunk really draws): dropped chunks are hidden, their
   * mask entry cleared. Returns how many chunks and triangles were dropped.
   */
  private softCull(
    viewProjection: ArrayLike<number>,
    boxes: Float64Array,
    mask: Uint8Array,
    byRows: boolean,
  ): { dropped: number; triangles: number; rowTriangles: number } {
    if (this.softDropped.length !== this.chunks.length) this.softDropped = new Uint8Array(this.chunks.length);
    else this.softDropped.fill(0);
    this.chunksSoftOccluded = 0;
    this.trianglesRowOccluded = 0;
    if (!this.softOcclusionEnabled || this.clipPlanes || this.uniforms.uModelOpacity.value < 0.999)
      return { dropped: 0, triangles: 0, rowTriangles: 0 };
    const before = mask.slice();
    const state = this.state,
      ob = this.objectBounds;
    const drawnIndex = (i: number): DrawnIndex | null => {
      const c = this.chunks[i];
      const list = c.drawnTriangleList();
      return list ? { chunk: c.chunk, index: list.index, count: list.count } : null;
    };
    const opaque = (o: number) => !state.isHidden(o) && state.opacity(o) >= 1;
    const size = (o: number) => {
      const k = o * 6;
      const d = k + 5 < ob.length ? Math.hypot(ob[k + 3] - ob[k], ob[k + 4] - ob[k + 1], ob[k + 5] - ob[k + 2]) : 0;
      // An object whose geometry has not arrived has infinite bounds: no size yet.
      return Number.isFinite(d) ? d : 0;
    };
    const t0 = clock();
    this.softOcclusion.select(viewProjection, viewAspect(viewProjection), mask, boxes, drawnIndex, opaque, size);
    this.softOccluderTriangles = this.softOcclusion.occluderTriangles;
    let dropped = 0,
      triangles = 0,
      rowTriangles = 0;
    for (let i = 0; i < mask.length; i++) {
      if (!before[i] || mask[i]) continue;
      const c = this.chunks[i];
      c.mesh.visible = false;
      c.lodMesh.visible = false;
      if (c.edges) c.edges.visible = false;
      this.softDropped[i] = 1;
      dropped++;
      triangles += c.drawnTriangles;
    }
    if (byRows) {
      let buffers = 0;
      for (let i = 0; i < mask.length; i++) if (mask[i]) buffers += this.chunks[i].edges?.visible ? 2 : 1;
      const ranges = rangesPerBuffer(buffers);
      for (let i = 0; i < mask.length; i++)
        if (mask[i])
          rowTriangles += this.chunks[i].drawRows(this.softOcclusion.rowVisibility(this.chunks[i].chunk), ranges);
    }
    this.softOcclusionMs = clock() - t0;
    this.chunksSoftOccluded = dropped;
    this.trianglesRowOccluded = rowTriangles;
    return { dropped, triangles, rowTriangles };
  }

  /** Sets the colour (sRGB bytes) of nodes and descendants; null restores the type colour. */
  setColor(nodeIds: Iterable<number>, rgb: readonly [number, number, number] | null): void {
    for (const n of this.subtree(nodeIds))
      this.state.setColor(
        [n],
        rgb ?? (this.table && n < this.table.types.length ? colorForType(this.table.types[n]) : DEFAULT_OBJECT_COLOR),
      );
  }

  /** Sets the opacity (0..1) of nodes and descendants; turns the translucent pass on or off as needed. */
  setOpacity(nodeIds: Iterable<number>, opacity: number): void {
    this.state.setOpacity(this.subtree(nodeIds), opacity);
    this.updateTranslucentPass();
  }

  /**
   * Paints many objects in one call (./objectPaint.ts): each group's style on its nodes (exactly those,
   * no descendants), `rest` on all other nodes when given; null colour / opacity restore the type colour
   * and the default opacity. @throws Error for an invalid style (nothing is written).
   */
  paint(groups: readonly PaintGroup[], rest: PaintStyle | null): void {
    paintStateTable(this.state, this.table?.types ?? null, groups, rest, COMPARTMENT_OPACITY);
    this.updateTranslucentPass();
  }

  /**
   * Opacity factor (0..1) of the whole model, multiplied into every object's opacity (viewer.md §4: the
   * model opacity is reduced while the clipping box is visible).
   */
  setModelOpacity(factor: number): void {
    this.uniforms.uModelOpacity.value = Math.min(1, Math.max(0, factor));
    this.updateTranslucentPass();
  }

  private updateTranslucentPass(): void {
    this.translucentOn = this.state.translucentCount > 0 || this.uniforms.uModelOpacity.value < 0.999;
    const which = this.translucentWhich();
    for (const c of this.chunks) {
      c.setTranslucentObjects(which);
      c.setTranslucentPass(this.translucentOn);
    }
  }

  /** What the translucent pass draws: everything while the model opacity is reduced, else the objects with opacity < 1. */
  private translucentWhich(): 'all' | ((objectIndex: number) => boolean) | null {
    if (this.uniforms.uModelOpacity.value < 0.999) return 'all';
    if (this.state.translucentCount === 0) return null;
    return (o) => this.state.opacity(o) < 0.999;
  }

  /** Clips every chunk (present and future) by `planes` (three.js local clipping), or stops with null. */
  /** The planes the model is clipped by (shared, kept up to date by the clipping tool), or null. */
  get clippingPlanes(): Plane[] | null {
    return this.clipPlanes;
  }

  setClippingPlanes(planes: Plane[] | null): void {
    this.clipPlanes = planes;
    for (const c of this.chunks) c.setClippingPlanes(planes);
  }

  /** Bytes held by the picking BVHs built so far. */
  get bvhBytes(): number {
    return this.chunks.reduce((n, c) => n + c.bvhBytes, 0);
  }

  /**
   * Nearest visible hit of a world ray (mm) over all chunks, or null. Hidden objects are skipped, and
   * hits `accept` rejects (e.g. outside the clipping box). Steel first: compartments (noCap objects) are
   * hit only when the ray meets nothing else, so see-through spaces never hide the steel inside them.
   */
  raycast(ray: Ray, accept?: (p: Vector3) => boolean): ChunkHit | null {
    let best: ChunkHit | null = null,
      space: ChunkHit | null = null;
    const hidden = (n: number) => this.state.isHidden(n);
    const flags = this.state.flags;
    const secondary = (n: number) => (flags[n] & OBJECT_FLAGS.noCap) !== 0;
    // Chunks in the order the ray enters them: once a steel hit is nearer than the next chunk's entry,
    // no further chunk can beat it.
    const along = this.rayChunks;
    const n = boxesAlongRay(this.chunkBoxes, this.chunks.length, ray.origin, ray.direction, along);
    for (let k = 0; k < n; k++) {
      if (best && along.distances[k] > best.distance) break;
      const hit = this.chunks[along.ids[k]].raycast(ray, hidden, accept, secondary);
      if (hit.primary && (!best || hit.primary.distance < best.distance)) best = hit.primary;
      if (hit.secondary && (!space || hit.secondary.distance < space.distance)) space = hit.secondary;
    }
    return best ?? space;
  }

  /** Maps a picked node to the selectable node of the mode (Main Objects: owning MAIN OBJECT). */
  selectableNode(nodeId: number, mode: 'structural-details' | 'main-objects'): number {
    if (mode !== 'main-objects' || !this.table) return nodeId;
    return owningMainObject(nodeId, this.table.parents, this.table.types);
  }

  /** The nodes and all their descendants (a MAIN OBJECT's parts), valid ids only. */
  subtree(nodeIds: Iterable<number>): number[] {
    return collectSubtrees(nodeIds, this.children, this.nodeCount);
  }

  /** Shows or hides nodes and their descendants. Returns how many objects changed. */
  setVisibility(nodeIds: Iterable<number>, visible: boolean): number {
    return this.state.setFlag(this.subtree(nodeIds), OBJECT_FLAGS.hidden, !visible);
  }

  /** Highlights exactly the given nodes (and descendants) as selected. */
  highlightSelection(nodeIds: Iterable<number>): void {
    this.state.replaceFlag(this.subtree(nodeIds), OBJECT_FLAGS.selected);
  }

  /** Hover-highlights a node (and descendants), or clears hover with null. */
  highlightHover(nodeId: number | null): void {
    this.state.replaceFlag(nodeId === null ? [] : this.subtree([nodeId]), OBJECT_FLAGS.hover);
  }

  /**
   * Selection items for node ids (ARCHITECTURE.md "Names": keelsonId = object id, nodeId, objectType).
   * Nodes the object table does not know are left out.
   */
  selectionItems(nodeIds: readonly number[]): SelectionItem[] {
    const t = this.table;
    if (!t) return [];
    return nodeIds
      .filter((n) => n >= 0 && n < t.ids.length)
      .map((n) => ({ keelsonId: t.ids[n], nodeId: n, objectType: t.types[n] }));
  }

  /** True when the node id exists in this model. */
  hasNode(nodeId: number): boolean {
    return Number.isInteger(nodeId) && nodeId >= 0 && nodeId < this.nodeCount;
  }

  /** Union of the bounds of visible objects with geometry (mm), or null when nothing visible has geometry. */
  visibleBounds(): Box3Tuple | null {
    const b: Box3Tuple = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    const ob = this.objectBounds;
    let any = false;
    for (let i = 0; i < this.nodeCount; i++) {
      const o = i * 6;
      if (this.state.isHidden(i) || !(ob[o] <= ob[o + 3])) continue;
      any = true;
      for (let a = 0; a < 3; a++) {
        if (ob[o + a] < b[a]) b[a] = ob[o + a];
        if (ob[o + 3 + a] > b[3 + a]) b[3 + a] = ob[o + 3 + a];
      }
    }
    return any ? b : null;
  }

  /** Frees all chunk geometry and the state textures; unhooks the textures from the shared uniforms. */
  dispose(): void {
    for (const c of this.chunks) c.dispose();
    this.chunks.length = 0;
    this.occlusion?.dispose();
    this.occlusion = null;
    this.root.removeFromParent();
    if (this.uniforms.uObjectFlags.value === this.state.flagTexture) this.uniforms.uObjectFlags.value = null;
    if (this.uniforms.uObjectColors.value === this.state.colorTexture) this.uniforms.uObjectColors.value = null;
    this.state.dispose();
  }
}
