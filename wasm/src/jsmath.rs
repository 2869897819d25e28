//! JavaScript number semantics the reference relies on, for bit-identical results.

/// `Math.round(x)`: the nearest integer, halves rounded up (towards +∞), NaN and ±∞ unchanged.
#[inline]
pub fn js_round(x: f64) -> f64 {
    let f = x.floor();
    if x - f >= 0.5 {
        f + 1.0
    } else {
        f
    }
}

/// `x | 0` (ECMAScript ToInt32): truncation modulo 2^32 into a signed 32-bit integer; NaN and ±∞ give 0.
#[inline]
pub fn to_int32(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    let t = x.trunc();
    if t.abs() < 9.2e18 {
        (t as i64) as i32
    } else {
        let m = t.rem_euclid(4294967296.0);
        (m as u64) as u32 as i32
    }
}
