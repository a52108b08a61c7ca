//! 32-bit float arithmetic (22.10), float comparisons (22.6) and the moves (22.9). Every function takes and returns
//! float bits; the rules shared by all of them (flushing, NaN, rounding) are in the module docs of [`super`].

use super::{NAN_F32, SIGN_F32, flush_denorm, mask, read_f32, round_to_f32};

/// `add` (22.10.1): `a + b`, rounded to nearest even, denormals flushed on input and output. `-0 + +0 = +0`,
/// `inf + -inf = NaN`.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    round_to_f32(read_f32(a) + read_f32(b))
}

/// `mul` (22.10.12): `a * b`, rounded to nearest even (the f64 product of two floats is exact), denormals flushed on
/// input and output. `±inf * ±0 = NaN`.
#[inline]
pub fn mul(a: u32, b: u32) -> u32 {
    round_to_f32(read_f32(a) * read_f32(b))
}

/// `mad` (22.10.9): `a * b + c`, unfused — [`mul`] then [`add`], each rounded and flushed (3.1.3.2 allows this; see
/// the module docs for why WARP is taken to do the same).
#[inline]
pub fn mad(a: u32, b: u32, c: u32) -> u32 {
    add(mul(a, b), c)
}

/// `mad` fused (the `mad-fused` variant, [`crate::shader::AluVariants`]): `a * b + c` rounded once to
/// nearest even (IEEE 754's fusedMultiplyAdd), denormals flushed on input and output.
#[inline]
pub fn mad_fused(a: u32, b: u32, c: u32) -> u32 {
    let operand = |bits: u32| f32::from_bits(super::flush_denorm(bits));
    let fused = operand(a).mul_add(operand(b), operand(c));
    // the fused result is a float already: this only writes NaN as the canonical NaN and flushes a denormal
    round_to_f32(f64::from(fused))
}

/// `div` (22.10.2): `a / b`, correctly rounded (computed directly, not as `a * (1/b)`), denormals flushed on input and
/// output. `x / ±0 = ±inf` for `x != 0`, `0 / 0 = NaN`, `inf / inf = NaN`.
#[inline]
pub fn div(a: u32, b: u32) -> u32 {
    // One f64 division rounded to f32 is the correctly rounded float quotient (53 >= 2 * 24 + 2).
    round_to_f32(read_f32(a) / read_f32(b))
}

/// `dp2` (22.10.3): `a.x*b.x + a.y*b.y`, each product and the sum rounded and flushed (unfused; module docs).
#[inline]
pub fn dp2(a: [u32; 2], b: [u32; 2]) -> u32 {
    let [ax, ay] = a;
    let [bx, by] = b;
    add(mul(ax, bx), mul(ay, by))
}

/// `dp3` (22.10.4): `(a.x*b.x + a.y*b.y) + a.z*b.z`, left to right, each product and sum rounded and flushed.
#[inline]
pub fn dp3(a: [u32; 3], b: [u32; 3]) -> u32 {
    let [ax, ay, az] = a;
    let [bx, by, bz] = b;
    add(dp2([ax, ay], [bx, by]), mul(az, bz))
}

/// `dp4` (22.10.5): `((a.x*b.x + a.y*b.y) + a.z*b.z) + a.w*b.w`, left to right, each product and sum rounded and
/// flushed.
#[inline]
pub fn dp4(a: [u32; 4], b: [u32; 4]) -> u32 {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    add(dp3([ax, ay, az], [bx, by, bz]), mul(aw, bw))
}

/// `min` (22.10.11): the smaller of `a` and `b` after flushing denormals. A NaN operand yields the other operand
/// (flushed), two NaNs yield [`NAN_F32`]; `min(-0, +0) = min(+0, -0) = -0` (the IEEE 754R order 3.1.3.2
/// recommends).
#[inline]
pub fn min(a: u32, b: u32) -> u32 {
    let (a, b) = (flush_denorm(a), flush_denorm(b));
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => NAN_F32,
        (true, false) => b,
        (false, true) => a,
        // Equal values have equal bits except for a pair of zeros, where a set sign on either side wins.
        (false, false) if x == y => a | (b & SIGN_F32),
        (false, false) => {
            if x < y {
                a
            } else {
                b
            }
        }
    }
}

/// `max` (22.10.10): the larger of `a` and `b` after flushing denormals. A NaN operand yields the other operand
/// (flushed), two NaNs yield [`NAN_F32`]; `max(-0, +0) = max(+0, -0) = +0` (the IEEE 754R order 3.1.3.2
/// recommends).
#[inline]
pub fn max(a: u32, b: u32) -> u32 {
    let (a, b) = (flush_denorm(a), flush_denorm(b));
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => NAN_F32,
        (true, false) => b,
        (false, true) => a,
        // Equal values have equal bits except for a pair of zeros, where a clear sign on either side wins.
        (false, false) if x == y => a & (b | !SIGN_F32),
        (false, false) => {
            if x >= y {
                a
            } else {
                b
            }
        }
    }
}

/// `eq` (22.6.1): `a == b` after flushing denormals; false if either is NaN; `+0 == -0`.
#[inline]
pub fn eq(a: u32, b: u32) -> u32 {
    mask(read_f32(a) == read_f32(b))
}

/// `ne` (22.6.8): `a != b` after flushing denormals; true if either is NaN; `+0 == -0`.
#[inline]
pub fn ne(a: u32, b: u32) -> u32 {
    mask(read_f32(a) != read_f32(b))
}

/// `lt` (22.6.7): `a < b` after flushing denormals; false if either is NaN.
#[inline]
pub fn lt(a: u32, b: u32) -> u32 {
    mask(read_f32(a) < read_f32(b))
}

