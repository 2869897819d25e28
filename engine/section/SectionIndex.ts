/**
 * Spatial index of a model's triangles for plane slicing (viewer.md §4 "Section
 * drawing"). Geometry lives in batches (one per `.sc` chunk, or one per importer PartMesh); each
 * object's triangles/edges inside a batch form a range with its own bounds. A BVH over the range
 * bounds (flat arrays, median split) answers "which ranges does the plane axis = c touch" in
 * O(log n + hits), so a 500k-part ship is not scanned linearly. A second level splits every range into
 * blocks of BLOCK_TRIANGLES triangles with their own extent (`blockBounds`), so only the blocks a plane
 * crosses are sliced. `rangesLinear` answers the same question with no index at all (every vertex
 * visited): the fair reference for tests and the bench. All coordinates are world millimetres.
 *
 * Built while a WebAssembly geometry kernel is installed (engine/wasm/install.ts), the index puts each
 * batch into the kernel's memory (`store`) and takes its triangle-block extents from the kernel;
 * computeSection then slices and chains there. A chunk's positions are dequantised straight into the
 * kernel's memory and read there (`KernelBatch`), so they exist once; importer meshes are copied in (the
 * model keeps its own). Without a kernel it is the TypeScript reference throughout.
 */
import type { Box3Tuple, PartMesh } from '../model/types';
import type { SceneChunk } from '../package/types';
import { decodeChunkEdges, decodeChunkPositions } from '../package/reader';
import { dequantiseInto } from '../package/format';
import type { GeometryKernel, KernelStore } from '../wasm/GeometryKernel';
import { geometryKernel } from '../wasm/install';
import { selectNthCarried } from '../geometry/selectNth';
import { AxisIntervalTree } from './AxisIntervalTree';

/** One batch of geometry: world-mm positions, triangle indices into them, optional edge segments. */
export interface SectionBatch {
  positions: Float32Array;
  indices: Uint32Array | Uint16Array;
  /** Segments (x0 y0 z0 x1 y1 z1)*, mm, or null. */
  edges: Float32Array | null;
  bounds: Box3Tuple;
}

/** One object's share of a batch. */
export interface SectionRange {
  batch: number;
  object: number;
  /** First index (into batch.indices) and count of indices (3 per triangle). */
  indexStart: number;
  indexCount: number;
  /** First segment and count of segments in batch.edges. */
  edgeStart: number;
  edgeCount: number;
  /** Bounds of the range's vertices and edge points, mm. */
  bounds: Box3Tuple;
  /** The range's triangle blocks (BLOCK_TRIANGLES each, last one shorter): first block and count in the index's block table. */
  blockStart: number;
  blockCount: number;
}

/**
 * Most geometry (positions + indices, bytes) an index copies into the installed WebAssembly kernel by default:
 * 2 GiB, half of wasm32's 4 GiB address space (the kernel also holds block extents, segment and output
 * buffers, and V8 caps a module's memory at 4 GiB). The kernel allocates batches from its own page arena
 * (wasm/src/arena.rs), so copying them in costs time linear in their size at any model size (bench/README.md
 * "WebAssembly kernel"); above this the index stays on the TypeScript kernel rather than fail part-way.
 */
export const KERNEL_INDEX_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** The installed kernel for an index of `bytes` of geometry, or null above KERNEL_INDEX_MAX_BYTES (or none installed). */
export function indexKernelFor(bytes: number): GeometryKernel | null {
  return bytes <= KERNEL_INDEX_MAX_BYTES ? geometryKernel() : null;
}

/** Triangles per block of the second index level (object ranges are split into blocks with their own extent). */
export const BLOCK_TRIANGLES = 32;

const LEAF = 4;

