//! The module's shared buffers: the segment buffer the slicing kernels append to and the chaining
//! kernel reads, and the polyline output of the chaining kernel. Single-threaded (wasm32 without threads).

/// Segments (x0 y0 z0 x1 y1 z1, mm) appended by the slicing kernels.
pub static mut SEGS: Vec<f64> = Vec::new();
/// Polyline points (xyz, mm) written by the chaining kernel.
pub static mut OUT_PTS: Vec<f64> = Vec::new();
/// Per polyline: first value in OUT_PTS, number of values, closed (1) or open (0).
pub static mut OUT_POLY: Vec<u32> = Vec::new();

/// Empties the segment buffer.
#[no_mangle]
pub extern "C" fn kk_seg_clear() {
    unsafe { SEGS.clear() }
}

/// Number of values (6 per segment) in the segment buffer.
#[no_mangle]
pub extern "C" fn kk_seg_len() -> usize {
    unsafe { SEGS.len() }
}

/// Offset of the segment buffer's first value (valid until the next kernel call).
#[no_mangle]
pub extern "C" fn kk_seg_ptr() -> *const f64 {
    unsafe { SEGS.as_ptr() }
}

/// Grows the segment buffer by `values` zeros for the host to fill; returns the offset of the first new value.
#[no_mangle]
pub extern "C" fn kk_seg_reserve(values: usize) -> *mut f64 {
    unsafe {
        let at = SEGS.len();
        SEGS.resize(at + values, 0.0);
        SEGS.as_mut_ptr().add(at)
    }
}

/// Offset of the chaining output points.
#[no_mangle]
pub extern "C" fn kk_out_pts_ptr() -> *const f64 {
    unsafe { OUT_PTS.as_ptr() }
}

/// Offset of the chaining output table (3 u32 per polyline: first value, value count, closed).
#[no_mangle]
pub extern "C" fn kk_out_poly_ptr() -> *const u32 {
    unsafe { OUT_POLY.as_ptr() }
}