/// `ge` (22.6.2): `a >= b` after flushing denormals; false if either is NaN.
#[inline]
pub fn ge(a: u32, b: u32) -> u32 {
    mask(read_f32(a) >= read_f32(b))
}

/// `rcp` (22.10.18): `1 / a`, correctly rounded (the spec allows a relative error of 2^-21), denormals flushed on
/// input and output: `rcp(±0) = rcp(±denorm) = ±inf`, `rcp(±inf) = ±0`, and `rcp(2^127) = +0` because `2^-127` is a
/// denormal.
#[inline]
pub fn rcp(a: u32) -> u32 {
    round_to_f32(1.0 / read_f32(a))
}

/// `rsq` (22.10.19): `1 / sqrt(a)`, computed in f64 and rounded to f32 (relative error below 2^-23; the spec allows
/// 2^-21). `rsq(-0) = rsq(-denorm) = -inf`, `rsq(+0) = +inf`, a negative input or `-inf` gives NaN, `rsq(+inf) = +0`
/// (22.10.19's table, 3.1.3.1).
#[inline]
pub fn rsq(a: u32) -> u32 {
    // sqrt(-0) = -0 and 1 / -0 = -inf give the table's -inf for -0 without a special case.
    round_to_f32(1.0 / read_f32(a).sqrt())
}

/// `sqrt` (22.10.21): the correctly rounded square root (the spec allows 1 ULP). `sqrt(-0) = sqrt(-denorm) = -0`,
/// a negative input or `-inf` gives NaN.
#[inline]
pub fn sqrt(a: u32) -> u32 {
    round_to_f32(read_f32(a).sqrt())
}

/// `exp` (22.10.6): `2^a`, computed in f64 and rounded to f32 (the spec allows a relative error of 2^-21). `exp(±0)`
/// and `exp(±denorm)` are 1, `exp(-inf) = +0`, `exp(+inf) = +inf`; a result below 2^-126 is flushed to `+0` and one
/// past the float range is `+inf`.
#[inline]
pub fn exp(a: u32) -> u32 {
    round_to_f32(read_f32(a).exp2())
}

/// `log` (22.10.8): `log2(a)`, computed in f64 and rounded to f32 (the spec allows 2^-21 absolute error on [0.5, 2]
/// and 2^-21 relative error elsewhere). `log(±0) = log(±denorm) = -inf`, a negative input or `-inf` gives NaN,
/// `log(+inf) = +inf` (22.10.8's table, 3.1.3.1).
#[inline]
pub fn log(a: u32) -> u32 {
    // IEEE log2 gives -inf for both zeros and NaN below zero, as the table wants.
    round_to_f32(read_f32(a).log2())
}

/// `sincos` (22.10.20): `(sin(a), cos(a))`, `a` in radians, each computed in f64 (with exact argument reduction, so
/// any float angle is accurate) and rounded to f32; the spec allows an absolute error of 0.0008 on [-100π, 100π].
/// `sin(±0) = sin(±denorm) = ±0`, `cos(±0) = cos(±denorm) = 1`, `±inf` and NaN give NaN for both. The pair is in
/// the instruction's destination order, `destSIN` then `destCOS`.
#[inline]
pub fn sincos(a: u32) -> (u32, u32) {
    let angle = read_f32(a);
    (round_to_f32(angle.sin()), round_to_f32(angle.cos()))
}

/// `frc` (22.10.7): `a - round_ni(a)`, rounded to f32 as the operation says: in `[+0, 1)` except that a tiny negative
/// input rounds up to exactly `1.0` (`-2^-30 + 1`); `frc(±0) = frc(±denorm) = +0`, `frc(±inf) = NaN`.
#[inline]
pub fn frc(a: u32) -> u32 {
    let x = read_f32(a);
    // x and floor(x) are floats of one binade or less apart, so the f64 difference is exact.
    round_to_f32(x - x.floor())
}

/// `round_ne` (22.10.14): the nearest integral value, ties to even; denormals flush to a zero of their sign, `±inf`
/// stays.
#[inline]
pub fn round_ne(a: u32) -> u32 {
    round_to_f32(read_f32(a).round_ties_even())
}

/// `round_ni` (22.10.15): the integral value toward -infinity (floor); denormals flush to a zero of their sign.
#[inline]
pub fn round_ni(a: u32) -> u32 {
    round_to_f32(read_f32(a).floor())
}

/// `round_pi` (22.10.16): the integral value toward +infinity (ceil), so `round_pi(-0.5) = -0`; denormals flush to a
/// zero of their sign.
#[inline]
pub fn round_pi(a: u32) -> u32 {
    round_to_f32(read_f32(a).ceil())
}

/// `round_z` (22.10.17): the integral value toward zero (truncation); denormals flush to a zero of their sign.
#[inline]
pub fn round_z(a: u32) -> u32 {
    round_to_f32(read_f32(a).trunc())
}

/// `mov` (22.9.1): the bits unchanged — denormals and NaN payloads included (3.1.3.2).
#[inline]
pub fn mov(a: u32) -> u32 {
    a
}

/// `movc` (22.9.2): `if_true` when `condition` has any bit set, else `if_false`; bits unchanged.
#[inline]
pub fn movc(condition: u32, if_true: u32, if_false: u32) -> u32 {
    if condition != 0 { if_true } else { if_false }
}

/// `swapc` (22.9.3), one component: `(dest0, dest1)` = `(b, a)` when `condition` has any bit set, else `(a, b)`,
/// where `a` is src1 and `b` is src2 — the spec's expansion `movc dest0, src0, src2, src1` / `movc dest1, src0, src1,
/// src2`. Bits unchanged.
#[inline]
pub fn swapc(condition: u32, a: u32, b: u32) -> (u32, u32) {
    (movc(condition, b, a), movc(condition, a, b))
}

