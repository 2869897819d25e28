//! Geometry stores: one per section index. A store holds the index's batches (positions and
//! triangle indices, copied once by the host) and the extents of its triangle blocks, which the
//! `kk_geom_blocks` kernel computes (the section index build's hot loop).

/// Triangle indices of a batch, 16- or 32-bit as the host has them.
pub enum Indices {
    U16(Vec<u16>),
    U32(Vec<u32>),
}

/// One batch: world-mm positions (xyz) and triangle indices into them.
pub struct Batch {
    pub positions: Vec<f32>,
    pub indices: Indices,
}

/// A section index's geometry in linear memory.
pub struct Geom {
    pub batches: Vec<Batch>,
    /// Per triangle block: min x y z, max x y z (mm), in the order the blocks were added.
    pub blocks: Vec<f32>,
}

static mut STORES: Vec<Option<Box<Geom>>> = Vec::new();

/// The store behind handle `h` (panics, i.e. traps, on a freed or unknown handle).
pub fn store(h: u32) -> &'static mut Geom {
    unsafe { STORES[h as usize].as_mut().expect("freed geometry store") }
}

/// A new empty store; returns its handle.
#[no_mangle]
pub extern "C" fn kk_geom_new() -> u32 {
    let g = Some(Box::new(Geom { batches: Vec::new(), blocks: Vec::new() }));
    unsafe {
        if let Some(i) = STORES.iter().position(|s| s.is_none()) {
            STORES[i] = g;
            return i as u32;
        }
        STORES.push(g);
        (STORES.len() - 1) as u32
    }
}

/// Frees store `h` and all its batches.
#[no_mangle]
pub extern "C" fn kk_geom_free(h: u32) {
    unsafe {
        if let Some(s) = STORES.get_mut(h as usize) {
            *s = None;
        }
    }
}

/// Adds a batch of `vertices` vertices and `indices` indices (`wide` = 1 for 32-bit indices) to store
/// `h`, zero-filled for the host to write (see `kk_geom_positions` / `kk_geom_indices`); returns its number.
#[no_mangle]
pub extern "C" fn kk_geom_add_batch(h: u32, vertices: usize, indices: usize, wide: u32) -> u32 {
    let g = store(h);
    g.batches.push(Batch {
        positions: vec![0.0; vertices * 3],
        indices: if wide != 0 { Indices::U32(vec![0; indices]) } else { Indices::U16(vec![0; indices]) },
    });
    (g.batches.len() - 1) as u32
}

/// Offset of batch `b`'s positions (Float32, 3 per vertex).
#[no_mangle]
pub extern "C" fn kk_geom_positions(h: u32, b: u32) -> *mut f32 {
    store(h).batches[b as usize].positions.as_mut_ptr()
}

/// Offset of batch `b`'s indices (Uint16 or Uint32 as added).
#[no_mangle]
pub extern "C" fn kk_geom_indices(h: u32, b: u32) -> *mut u8 {
    match &mut store(h).batches[b as usize].indices {
        Indices::U16(v) => v.as_mut_ptr() as *mut u8,
        Indices::U32(v) => v.as_mut_ptr() as *mut u8,
    }
}

/// Number of triangle blocks in store `h`.
#[no_mangle]
pub extern "C" fn kk_geom_block_count(h: u32) -> usize {
    store(h).blocks.len() / 6
}

/// Offset of store `h`'s block extents (Float32, 6 per block; valid until the next kernel call).
#[no_mangle]
pub extern "C" fn kk_geom_blocks_ptr(h: u32) -> *const f32 {
    store(h).blocks.as_ptr()
}

/// Appends to store `h` the extents of the triangle blocks of indices `start .. start+count` of batch `b`
/// (`block_indices` indices per block, the last one shorter): min and max of every axis over the
/// blocks' vertices. Returns the number of the first block added.
#[no_mangle]
pub extern "C" fn kk_geom_blocks(h: u32, b: u32, start: usize, count: usize, block_indices: usize) -> usize {
    let g = store(h);
    let first = g.blocks.len() / 6;
    let batch = &g.batches[b as usize];
    let p = &batch.positions[..];
    let out = &mut g.blocks;
    match &batch.indices {
        Indices::U16(ix) => blocks_of(p, ix, start, count, block_indices, out),
        Indices::U32(ix) => blocks_of(p, ix, start, count, block_indices, out),
    }
    first
}

fn blocks_of<I: Copy + Into<u32>>(p: &[f32], ix: &[I], start: usize, count: usize, step: usize, out: &mut Vec<f32>) {
    let end = start + count;
    let mut t = start;
    while t < end {
        let stop = end.min(t + step);
        let (mut x0, mut y0, mut z0) = (f32::INFINITY, f32::INFINITY, f32::INFINITY);
        let (mut x1, mut y1, mut z1) = (f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY);
        for &i in &ix[t..stop] {
            let v = i.into() as usize * 3;
            let (x, y, z) = (p[v], p[v + 1], p[v + 2]);
            if x < x0 {
                x0 = x;
            }
            if x > x1 {
                x1 = x;
            }
            if y < y0 {
                y0 = y;
            }
            if y > y1 {
                y1 = y;
            }
            if z < z0 {
                z0 = z;
            }
            if z > z1 {
                z1 = z;
            }
        }
        out.extend_from_slice(&[x0, y0, z0, x1, y1, z1]);
        t += step;
    }
}

/// Writes to `out` (6 f64: min xyz, max xyz) the bounds of vertices `start .. start+count` of batch `b`
/// of store `h`, widening what `out` already holds (the host passes ±∞ to start afresh).
#[no_mangle]
pub extern "C" fn kk_geom_vertex_bounds(h: u32, b: u32, start: usize, count: usize, out: *mut f64) {
    let p = &store(h).batches[b as usize].positions[start * 3..(start + count) * 3];
    let o = unsafe { std::slice::from_raw_parts_mut(out, 6) };
    for v in p.chunks_exact(3) {
        let (x, y, z) = (v[0] as f64, v[1] as f64, v[2] as f64);
        if x < o[0] {
            o[0] = x;
        }
        if y < o[1] {
            o[1] = y;
        }
        if z < o[2] {
            o[2] = z;
        }
        if x > o[3] {
            o[3] = x;
        }
        if y > o[4] {
            o[4] = y;
        }
        if z > o[5] {
            o[5] = z;
        }
    }
}
