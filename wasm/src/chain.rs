//! Segment chaining: segments (6 f64 each, mm) → polylines, as engine/section/slice.ts
//! `chainSegments` does, step for step: segments shorter than `zero_len` are dropped, endpoints are
//! welded through an open-addressing hash of their coordinates rounded to 1e-3 mm (vertices numbered in
//! order of first appearance), chains are walked from each first unused segment forwards then backwards
//! (at a vertex, its first endpoint in segment order whose segment is unused), chains whose ends meet within `closed_tol`
//! are closed, and the remaining open chains are joined end to end (first match first) and closed or
//! kept. Output: OUT_PTS / OUT_POLY (closed chains in walk order, then the open ones' results).
//! A section's endpoints all lie in one axis plane and rarely meet three at a vertex; for them the weld
//! records each endpoint's mate instead of numbered vertices (`weld_pairs`), which walks the same.
//! With a collinear tolerance > 0 each polyline then loses the points that lie on the straight line
//! between their neighbours (as slice.ts `dropCollinear`): a closed chain while its points are written
//! (`Collinear`), an open one after the joining (`drop_collinear`).

use crate::jsmath::js_round;
use crate::state::{OUT_POLY, OUT_PTS, SEGS};

/// One slot of the weld table: an endpoint's rounded coordinates and its vertex number. A slot is
/// filled for the current call only when `stamp` equals the call's stamp, so the table is never cleared.
#[derive(Clone, Copy)]
struct Slot {
    q: [f64; 3],
    v: u32,
    stamp: u32,
}

const EMPTY: Slot = Slot { q: [0.0; 3], v: 0, stamp: 0 };

/// A slot of the weld table when one coordinate is the same for every endpoint (a section's projected
/// axis): only the other two rounded coordinates are kept and compared.
#[derive(Clone, Copy)]
struct Slot2 {
    q: [f64; 2],
    v: u32,
    stamp: u32,
}

const EMPTY2: Slot2 = Slot2 { q: [0.0; 2], v: 0, stamp: 0 };

/// Scratch reused across calls (the many small objects of a section make allocation dominate otherwise).
struct Scratch {
    /// Per segment: 1 once walked, and from the start for a dropped (zero-length) one.
    used: Vec<u8>,
    /// Per endpoint (segment·2 + end), when no vertex has more than two endpoints: the other endpoint
    /// at its vertex, -1 when none (see `weld_pairs`).
    mate: Vec<i32>,
    vert_of: Vec<i32>,
    table: Vec<Slot>,
    table2: Vec<Slot2>,
    stamp: u32,
    /// Per vertex: its first two endpoints (segment·2 + end) in segment order, -1 when absent.
    ends: Vec<[i32; 2]>,
    start: Vec<i32>,
    list: Vec<i32>,
    fill: Vec<i32>,
    /// Endpoints (segment·2 + end) reached walking forwards / backwards from a chain's first segment.
    fwd: Vec<u32>,
    back: Vec<u32>,
    /// The last zero-length tolerance's bits and its `min_square`.
    min_square: (u64, f64),
}

static mut SCRATCH: Scratch = Scratch {
    used: Vec::new(),
    mate: Vec::new(),
    vert_of: Vec::new(),
    table: Vec::new(),
    table2: Vec::new(),
    stamp: 0,
    ends: Vec::new(),
    start: Vec::new(),
    list: Vec::new(),
    fill: Vec::new(),
    fwd: Vec::new(),
    back: Vec::new(),
    min_square: (u64::MAX, f64::NAN),
};

fn reset<T: Copy>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Chains the segment buffer's segments; returns the number of polylines written to the output.
/// `fixed` < 3 says every point's coordinate `fixed` equals `fixed_value` (see `chain`); 3 for none.
/// `collinear_tol` (mm, 0 for none) drops points that lie within it of the line between their neighbours.
#[no_mangle]
pub extern "C" fn kk_chain(closed_tol: f64, zero_len: f64, fixed: u32, fixed_value: f64, collinear_tol: f64) -> u32 {
    unsafe {
        OUT_PTS.clear();
        OUT_POLY.clear();
        let tol = Tolerances { closed: closed_tol, zero_len, collinear: collinear_tol };
        chain(&SEGS, tol, (fixed as usize).min(3), fixed_value, &mut OUT_PTS, &mut OUT_POLY)
    }
}