#[cfg(test)]
mod tests {
    use super::super::{FALSE, TRUE, neg};
    use super::*;

    // Bit patterns used throughout, each derived from the IEEE 754 binary32 layout (sign | 8-bit exponent biased by
    // 127 | 23-bit fraction).
    const ONE: u32 = 0x3F80_0000; // 1.0: exponent 127
    const TWO: u32 = 0x4000_0000; // 2.0
    const THREE: u32 = 0x4040_0000; // 3.0
    const HALF: u32 = 0x3F00_0000; // 0.5
    const NEG_ONE: u32 = 0xBF80_0000;
    const POS_ZERO: u32 = 0x0000_0000;
    const NEG_ZERO: u32 = 0x8000_0000;
    const POS_INF: u32 = 0x7F80_0000;
    const NEG_INF: u32 = 0xFF80_0000;
    const MAX: u32 = 0x7F7F_FFFF; // the largest finite float, (2 - 2^-23) * 2^127
    const MIN_NORMAL: u32 = 0x0080_0000; // 2^-126
    const SMALLEST_DENORM: u32 = 0x0000_0001; // 2^-149
    const LARGEST_DENORM: u32 = 0x007F_FFFF; // 2^-126 - 2^-149
    const NEG_DENORM: u32 = 0x8000_0001; // -2^-149
    const QUIET_NAN_PAYLOAD: u32 = 0x7FC1_2345; // a quiet NaN carrying a payload
    const SIGNALING_NAN: u32 = 0xFF80_0001; // a negative signaling NaN

    fn is_nan(bits: u32) -> bool {
        bits & 0x7F80_0000 == 0x7F80_0000 && bits & 0x007F_FFFF != 0
    }

    #[test]
    fn add_adds_ordinary_values_exactly_when_representable() {
        // 1 + 2 = 3 exactly.
        assert_eq!(add(ONE, TWO), THREE);
        // 1 + -1 = +0 (an exact zero sum is +0 under round-to-nearest).
        assert_eq!(add(ONE, NEG_ONE), POS_ZERO);
    }

    #[test]
    fn add_rounds_a_tie_to_even() {
        // 1 + 2^-24 lies halfway between 1 (fraction 0, even) and 1 + 2^-23 (fraction 1): rounds to 1.
        assert_eq!(add(ONE, 0x3380_0000), ONE); // 0x33800000 = 2^-24 (exponent 103)
        // 1 + 3 * 2^-24 lies halfway between 1 + 2^-23 (fraction 1, odd) and 1 + 2^-22 (fraction 2): rounds to the
        // even one, 0x3F800002.
        assert_eq!(add(ONE, 0x3440_0000), 0x3F80_0002); // 0x34400000 = 1.5 * 2^-23 = 3 * 2^-24
    }

    #[test]
    fn add_of_signed_zeros_follows_ieee() {
        // 3.1.3.2: "-0 + 0 = +0"; -0 + -0 = -0 (IEEE, add's table row -0 column -0).
        assert_eq!(add(NEG_ZERO, POS_ZERO), POS_ZERO);
        assert_eq!(add(POS_ZERO, NEG_ZERO), POS_ZERO);
        assert_eq!(add(NEG_ZERO, NEG_ZERO), NEG_ZERO);
    }

    #[test]
    fn add_reads_denormal_inputs_as_signed_zeros() {
        // 22.10.1's table: denorm + ±0 is +0 or -0 by the zero rules, never the denormal.
        assert_eq!(add(SMALLEST_DENORM, POS_ZERO), POS_ZERO);
        assert_eq!(add(NEG_DENORM, NEG_ZERO), NEG_ZERO);
        assert_eq!(add(NEG_DENORM, NEG_DENORM), NEG_ZERO); // row -denorm, column -denorm: -0
        assert_eq!(add(NEG_DENORM, SMALLEST_DENORM), POS_ZERO); // -0 + +0
        // F + denorm = F exactly (the table's "src0").
        assert_eq!(add(ONE, LARGEST_DENORM), ONE);
    }

    #[test]
    fn add_flushes_a_denormal_sum_to_a_zero_of_its_sign() {
        // 1.5 * 2^-126 - 2^-126 = 2^-127, a denormal: written as +0. 0x00C00000 = 1.5 * 2^-126.
        assert_eq!(add(0x00C0_0000, neg(MIN_NORMAL)), POS_ZERO);
        // The mirror image is -2^-127: written as -0.
        assert_eq!(add(0x80C0_0000, MIN_NORMAL), NEG_ZERO);
    }

    #[test]
    fn add_of_opposite_infinities_is_nan_and_a_nan_input_gives_the_canonical_nan() {
        assert!(is_nan(add(POS_INF, NEG_INF))); // 3.1.3.1: INF - INF = NaN
        assert_eq!(add(POS_INF, MAX), POS_INF);
        assert_eq!(add(NEG_INF, NEG_ONE), NEG_INF);
        // NaN in, NaN out, written as the one canonical NaN whatever the payload.
        assert_eq!(add(QUIET_NAN_PAYLOAD, ONE), NAN_F32);
        assert_eq!(add(ONE, SIGNALING_NAN), NAN_F32);
    }

    #[test]
    fn add_overflows_to_infinity() {
        // MAX + MAX = 2^129 - 2^105, past the range: +inf under round-to-nearest.
        assert_eq!(add(MAX, MAX), POS_INF);
        assert_eq!(add(neg(MAX), neg(MAX)), NEG_INF);
    }

    #[test]
    fn mul_multiplies_and_rounds_to_nearest_even() {
        assert_eq!(mul(TWO, THREE), 0x40C0_0000); // 6.0
        // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: the 2^-46 is below half an ULP (2^-24), so 1 + 2^-22 = 0x3F800002.
        assert_eq!(mul(0x3F80_0001, 0x3F80_0001), 0x3F80_0002);
        // x * 1.0 = x (3.1.3.2).
        assert_eq!(mul(0x3DCC_CCCD, ONE), 0x3DCC_CCCD);
    }