/** BVH over range bounds, plus the batches. Build once per model; queries allocate only their result. */
export class SectionIndex {
  readonly batches: SectionBatch[] = [];
  readonly ranges: SectionRange[] = [];
  /** Node bounds (6 per node), child/leaf data: for inner nodes left child index and right child index; leaves start/count in `order`. */
  private nodeBounds = new Float64Array(0);
  private nodeA = new Int32Array(0);
  private nodeB = new Int32Array(0);
  private nodeLeaf = new Uint8Array(0);
  private order = new Int32Array(0);
  /** Range bounds (6 per entry, mm) in `order`: a leaf's ranges read as one run of memory. */
  private orderBounds = new Float64Array(0);
  private stack = new Int32Array(0);
  private nodeCount = 0;
  // The ranges again as flat tables, indexed like `ranges` and built with the tree: the per-cut loops
  // (section.ts) read these instead of chasing one range object per hit, which at 500k parts costs cache
  // misses rather than arithmetic.
  /** Per range: its object index. */
  rangeObject = new Int32Array(0);
  /** Per range, 5 values: batch, first block, block count, first index, index count (the kernel's section job row). */
  rangeSpan = new Uint32Array(0);
  /** Per range, 6 values: min xyz, max xyz (mm), the same numbers as its `bounds`. */
  rangeBounds = new Float64Array(0);
  /** Per triangle block: min and max of each axis (6 values, mm), in range order. */
  blockBounds = new Float32Array(0);
  /** TypeScript build: the block extents so far (`blockLength` values used). */
  private blockData = new Float32Array(0);
  private blockLength = 0;
  /** Per axis, the ranges in an interval tree along that axis (the slab query's structure). */
  private axisTrees: AxisIntervalTree[] = [];
  /** Per range, its position in the BVH's depth-first order (the order rangesInSlab answers in), and back. */
  private rank = new Int32Array(0);
  private byRank = new Int32Array(0);
  /** The batches in the WebAssembly kernel's memory (same batch numbers and blocks), or null. */
  readonly store: KernelStore | null;

  /** An empty index; with a kernel (the installed one by default) its geometry also goes into the kernel's memory. */
  constructor(kernel: GeometryKernel | null = geometryKernel()) {
    this.store = kernel ? kernel.createStore() : null;
  }

  /**
   * Index of importer meshes (one batch per mesh; a mesh's `object` is its object index). The default kernel
   * is used only up to KERNEL_INDEX_MAX_BYTES of geometry (see there), and dropped for the TypeScript one,
   * with one log line, if it fails while the index is built (e.g. its memory cannot grow).
   */
  static fromMeshes(meshes: readonly PartMesh[], kernel?: GeometryKernel | null): SectionIndex {
    const bytes = meshes.reduce((n, m) => n + m.positions.byteLength + m.indices.byteLength, 0);
    return SectionIndex.buildWith(kernel, bytes, (idx) => {
      for (const m of meshes) {
        const b = idx.addBatch({ positions: m.positions, indices: m.indices, edges: m.edges });
        idx.addRange(b, m.object, 0, m.positions.length / 3, 0, m.indices.length, 0, m.edges ? m.edges.length / 6 : 0);
      }
    });
  }

  /**
   * Index of decoded `.sc` chunks (positions dequantised to world mm once here). The default kernel is used
   * only up to KERNEL_INDEX_MAX_BYTES of geometry and dropped if it fails (as fromMeshes).
   */
  static fromChunks(chunks: readonly SceneChunk[], kernel?: GeometryKernel | null): SectionIndex {
    // Dequantised positions are Float32 (twice the Uint16 bytes).
    const bytes = chunks.reduce((n, c) => n + 2 * c.positions.byteLength + c.indices.byteLength, 0);
    return SectionIndex.buildWith(kernel, bytes, (idx) => {
      for (const c of chunks) {
        const b = idx.addChunk(c);
        // Each object's edge run (row in edgeObjects; the last row of an object listed twice wins, as a Map
        // did), and which edge rows a triangle range took: plain indexing, no object per row.
        const eo = c.edgeObjects,
          ob = c.objects;
        const edgeRow = new Map<number, number>();
        for (let r = 0; r < eo.length; r += 3) edgeRow.set(eo[r], r);
        const taken = new Uint8Array(eo.length / 3);
        for (let r = 0; r < ob.length; r += 5) {
          const obj = ob[r];
          const e = edgeRow.get(obj);
          if (e !== undefined) taken[e / 3] = 1;
          idx.addRange(
            b,
            obj,
            ob[r + 1],
            ob[r + 2],
            ob[r + 3],
            ob[r + 4],
            e === undefined ? 0 : eo[e + 1],
            e === undefined ? 0 : eo[e + 2],
          );
        }
        // Objects with edges only (seams) have no triangle range (in the order the Map kept them).
        for (const e of edgeRow.values()) if (!taken[e / 3]) idx.addRange(b, eo[e], 0, 0, 0, 0, eo[e + 1], eo[e + 2]);
      }
    });
  }

