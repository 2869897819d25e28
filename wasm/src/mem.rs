//! Host-visible allocation: byte buffers the host fills or reads (8-byte aligned).

use std::alloc::{alloc, dealloc, Layout};

/// Allocates `bytes` bytes (8-byte aligned) and returns their offset, or 0 when out of memory.
#[no_mangle]
pub extern "C" fn kk_alloc(bytes: usize) -> *mut u8 {
    match Layout::from_size_align(bytes.max(1), 8) {
        Ok(layout) => unsafe { alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Frees a buffer from `kk_alloc` (same size).
#[no_mangle]
pub extern "C" fn kk_free(ptr: *mut u8, bytes: usize) {
    if ptr.is_null() {
        return;
    }
    if let Ok(layout) = Layout::from_size_align(bytes.max(1), 8) {
        unsafe { dealloc(ptr, layout) }
    }
}
