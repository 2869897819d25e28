//! Segment chaining: segments (6 f64 each, mm) → polylines, as engine/section/slice.ts
//! `chainSegments` does, step for step: segments shorter than `zero_len` are dropped, endpoints are
//! welded through an open-addressing hash of their coordinates rounded to 1e-3 mm, chains are walked
//! from each first unused segment forwards then backwards, chains whose ends meet within `closed_tol`
//! are closed, and the remaining open chains are joined end to end (first match first) and closed or
//! kept. Output: OUT_PTS / OUT_POLY (closed chains in walk order, then the open ones' results).

use crate::jsmath::{js_round, to_int32};
use crate::state::{OUT_POLY, OUT_PTS, SEGS};

/// Scratch reused across calls (the many small objects of a section make allocation dominate otherwise).
struct Scratch {
    keep: Vec<u8>,
    used: Vec<u8>,
    vert_of: Vec<i32>,
    table: Vec<i32>,
    vq: Vec<f64>,
    start: Vec<i32>,
    list: Vec<i32>,
    fill: Vec<i32>,
    fwd: Vec<f64>,
    back: Vec<f64>,
}

static mut SCRATCH: Scratch = Scratch {
    keep: Vec::new(),
    used: Vec::new(),
    vert_of: Vec::new(),
    table: Vec::new(),
    vq: Vec::new(),
    start: Vec::new(),
    list: Vec::new(),
    fill: Vec::new(),
    fwd: Vec::new(),
    back: Vec::new(),
};

fn reset<T: Copy>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Chains the segment buffer's segments; returns the number of polylines written to the output.
#[no_mangle]
pub extern "C" fn kk_chain(closed_tol: f64, zero_len: f64) -> u32 {
    unsafe {
        OUT_PTS.clear();
        OUT_POLY.clear();
        chain(&SEGS, closed_tol, zero_len, &mut OUT_PTS, &mut OUT_POLY)
    }
}

fn walk(segs: &[f64], sc: &mut Scratch, mut cur: usize, into_back: bool) -> usize {
    let mut w = 0;
    loop {
        let v = sc.vert_of[cur] as usize;
        let mut next: i32 = -1;
        for k in sc.start[v] as usize..sc.start[v + 1] as usize {
            let e = sc.list[k];
            if sc.used[(e >> 1) as usize] == 0 {
                next = e;
                break;
            }
        }
        if next < 0 {
            return w;
        }
        let ns = (next >> 1) as usize;
        let far = ns * 2 + (1 - (next & 1)) as usize;
        sc.used[ns] = 1;
        let o = far * 3;
        let out = if into_back { &mut sc.back } else { &mut sc.fwd };
        out[w] = segs[o];
        out[w + 1] = segs[o + 1];
        out[w + 2] = segs[o + 2];
        w += 3;
        cur = far;
    }
}

fn emit(pts: &[f64], closed: bool, out_pts: &mut Vec<f64>, out_poly: &mut Vec<u32>) {
    out_poly.extend_from_slice(&[out_pts.len() as u32, pts.len() as u32, closed as u32]);
    out_pts.extend_from_slice(pts);
}