  /**
   * An index filled by `fill` and built, with `kernel` (undefined: the installed one, within
   * KERNEL_INDEX_MAX_BYTES for `bytes` of geometry). If the default kernel fails part-way (a trap, its
   * memory cannot grow), its store is freed, one line is logged and the index is built again on TypeScript;
   * a kernel passed explicitly lets the error through.
   */
  private static buildWith(
    kernel: GeometryKernel | null | undefined,
    bytes: number,
    fill: (idx: SectionIndex) => void,
  ): SectionIndex {
    const k = kernel === undefined ? indexKernelFor(bytes) : kernel;
    const idx = new SectionIndex(k);
    try {
      fill(idx);
      idx.build();
      return idx;
    } catch (e) {
      if (!k || kernel !== undefined) {
        idx.store?.free();
        throw e;
      }
      try {
        idx.store?.free();
      } catch {
        // A kernel that trapped may refuse this too; its FinalizationRegistry entry is gone either way.
      }
      console.warn(
        `Section index: the WebAssembly kernel failed (${(e as Error).message}); using the TypeScript kernel`,
      );
    }
    const ts = new SectionIndex(null);
    fill(ts);
    ts.build();
    return ts;
  }

  private addBatch(b: Omit<SectionBatch, 'bounds'>): number {
    this.batches.push({ ...b, bounds: batchBounds(b.positions, b.edges) });
    this.store?.addBatch(b.positions, b.indices);
    return this.batches.length - 1;
  }

  /**
   * A chunk's batch. With a kernel its positions are dequantised straight into the kernel's memory and
   * the batch reads them there (KernelBatch): no JavaScript copy of them is kept (at 500k parts about
   * 225 MB). @returns the batch number.
   */
  private addChunk(c: SceneChunk): number {
    if (!this.store) {
      const positions = decodeChunkPositions(c);
      return this.addBatch({
        positions,
        indices: c.indices,
        edges: c.edges.length ? decodeChunkEdges(c, positions) : null,
      });
    }
    const n = this.store.reserveBatch(c.positions.length / 3, c.indices);
    if (n !== this.batches.length)
      throw new Error(`Section index: kernel batch ${n} is not index batch ${this.batches.length}`);
    const positions = dequantiseInto(c.positions, c.bounds, this.store.positionsOf(n));
    const edges = c.edges.length ? decodeChunkEdges(c, positions) : null;
    this.batches.push(new KernelBatch(this.store, n, c.indices, edges, batchBounds(positions, edges)));
    return n;
  }

  private addRange(
    batch: number,
    object: number,
    vStart: number,
    vCount: number,
    iStart: number,
    iCount: number,
    eStart: number,
    eCount: number,
  ): void {
    const b = this.batches[batch];
    const bounds: Box3Tuple = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    grow(bounds, b.positions, vStart * 3, (vStart + vCount) * 3);
    if (b.edges && eCount > 0) grow(bounds, b.edges, eStart * 6, (eStart + eCount) * 6);
    if (!(bounds[0] <= bounds[3])) return;
    // Second level: each run of BLOCK_TRIANGLES triangles gets its own extent, so a plane touching a large
    // object slices only the blocks it crosses.
    if (this.store) {
      const blockStart = this.store.addBlocks(batch, iStart, iCount, 3 * BLOCK_TRIANGLES);
      const blockCount = Math.ceil(iCount / (3 * BLOCK_TRIANGLES));
      this.ranges.push({
        batch,
        object,
        indexStart: iStart,
        indexCount: iCount,
        edgeStart: eStart,
        edgeCount: eCount,
        bounds,
        blockStart,
        blockCount,
      });
      return;
    }
    const blockStart = this.blockLength / 6;
    const blocks = Math.ceil(iCount / (3 * BLOCK_TRIANGLES));
    if (this.blockLength + 6 * blocks > this.blockData.length) {
      const grown = new Float32Array(Math.max(2 * this.blockData.length, this.blockLength + 6 * blocks, 6 * 1024));
      grown.set(this.blockData.subarray(0, this.blockLength));
      this.blockData = grown;
    }
    const out = this.blockData;
    let w = this.blockLength;
    const p = b.positions,
      idx = b.indices;
    for (let t = iStart; t < iStart + iCount; t += 3 * BLOCK_TRIANGLES) {
      let x0 = Infinity,
        y0 = Infinity,
        z0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity,
        z1 = -Infinity;
      const end = Math.min(iStart + iCount, t + 3 * BLOCK_TRIANGLES);
      for (let i = t; i < end; i++) {
        const v = idx[i] * 3;
        const x = p[v],
          y = p[v + 1],
          z = p[v + 2];
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
      }
      out[w++] = x0;
      out[w++] = y0;
      out[w++] = z0;
      out[w++] = x1;
      out[w++] = y1;
      out[w++] = z1;
    }
    this.blockLength = w;
    this.ranges.push({
      batch,
      object,
      indexStart: iStart,
      indexCount: iCount,
      edgeStart: eStart,
      edgeCount: eCount,
      bounds,
      blockStart,
      blockCount: blocks,
    });
  }