    #[test]
    fn mul_follows_the_special_value_table() {
        // 22.10.12's table.
        assert!(is_nan(mul(POS_INF, POS_ZERO)));
        assert!(is_nan(mul(NEG_INF, SMALLEST_DENORM))); // the denormal reads as +0
        assert_eq!(mul(NEG_ONE, NEG_DENORM), POS_ZERO); // -F * -denorm = +0
        assert_eq!(mul(NEG_ONE, POS_ZERO), NEG_ZERO);
        assert_eq!(mul(NEG_INF, NEG_ONE), POS_INF);
        assert_eq!(mul(QUIET_NAN_PAYLOAD, POS_ZERO), NAN_F32);
    }

    #[test]
    fn mul_overflows_to_infinity() {
        assert_eq!(mul(MAX, TWO), POS_INF);
        assert_eq!(mul(MAX, neg(TWO)), NEG_INF);
    }

    #[test]
    fn mul_flushes_denormal_products() {
        // 2^-64 * 2^-63 = 2^-127: a denormal, written as +0; with one negative factor, -0.
        // 0x1F800000 = 2^-64 (exponent 63), 0x20000000 = 2^-63 (exponent 64).
        assert_eq!(mul(0x1F80_0000, 0x2000_0000), POS_ZERO);
        assert_eq!(mul(0x9F80_0000, 0x2000_0000), NEG_ZERO);
        // 2^-63 * 2^-63 = 2^-126 exactly: the smallest normal, kept.
        assert_eq!(mul(0x2000_0000, 0x2000_0000), MIN_NORMAL);
    }

    #[test]
    fn mul_judges_tininess_after_rounding() {
        // 2^-126 * (1 - 2^-24) = 2^-126 - 2^-150. Rounded into the denormal format (ULP 2^-149) it is a tie that goes
        // to 2^-126, but with the full 24 bits it is exactly representable (fraction all ones, exponent -127), so it
        // is tiny and x86 flush-to-zero writes +0. 0x3F7FFFFF = 1 - 2^-24.
        assert_eq!(mul(MIN_NORMAL, 0x3F7F_FFFF), POS_ZERO);
        // 2^-63 (1 + 2^-23) * 2^-63 (1 - 2^-23) = 2^-126 (1 - 2^-46): below 2^-126 before rounding, but with 24 bits
        // (ULP 2^-150 just under 2^-126) it rounds to 2^-126 — not tiny after rounding, so kept. 0x20000001 =
        // 2^-63 (1 + 2^-23); 0x1FFFFFFE = 2^-64 (2 - 2^-22) = 2^-63 (1 - 2^-23).
        assert_eq!(mul(0x2000_0001, 0x1FFF_FFFE), MIN_NORMAL);
    }

    #[test]
    fn mad_rounds_the_product_before_adding() {
        // a = b = 1 + 2^-12 (0x3F800800): a*b = 1 + 2^-11 + 2^-24 exactly. Rounded to 24 bits that is a tie between
        // 1 + 2^-11 (fraction 0x1000, even) and the next float, so the product is 1 + 2^-11 (0x3F801000). Adding
        // -(1 + 2^-11) gives +0. A fused mad would give 2^-24 instead.
        assert_eq!(mad(0x3F80_0800, 0x3F80_0800, 0xBF80_1000), POS_ZERO);
    }

    #[test]
    fn a_fused_mad_rounds_once() {
        // the same operands as above: a*b - (1 + 2^-11) = 2^-24 exactly, rounded once: 2^-24 (0x33800000)
        assert_eq!(mad_fused(0x3F80_0800, 0x3F80_0800, 0xBF80_1000), 0x3380_0000);
        // 2^-64 * 2^-63 + 2^-126 = 1.5 * 2^-126 (0x00C00000): a normal float, kept
        assert_eq!(mad_fused(0x1F80_0000, 0x2000_0000, MIN_NORMAL), 0x00C0_0000);
        // a denormal result flushes: 2^-64 * 2^-63 + 0 = 2^-127 -> +0; a denormal input reads as 0: 0 * 1 + 1 = 1
        assert_eq!(mad_fused(0x1F80_0000, 0x2000_0000, POS_ZERO), POS_ZERO);
        assert_eq!(mad_fused(0x0000_0001, 0x3F80_0000, 0x3F80_0000), 0x3F80_0000);
        assert_eq!(mad_fused(NAN_F32, 0x3F80_0000, 0x3F80_0000), NAN_F32);
    }

    #[test]
    fn mad_flushes_a_denormal_product_before_adding() {
        // 2^-64 * 2^-63 = 2^-127 flushes to +0, then + 2^-126 = 2^-126. Fused, 1.5 * 2^-126 (0x00C00000) would come
        // out.
        assert_eq!(mad(0x1F80_0000, 0x2000_0000, MIN_NORMAL), MIN_NORMAL);
    }

    #[test]
    fn mad_follows_the_nan_rules_of_its_steps() {
        assert!(is_nan(mad(POS_INF, POS_ZERO, ONE)));
        assert!(is_nan(mad(POS_INF, ONE, NEG_INF)));
        assert_eq!(mad(TWO, THREE, ONE), 0x40E0_0000); // 2 * 3 + 1 = 7
    }

    #[test]
    fn div_divides_correctly_rounded() {
        // 1/3 = 0.0101...b; the nearest float is 0x3EAAAAAB (fraction 0x2AAAAA rounded up, as the next bits are
        // 1010... > half).
        assert_eq!(div(ONE, THREE), 0x3EAA_AAAB);
        assert_eq!(div(0x40C0_0000, THREE), TWO); // 6 / 3 = 2
        assert_eq!(div(0x3DCC_CCCD, ONE), 0x3DCC_CCCD); // x / 1 = x (3.1.3.2)
    }

