/**
 * Bindings of the WebAssembly geometry kernel (wasm/src): plane slicing and segment chaining for
 * sections and clipping caps (viewer.md §4 "Section drawing", §9 polyline tolerances), and the triangle
 * block extents of the section index build. Geometry is copied once per batch into the module's linear
 * memory (a KernelStore, one per SectionIndex) and the kernels work on offsets into it; their results
 * are bit-identical to the TypeScript reference (engine/section/slice.ts, SectionIndex.ts), which stays
 * the fallback when WebAssembly is unavailable (engine/wasm/install.ts). World millimetres throughout.
 *
 * Views on the memory are made afresh after every call that may grow it (growth detaches the buffer).
 */
import { POLYLINE_TOLERANCE_MM, type SectionPolyline } from '../section/types';
import { KERNEL_EXPORTS, type KernelExports } from './exports';

/** One index's geometry inside the kernel's memory. Freed by `free()` or when garbage-collected. */
export class KernelStore {
  private freed = false;
  constructor(
    readonly kernel: GeometryKernel,
    /** The kernel's handle of this store. */
    readonly handle: number,
  ) {}

  /** Vertices per batch (`positionsOf`'s view length / 3). */
  private readonly vertexCounts: number[] = [];

  /** Copies a batch (world-mm positions, triangle indices) into the store. @returns its batch number. */
  addBatch(positions: Float32Array, indices: Uint16Array | Uint32Array): number {
    const b = this.reserveBatch(positions.length / 3, indices);
    this.positionsOf(b).set(positions);
    return b;
  }

  /**
   * Adds a batch of `vertices` vertices whose positions the caller writes into `positionsOf` (no
   * JavaScript copy of them need exist), with its triangle indices copied in. @returns its batch number.
   */
  reserveBatch(vertices: number, indices: Uint16Array | Uint32Array): number {
    const x = this.kernel.exports;
    const wide = indices instanceof Uint32Array ? 1 : 0;
    const b = x.kk_geom_add_batch(this.handle, vertices, indices.length, wide);
    this.vertexCounts[b] = vertices;
    const at = x.kk_geom_indices(this.handle, b) >>> 0;
    if (wide) new Uint32Array(x.memory.buffer, at, indices.length).set(indices);
    else new Uint16Array(x.memory.buffer, at, indices.length).set(indices);
    return b;
  }

  /**
   * Batch `b`'s positions (xyz mm) in the kernel's memory: a view, valid until the memory grows (any later
   * kernel call may grow it; a detached view has length 0). @throws Error for a batch not in the store or a
   * freed store.
   */
  positionsOf(b: number): Float32Array {
    const n = this.vertexCounts[b];
    if (n === undefined) throw new Error(`Kernel store: no batch ${b}`);
    if (this.freed) throw new Error(`Kernel store: batch ${b} was freed with its store`);
    const x = this.kernel.exports;
    return new Float32Array(x.memory.buffer, x.kk_geom_positions(this.handle, b) >>> 0, 3 * n);
  }

  /**
   * Appends the extents of the triangle blocks of indices `start .. start+count` of batch `b`
   * (`blockIndices` indices per block, the last one shorter). @returns the number of the first block added.
   */
  addBlocks(b: number, start: number, count: number, blockIndices: number): number {
    return this.kernel.exports.kk_geom_blocks(this.handle, b, start, count, blockIndices);
  }

  /** A copy of every block extent so far (6 per block: min xyz, max xyz, mm). */
  blockBounds(): Float32Array<ArrayBuffer> {
    const x = this.kernel.exports;
    const n = x.kk_geom_block_count(this.handle) * 6;
    const out = new Float32Array(n);
    out.set(new Float32Array(x.memory.buffer, x.kk_geom_blocks_ptr(this.handle) >>> 0, n));
    return out;
  }

  /** Widens `out` (min xyz, max xyz, mm) by vertices `start .. start+count` of batch `b`. */
  vertexBounds(b: number, start: number, count: number, out: number[]): void {
    const k = this.kernel;
    const scratch = k.scratch6();
    new Float64Array(k.exports.memory.buffer, scratch, 6).set(out);
    k.exports.kk_geom_vertex_bounds(this.handle, b, start, count, scratch);
    const r = new Float64Array(k.exports.memory.buffer, scratch, 6);
    for (let i = 0; i < 6; i++) out[i] = r[i];
  }

  /** Releases the store's memory in the kernel (idempotent). */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    storeRegistry.unregister(this);
    this.kernel.exports.kk_geom_free(this.handle);
  }
}

const storeRegistry = new FinalizationRegistry<{ exports: KernelExports; handle: number }>((s) =>
  s.exports.kk_geom_free(s.handle),
);

/** An instantiated kernel. One per thread (worker or Node process); not shared between threads. */
export class GeometryKernel {
  private scratch = 0;
  /** Whole-memory views, remade only when the memory has grown (its buffer is then a new object). */
  private buffer: ArrayBuffer | null = null;
  private heap = { f64: new Float64Array(0), u32: new Uint32Array(0) };

