//! A whole section's slicing and chaining in one call (engine/section/section.ts with the kernel): the
//! host lists the objects the plane touches, each with the plane it is sliced at and its triangle ranges;
//! per object the kernel slices the ranges (only the triangle blocks that straddle the plane, or every
//! triangle for the linear reference) into the segment buffer and chains them, appending the object's
//! polylines to the output. Same slicing and chaining as `kk_slice_blocks` / `kk_slice_range` + `kk_chain`
//! per object, so the polylines are bit-identical; one call instead of several per object.

use crate::chain::chain;
use crate::geom::{store, Indices};
use crate::slice::slice_tris;
use crate::state::{OUT_POLY, OUT_PTS, SEGS};

/// Per object (4 f64): the plane it is sliced at (mm), its first range in JOB_RNG, its range count, and
/// 1 when its polylines are to be measured (see OUT_MEASURE), else 0.
pub static mut JOB_OBJ: Vec<f64> = Vec::new();
/// Per range (5 u32): batch, first block, block count, first index, index count.
pub static mut JOB_RNG: Vec<u32> = Vec::new();
/// Per object (2 u32): polylines written, segments sliced.
pub static mut OUT_OBJ: Vec<u32> = Vec::new();
/// Per polyline written (2 f64, in output order): for the objects marked to be measured, the sum of its
/// segment lengths from the first point to the last (not the closing one) and its shoelace sum on the
/// two in-plane axes (with the closing term when closed), summed in the order engine/section/slice.ts
/// `polylineLength` and `closedLengthAndArea` sum them, so the plate dimensions need not read the points
/// again; 0 for the other objects.
pub static mut OUT_MEASURE: Vec<f64> = Vec::new();

/// Sizes the job tables for `objects` objects and `ranges` ranges (contents undefined until the host
/// writes them); see `kk_job_obj_ptr` / `kk_job_rng_ptr`.
#[no_mangle]
pub extern "C" fn kk_job_reserve(objects: usize, ranges: usize) {
    unsafe {
        JOB_OBJ.resize(objects * 4, 0.0);
        JOB_RNG.resize(ranges * 5, 0);
    }
}

/// Offset of the object job table (4 f64 per object: slice plane mm, first range, range count, measure).
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

/// Offset of the per-polyline measures (2 f64 per polyline, see OUT_MEASURE).
#[no_mangle]
pub extern "C" fn kk_out_measure_ptr() -> *const f64 {
    unsafe { OUT_MEASURE.as_ptr() }
}

/// Open length and shoelace sum of flat xyz points (see OUT_MEASURE); `u`, `v` the in-plane axes.
fn measure(p: &[f64], closed: bool, u: usize, v: usize) -> [f64; 2] {
    let n = p.len() / 3;
    let (mut l, mut a) = (0.0, 0.0);
    for i in 1..n {
        let x = p[i * 3] - p[i * 3 - 3];
        let y = p[i * 3 + 1] - p[i * 3 - 2];
        let z = p[i * 3 + 2] - p[i * 3 - 1];
        l += (x * x + y * y + z * z).sqrt();
        a += p[i * 3 - 3 + u] * p[i * 3 + v] - p[i * 3 + u] * p[i * 3 - 3 + v];
    }
    if closed && n > 0 {
        a += p[(n - 1) * 3 + u] * p[v] - p[u] * p[(n - 1) * 3 + v];
    }
    [l, a]
}

/// Slices and chains the first `objects` objects of the job table against store `h` along `axis`,
/// every point's axis coordinate set to `project`; `linear` = 1 slices every triangle of a range, else
/// only its blocks that straddle the object's plane (`block_indices` indices per block). Polylines go to
/// OUT_PTS / OUT_POLY in object order, their counts to OUT_OBJ, their measures to OUT_MEASURE. Returns
/// the number of polylines.
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
) -> u32 {
    let g = store(h);
    let axis = (axis as usize).min(2);
    let (jobs, rngs) = unsafe { (&JOB_OBJ[..objects * 4], &JOB_RNG[..]) };
    let (segs, out_pts, out_poly, out_obj, out_measure) =
        unsafe { (&mut SEGS, &mut OUT_PTS, &mut OUT_POLY, &mut OUT_OBJ, &mut OUT_MEASURE) };
    out_pts.clear();
    out_poly.clear();
    out_obj.clear();
    out_measure.clear();
    let (u, v) = (if axis == 0 { 1 } else { 0 }, if axis == 2 { 1 } else { 2 });
    let bb = &g.blocks[..];
    let mut total = 0;
    for o in 0..objects {
        let c = jobs[o * 4];
        let first = jobs[o * 4 + 1] as usize;
        let count = jobs[o * 4 + 2] as usize;
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
        let polys = if n_seg > 0 { chain(segs, closed_tol, zero_len, axis, project, out_pts, out_poly) } else { 0 };
        out_obj.extend_from_slice(&[polys, n_seg as u32]);
        let measured = jobs[o * 4 + 3] != 0.0;
        for q in out_poly[out_poly.len() - polys as usize * 3..].chunks_exact(3) {
            let m = if measured {
                measure(&out_pts[q[0] as usize..(q[0] + q[1]) as usize], q[2] == 1, u, v)
            } else {
                [0.0, 0.0]
            };
            out_measure.extend_from_slice(&m);
        }
        total += polys;
    }
    total
}