    #[test]
    fn div_follows_the_special_value_table() {
        // 22.10.2's table.
        assert_eq!(div(ONE, POS_ZERO), POS_INF);
        assert_eq!(div(NEG_ONE, NEG_ZERO), POS_INF); // -F / -0 = +inf
        assert_eq!(div(ONE, NEG_DENORM), NEG_INF); // +F / -denorm = -inf
        assert!(is_nan(div(POS_ZERO, POS_ZERO)));
        assert!(is_nan(div(SMALLEST_DENORM, NEG_ZERO))); // denorm / 0 is 0 / 0
        assert!(is_nan(div(POS_INF, NEG_INF)));
        assert_eq!(div(NEG_INF, TWO), NEG_INF);
        assert_eq!(div(ONE, NEG_INF), NEG_ZERO);
        assert_eq!(div(QUIET_NAN_PAYLOAD, ONE), NAN_F32);
    }

    #[test]
    fn div_by_a_huge_value_is_direct_not_through_a_flushed_reciprocal() {
        // inf / 1e38: done as inf * (1/1e38) the reciprocal (a denormal) would flush and give inf * 0 = NaN; done
        // directly, inf. 0x7E967699 = 1e38.
        assert_eq!(div(POS_INF, 0x7E96_7699), POS_INF);
    }

    #[test]
    fn div_flushes_a_denormal_quotient() {
        // 2^-126 / 2 = 2^-127, a denormal: +0.
        assert_eq!(div(MIN_NORMAL, TWO), POS_ZERO);
        // 1 / MAX is about 2.9e-39, below 2^-126: +0.
        assert_eq!(div(ONE, MAX), POS_ZERO);
    }

    #[test]
    fn dot_products_add_left_to_right() {
        // Products 2^24, 1, 1 (a = b = (2^12, 1, 1); 0x45800000 = 2^12). Left to right: 2^24 + 1 is a tie that rounds
        // to even 2^24, and again + 1: 2^24 (0x4B800000). Adding the two ones first would give 2^24 + 2.
        let a = [0x4580_0000, ONE, ONE];
        assert_eq!(dp3(a, a), 0x4B80_0000);
        // dp4 with products 2^24, 1, 1, 2: ((2^24 + 1) + 1) + 2 = 2^24 + 2 (0x4B800001). Pairwise, (2^24 + 1) + (1 + 2)
        // = 2^24 + 3 would round to 2^24 + 4.
        assert_eq!(
            dp4([0x4580_0000, ONE, ONE, ONE], [0x4580_0000, ONE, ONE, TWO]),
            0x4B80_0001
        );
        // dp2 with products 2^24 and 1: a tie, rounds to 2^24.
        assert_eq!(dp2([0x4580_0000, ONE], [0x4580_0000, ONE]), 0x4B80_0000);
    }

    #[test]
    fn dot_products_compute_ordinary_values() {
        // (1, 2, 3, 0.5) . (2, 3, 0.5, 2) = 2 + 6 + 1.5 + 1 = 10.5 (0x41280000).
        let a = [ONE, TWO, THREE, HALF];
        let b = [TWO, THREE, HALF, TWO];
        assert_eq!(dp4(a, b), 0x4128_0000);
        // The first three: 9.5 (0x41180000); the first two: 8 (0x41000000).
        assert_eq!(dp3([ONE, TWO, THREE], [TWO, THREE, HALF]), 0x4118_0000);
        assert_eq!(dp2([ONE, TWO], [TWO, THREE]), 0x4100_0000);
    }

    #[test]
    fn dot_products_flush_each_product() {
        // (2^-64, 1) . (2^-63, 2^-126): 2^-127 flushes to 0, so the sum is 2^-126.
        assert_eq!(dp2([0x1F80_0000, ONE], [0x2000_0000, MIN_NORMAL]), MIN_NORMAL);
    }

    #[test]
    fn dot_products_give_nan_for_inf_times_zero_or_a_nan_input() {
        assert!(is_nan(dp3([POS_INF, ONE, ONE], [POS_ZERO, ONE, ONE])));
        assert!(is_nan(dp4([ONE, ONE, ONE, QUIET_NAN_PAYLOAD], [ONE; 4])));
    }

    #[test]
    fn min_and_max_return_the_other_operand_for_one_nan() {
        // 22.10.10-11: "If one source operand is NaN, then the other source operand is returned".
        assert_eq!(min(QUIET_NAN_PAYLOAD, TWO), TWO);
        assert_eq!(min(TWO, SIGNALING_NAN), TWO);
        assert_eq!(max(QUIET_NAN_PAYLOAD, NEG_INF), NEG_INF); // max's table: NaN, -inf -> -inf
        assert_eq!(max(POS_INF, QUIET_NAN_PAYLOAD), POS_INF);
        // Both NaN: a NaN.
        assert!(is_nan(min(QUIET_NAN_PAYLOAD, SIGNALING_NAN)));
        assert!(is_nan(max(SIGNALING_NAN, QUIET_NAN_PAYLOAD)));
    }

    #[test]
    fn min_and_max_order_ordinary_values_and_infinities() {
        assert_eq!(min(ONE, TWO), ONE);
        assert_eq!(min(TWO, NEG_ONE), NEG_ONE);
        assert_eq!(max(ONE, TWO), TWO);
        assert_eq!(max(NEG_INF, NEG_ONE), NEG_ONE);
        assert_eq!(min(POS_INF, MAX), MAX);
        assert_eq!(max(NEG_INF, POS_INF), POS_INF);
    }