  /** Float64 and Uint32 views of the whole memory, current after any growth. */
  private views(): { f64: Float64Array; u32: Uint32Array } {
    const b = this.exports.memory.buffer;
    if (b !== this.buffer) {
      this.buffer = b;
      this.heap = { f64: new Float64Array(b), u32: new Uint32Array(b) };
    }
    return this.heap;
  }

  private constructor(readonly exports: KernelExports) {}

  /**
   * Wraps an instance of keelson_kernel.wasm.
   * @throws Error naming the first missing export when the module is not the kernel.
   */
  static fromInstance(instance: WebAssembly.Instance): GeometryKernel {
    const x = instance.exports as unknown as KernelExports;
    for (const name of KERNEL_EXPORTS)
      if (!(name in instance.exports)) throw new Error(`Not the Keelson geometry kernel: export ${name} is missing`);
    return new GeometryKernel(x);
  }

  /** Instantiates a compiled module synchronously (Node, or a worker that already holds the Module). */
  static fromModule(module: WebAssembly.Module): GeometryKernel {
    return GeometryKernel.fromInstance(new WebAssembly.Instance(module, {}));
  }

  /** Compiles and instantiates the module's bytes (the browser fetches them; Node reads the file). */
  static async fromBytes(bytes: BufferSource): Promise<GeometryKernel> {
    const { instance } = await WebAssembly.instantiate(bytes, {});
    return GeometryKernel.fromInstance(instance);
  }

  /** Offset of 6 f64 of scratch for small results. */
  scratch6(): number {
    if (!this.scratch) this.scratch = this.exports.kk_alloc(48) >>> 0;
    return this.scratch;
  }

  /**
   * The kernel's memory, bytes: `total` = the module's linear memory, `arena` = large blocks in use (batches,
   * block extents, buffers; whole 64 KiB pages), `arenaFree` = arena pages freed and kept for reuse.
   */
  memoryStats(): { total: number; arena: number; arenaFree: number } {
    const x = this.exports;
    return {
      total: x.memory.buffer.byteLength,
      arena: x.kk_arena_bytes() >>> 0,
      arenaFree: x.kk_arena_free_bytes() >>> 0,
    };
  }

  /** A new empty geometry store (freed with the object that holds it, or by `free()`). */
  createStore(): KernelStore {
    const s = new KernelStore(this, this.exports.kk_geom_new());
    storeRegistry.register(s, { exports: this.exports, handle: s.handle }, s);
    return s;
  }

  /** Empties the segment buffer. */
  clearSegments(): void {
    this.exports.kk_seg_clear();
  }

  /** Number of segments in the segment buffer. */
  segmentCount(): number {
    return (this.exports.kk_seg_len() >>> 0) / 6;
  }

  /** A copy of the segment buffer (6 values per segment, mm). */
  segments(): Float64Array<ArrayBuffer> {
    const x = this.exports;
    const n = x.kk_seg_len() >>> 0;
    const out = new Float64Array(n);
    out.set(new Float64Array(x.memory.buffer, x.kk_seg_ptr() >>> 0, n));
    return out;
  }

  /** Appends host segments (6 values each, mm) to the segment buffer. */
  pushSegments(values: ArrayLike<number>): void {
    const x = this.exports;
    const at = (x.kk_seg_reserve(values.length) >>> 0) / 8;
    this.views().f64.set(values, at);
  }

  /**
   * Slices every triangle of indices `start .. start+count` of batch `b` of `store` with the plane
   * `axis` = `c`, appending segments whose axis coordinate is `project`. @returns segments appended.
   */
  sliceRange(store: KernelStore, b: number, start: number, count: number, axis: 0 | 1 | 2, c: number, project = c) {
    return this.exports.kk_slice_range(store.handle, b, start, count, axis, c, project);
  }

  /**
   * As sliceRange, but only the triangle blocks (`blockIndices` indices each, blocks `blockStart ..
   * blockStart+blockCount` of the store) whose extent straddles `c`. @returns segments appended.
   */
  sliceBlocks(
    store: KernelStore,
    b: number,
    blockStart: number,
    blockCount: number,
    start: number,
    count: number,
    blockIndices: number,
    axis: 0 | 1 | 2,
    c: number,
    project = c,
  ): number {
    return this.exports.kk_slice_blocks(
      store.handle,
      b,
      blockStart,
      blockCount,
      start,
      count,
      blockIndices,
      axis,
      c,
      project,
    );
  }

  /** Slices a triangle soup (9 values per triangle, mm) into the segment buffer. @returns segments appended. */
  sliceSoup(triangles: Float32Array, axis: 0 | 1 | 2, c: number, project = c): number {
    const x = this.exports;
    const bytes = triangles.byteLength;
    const at = x.kk_alloc(bytes) >>> 0;
    try {
      new Float32Array(x.memory.buffer, at, triangles.length).set(triangles);
      return x.kk_slice_soup(at, triangles.length / 9, axis, c, project);
    } finally {
      x.kk_free(at, bytes);
    }
  }