  /** Builds the BVH (median split on the longest centroid axis by quickselect, leaves of up to 4 ranges). */
  private build(): void {
    // The block extents are minima and maxima of Float32 positions, hence exact Float32 values: stored as
    // they are, no triangle falls outside its block's extent (the kernel's extents are the same numbers).
    this.blockBounds = this.store ? this.store.blockBounds() : this.blockData.slice(0, this.blockLength);
    this.blockData = new Float32Array(0);
    this.blockLength = 0;
    const n = this.ranges.length;
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    const maxNodes = Math.max(1, 2 * Math.ceil(n / LEAF) + 1) * 2;
    this.nodeBounds = new Float64Array(maxNodes * 6);
    this.nodeA = new Int32Array(maxNodes);
    this.nodeB = new Int32Array(maxNodes);
    this.nodeLeaf = new Uint8Array(maxNodes);
    this.nodeCount = 0;
    this.flattenRanges();
    if (n === 0) return;
    // The range bounds and centroids travel with the order (selectNthCarried), so each node's pass reads
    // its ranges' rows in sequence: at 500k parts every level of the tree reads every range, and chasing
    // them (range objects, then rows by order) was most of the build. The rows end as `orderBounds`.
    const order = this.order,
      nb = this.nodeBounds;
    const ob = this.rangeBounds.slice();
    const cent = new Float64Array(n * 3);
    for (let i = 0; i < n * 3; i++) {
      const k = i % 3,
        o = (i - k) * 2;
      cent[i] = (ob[o + k] + ob[o + k + 3]) / 2;
    }
    // Pending nodes as (node, start, end) triples; depth-first, the left child's subtree after the right's.
    const stack = new Int32Array(3 * (2 * Math.ceil(Math.log2(n + 1)) + 4));
    let sp = 0;
    stack[sp++] = this.newNode();
    stack[sp++] = 0;
    stack[sp++] = n;
    const cb = new Float64Array(6);
    while (sp > 0) {
      const end = stack[--sp],
        start = stack[--sp],
        node = stack[--sp];
      const o = node * 6;
      if (end - start <= LEAF) {
        nb[o] = nb[o + 1] = nb[o + 2] = Infinity;
        nb[o + 3] = nb[o + 4] = nb[o + 5] = -Infinity;
        for (let i = start; i < end; i++)
          for (let k = 0; k < 3; k++) {
            if (ob[i * 6 + k] < nb[o + k]) nb[o + k] = ob[i * 6 + k];
            if (ob[i * 6 + k + 3] > nb[o + k + 3]) nb[o + k + 3] = ob[i * 6 + k + 3];
          }
        this.nodeLeaf[node] = 1;
        this.nodeA[node] = start;
        this.nodeB[node] = end - start;
        continue;
      }
      // An inner node's box is its children's union (below); here only the centroids' extent, which
      // picks the split axis.
      cb[0] = cb[1] = cb[2] = Infinity;
      cb[3] = cb[4] = cb[5] = -Infinity;
      for (let i = start; i < end; i++)
        for (let k = 0; k < 3; k++) {
          const c = cent[i * 3 + k];
          if (c < cb[k]) cb[k] = c;
          if (c > cb[k + 3]) cb[k + 3] = c;
        }
      let axis = 0;
      for (let k = 1; k < 3; k++) if (cb[k + 3] - cb[k] > cb[axis + 3] - cb[axis]) axis = k;
      const mid = (start + end) >> 1;
      selectNthCarried(order, start, end, mid, cent, ob, axis);
      const left = this.newNode(),
        right = this.newNode();
      this.nodeA[node] = left;
      this.nodeB[node] = right;
      stack[sp++] = left;
      stack[sp++] = start;
      stack[sp++] = mid;
      stack[sp++] = right;
      stack[sp++] = mid;
      stack[sp++] = end;
    }
    // Children are made after their parent: in reverse creation order every inner node's children
    // already have their boxes (the same minima and maxima a pass over its ranges finds).
    for (let node = this.nodeCount - 1; node >= 0; node--) {
      if (this.nodeLeaf[node]) continue;
      const o = node * 6,
        a = this.nodeA[node] * 6,
        b = this.nodeB[node] * 6;
      for (let k = 0; k < 3; k++) {
        nb[o + k] = nb[a + k] < nb[b + k] ? nb[a + k] : nb[b + k];
        nb[o + k + 3] = nb[a + k + 3] > nb[b + k + 3] ? nb[a + k + 3] : nb[b + k + 3];
      }
    }
    this.orderBounds = ob;
    this.stack = new Int32Array(this.nodeCount + 1);
    this.rankRanges();
    this.axisTrees = [0, 1, 2].map((k) => new AxisIntervalTree(this.rangeBounds, k as 0 | 1 | 2));
  }