    #[test]
    fn min_of_signed_zeros_is_negative_and_max_positive_in_either_order() {
        // The IEEE 754R rule 3.1.3.2 recommends.
        assert_eq!(min(NEG_ZERO, POS_ZERO), NEG_ZERO);
        assert_eq!(min(POS_ZERO, NEG_ZERO), NEG_ZERO);
        assert_eq!(max(NEG_ZERO, POS_ZERO), POS_ZERO);
        assert_eq!(max(POS_ZERO, NEG_ZERO), POS_ZERO);
    }

    #[test]
    fn min_and_max_compare_denormals_as_zeros_and_return_them_flushed() {
        // +denorm against -0 compares as +0 vs -0: min is -0, max is +0 (the flushed denormal).
        assert_eq!(min(LARGEST_DENORM, NEG_ZERO), NEG_ZERO);
        assert_eq!(max(NEG_ZERO, LARGEST_DENORM), POS_ZERO);
        // A denormal against 1: min is the denormal, written flushed.
        assert_eq!(min(SMALLEST_DENORM, ONE), POS_ZERO);
        assert_eq!(max(NEG_DENORM, NEG_ONE), NEG_ZERO);
    }

    #[test]
    fn comparisons_with_nan_are_false_except_ne() {
        // 3.1.3.1 and 22.6.
        for nan in [QUIET_NAN_PAYLOAD, SIGNALING_NAN, NAN_F32] {
            assert_eq!(eq(nan, nan), FALSE);
            assert_eq!(lt(nan, ONE), FALSE);
            assert_eq!(lt(ONE, nan), FALSE);
            assert_eq!(ge(nan, ONE), FALSE);
            assert_eq!(ge(ONE, nan), FALSE);
            assert_eq!(ne(nan, nan), TRUE);
            assert_eq!(ne(ONE, nan), TRUE);
        }
    }

    #[test]
    fn comparisons_ignore_the_sign_of_zero_and_flush_denormals() {
        assert_eq!(eq(POS_ZERO, NEG_ZERO), TRUE);
        assert_eq!(ne(POS_ZERO, NEG_ZERO), FALSE);
        assert_eq!(lt(NEG_ZERO, POS_ZERO), FALSE);
        assert_eq!(ge(NEG_ZERO, POS_ZERO), TRUE);
        // A denormal equals zero (22.6.1: "Denorms are flushed before comparison").
        assert_eq!(eq(SMALLEST_DENORM, POS_ZERO), TRUE);
        assert_eq!(eq(LARGEST_DENORM, NEG_DENORM), TRUE);
        assert_eq!(lt(POS_ZERO, LARGEST_DENORM), FALSE);
    }

    #[test]
    fn comparisons_order_ordinary_values_and_infinities() {
        assert_eq!(lt(ONE, TWO), TRUE);
        assert_eq!(lt(TWO, ONE), FALSE);
        assert_eq!(ge(TWO, TWO), TRUE);
        assert_eq!(ge(ONE, TWO), FALSE);
        assert_eq!(eq(TWO, TWO), TRUE);
        assert_eq!(ne(ONE, TWO), TRUE);
        assert_eq!(lt(NEG_INF, neg(MAX)), TRUE);
        assert_eq!(ge(POS_INF, POS_INF), TRUE);
        assert_eq!(lt(MAX, POS_INF), TRUE);
    }

    #[test]
    fn rcp_computes_reciprocals() {
        assert_eq!(rcp(TWO), HALF);
        assert_eq!(rcp(THREE), 0x3EAA_AAAB); // 1/3, as for div
        assert_eq!(rcp(neg(HALF)), neg(TWO));
    }

    #[test]
    fn rcp_follows_the_special_value_table() {
        // 22.10.18's table.
        assert_eq!(rcp(POS_ZERO), POS_INF);
        assert_eq!(rcp(NEG_ZERO), NEG_INF);
        assert_eq!(rcp(SMALLEST_DENORM), POS_INF);
        assert_eq!(rcp(NEG_DENORM), NEG_INF);
        assert_eq!(rcp(POS_INF), POS_ZERO);
        assert_eq!(rcp(NEG_INF), NEG_ZERO);
        assert_eq!(rcp(QUIET_NAN_PAYLOAD), NAN_F32);
    }

    #[test]
    fn rcp_of_a_huge_value_flushes_a_denormal_reciprocal() {
        // 1 / 2^126 = 2^-126, normal: kept. 1 / 2^127 = 2^-127, denormal: +0. 0x7E800000 = 2^126, 0x7F000000 = 2^127.
        assert_eq!(rcp(0x7E80_0000), MIN_NORMAL);
        assert_eq!(rcp(0x7F00_0000), POS_ZERO);
        assert_eq!(rcp(0xFF00_0000), NEG_ZERO);
    }

    #[test]
    fn rsq_computes_reciprocal_square_roots() {
        assert_eq!(rsq(0x4080_0000), HALF); // 1/sqrt(4) = 0.5
        // 1/sqrt(2) = 0.70710678118...; the nearest float is 0x3F3504F3 (0.707106769...).
        assert_eq!(rsq(TWO), 0x3F35_04F3);
        assert_eq!(rsq(0x3E80_0000), TWO); // 1/sqrt(0.25) = 2
    }

    #[test]
    fn rsq_follows_the_special_value_table() {
        // 22.10.19's table and 3.1.3.1 ("rsq(-0) produces -INF").
        assert_eq!(rsq(NEG_ZERO), NEG_INF);
        assert_eq!(rsq(NEG_DENORM), NEG_INF);
        assert_eq!(rsq(POS_ZERO), POS_INF);
        assert_eq!(rsq(SMALLEST_DENORM), POS_INF);
        assert_eq!(rsq(POS_INF), POS_ZERO);
        assert!(is_nan(rsq(NEG_ONE)));
        assert!(is_nan(rsq(NEG_INF)));
        assert_eq!(rsq(QUIET_NAN_PAYLOAD), NAN_F32);
    }

