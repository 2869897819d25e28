/**
 * The raw exports of the Rust geometry kernel (wasm/src; built into wasm/dist/keelson_kernel.wasm).
 * Pointers are byte offsets into `memory` (wasm32: read them with `>>> 0`), sizes are counts of
 * elements unless named bytes. See wasm/src/*.rs for each function's contract.
 */
export interface KernelExports {
  memory: WebAssembly.Memory;
  kk_alloc(bytes: number): number;
  kk_free(ptr: number, bytes: number): void;
  kk_arena_bytes(): number;
  kk_arena_free_bytes(): number;
  kk_seg_clear(): void;
  kk_seg_len(): number;
  kk_seg_ptr(): number;
  kk_seg_reserve(values: number): number;
  kk_out_pts_ptr(): number;
  kk_out_poly_ptr(): number;
  kk_geom_new(): number;
  kk_geom_free(h: number): void;
  kk_geom_add_batch(h: number, vertices: number, indices: number, wide: number): number;
  kk_geom_positions(h: number, b: number): number;
  kk_geom_indices(h: number, b: number): number;
  kk_geom_block_count(h: number): number;
  kk_geom_blocks_ptr(h: number): number;
  kk_geom_blocks(h: number, b: number, start: number, count: number, blockIndices: number): number;
  kk_geom_vertex_bounds(h: number, b: number, start: number, count: number, out: number): void;
  kk_slice_range(h: number, b: number, start: number, count: number, axis: number, c: number, project: number): number;
  kk_slice_blocks(
    h: number,
    b: number,
    blockStart: number,
    blockCount: number,
    start: number,
    count: number,
    blockIndices: number,
    axis: number,
    c: number,
    project: number,
  ): number;
  kk_slice_soup(ptr: number, triangles: number, axis: number, c: number, project: number): number;
  kk_chain(closedTol: number, zeroLen: number, fixedAxis: number, fixedValue: number, collinearTol: number): number;
  kk_job_reserve(objects: number, ranges: number): void;
  kk_job_obj_ptr(): number;
  kk_job_rng_ptr(): number;
  kk_out_obj_ptr(): number;
  kk_section(
    h: number,
    objects: number,
    axis: number,
    project: number,
    blockIndices: number,
    linear: number,
    closedTol: number,
    zeroLen: number,
    collinearTol: number,
  ): number;
}

/** Names every export the bindings need: a module missing one is refused at load. */
export const KERNEL_EXPORTS: readonly (keyof KernelExports)[] = [
  'memory',
  'kk_alloc',
  'kk_free',
  'kk_arena_bytes',
  'kk_arena_free_bytes',
  'kk_seg_clear',
  'kk_seg_len',
  'kk_seg_ptr',
  'kk_seg_reserve',
  'kk_out_pts_ptr',
  'kk_out_poly_ptr',
  'kk_geom_new',
  'kk_geom_free',
  'kk_geom_add_batch',
  'kk_geom_positions',
  'kk_geom_indices',
  'kk_geom_block_count',
  'kk_geom_blocks_ptr',
  'kk_geom_blocks',
  'kk_geom_vertex_bounds',
  'kk_slice_range',
  'kk_slice_blocks',
  'kk_slice_soup',
  'kk_chain',
  'kk_job_reserve',
  'kk_job_obj_ptr',
  'kk_job_rng_ptr',
  'kk_out_obj_ptr',
  'kk_section',
];
