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