    #[test]
    fn sqrt_computes_correctly_rounded_roots() {
        assert_eq!(sqrt(0x4080_0000), TWO); // sqrt(4) = 2
        // sqrt(2) = 1.41421356237...; nearest float 0x3FB504F3.
        assert_eq!(sqrt(TWO), 0x3FB5_04F3);
        assert_eq!(sqrt(MIN_NORMAL), 0x2000_0000); // sqrt(2^-126) = 2^-63
    }

    #[test]
    fn sqrt_follows_the_special_value_table() {
        // 22.10.21's table and 3.1.3.1 ("sqrt(-0) produces -0").
        assert_eq!(sqrt(NEG_ZERO), NEG_ZERO);
        assert_eq!(sqrt(NEG_DENORM), NEG_ZERO);
        assert_eq!(sqrt(SMALLEST_DENORM), POS_ZERO);
        assert_eq!(sqrt(POS_INF), POS_INF);
        assert!(is_nan(sqrt(NEG_ONE)));
        assert!(is_nan(sqrt(NEG_INF)));
        assert_eq!(sqrt(SIGNALING_NAN), NAN_F32);
    }

    #[test]
    fn exp_computes_powers_of_two() {
        assert_eq!(exp(THREE), 0x4100_0000); // 2^3 = 8
        assert_eq!(exp(NEG_ONE), HALF);
        // 2^0.5 = sqrt(2): nearest float 0x3FB504F3.
        assert_eq!(exp(HALF), 0x3FB5_04F3);
    }

    #[test]
    fn exp_follows_the_special_value_table() {
        // 22.10.6's table: -inf -> 0, ±denorm and ±0 -> 1, +inf -> +inf.
        assert_eq!(exp(NEG_INF), POS_ZERO);
        assert_eq!(exp(NEG_DENORM), ONE);
        assert_eq!(exp(NEG_ZERO), ONE);
        assert_eq!(exp(POS_ZERO), ONE);
        assert_eq!(exp(SMALLEST_DENORM), ONE);
        assert_eq!(exp(POS_INF), POS_INF);
        assert_eq!(exp(QUIET_NAN_PAYLOAD), NAN_F32);
    }

    #[test]
    fn exp_overflows_to_infinity_and_flushes_denormal_results() {
        // 2^128 is past the range: +inf. 0x43000000 = 128.
        assert_eq!(exp(0x4300_0000), POS_INF);
        // 2^-126 is the smallest normal: kept. 2^-127 is a denormal: +0. 0xC2FC0000 = -126, 0xC2FE0000 = -127.
        assert_eq!(exp(0xC2FC_0000), MIN_NORMAL);
        assert_eq!(exp(0xC2FE_0000), POS_ZERO);
    }

    #[test]
    fn log_computes_base_two_logarithms() {
        assert_eq!(log(0x4100_0000), THREE); // log2(8) = 3
        assert_eq!(log(ONE), POS_ZERO); // log2(1) = +0
        assert_eq!(log(HALF), NEG_ONE);
        assert_eq!(log(MIN_NORMAL), 0xC2FC_0000); // log2(2^-126) = -126
        // log2(10) = 3.32192809488736...; the nearest float is 0x40549A78 (3.32192802...).
        assert_eq!(log(0x4120_0000), 0x4054_9A78);
    }

    #[test]
    fn log_follows_the_special_value_table() {
        // 22.10.8's table and 3.1.3.1 ("log of (+/-) 0 produces -INF. log of a negative value (other than -0)
        // produces NaN").
        assert_eq!(log(POS_ZERO), NEG_INF);
        assert_eq!(log(NEG_ZERO), NEG_INF);
        assert_eq!(log(SMALLEST_DENORM), NEG_INF);
        assert_eq!(log(NEG_DENORM), NEG_INF);
        assert_eq!(log(POS_INF), POS_INF);
        assert!(is_nan(log(NEG_ONE)));
        assert!(is_nan(log(NEG_INF)));
        assert_eq!(log(QUIET_NAN_PAYLOAD), NAN_F32);
    }

    #[test]
    fn sincos_computes_sine_and_cosine() {
        // The float nearest π/2 is 1.57079637 (0x3FC90FDB), a little past π/2: its sine is 1 - 1.9e-15, which rounds
        // to 1.0.
        assert_eq!(sincos(0x3FC9_0FDB).0, ONE);
        // The float nearest π is π + ε with ε = 8.742278e-8: sin = -sin(ε) ≈ -ε (ε³/6 is far below the ULP), whose
        // nearest float is 0xB3BBBD2E; cos = -cos(ε) = -(1 - ε²/2), which rounds to -1.
        assert_eq!(sincos(0x4049_0FDB), (0xB3BB_BD2E, NEG_ONE));
    }

    #[test]
    fn sincos_follows_the_special_value_table() {
        // 22.10.20's table.
        assert_eq!(sincos(POS_ZERO), (POS_ZERO, ONE));
        assert_eq!(sincos(NEG_ZERO), (NEG_ZERO, ONE));
        assert_eq!(sincos(NEG_DENORM), (NEG_ZERO, ONE));
        assert_eq!(sincos(SMALLEST_DENORM), (POS_ZERO, ONE));
        assert_eq!(sincos(POS_INF), (NAN_F32, NAN_F32));
        assert_eq!(sincos(NEG_INF), (NAN_F32, NAN_F32));
        assert_eq!(sincos(QUIET_NAN_PAYLOAD), (NAN_F32, NAN_F32));
    }

