//! The kernel's allocator: large blocks (batch geometry, block extents, the segment and output buffers)
//! come from the kernel's own page arena, small ones from Rust's default allocator (dlmalloc).
//!
//! Why: dlmalloc on wasm32 takes every `memory.grow` as a new segment and walks its segment list on
//! each system allocation, so copying thousands of batches into a module whose memory has passed
//! ~100 MB cost ~10 ms per batch (bench/README.md "WebAssembly kernel") and the section index build
//! grew quadratically. The arena hands out whole 64 KiB pages: first fit from an address-ordered free
//! list of page runs (freed runs coalesce with their neighbours), else fresh pages from `memory.grow`,
//! growing by at least GROW_MIN_PAGES or an eighth of the memory at a time so that a large model makes
//! few growth calls. Cost per allocation: one pass over the free runs (few: stores are freed whole).
//!
//! Single-threaded (wasm32 without threads), like the rest of the kernel.

use std::alloc::{GlobalAlloc, Layout, System};

/// WebAssembly page size (bytes).
const PAGE: usize = 65536;
/// Blocks of at least this many bytes go to the page arena.
pub const LARGE: usize = 64 * 1024;
/// Smallest memory growth (pages: 16 MiB).
const GROW_MIN_PAGES: usize = 256;

/// Header written at the start of a free run.
struct Free {
    pages: usize,
    next: *mut Free,
}

/// The free page runs, ordered by address (null-terminated list).
static mut FREE: *mut Free = std::ptr::null_mut();
/// Pages currently handed out by the arena (for the bench's memory figures).
static mut IN_USE: usize = 0;

/// End address of the highest block the arena ever handed out. Above it memory holds nothing but the
/// free runs' headers (`Free`, at page starts), so a zeroed block there needs only those cleared.
static mut TOUCHED: usize = 0;

#[inline]
fn pages_for(bytes: usize) -> usize {
    (bytes + PAGE - 1) / PAGE
}

/// Grows the module's memory by at least `pages`; returns the first new byte, or null.
#[cfg(target_arch = "wasm32")]
unsafe fn grow(pages: usize) -> (*mut u8, usize) {
    let current = core::arch::wasm32::memory_size(0);
    let want = pages.max(GROW_MIN_PAGES).max(current / 8);
    let mut got = want;
    let mut prev = core::arch::wasm32::memory_grow(0, got);
    if prev == usize::MAX {
        // The larger step failed (memory limit): try exactly what is needed.
        got = pages;
        prev = core::arch::wasm32::memory_grow(0, got);
        if prev == usize::MAX {
            return (std::ptr::null_mut(), 0);
        }
    }
    ((prev * PAGE) as *mut u8, got)
}

/// Off wasm32 (host unit tests of the crate): pages from the system allocator, never returned.
#[cfg(not(target_arch = "wasm32"))]
unsafe fn grow(pages: usize) -> (*mut u8, usize) {
    // Zeroed, as grown wasm memory is: the arena counts on memory above its high-water mark being zero.
    let p = System.alloc_zeroed(Layout::from_size_align_unchecked(pages * PAGE, PAGE));
    (p, if p.is_null() { 0 } else { pages })
}

/// Puts the run `at .. at + pages·PAGE` on the free list, merged with free neighbours.
unsafe fn release(at: *mut u8, pages: usize) {
    let run = at as *mut Free;
    let mut prev: *mut Free = std::ptr::null_mut();
    let mut cur = FREE;
    while !cur.is_null() && (cur as usize) < (run as usize) {
        prev = cur;
        cur = (*cur).next;
    }
    (*run).pages = pages;
    (*run).next = cur;
    // Merge with the following run.
    if !cur.is_null() && run as usize + pages * PAGE == cur as usize {
        (*run).pages += (*cur).pages;
        (*run).next = (*cur).next;
    }
    if prev.is_null() {
        FREE = run;
    } else if prev as usize + (*prev).pages * PAGE == run as usize {
        (*prev).pages += (*run).pages;
        (*prev).next = (*run).next;
    } else {
        (*prev).next = run;
    }
}