  /**
   * The job tables of a whole-section call, sized for `objects` objects and `ranges` ranges, as views to
   * fill: `obj` 3 values per object (slice plane mm, first range, range count), `rng` 5 per range (batch,
   * first block, block count, first index, index count). Valid until the next kernel call.
   */
  sectionJobs(objects: number, ranges: number): { obj: Float64Array; rng: Uint32Array } {
    const x = this.exports;
    x.kk_job_reserve(objects, ranges);
    const b = x.memory.buffer;
    return {
      obj: new Float64Array(b, x.kk_job_obj_ptr() >>> 0, objects * 3),
      rng: new Uint32Array(b, x.kk_job_rng_ptr() >>> 0, ranges * 5),
    };
  }

  /**
   * Slices and chains the `objects` objects of the job tables (see sectionJobs) against `store` along
   * `axis`, each at its own plane, every point's axis coordinate set to `project`: per range only the
   * triangle blocks (`blockIndices` indices each) that straddle the plane, or with `linear` every
   * triangle. Same polylines as sliceBlocks / sliceRange then chain per object, in one call; a section's
   * points within `collinearTol` mm of the line between their neighbours are dropped (as section.ts does).
   * @returns per object its polylines and the number of segments sliced (0: nothing to chain).
   */
  section(
    store: KernelStore,
    objects: number,
    axis: 0 | 1 | 2,
    project: number,
    blockIndices: number,
    linear: boolean,
    closedTol: number = POLYLINE_TOLERANCE_MM.closed,
    zeroLen: number = POLYLINE_TOLERANCE_MM.zeroLength,
    collinearTol: number = POLYLINE_TOLERANCE_MM.collinear,
  ): { curves: SectionPolyline[][]; segments: Uint32Array } {
    const x = this.exports;
    x.kk_section(store.handle, objects, axis, project, blockIndices, linear ? 1 : 0, closedTol, zeroLen, collinearTol);
    const { f64, u32 } = this.views();
    const per = (x.kk_out_obj_ptr() >>> 0) / 4,
      poly = (x.kk_out_poly_ptr() >>> 0) / 4,
      pts = (x.kk_out_pts_ptr() >>> 0) / 8;
    const curves: SectionPolyline[][] = new Array(objects);
    const segments = new Uint32Array(objects);
    let total = 0;
    for (let o = 0; o < objects; o++) total += u32[per + o * 2];
    const points = copyPoints(f64, u32, poly, pts, total);
    for (let o = 0, p = 0; o < objects; o++) {
      const n = u32[per + o * 2];
      segments[o] = u32[per + o * 2 + 1];
      curves[o] = polylineViews(points, u32, poly, p, n);
      p += n;
    }
    return { curves, segments };
  }

  /**
   * Chains the segment buffer into polylines with the tolerances of slice.ts `chainSegments` (closed
   * 1 mm, zero length 1e-3 mm by default): the same polylines in the same order. `fixed` tells the kernel
   * that every point's coordinate `axis` is `value` (mm; a section's projected axis, as `section` does), which
   * makes the weld cheaper and must not change the result; wrong, it welds points that differ there.
   * `collinearTol` (mm, 0 = none, as `chainSegments`) drops points within it of the line between their neighbours.
   */
  chain(
    closedTol: number = POLYLINE_TOLERANCE_MM.closed,
    zeroLen: number = POLYLINE_TOLERANCE_MM.zeroLength,
    fixed?: { axis: 0 | 1 | 2; value: number },
    collinearTol = 0,
  ) {
    const x = this.exports;
    const n = x.kk_chain(closedTol, zeroLen, fixed ? fixed.axis : 3, fixed ? fixed.value : 0, collinearTol);
    if (n === 0) return [];
    const { f64, u32 } = this.views();
    // Offsets are 8-aligned (f64) and 4-aligned (u32) allocations.
    const poly = (x.kk_out_poly_ptr() >>> 0) / 4;
    return polylineViews(copyPoints(f64, u32, poly, (x.kk_out_pts_ptr() >>> 0) / 8, n), u32, poly, 0, n);
  }
}

/**
 * The points (xyz mm) of the chaining kernel's first `count` polylines, copied out of the module's memory
 * once into one buffer: its polyline table at u32 offset `poly` (per polyline: first value in the points,
 * value count, closed 1 / open 0), its points at f64 offset `pts`. One buffer means no per-point JavaScript
 * values, and one buffer for the structured clone to the UI thread.
 */
function copyPoints(f64: Float64Array, u32: Uint32Array, poly: number, pts: number, count: number): Float64Array {
  let end = 0;
  for (let i = 0; i < count; i++) end = Math.max(end, u32[poly + i * 3] + u32[poly + i * 3 + 1]);
  return f64.slice(pts, pts + end);
}

/** Polylines `first .. first+count` of the kernel's table at u32 offset `poly`, as views into `points` (copyPoints). */
function polylineViews(
  points: Float64Array,
  u32: Uint32Array,
  poly: number,
  first: number,
  count: number,
): SectionPolyline[] {
  const out: SectionPolyline[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const r = poly + (first + i) * 3,
      s = u32[r];
    out[i] = { points: points.subarray(s, s + u32[r + 1]), closed: u32[r + 2] === 1 };
  }
  return out;
}