    #[test]
    fn sincos_stays_in_range_for_huge_angles() {
        // 22.10.20: "Theta values can be any IEEE 32-bit floating point values"; the table gives [-1, 1] for any
        // finite value.
        for angle in [MAX, neg(MAX), 0x4F00_0000, 0x5A00_0000] {
            let (s, c) = sincos(angle);
            for value in [s, c] {
                let v = f32::from_bits(value);
                assert!((-1.0..=1.0).contains(&v), "{angle:#x} gave {v}");
            }
        }
    }

    #[test]
    fn frc_gives_the_fraction_above_the_floor() {
        assert_eq!(frc(0x3FA0_0000), 0x3E80_0000); // frc(1.25) = 0.25
        assert_eq!(frc(0xBFA0_0000), 0x3F40_0000); // frc(-1.25) = -1.25 - (-2) = 0.75
        assert_eq!(frc(THREE), POS_ZERO); // an integer: +0
        assert_eq!(frc(neg(THREE)), POS_ZERO); // -3 - (-3) = +0
    }

    #[test]
    fn frc_follows_the_special_value_table() {
        // 22.10.7's table: ±0 and ±denorm -> +0, ±inf -> NaN.
        assert_eq!(frc(NEG_ZERO), POS_ZERO);
        assert_eq!(frc(NEG_DENORM), POS_ZERO);
        assert_eq!(frc(SMALLEST_DENORM), POS_ZERO);
        assert!(is_nan(frc(POS_INF)));
        assert!(is_nan(frc(NEG_INF)));
        assert_eq!(frc(QUIET_NAN_PAYLOAD), NAN_F32);
    }

    #[test]
    fn frc_of_a_tiny_negative_value_rounds_up_to_one() {
        // -2^-30 - round_ni(-2^-30) = -2^-30 + 1 = 1 - 2^-30; below 1 the float ULP is 2^-24, so this rounds to 1.0.
        // 0xB0800000 = -2^-30.
        assert_eq!(frc(0xB080_0000), ONE);
    }

    #[test]
    fn round_ne_rounds_ties_to_even() {
        assert_eq!(round_ne(0x4020_0000), TWO); // 2.5 -> 2
        assert_eq!(round_ne(0x4060_0000), 0x4080_0000); // 3.5 -> 4
        assert_eq!(round_ne(0xC020_0000), neg(TWO)); // -2.5 -> -2
        assert_eq!(round_ne(0xBF00_0000), NEG_ZERO); // -0.5 -> -0
        assert_eq!(round_ne(0x3FC0_0000), TWO); // 1.5 -> 2
    }

    #[test]
    fn round_ni_pi_z_round_toward_their_directions() {
        // -1.5 (0xBFC00000) and 1.5 (0x3FC00000).
        assert_eq!(round_ni(0xBFC0_0000), neg(TWO));
        assert_eq!(round_ni(0x3FC0_0000), ONE);
        assert_eq!(round_pi(0xBFC0_0000), NEG_ONE);
        assert_eq!(round_pi(0x3FC0_0000), TWO);
        assert_eq!(round_z(0xBFC0_0000), NEG_ONE);
        assert_eq!(round_z(0x3FC0_0000), ONE);
        // round_pi(-0.5) = -0 and round_ni(-0.5) = -1; round_z(0.5) = +0.
        assert_eq!(round_pi(0xBF00_0000), NEG_ZERO);
        assert_eq!(round_ni(0xBF00_0000), NEG_ONE);
        assert_eq!(round_z(HALF), POS_ZERO);
    }

    #[test]
    fn rounding_follows_the_special_value_table() {
        // 22.10.14-17's tables: ±denorm -> ±0, ±0 and ±inf unchanged, NaN -> NaN.
        for round in [round_ne, round_ni, round_pi, round_z] {
            assert_eq!(round(NEG_DENORM), NEG_ZERO);
            assert_eq!(round(LARGEST_DENORM), POS_ZERO);
            assert_eq!(round(NEG_ZERO), NEG_ZERO);
            assert_eq!(round(POS_INF), POS_INF);
            assert_eq!(round(NEG_INF), NEG_INF);
            assert_eq!(round(MAX), MAX); // already integral
            assert_eq!(round(QUIET_NAN_PAYLOAD), NAN_F32);
        }
    }

    #[test]
    fn moves_keep_denormals_and_nan_payloads_bit_for_bit() {
        // 3.1.3.2: moves "must not alter data at all".
        assert_eq!(mov(SMALLEST_DENORM), SMALLEST_DENORM);
        assert_eq!(mov(SIGNALING_NAN), SIGNALING_NAN);
        assert_eq!(movc(1, NEG_DENORM, ONE), NEG_DENORM);
        assert_eq!(movc(0, ONE, QUIET_NAN_PAYLOAD), QUIET_NAN_PAYLOAD);
    }

    #[test]
    fn movc_tests_every_bit_of_the_condition() {
        // 22.9.2: "has any bit set" — a float -0 (only the sign bit) is true, +0 is false.
        assert_eq!(movc(NEG_ZERO, ONE, TWO), ONE);
        assert_eq!(movc(0x0000_0100, ONE, TWO), ONE);
        assert_eq!(movc(TRUE, ONE, TWO), ONE);
        assert_eq!(movc(POS_ZERO, ONE, TWO), TWO);
    }

    #[test]
    fn swapc_swaps_when_the_condition_is_set() {
        // 22.9.3's expansion: dest0 = cond ? src2 : src1, dest1 = cond ? src1 : src2.
        assert_eq!(swapc(TRUE, ONE, TWO), (TWO, ONE));
        assert_eq!(swapc(FALSE, ONE, TWO), (ONE, TWO));
        assert_eq!(
            swapc(0x8000_0000, SMALLEST_DENORM, SIGNALING_NAN),
            (SIGNALING_NAN, SMALLEST_DENORM)
        );
    }
}