/// `pages` whole pages: first fit from the free runs, else from memory growth. Null when out of memory.
/// Pages from growth lie above the high-water mark (`TOUCHED`), which is all `zero_taken` needs to know.
unsafe fn take(pages: usize) -> *mut u8 {
    let mut prev: *mut Free = std::ptr::null_mut();
    let mut cur = FREE;
    while !cur.is_null() {
        let have = (*cur).pages;
        if have >= pages {
            let next = (*cur).next;
            let at = cur as *mut u8;
            // The rest of the run stays free, at its place in the address order.
            let rest = if have > pages {
                let r = at.add(pages * PAGE) as *mut Free;
                (*r).pages = have - pages;
                (*r).next = next;
                r
            } else {
                next
            };
            if prev.is_null() {
                FREE = rest;
            } else {
                (*prev).next = rest;
            }
            IN_USE += pages;
            TOUCHED = TOUCHED.max(at as usize + pages * PAGE);
            return at;
        }
        prev = cur;
        cur = (*cur).next;
    }
    let (at, got) = grow(pages);
    if at.is_null() {
        return at;
    }
    if got > pages {
        release(at.add(pages * PAGE), got - pages);
    }
    IN_USE += pages;
    TOUCHED = TOUCHED.max(at as usize + pages * PAGE);
    at
}

/// Zeroes the `size` bytes at `p`, a block just taken when the arena's high-water mark was `before`: below
/// the mark fully; above it, where no block was ever handed out, only the first bytes of each page, where a
/// free run's header may have been written (a few bytes per 64 KiB page for freshly grown memory).
unsafe fn zero_taken(p: *mut u8, size: usize, before: usize) {
    let start = p as usize;
    let end = start + size;
    let clean = before.clamp(start, end);
    std::ptr::write_bytes(p, 0, clean - start);
    let header = std::mem::size_of::<Free>();
    let mut page = clean;
    while page < end {
        std::ptr::write_bytes(page as *mut u8, 0, header.min(end - page));
        page += PAGE;
    }
}

/// The kernel's global allocator (see the module comment).
pub struct Segregated;

unsafe impl GlobalAlloc for Segregated {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() < LARGE || layout.align() > PAGE {
            return System.alloc(layout);
        }
        take(pages_for(layout.size()))
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() < LARGE || layout.align() > PAGE {
            return System.alloc_zeroed(layout);
        }
        let before = TOUCHED;
        let p = take(pages_for(layout.size()));
        // Memory above the high-water mark (grown pages, the rest of a growth step) is zero but for the
        // free runs' headers; below it, blocks handed out before left their data.
        if !p.is_null() {
            zero_taken(p, layout.size(), before);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() < LARGE || layout.align() > PAGE {
            return System.dealloc(ptr, layout);
        }
        let pages = pages_for(layout.size());
        IN_USE -= pages;
        release(ptr, pages);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old_large = layout.size() >= LARGE && layout.align() <= PAGE;
        let new_large = new_size >= LARGE && layout.align() <= PAGE;
        if !old_large && !new_large {
            return System.realloc(ptr, layout, new_size);
        }
        // Still fits in the pages it has (growing within the last page, or shrinking but staying large).
        if old_large && new_large && pages_for(new_size) == pages_for(layout.size()) {
            return ptr;
        }
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let p = self.alloc(new_layout);
        if !p.is_null() {
            std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
            self.dealloc(ptr, layout);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Segregated = Segregated;

/// Bytes of the page arena in use (large blocks, rounded up to whole pages).
#[no_mangle]
pub extern "C" fn kk_arena_bytes() -> usize {
    unsafe { IN_USE * PAGE }
}

/// Bytes of free page runs in the arena (memory grown earlier, not in use now).
#[no_mangle]
pub extern "C" fn kk_arena_free_bytes() -> usize {
    unsafe {
        let mut n = 0;
        let mut cur = FREE;
        while !cur.is_null() {
            n += (*cur).pages;
            cur = (*cur).next;
        }
        n * PAGE
    }
}