  /**
   * Numbers the ranges in the order a depth-first walk of the whole BVH meets them (right child first, as
   * the query walked it): any query's ranges sorted by this number are in the order the BVH walk gave.
   */
  private rankRanges(): void {
    const n = this.ranges.length;
    this.rank = new Int32Array(n);
    this.byRank = new Int32Array(n);
    const stack = this.stack;
    let sp = 0,
      w = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp];
      if (this.nodeLeaf[node]) {
        const s = this.nodeA[node];
        for (let i = s; i < s + this.nodeB[node]; i++) {
          this.rank[this.order[i]] = w;
          this.byRank[w++] = this.order[i];
        }
      } else {
        stack[sp++] = this.nodeA[node];
        stack[sp++] = this.nodeB[node];
      }
    }
  }

  /** The flat range tables (see `rangeObject`). */
  private flattenRanges(): void {
    const n = this.ranges.length;
    this.rangeObject = new Int32Array(n);
    this.rangeSpan = new Uint32Array(n * 5);
    this.rangeBounds = new Float64Array(n * 6);
    for (let i = 0; i < n; i++) {
      const r = this.ranges[i];
      const s = i * 5,
        b = i * 6;
      this.rangeObject[i] = r.object;
      this.rangeSpan[s] = r.batch;
      this.rangeSpan[s + 1] = r.blockStart;
      this.rangeSpan[s + 2] = r.blockCount;
      this.rangeSpan[s + 3] = r.indexStart;
      this.rangeSpan[s + 4] = r.indexCount;
      for (let k = 0; k < 6; k++) this.rangeBounds[b + k] = r.bounds[k];
    }
  }

  private newNode(): number {
    return this.nodeCount++;
  }

  /** Model bounds (mm) of all ranges. */
  bounds(): Box3Tuple {
    if (this.nodeCount === 0) return [0, 0, 0, 0, 0, 0];
    return Array.from(this.nodeBounds.subarray(0, 6)) as Box3Tuple;
  }

  /**
   * Ranges whose bounds along `axis` (0 = X, 1 = Y, 2 = Z) reach the interval [lo, hi] (mm), found through
   * that axis's interval tree (AxisIntervalTree.ts) and listed in the BVH's depth-first order (as a walk of
   * the BVH finds them; computeSection's output depends on the order of an object's ranges).
   * @returns indices into `ranges`, in BVH order.
   */
  rangesInSlab(axis: 0 | 1 | 2, lo: number, hi: number): number[] {
    if (this.nodeCount === 0) return [];
    const tree = this.axisTrees[axis];
    const count = tree.query(lo, hi);
    const ranks = new Int32Array(count);
    for (let i = 0; i < count; i++) ranks[i] = this.rank[tree.hits[i]];
    ranks.sort();
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) out[i] = this.byRank[ranks[i]];
    return out;
  }

  /**
   * rangesInSlab by a walk of the 3D BVH over range bounds (the query before the per-axis trees; kept as
   * the reference the tests hold the trees to).
   */
  rangesInSlabBvh(axis: 0 | 1 | 2, lo: number, hi: number): number[] {
    const out: number[] = [];
    if (this.nodeCount === 0) return out;
    const stack = this.stack,
      nb = this.nodeBounds,
      ob = this.orderBounds,
      order = this.order,
      leaf = this.nodeLeaf,
      na = this.nodeA,
      nc = this.nodeB;
    // Depth-first with the right child pushed last.
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp];
      if (nb[node * 6 + axis] > hi || nb[node * 6 + axis + 3] < lo) continue;
      if (leaf[node]) {
        const s = na[node],
          e = s + nc[node];
        for (let i = s; i < e; i++) if (ob[i * 6 + axis] <= hi && ob[i * 6 + axis + 3] >= lo) out.push(order[i]);
      } else {
        stack[sp++] = na[node];
        stack[sp++] = nc[node];
      }
    }
    return out;
  }

  /**
   * Same answer as rangesInSlab without any index (the fair linear reference for tests and the bench):
   * visits every triangle vertex (and edge point) of every range and keeps the ranges whose extent along
   * `axis` reaches [lo, hi].
   */
  rangesLinear(axis: 0 | 1 | 2, lo: number, hi: number): number[] {
    const out: number[] = [];
    this.ranges.forEach((r, i) => {
      const b = this.batches[r.batch];
      let mn = Infinity,
        mx = -Infinity;
      const p = b.positions,
        idx = b.indices;
      for (let t = r.indexStart; t < r.indexStart + r.indexCount; t++) {
        const v = p[idx[t] * 3 + axis];
        if (v < mn) mn = v;
        if (v > mx) mx = v;
      }
      if (b.edges) {
        for (let e = r.edgeStart * 2; e < (r.edgeStart + r.edgeCount) * 2; e++) {
          const v = b.edges[e * 3 + axis];
          if (v < mn) mn = v;
          if (v > mx) mx = v;
        }
      }
      if (mn <= hi && mx >= lo) out.push(i);
    });
    return out;
  }
}