/// The chaining algorithm on `segs` (6 values per segment); appends polylines to the output vectors.
pub fn chain(segs: &[f64], closed_tol: f64, zero_len: f64, out_pts: &mut Vec<f64>, out_poly: &mut Vec<u32>) -> u32 {
    let n_seg = segs.len() / 6;
    let mut cap: usize = 16;
    while cap < n_seg * 4 {
        cap <<= 1;
    }
    let mask = (cap - 1) as i32;
    let sc = unsafe { &mut SCRATCH };
    reset(&mut sc.keep, n_seg, 0);
    reset(&mut sc.vert_of, n_seg * 2, -1);
    reset(&mut sc.table, cap, -1);
    sc.vq.clear();
    let mut nv: usize = 0;
    for s in 0..n_seg {
        let o = s * 6;
        let dx = segs[o + 3] - segs[o];
        let dy = segs[o + 4] - segs[o + 1];
        let dz = segs[o + 5] - segs[o + 2];
        if !((dx * dx + dy * dy + dz * dz).sqrt() >= zero_len) {
            continue;
        }
        sc.keep[s] = 1;
        for e in 0..2 {
            let qx = js_round(segs[o + e * 3] * 1000.0);
            let qy = js_round(segs[o + e * 3 + 1] * 1000.0);
            let qz = js_round(segs[o + e * 3 + 2] * 1000.0);
            let mut h = (to_int32(qx).wrapping_mul(73856093)
                ^ to_int32(qy).wrapping_mul(19349663)
                ^ to_int32(qz).wrapping_mul(83492791))
                & mask;
            let mut v = sc.table[h as usize];
            while v >= 0 {
                let i = v as usize * 3;
                if sc.vq[i] == qx && sc.vq[i + 1] == qy && sc.vq[i + 2] == qz {
                    break;
                }
                h = (h + 1) & mask;
                v = sc.table[h as usize];
            }
            if v < 0 {
                v = nv as i32;
                nv += 1;
                sc.table[h as usize] = v;
                sc.vq.extend_from_slice(&[qx, qy, qz]);
            }
            sc.vert_of[s * 2 + e] = v;
        }
    }
    // Endpoints per vertex (CSR), in segment order.
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
    reset(&mut sc.used, n_seg, 0);
    if sc.fwd.len() < n_seg * 3 + 3 {
        sc.fwd.resize(n_seg * 3 + 3, 0.0);
        sc.back.resize(n_seg * 3 + 3, 0.0);
    }

    let mut count = 0u32;
    let mut open: Vec<Vec<f64>> = Vec::new();
    let mut pts: Vec<f64> = Vec::new();
    for s in 0..n_seg {
        if sc.keep[s] == 0 || sc.used[s] != 0 {
            continue;
        }
        sc.used[s] = 1;
        let nf = walk(segs, sc, s * 2 + 1, false);
        let nb = walk(segs, sc, s * 2, true);
        let o = s * 6;
        let total = nb + 6 + nf;
        let (back, fwd) = (&sc.back, &sc.fwd);
        let (fx, fy, fz) = if nb > 0 { (back[nb - 3], back[nb - 2], back[nb - 1]) } else { (segs[o], segs[o + 1], segs[o + 2]) };
        let (lx, ly, lz) =
            if nf > 0 { (fwd[nf - 3], fwd[nf - 2], fwd[nf - 1]) } else { (segs[o + 3], segs[o + 4], segs[o + 5]) };
        let (ex, ey, ez) = (fx - lx, fy - ly, fz - lz);
        let closed = total >= 9 && (ex * ex + ey * ey + ez * ez).sqrt() <= closed_tol;
        let stop = if closed { total - 3 } else { total };
        pts.clear();
        let mut i = nb as isize - 3;
        while i >= 0 && pts.len() < stop {
            let j = i as usize;
            pts.extend_from_slice(&back[j..j + 3]);
            i -= 3;
        }
        let mut k = 0;
        while k < 6 && pts.len() < stop {
            pts.push(segs[o + k]);
            k += 1;
        }
        let mut k = 0;
        while pts.len() < stop {
            pts.push(fwd[k]);
            k += 1;
        }
        if closed {
            emit(&pts, true, out_pts, out_poly);
            count += 1;
        } else {
            open.push(pts.clone());
        }
    }
    count + finish(open, closed_tol, zero_len, out_pts, out_poly)
}

fn dist(a: &[f64], i: usize, b: &[f64], j: usize) -> f64 {
    let x = a[i] - b[j];
    let y = a[i + 1] - b[j + 1];
    let z = a[i + 2] - b[j + 2];
    (x * x + y * y + z * z).sqrt()
}

fn reversed(p: &[f64]) -> Vec<f64> {
    let mut r = Vec::with_capacity(p.len());
    for q in p.chunks_exact(3).rev() {
        r.extend_from_slice(q);
    }
    r
}

fn joined(mut a: Vec<f64>, b: &[f64]) -> Vec<f64> {
    a.extend_from_slice(&b[3.min(b.len())..]);
    a
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
fn finish(mut open: Vec<Vec<f64>>, tol: f64, zero_len: f64, out_pts: &mut Vec<f64>, out_poly: &mut Vec<u32>) -> u32 {
    let mut merged = true;
    while merged && open.len() > 1 {
        merged = false;
        'outer: for i in 0..open.len() {
            for j in i + 1..open.len() {
                let (a, b) = (&open[i], &open[j]);
                let ae = a.len() - 3;
                let be = b.len() - 3;
                let r = if dist(a, ae, b, 0) <= tol {
                    Some(joined(a.clone(), b))
                } else if dist(b, be, a, 0) <= tol {
                    Some(joined(b.clone(), a))
                } else if dist(a, ae, b, be) <= tol {
                    Some(joined(a.clone(), &reversed(b)))
                } else if dist(a, 0, b, 0) <= tol {
                    Some(joined(reversed(a), b))
                } else {
                    None
                };
                if let Some(r) = r {
                    open.remove(j);
                    open[i] = r;
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    let mut n = 0;
    for p in &open {
        if p.len() >= 9 && dist(p, 0, p, p.len() - 3) <= tol {
            emit(&p[..p.len() - 3], true, out_pts, out_poly);
            n += 1;
        } else if length(p) >= zero_len {
            emit(p, false, out_pts, out_poly);
            n += 1;
        }
    }
    n
}