/// The chaining's tolerances (mm): ends within `closed` close a chain, segments and open chains shorter
/// than `zero_len` are dropped, points within `collinear` of the line between their neighbours are
/// dropped (0: none).
#[derive(Clone, Copy)]
pub struct Tolerances {
    pub closed: f64,
    pub zero_len: f64,
    pub collinear: f64,
}

/// Whether point `p` (offset into `pts`, xyz) lies within √`tol2` of the straight line from `k` to `n` and
/// strictly between them (its projection inside the segment): slice.ts `isCollinear`, operation for
/// operation.
#[inline]
fn is_collinear(pts: &[f64], k: usize, p: usize, n: usize, tol2: f64) -> bool {
    let ux = pts[n] - pts[k];
    let uy = pts[n + 1] - pts[k + 1];
    let uz = pts[n + 2] - pts[k + 2];
    let vx = pts[p] - pts[k];
    let vy = pts[p + 1] - pts[k + 1];
    let vz = pts[p + 2] - pts[k + 2];
    let l2 = ux * ux + uy * uy + uz * uz;
    let d = ux * vx + uy * vy + uz * vz;
    if !(d > 0.0 && d < l2) {
        return false;
    }
    let cx = uy * vz - uz * vy;
    let cy = uz * vx - ux * vz;
    let cz = ux * vy - uy * vx;
    cx * cx + cy * cy + cz * cz < tol2 * l2
}

/// Drops, in place, the points of the polyline at `out[at..]` (xyz) that lie within `tol` of the line from
/// the last point kept to the next point (for a closed one the last point's next is the first); the first
/// point, and an open polyline's last, are kept. Returns the number of values kept (`out` truncated to
/// them). slice.ts `dropCollinear`.
fn drop_collinear(out: &mut Vec<f64>, at: usize, closed: bool, tol: f64) -> usize {
    let n = (out.len() - at) / 3;
    if !(tol > 0.0) || n < 3 {
        return n * 3;
    }
    let tol2 = tol * tol;
    let p = &mut out[at..];
    let mut w = 1;
    let last = if closed { n } else { n - 1 };
    for i in 1..last {
        let next = if i + 1 < n { i + 1 } else { 0 };
        if is_collinear(p, (w - 1) * 3, i * 3, next * 3, tol2) {
            continue;
        }
        // w ≤ i: the points still to be read (after i, and the first) are untouched.
        p.copy_within(i * 3..i * 3 + 3, w * 3);
        w += 1;
    }
    if !closed {
        p.copy_within((n - 1) * 3..n * 3, w * 3);
        w += 1;
    }
    out.truncate(at + w * 3);
    w * 3
}

/// `drop_collinear` of a closed polyline of `n` points while its points are written: point i is kept or
/// dropped when point i + 1 arrives (the last point when `finish` compares it with the first), against the
/// last point kept, exactly as `drop_collinear` decides in place; the dropped points are never written.
/// With `n` < 3 or no tolerance every point is written (as `drop_collinear` keeps them all); `n` = 0 for
/// an open chain, which is written whole.
struct Collinear {
    at: usize,
    tol2: f64,
    filter: bool,
    /// Points seen so far.
    seen: usize,
    /// The point still to be decided (the last one seen, from the second on).
    pending: [f64; 3],
}

impl Collinear {
    fn new(at: usize, n: usize, tol: f64) -> Collinear {
        Collinear { at, tol2: tol * tol, filter: tol > 0.0 && n >= 3, seen: 0, pending: [0.0; 3] }
    }

    /// Point `q` (xyz), the next of the polyline.
    #[inline]
    fn push(&mut self, out: &mut Vec<f64>, q: &[f64]) {
        if !self.filter || self.seen == 0 {
            out.extend_from_slice(q);
        } else {
            self.decide(out, q);
        }
        if self.filter {
            self.pending = [q[0], q[1], q[2]];
        }
        self.seen += 1;
    }