/**
 * A batch whose positions live only in the WebAssembly kernel's memory: `positions` is a view there,
 * made again when the memory has grown since (growth detaches the old view). Read it afresh after any
 * kernel call rather than keeping it.
 */
class KernelBatch implements SectionBatch {
  private view: Float32Array;
  constructor(
    private readonly store: KernelStore,
    /** The batch's number in the store (and in the index). */
    private readonly number: number,
    readonly indices: Uint32Array | Uint16Array,
    readonly edges: Float32Array | null,
    readonly bounds: Box3Tuple,
  ) {
    this.view = store.positionsOf(number);
  }

  get positions(): Float32Array {
    // A detached view has length 0; a batch without vertices has nothing to remake.
    if (this.view.length === 0) this.view = this.store.positionsOf(this.number);
    return this.view;
  }
}

/** Bounds (mm) of a batch's positions and edge points. */
function batchBounds(positions: Float32Array, edges: Float32Array | null): Box3Tuple {
  const bounds: Box3Tuple = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  grow(bounds, positions, 0, positions.length);
  if (edges) grow(bounds, edges, 0, edges.length);
  return bounds;
}

function grow(b: Box3Tuple, p: ArrayLike<number>, from: number, to: number): void {
  for (let i = from; i + 2 < to; i += 3) {
    const x = p[i],
      y = p[i + 1],
      z = p[i + 2];
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (z < b[2]) b[2] = z;
    if (x > b[3]) b[3] = x;
    if (y > b[4]) b[4] = y;
    if (z > b[5]) b[5] = z;
  }
}
