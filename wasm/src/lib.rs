//! Keelson's geometry kernel for WebAssembly (wasm32-unknown-unknown).
//!
//! The host (engine/wasm/kernel.ts) copies each batch of geometry (world-mm Float32 positions and
//! 16- or 32-bit triangle indices) once into this module's linear memory, then calls the kernels on
//! offsets into it: no per-object copies. Every kernel reproduces the TypeScript reference in
//! engine/section (slice.ts, SectionIndex.ts) operation for operation, so results are bit-identical.
//!
//! Memory: large blocks (batches, block extents, segment and output buffers) come from the kernel's own
//! page arena (`arena`), so copying a large model in costs time linear in its size.
//!
//! Exports are plain `extern "C"` functions on numbers (pointers are byte offsets into memory):
//! - `arena`: the global allocator (page arena for large blocks) and its memory figures;
//! - `mem`: allocation for the host's own buffers;
//! - `geom`: geometry stores (batches, triangle-block extents: the section index build kernel);
//! - `slice`: triangles ∩ axis plane → segments in the shared segment buffer;
//! - `chain`: segments → polylines (welded, walked, open chains joined), written to the output buffers;
//! - `section`: a whole section's slicing and chaining, object by object, in one call.

mod arena;
mod chain;
mod geom;
mod jsmath;
mod mem;
mod section;
mod slice;
mod state;
