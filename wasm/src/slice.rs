//! Plane slicing: triangles ∩ the plane axis = c → segments appended to the shared segment buffer.
//! Same rules as engine/section/slice.ts `sliceTrianglesInto`: a vertex on the plane counts as on the
//! positive side, crossing points are interpolated from the negative to the positive vertex, and the
//! axis coordinate of every point is set to `project`.

use crate::geom::{store, Indices};
use crate::state::SEGS;

/// The point where the edge from vertex offset `a` (signed distance `da` to the plane) to `b` (`db`)
/// crosses the plane: interpolated from the negative to the positive vertex, coordinate `AXIS` set to
/// `project` (the other two are the only ones computed; the axis value would be overwritten anyway).
/// The caller has checked that `a + 2` and `b + 2` are within `p`.
#[inline(always)]
unsafe fn crossing<const AXIS: usize>(p: &[f32], a: usize, da: f64, b: usize, db: f64, project: f64, q: *mut f64) {
    let (neg, pos, dn, dp) = if da >= 0.0 { (b, a, db, da) } else { (a, b, da, db) };
    let t = dn / (dn - dp);
    for k in 0..3 {
        *q.add(k) = if k == AXIS {
            project
        } else {
            let n = *p.get_unchecked(neg + k) as f64;
            n + (*p.get_unchecked(pos + k) as f64 - n) * t
        };
    }
}

/// `slice_tris` for one axis known at compile time (the crossing skips the axis coordinate).
fn slice_axis<I: Copy + Into<u32>, const AXIS: usize>(
    p: &[f32],
    ix: &[I],
    start: usize,
    count: usize,
    c: f64,
    project: f64,
    out: &mut Vec<f64>,
) -> u32 {
    let mut n = 0;
    let tris = &ix[start..start + count];
    // At most one segment (6 values) per triangle: reserve once, then write through a pointer into the
    // reserved room (no capacity check per segment).
    out.reserve(tris.len() / 3 * 6);
    let base = out.len();
    let mut w = unsafe { out.as_mut_ptr().add(base) };
    for t in tris.chunks_exact(3) {
        let a = t[0].into() as usize * 3;
        let b = t[1].into() as usize * 3;
        let d = t[2].into() as usize * 3;
        // One check for the nine coordinates read below; an index out of range panics (traps) as
        // indexing would.
        let hi = a.max(b).max(d);
        if hi + 2 >= p.len() {
            panic!("triangle index out of range");
        }
        let (da, db, dd) = unsafe {
            (
                *p.get_unchecked(a + AXIS) as f64 - c,
                *p.get_unchecked(b + AXIS) as f64 - c,
                *p.get_unchecked(d + AXIS) as f64 - c,
            )
        };
        let (na, nb, nd) = (da < 0.0, db < 0.0, dd < 0.0);
        if na == nb && nb == nd {
            continue;
        }
        // The lone vertex is the one whose side differs from the other two.
        let (lone, dl, o1, d1, o2, d2) = if na != nb && na != nd {
            (a, da, b, db, d, dd)
        } else if nb != na && nb != nd {
            (b, db, d, dd, a, da)
        } else {
            (d, dd, a, da, b, db)
        };
        unsafe {
            crossing::<AXIS>(p, lone, dl, o1, d1, project, w);
            crossing::<AXIS>(p, lone, dl, o2, d2, project, w.add(3));
            w = w.add(6);
        }
        n += 1;
    }
    unsafe { out.set_len(base + n as usize * 6) };
    n
}

/// Slices triangles `ix[start .. start+count)` (3 indices each) against axis = c; returns segments appended.
pub fn slice_tris<I: Copy + Into<u32>>(
    p: &[f32],
    ix: &[I],
    start: usize,
    count: usize,
    axis: usize,
    c: f64,
    project: f64,
    out: &mut Vec<f64>,
) -> u32 {
    match axis {
        0 => slice_axis::<I, 0>(p, ix, start, count, c, project, out),
        1 => slice_axis::<I, 1>(p, ix, start, count, c, project, out),
        _ => slice_axis::<I, 2>(p, ix, start, count, c, project, out),
    }
}

/// Slices indices `start .. start+count` of batch `b` of store `h` at axis = c (every triangle tested),
/// appending to the segment buffer with the axis coordinate set to `project`; returns segments appended.
#[no_mangle]
pub extern "C" fn kk_slice_range(h: u32, b: u32, start: usize, count: usize, axis: u32, c: f64, project: f64) -> u32 {
    let batch = &store(h).batches[b as usize];
    let out = unsafe { &mut SEGS };
    let axis = (axis as usize).min(2);
    match &batch.indices {
        Indices::U16(ix) => slice_tris(&batch.positions, ix, start, count, axis, c, project, out),
        Indices::U32(ix) => slice_tris(&batch.positions, ix, start, count, axis, c, project, out),
    }
}

/// Slices only the triangle blocks of a range that straddle `c` (block extent min < c ≤ max along the
/// axis): blocks `block_start .. block_start+block_count` of store `h` cover indices `start ..
/// start+count` of batch `b`, `block_indices` indices each. Returns segments appended.
#[no_mangle]
pub extern "C" fn kk_slice_blocks(
    h: u32,
    b: u32,
    block_start: usize,
    block_count: usize,
    start: usize,
    count: usize,
    block_indices: usize,
    axis: u32,
    c: f64,
    project: f64,
) -> u32 {
    let g = store(h);
    let batch = &g.batches[b as usize];
    let bb = &g.blocks[..];
    let out = unsafe { &mut SEGS };
    let axis = (axis as usize).min(2);
    let end = start + count;
    let mut n = 0;
    for i in 0..block_count {
        let o = (block_start + i) * 6;
        if !((bb[o + axis] as f64) < c && bb[o + axis + 3] as f64 >= c) {
            continue;
        }
        let t0 = start + i * block_indices;
        let cnt = end.min(t0 + block_indices) - t0;
        n += match &batch.indices {
            Indices::U16(ix) => slice_tris(&batch.positions, ix, t0, cnt, axis, c, project, out),
            Indices::U32(ix) => slice_tris(&batch.positions, ix, t0, cnt, axis, c, project, out),
        };
    }
    n
}

/// Slices host-provided arrays: `tris` triangles given as 9 f32 each (positions inline, no indices)
/// at `ptr`, appending to the segment buffer. Used by the parity tests and for one-off geometry.
#[no_mangle]
pub extern "C" fn kk_slice_soup(ptr: *const f32, tris: usize, axis: u32, c: f64, project: f64) -> u32 {
    let p = unsafe { std::slice::from_raw_parts(ptr, tris * 9) };
    let ix: Vec<u32> = (0..(tris * 3) as u32).collect();
    slice_tris(p, &ix, 0, tris * 3, (axis as usize).min(2), c, project, unsafe { &mut SEGS })
}