    /// Keeps the pending point unless it lies on the line from the last point kept to `next`.
    #[inline]
    fn decide(&mut self, out: &mut Vec<f64>, next: &[f64]) {
        if self.seen < 2 {
            return; // the pending point is the first, written already
        }
        let k = out.len() - 3;
        let p = self.pending;
        let tri = [out[k], out[k + 1], out[k + 2], p[0], p[1], p[2], next[0], next[1], next[2]];
        if !is_collinear(&tri, 0, 3, 6, self.tol2) {
            out.extend_from_slice(&p);
        }
    }

    /// Decides the last point against the first (a closed polyline's last point's next).
    fn finish(&mut self, out: &mut Vec<f64>) {
        if self.filter && self.seen >= 2 {
            let f = [out[self.at], out[self.at + 1], out[self.at + 2]];
            self.decide(out, &f);
        }
    }
}

/// The endpoints at each vertex, for the walk: each endpoint's mate (no vertex with more than two, from
/// `weld_pairs`), the first two per vertex, or (when some vertex has more) all of them in segment order
/// as a CSR table.
enum Adjacency<'a> {
    Mates(&'a [i32]),
    Pairs(&'a [[i32; 2]]),
    Csr(&'a [i32], &'a [i32]),
}

/// Walks from endpoint `cur` through unused segments, writing each far endpoint (segment·2 + end) to
/// `out` and marking its segment used: at each vertex the first endpoint in segment order whose segment
/// is unused. Returns the number of endpoints written.
fn walk(adj: &Adjacency, vert_of: &[i32], used: &mut [u8], mut cur: usize, out: &mut Vec<u32>) -> usize {
    out.clear();
    loop {
        let mut next: i32 = -1;
        match adj {
            // `cur`'s segment is used, so the first unused endpoint at the vertex is its mate or none.
            Adjacency::Mates(mate) => {
                let m = mate[cur];
                if m >= 0 && used[(m >> 1) as usize] == 0 {
                    next = m;
                }
            }
            Adjacency::Pairs(ends) => {
                for &e in &ends[vert_of[cur] as usize] {
                    if e >= 0 && used[(e >> 1) as usize] == 0 {
                        next = e;
                        break;
                    }
                }
            }
            Adjacency::Csr(start, list) => {
                let v = vert_of[cur] as usize;
                for &e in &list[start[v] as usize..start[v + 1] as usize] {
                    if used[(e >> 1) as usize] == 0 {
                        next = e;
                        break;
                    }
                }
            }
        }
        if next < 0 {
            return out.len();
        }
        let ns = (next >> 1) as usize;
        let far = ns * 2 + (1 - (next & 1)) as usize;
        used[ns] = 1;
        out.push(far as u32);
        cur = far;
    }
}

/// Welds the endpoints of the kept segments (length ≥ `zero_len`) into vertices by their coordinates
/// rounded to 1e-3 mm, numbered in order of first appearance; fills `vert_of`, `used` (1 for a dropped
/// segment, 0 for a kept one) and `ends`.
/// With `fixed` < 3 every endpoint's coordinate `fixed` is `fixed_value` (a section's projected axis),
/// so it is rounded once. Returns the vertex count and whether some vertex has more than two endpoints.
fn weld(segs: &[f64], zero_len: f64, fixed: usize, fixed_value: f64, sc: &mut Scratch) -> (usize, bool) {
    // `sqrt(d²) >= zero_len` tested as `d² >= min_d2` (the same answer for every d², see `min_square`).
    let min_d2 = min_square(zero_len, sc);
    let n_seg = segs.len() / 6;
    let cap = table_cap(n_seg);
    let mask = cap - 1;
    let shift = 32 - cap.trailing_zeros();
    let stamp = next_stamp(sc);
    reset(&mut sc.used, n_seg, 1);
    reset(&mut sc.vert_of, n_seg * 2, -1);
    sc.ends.clear();
    let qf = js_round(fixed_value * 1000.0);
    // A NaN key never equals itself (every such endpoint a vertex of its own): keep the general path then.
    let fixed = if qf == qf { fixed } else { 3 };
    match fixed {
        0 => return weld_fixed::<1, 2>(segs, min_d2, cap, stamp, sc),
        1 => return weld_fixed::<0, 2>(segs, min_d2, cap, stamp, sc),
        2 => return weld_fixed::<0, 1>(segs, min_d2, cap, stamp, sc),
        _ => {}
    }
    if sc.table.len() < cap {
        sc.table.resize(cap, EMPTY);
    }
    let mut multi = false;
    for s in 0..n_seg {
        let o = s * 6;
        let dx = segs[o + 3] - segs[o];
        let dy = segs[o + 4] - segs[o + 1];
        let dz = segs[o + 5] - segs[o + 2];
        if !(dx * dx + dy * dy + dz * dz >= min_d2) {
            continue;
        }
        sc.used[s] = 0;
        for e in 0..2 {
            let p = &segs[o + e * 3..o + e * 3 + 3];
            let mut q = [0.0f64; 3];
            for k in 0..3 {
                q[k] = if k == fixed { qf } else { js_round(p[k] * 1000.0) };
            }
            // Any hash works (vertices are numbered by first appearance); keys equal under `==` must hash
            // alike, so −0 is made +0 before its bits are taken.
            let bits = |x: f64| (x + 0.0).to_bits();
            let mut h = ((bits(q[0]).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ bits(q[1]).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                ^ bits(q[2]).wrapping_mul(0x1656_67B1_9E37_79F9))
                >> 32) as u32
                >> shift;
            let endpoint = (s * 2 + e) as i32;
            let v = loop {
                let slot = &mut sc.table[h as usize];
                if slot.stamp != stamp {
                    let v = sc.ends.len() as u32;
                    *slot = Slot { q, v, stamp };
                    sc.ends.push([endpoint, -1]);
                    break v;
                }
                if slot.q[0] == q[0] && slot.q[1] == q[1] && slot.q[2] == q[2] {
                    let v = slot.v;
                    let pair = &mut sc.ends[v as usize];
                    if pair[1] < 0 {
                        pair[1] = endpoint;
                    } else {
                        multi = true;
                    }
                    break v;
                }
                h = (h + 1) & mask as u32;
            };
            sc.vert_of[s * 2 + e] = v as i32;
        }
    }
    (sc.ends.len(), multi)
}

/// Whether segment `g` (6 values) is kept: its squared length ≥ `min_d2` (see `min_square`).
#[inline(always)]
fn kept(g: &[f64], min_d2: f64) -> bool {
    let dx = g[3] - g[0];
    let dy = g[4] - g[1];
    let dz = g[5] - g[2];
    dx * dx + dy * dy + dz * dz >= min_d2
}

/// The weld key of endpoint `e` of segment `g` on the two free axes `U`, `V`: coordinates rounded to 1e-3 mm.
#[inline(always)]
fn key2<const U: usize, const V: usize>(g: &[f64], e: usize) -> [f64; 2] {
    [js_round(g[e * 3 + U] * 1000.0), js_round(g[e * 3 + V] * 1000.0)]
}

/// The home slot of key `q` in a table of 2^(32 − `shift`) slots. Keys equal under `==` must hash alike,
/// so −0 is made +0 before its bits are taken.
#[inline(always)]
fn hash2(q: [f64; 2], shift: u32) -> u32 {
    let bits = |x: f64| (x + 0.0).to_bits();
    ((bits(q[0]).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ bits(q[1]).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) >> 32) as u32 >> shift
}

/// The two-key weld table with at least `cap` slots (a power of two), as a slice of exactly `cap`.
fn sized2(table: &mut Vec<Slot2>, cap: usize) -> &mut [Slot2] {
    if table.len() < cap {
        table.resize(cap, EMPTY2);
    }
    &mut table[..cap]
}

/// Looks key `q` up from home slot `h` on (linear probing; `table.len()` a power of two): its slot's
/// value when filled in this call (`stamp`), else fills the first free slot with `q` and `fresh` and
/// returns None.
#[inline(always)]
fn probe2(table: &mut [Slot2], q: [f64; 2], mut h: u32, stamp: u32, fresh: u32) -> Option<u32> {
    let mask = (table.len() - 1) as u32;
    loop {
        // h ≤ mask < table.len()
        let slot = unsafe { table.get_unchecked_mut(h as usize) };
        if slot.stamp != stamp {
            *slot = Slot2 { q, v: fresh, stamp };
            return None;
        }
        if slot.q[0] == q[0] && slot.q[1] == q[1] {
            return Some(slot.v);
        }
        h = (h + 1) & mask;
    }
}

/// The weld table's size for `n_seg` segments: a power of two ≥ 16 and ≥ 4 slots per segment.
fn table_cap(n_seg: usize) -> usize {
    let mut cap: usize = 16;
    while cap < n_seg * 4 {
        cap <<= 1;
    }
    cap
}

/// The weld of `weld_fixed`'s case (every endpoint's rounded coordinate on axis `fixed` the same, not
/// NaN) when no vertex has more than two endpoints, which is a section's usual case: each endpoint's mate
/// (the other endpoint at its vertex) goes to `mate`, dropped segments are marked in `used`, and no vertex
/// numbers or per-vertex lists are built. Returns false, with nothing usable written, when the axis is
/// not fixed or some vertex has a third endpoint; `weld` then decides. The walk over the mates visits
/// what the walk over `weld`'s pairs would.
fn weld_pairs(segs: &[f64], zero_len: f64, fixed: usize, fixed_value: f64, sc: &mut Scratch) -> bool {
    if fixed >= 3 || js_round(fixed_value * 1000.0).is_nan() {
        return false;
    }
    match fixed {
        0 => weld_pairs_uv::<1, 2>(segs, zero_len, sc),
        1 => weld_pairs_uv::<0, 2>(segs, zero_len, sc),
        _ => weld_pairs_uv::<0, 1>(segs, zero_len, sc),
    }
}

/// `weld_pairs` keyed on the rounded coordinates `U` and `V`; a slot holds a vertex's first endpoint.
fn weld_pairs_uv<const U: usize, const V: usize>(segs: &[f64], zero_len: f64, sc: &mut Scratch) -> bool {
    let min_d2 = min_square(zero_len, sc);
    let n_seg = segs.len() / 6;
    let cap = table_cap(n_seg);
    let stamp = next_stamp(sc);
    reset(&mut sc.used, n_seg, 1);
    reset(&mut sc.mate, n_seg * 2, -1);
    let shift = 32 - cap.trailing_zeros();
    let table = sized2(&mut sc.table2, cap);
    let mate = &mut sc.mate[..n_seg * 2];
    each_endpoint::<U, V>(segs, min_d2, &mut sc.used[..n_seg], |endpoint, q| {
        if let Some(first) = probe2(table, q, hash2(q, shift), stamp, endpoint as u32) {
            // Both < n_seg·2 = mate.len().
            let m = unsafe { mate.get_unchecked_mut(first as usize) };
            if *m >= 0 {
                return false;
            }
            *m = endpoint as i32;
            unsafe { *mate.get_unchecked_mut(endpoint) = first as i32 };
        }
        true
    })
}

/// Calls `f(endpoint, key)` (endpoint = segment·2 + end, key as `key2`) for both endpoints of every
/// segment of `segs` kept by `min_d2`, in order, and marks the kept segments 0 in `used`. Stops when `f`
/// returns false; returns whether it went through them all.
#[inline(always)]
fn each_endpoint<const U: usize, const V: usize>(
    segs: &[f64],
    min_d2: f64,
    used: &mut [u8],
    mut f: impl FnMut(usize, [f64; 2]) -> bool,
) -> bool {
    for (s, g) in segs.chunks_exact(6).enumerate() {
        if !kept(g, min_d2) {
            continue;
        }
        used[s] = 0;
        for e in 0..2 {
            if !f(s * 2 + e, key2::<U, V>(g, e)) {
                return false;
            }
        }
    }
    true
}

/// The stamp of a new weld call (see `Slot`); on wrap-around both tables are cleared, so no slot can
/// look filled by an earlier call.
fn next_stamp(sc: &mut Scratch) -> u32 {
    sc.stamp = sc.stamp.wrapping_add(1);
    if sc.stamp == 0 {
        sc.table.fill(EMPTY);
        sc.table2.fill(EMPTY2);
        sc.stamp = 1;
    }
    sc.stamp
}

/// The smallest `t` ≥ 0 with `sqrt(t) >= zero_len`, so that for every sum of squares `d2` (≥ +0, +∞ or NaN)
/// `d2 >= t` answers exactly as `sqrt(d2) >= zero_len` (sqrt is correctly rounded, hence monotonic; NaN
/// fails both). A binary search over the bit patterns of the non-negative doubles (ordered like their
/// values), remembered for the last `zero_len`; NaN for a NaN `zero_len` (every test fails, as before).
fn min_square(zero_len: f64, sc: &mut Scratch) -> f64 {
    if zero_len.to_bits() == sc.min_square.0 {
        return sc.min_square.1;
    }
    let t = if zero_len.is_nan() {
        f64::NAN
    } else if zero_len <= 0.0 {
        0.0
    } else {
        // Invariant: sqrt(lo) < zero_len <= sqrt(hi) (bit patterns; +∞ satisfies the right side).
        let (mut lo, mut hi) = (0u64, f64::INFINITY.to_bits());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if f64::from_bits(mid).sqrt() >= zero_len {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        f64::from_bits(hi)
    };
    sc.min_square = (zero_len.to_bits(), t);
    t
}

/// `weld` when every endpoint has the same (non-NaN) rounded coordinate on the third axis: keys are the
/// rounded coordinates `U` and `V` only (equal third coordinates compare equal anyway), so each endpoint
/// rounds, hashes and compares two values instead of three. Same vertices, numbered alike. `used`,
/// `vert_of` and `ends` are reset by the caller; `cap` is the table size (a power of two ≥ 16);
/// `min_d2` is `min_square` of the zero-length tolerance.
fn weld_fixed<const U: usize, const V: usize>(
    segs: &[f64],
    min_d2: f64,
    cap: usize,
    stamp: u32,
    sc: &mut Scratch,
) -> (usize, bool) {
    let shift = 32 - cap.trailing_zeros();
    let table = sized2(&mut sc.table2, cap);
    let ends = &mut sc.ends;
    let mut multi = false;
    let n_seg = segs.len() / 6;
    let vert_of = &mut sc.vert_of[..n_seg * 2];
    each_endpoint::<U, V>(segs, min_d2, &mut sc.used[..n_seg], |endpoint, q| {
        let fresh = ends.len() as u32;
        let v = match probe2(table, q, hash2(q, shift), stamp, fresh) {
            None => {
                ends.push([endpoint as i32, -1]);
                fresh
            }
            Some(v) => {
                let pair = unsafe { ends.get_unchecked_mut(v as usize) };
                if pair[1] < 0 {
                    pair[1] = endpoint as i32;
                } else {
                    multi = true;
                }
                v
            }
        };
        vert_of[endpoint] = v as i32;
        true
    });
    (ends.len(), multi)
}

/// Endpoints per vertex in segment order (CSR: `start`, `list`), for vertices with more than two.
fn build_csr(nv: usize, n_seg: usize, sc: &mut Scratch) {
    reset(&mut sc.start, nv + 1, 0);
    for i in 0..n_seg * 2 {
        let v = sc.vert_of[i];
        if v >= 0 {
            sc.start[v as usize + 1] += 1;
        }
    }
    for v in 0..nv {
        sc.start[v + 1] += sc.start[v];
    }
    sc.fill.clear();
    sc.fill.extend_from_slice(&sc.start[..nv]);
    reset(&mut sc.list, n_seg * 2, 0);
    for i in 0..n_seg * 2 {
        let v = sc.vert_of[i];
        if v >= 0 {
            let f = &mut sc.fill[v as usize];
            sc.list[*f as usize] = i as i32;
            *f += 1;
        }
    }
}

/// The chaining algorithm on `segs` (6 values per segment); appends polylines to the output vectors.
/// `fixed` < 3 says every point's coordinate `fixed` is `fixed_value` (3: no such axis); the result is
/// the same either way, only the weld is cheaper.
pub fn chain(
    segs: &[f64],
    tol: Tolerances,
    fixed: usize,
    fixed_value: f64,
    out_pts: &mut Vec<f64>,
    out_poly: &mut Vec<u32>,
) -> u32 {
    let (closed_tol, zero_len) = (tol.closed, tol.zero_len);
    let n_seg = segs.len() / 6;
    let sc = unsafe { &mut SCRATCH };
    let paired = weld_pairs(segs, zero_len, fixed, fixed_value, sc);
    let (nv, multi) = if paired { (0, false) } else { weld(segs, zero_len, fixed, fixed_value, sc) };
    if multi {
        build_csr(nv, n_seg, sc);
    }
    let adj = if paired {
        Adjacency::Mates(&sc.mate)
    } else if multi {
        Adjacency::Csr(&sc.start, &sc.list)
    } else {
        Adjacency::Pairs(&sc.ends)
    };

    // Each chain is walked from its first unused segment forwards and backwards (endpoint numbers only);
    // a closed one is written straight to the output, an open one kept for joining.
    let mut count = 0u32;
    let mut open: Vec<Vec<f64>> = Vec::new();
    let point = |end: usize| -> &[f64] { &segs[end * 3..end * 3 + 3] };
    for s in 0..n_seg {
        if sc.used[s] != 0 {
            continue;
        }
        sc.used[s] = 1;
        let nf = walk(&adj, &sc.vert_of, &mut sc.used, s * 2 + 1, &mut sc.fwd);
        let nb = walk(&adj, &sc.vert_of, &mut sc.used, s * 2, &mut sc.back);
        // Points in order: the backward walk reversed, the segment's two ends, the forward walk.
        let first = if nb > 0 { sc.back[nb - 1] as usize } else { s * 2 };
        let last = if nf > 0 { sc.fwd[nf - 1] as usize } else { s * 2 + 1 };
        let (f, l) = (point(first), point(last));
        let (ex, ey, ez) = (f[0] - l[0], f[1] - l[1], f[2] - l[2]);
        let total = nb + 2 + nf;
        let closed = total >= 3 && (ex * ex + ey * ey + ez * ez).sqrt() <= closed_tol;
        // A closed chain drops its repeated last point.
        let stop = if closed { total - 1 } else { total };
        let at = out_pts.len();
        // A closed chain's collinear points are dropped as its points are written (`Collinear`, the same
        // decisions as `drop_collinear` afterwards); an open one is kept whole for the joining.
        let mut keep = Collinear::new(at, if closed { stop } else { 0 }, tol.collinear);
        let mut n = 0;
        for i in (0..nb).rev() {
            if n == stop {
                break;
            }
            keep.push(out_pts, point(sc.back[i] as usize));
            n += 1;
        }
        for e in [s * 2, s * 2 + 1] {
            if n == stop {
                break;
            }
            keep.push(out_pts, point(e));
            n += 1;
        }
        for i in 0..nf {
            if n == stop {
                break;
            }
            keep.push(out_pts, point(sc.fwd[i] as usize));
            n += 1;
        }
        if closed {
            keep.finish(out_pts);
            out_poly.extend_from_slice(&[at as u32, (out_pts.len() - at) as u32, 1]);
            count += 1;
        } else {
            open.push(out_pts[at..].to_vec());
            out_pts.truncate(at);
        }
    }
    count + finish(open, tol, out_pts, out_poly)
}

fn emit(pts: &[f64], closed: bool, collinear: f64, out_pts: &mut Vec<f64>, out_poly: &mut Vec<u32>) {
    let at = out_pts.len();
    out_pts.extend_from_slice(pts);
    let kept = drop_collinear(out_pts, at, closed, collinear);
    out_poly.extend_from_slice(&[at as u32, kept as u32, closed as u32]);
}

fn dist(a: &[f64], i: usize, b: &[f64], j: usize) -> f64 {
    let x = a[i] - b[j];
    let y = a[i + 1] - b[j + 1];
    let z = a[i + 2] - b[j + 2];
    (x * x + y * y + z * z).sqrt()
}

/// How open chains `a` and `b` join, if they do: the first of a's end to b's start (0), b's end to a's
/// start (1), a's end to b's end (2), a's start to b's start (3) within `tol`.
fn join_kind(a: &[f64], b: &[f64], tol: f64) -> Option<u8> {
    let ae = a.len() - 3;
    let be = b.len() - 3;
    if dist(a, ae, b, 0) <= tol {
        Some(0)
    } else if dist(b, be, a, 0) <= tol {
        Some(1)
    } else if dist(a, ae, b, be) <= tol {
        Some(2)
    } else if dist(a, 0, b, 0) <= tol {
        Some(3)
    } else {
        None
    }
}

/// Appends the points of `p` in reverse order, skipping the first `skip` of the reversed sequence.
fn extend_reversed(out: &mut Vec<f64>, p: &[f64], skip: usize) {
    for q in p.chunks_exact(3).rev().skip(skip) {
        out.extend_from_slice(q);
    }
}

/// The chain joining `a` and `b` the way `kind` says (the shared point written once).
fn join(mut a: Vec<f64>, b: Vec<f64>, kind: u8) -> Vec<f64> {
    match kind {
        0 => {
            a.extend_from_slice(&b[3.min(b.len())..]);
            a
        }
        1 => {
            let mut r = b;
            r.extend_from_slice(&a[3.min(a.len())..]);
            r
        }
        2 => {
            extend_reversed(&mut a, &b, 1);
            a
        }
        _ => {
            let mut r = Vec::with_capacity(a.len() + b.len());
            extend_reversed(&mut r, &a, 0);
            r.extend_from_slice(&b[3.min(b.len())..]);
            r
        }
    }
}

/// Length of flat xyz points (open): the sum of the segment lengths, in order.
fn length(p: &[f64]) -> f64 {
    let mut l = 0.0;
    let n = p.len() / 3;
    for i in 1..n {
        let x = p[i * 3] - p[i * 3 - 3];
        let y = p[i * 3 + 1] - p[i * 3 - 2];
        let z = p[i * 3 + 2] - p[i * 3 - 1];
        l += (x * x + y * y + z * z).sqrt();
    }
    l
}

/// Joins open chains whose ends meet within `tol`, then closes or keeps (or drops, when shorter than
/// `zero_len`) each; returns the number of polylines written.
fn finish(mut open: Vec<Vec<f64>>, tols: Tolerances, out_pts: &mut Vec<f64>, out_poly: &mut Vec<u32>) -> u32 {
    let (tol, zero_len) = (tols.closed, tols.zero_len);
    // Repeatedly join the first joinable pair (i < j, in list order), as a rescan from the start after
    // every join would, without rescanning: every pair whose first chain lies before `front` is known
    // not to join unless it involves `changed`, the one chain rewritten by the last join.
    let none = usize::MAX;
    let (mut changed, mut front) = (none, 0usize);
    while open.len() > 1 {
        let mut hit: Option<(usize, usize, u8)> = None;
        let mut scanned = false;
        if changed != none {
            for x in 0..changed.min(front) {
                if let Some(k) = join_kind(&open[x], &open[changed], tol) {
                    hit = Some((x, changed, k));
                    break;
                }
            }
            if hit.is_none() && changed < front {
                for y in changed + 1..open.len() {
                    if let Some(k) = join_kind(&open[changed], &open[y], tol) {
                        hit = Some((changed, y, k));
                        break;
                    }
                }
            }
        }
        if hit.is_none() {
            'scan: for x in front..open.len() {
                for y in x + 1..open.len() {
                    if let Some(k) = join_kind(&open[x], &open[y], tol) {
                        hit = Some((x, y, k));
                        scanned = true;
                        break 'scan;
                    }
                }
            }
        }
        let (i, j, kind) = match hit {
            Some(h) => h,
            None => break,
        };
        let b = open.remove(j);
        let a = std::mem::take(&mut open[i]);
        open[i] = join(a, b, kind);
        if scanned {
            front = i;
        } else if j < front {
            front -= 1;
        }
        changed = i;
    }
    let mut n = 0;
    for p in &open {
        if p.len() >= 9 && dist(p, 0, p, p.len() - 3) <= tol {
            emit(&p[..p.len() - 3], true, tols.collinear, out_pts, out_poly);
            n += 1;
        } else if length(p) >= zero_len {
            emit(p, false, tols.collinear, out_pts, out_poly);
            n += 1;
        }
    }
    n
}
