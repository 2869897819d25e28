//! Keelson's geometry kernel for WebAssembly (wasm32-unknown-unknown).
//!
//! The host (engine/wasm/kernel.ts) copies each batch of geometry (world-mm Float32 positions and
//! 16- or 32-bit triangle indices) once into this module's linear memory, then calls the kernels on
//! offsets into it: no per-object copies. Every kernel reproduces the TypeScript reference in
//! engine/section (slice.ts, SectionIndex.ts) operation for operation, so results are bit-identical.
//!
//! Exports are plain `extern "C"` functions on numbers (pointers are byte offsets into memory):
//! - `mem`: allocation for the host's own buffers;
//! - `geom`: geometry stores (batches, triangle-block extents: the section index build kernel);
//! - `slice`: triangles ∩ axis plane → segments in the shared segment buffer;
//! - `chain`: segments → polylines (welded, walked, open chains joined), written to the output buffers.

mod chain;
mod geom;
mod jsmath;
mod mem;
mod slice;
mod state;
