//! A whole section's slicing and chaining in one call (engine/section/section.ts with the kernel): the
//! host lists the objects the plane touches, each with the plane it is sliced at and its triangle ranges;
//! per object the kernel slices the ranges (only the triangle blocks that straddle the plane, or every
//! triangle for the linear reference) into the segment buffer and chains them, appending the object's
//! polylines to the output. Same slicing and chaining as `kk_slice_blocks` / `kk_slice_range` + `kk_chain`
//! per object, so the polylines are bit-identical; one call instead of several per object.

use crate::chain::{chain, Tolerances};
use crate::geom::{store, Indices};
use crate::slice::slice_tris;
use crate::state::{OUT_POLY, OUT_PTS, SEGS};

/// Per object: the plane it is sliced at (mm), its first range in JOB_RNG and its range count.
pub static mut JOB_OBJ: Vec<f64> = Vec::new();
/// Per range (5 u32): batch, first block, block count, first index, index count.
pub static mut JOB_RNG: Vec<u32> = Vec::new();
/// Per object (2 u32): polylines written, segments sliced.
pub static mut OUT_OBJ: Vec<u32> = Vec::new();

/// Sizes the job tables for `objects` objects and `ranges` ranges (contents undefined until the host
/// writes them); see `kk_job_obj_ptr` / `kk_job_rng_ptr`.
#[no_mangle]
pub extern "C" fn kk_job_reserve(objects: usize, ranges: usize) {
    unsafe {
        JOB_OBJ.resize(objects * 3, 0.0);
        JOB_RNG.resize(ranges * 5, 0);
    }
}

/// Offset of the object job table (3 f64 per object: slice plane mm, first range, range count).
#[no_mangle]
pub extern "C" fn kk_job_obj_ptr() -> *mut f64 {
    unsafe { JOB_OBJ.as_mut_ptr() }
}

/// Offset of the range job table (5 u32 per range: batch, first block, block count, first index, index count).
#[no_mangle]
pub extern "C" fn kk_job_rng_ptr() -> *mut u32 {
    unsafe { JOB_RNG.as_mut_ptr() }
}

/// Offset of the per-object output (2 u32 per object: polylines written, segments sliced).
#[no_mangle]
pub extern "C" fn kk_out_obj_ptr() -> *const u32 {
    unsafe { OUT_OBJ.as_ptr() }
}

/// Slices and chains the first `objects` objects of the job table against store `h` along `axis`,
/// every point's axis coordinate set to `project`; `linear` = 1 slices every triangle of a range, else
/// only its blocks that straddle the object's plane (`block_indices` indices per block); tolerances as
/// `kk_chain`'s (mm). Polylines go to
/// OUT_PTS / OUT_POLY in object order, their counts to OUT_OBJ. Returns the number of polylines.
#[no_mangle]
pub extern "C" fn kk_section(
    h: u32,
    objects: usize,
    axis: u32,
    project: f64,
    block_indices: usize,
    linear: u32,
    closed_tol: f64,
    zero_len: f64,
    collinear_tol: f64,
) -> u32 {
    let g = store(h);
    let tol = Tolerances { closed: closed_tol, zero_len, collinear: collinear_tol };
    let axis = (axis as usize).min(2);
    let (jobs, rngs) = unsafe { (&JOB_OBJ[..objects * 3], &JOB_RNG[..]) };
    let (segs, out_pts, out_poly, out_obj) = unsafe { (&mut SEGS, &mut OUT_PTS, &mut OUT_POLY, &mut OUT_OBJ) };
    out_pts.clear();
    out_poly.clear();
    out_obj.clear();
    let bb = &g.blocks[..];
    let mut total = 0;
    for o in 0..objects {
        let c = jobs[o * 3];
        let first = jobs[o * 3 + 1] as usize;
        let count = jobs[o * 3 + 2] as usize;
        segs.clear();
        for r in first..first + count {
            let q = &rngs[r * 5..r * 5 + 5];
            let batch = &g.batches[q[0] as usize];
            let (block_start, block_count, start, n) = (q[1] as usize, q[2] as usize, q[3] as usize, q[4] as usize);
            if n == 0 {
                continue;
            }
            if linear != 0 {
                match &batch.indices {
                    Indices::U16(ix) => slice_tris(&batch.positions, ix, start, n, axis, c, project, segs),
                    Indices::U32(ix) => slice_tris(&batch.positions, ix, start, n, axis, c, project, segs),
                };
                continue;
            }
            let end = start + n;
            for i in 0..block_count {
                let b = (block_start + i) * 6;
                if !((bb[b + axis] as f64) < c && bb[b + axis + 3] as f64 >= c) {
                    continue;
                }
                let t0 = start + i * block_indices;
                let cnt = end.min(t0 + block_indices) - t0;
                match &batch.indices {
                    Indices::U16(ix) => slice_tris(&batch.positions, ix, t0, cnt, axis, c, project, segs),
                    Indices::U32(ix) => slice_tris(&batch.positions, ix, t0, cnt, axis, c, project, segs),
                };
            }
        }
        let n_seg = segs.len() / 6;
        let polys = if n_seg > 0 { chain(segs, tol, axis, project, out_pts, out_poly) } else { 0 };
        out_obj.extend_from_slice(&[polys, n_seg as u32]);
        total += polys;
    }
    total
}
