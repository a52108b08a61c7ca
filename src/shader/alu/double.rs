//! Double-precision instructions (22.14-22.17): IEEE 754 binary64 with denormals honoured on input and output
//! (3.1.4), round to nearest even. A double is a [`DoubleWords`] pair, low word first; the interpreter maps `.xy` and
//! `.zw` (after the swizzle) to pairs and calls these once per double.

use super::{DoubleWords, NAN_F64, flush_denorm, mask, round_to_f32};

/// The sign bit of a double, in its high word.
const SIGN_HIGH_WORD: u32 = 0x8000_0000;

/// A double from its register words (low word first).
#[inline]
fn read_f64(words: DoubleWords) -> f64 {
    f64::from_bits(bits_of(words))
}

/// The 64 bits a pair of register words holds (low word first).
#[inline]
fn bits_of(words: DoubleWords) -> u64 {
    let [low, high] = words;
    u64::from(high).wrapping_shl(32) | u64::from(low)
}

/// The register words (low word first) holding 64 bits.
#[inline]
fn words_of(bits: u64) -> DoubleWords {
    [bits as u32, bits.wrapping_shr(32) as u32]
}

/// A double instruction's result as register words, a NaN written as [`NAN_F64`].
#[inline]
fn write_f64(value: f64) -> DoubleWords {
    words_of(if value.is_nan() { NAN_F64 } else { value.to_bits() })
}

/// The negate source modifier on a double operand: the sign flipped, nothing else touched (22.18.2).
#[inline]
pub fn dneg(a: DoubleWords) -> DoubleWords {
    let [low, high] = a;
    [low, high ^ SIGN_HIGH_WORD]
}

/// The absolute-value source modifier on a double operand: the sign cleared, nothing else touched (22.18.1).
#[inline]
pub fn dabs(a: DoubleWords) -> DoubleWords {
    let [low, high] = a;
    [low, high & !SIGN_HIGH_WORD]
}

/// The `_sat` result modifier on a double result: `dmin(1.0, dmax(0.0, x))` (22.19.1), so NaN and `-0` become `+0`.
#[inline]
pub fn dsaturate(a: DoubleWords) -> DoubleWords {
    dmin(words_of(1.0f64.to_bits()), dmax([0, 0], a))
}

/// `dadd` (22.14.1): `a + b`, rounded to nearest even, denormals kept.
#[inline]
pub fn dadd(a: DoubleWords, b: DoubleWords) -> DoubleWords {
    write_f64(read_f64(a) + read_f64(b))
}

/// `dmul` (22.14.4): `a * b`, rounded to nearest even, denormals kept.
#[inline]
pub fn dmul(a: DoubleWords, b: DoubleWords) -> DoubleWords {
    write_f64(read_f64(a) * read_f64(b))
}

/// `ddiv` (22.14.6): `a / b`, correctly rounded ("accurate to 0.5 ULP"), denormals honoured (3.1.4) — so a denormal
/// divided by itself is 1, where 22.14.6's table, copied from the float one, reads denormals as zero.
#[inline]
pub fn ddiv(a: DoubleWords, b: DoubleWords) -> DoubleWords {
    write_f64(read_f64(a) / read_f64(b))
}

/// `dfma` (22.14.7): `a * b + c` fused, with one rounding ("accurate to 0.5 ULP for the full fused operation").
#[inline]
pub fn dfma(a: DoubleWords, b: DoubleWords, c: DoubleWords) -> DoubleWords {
    write_f64(read_f64(a).mul_add(read_f64(b), read_f64(c)))
}

/// `drcp` (22.14.5): `1 / a`, correctly rounded (the spec allows 1 ULP, exact when representable), denormals
/// honoured (3.1.4: "support NaNs, INFs, and Denorms appropriately"): the reciprocal of a denormal is finite when it
/// fits (`1 / (2^-1022 - 2^-1074)` is about 2^1022) and infinity otherwise.
#[inline]
pub fn drcp(a: DoubleWords) -> DoubleWords {
    write_f64(1.0 / read_f64(a))
}

/// `dmin` (22.14.3): the smaller of `a` and `b`. A NaN operand yields the other, two NaNs yield [`NAN_F64`];
/// `dmin(-0, +0) = -0` in either order (the IEEE 754R order 3.1.3.2 recommends); denormals compare as themselves.
#[inline]
pub fn dmin(a: DoubleWords, b: DoubleWords) -> DoubleWords {
    let (x, y) = (read_f64(a), read_f64(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => words_of(NAN_F64),
        (true, false) => b,
        (false, true) => a,
        // Equal values have equal bits except for a pair of zeros, where a set sign on either side wins.
        (false, false) if x == y => words_of(bits_of(a) | (bits_of(b) & (1 << 63))),
        (false, false) => {
            if x < y {
                a
            } else {
                b
            }
        }
    }
}

/// `dmax` (22.14.2): the larger of `a` and `b`. A NaN operand yields the other, two NaNs yield [`NAN_F64`];
/// `dmax(-0, +0) = +0` in either order; denormals compare as themselves.
#[inline]
pub fn dmax(a: DoubleWords, b: DoubleWords) -> DoubleWords {
    let (x, y) = (read_f64(a), read_f64(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => words_of(NAN_F64),
        (true, false) => b,
        (false, true) => a,
        // Equal values have equal bits except for a pair of zeros, where a clear sign on either side wins.
        (false, false) if x == y => words_of(bits_of(a) & (bits_of(b) | !(1 << 63))),
        (false, false) => {
            if x >= y {
                a
            } else {
                b
            }
        }
    }
}

/// `deq` (22.15.1): `a == b` as one 32-bit mask; false if either is NaN; `+0 == -0`.
#[inline]
pub fn deq(a: DoubleWords, b: DoubleWords) -> u32 {
    mask(read_f64(a) == read_f64(b))
}

/// `dne` (22.15.4): `a != b` as one 32-bit mask; true if either is NaN.
#[inline]
pub fn dne(a: DoubleWords, b: DoubleWords) -> u32 {
    mask(read_f64(a) != read_f64(b))
}

/// `dlt` (22.15.3): `a < b` as one 32-bit mask; false if either is NaN.
#[inline]
pub fn dlt(a: DoubleWords, b: DoubleWords) -> u32 {
    mask(read_f64(a) < read_f64(b))
}

/// `dge` (22.15.2): `a >= b` as one 32-bit mask; false if either is NaN.
#[inline]
pub fn dge(a: DoubleWords, b: DoubleWords) -> u32 {
    mask(read_f64(a) >= read_f64(b))
}

/// `dmov` (22.16.1): the words unchanged.
#[inline]
pub fn dmov(a: DoubleWords) -> DoubleWords {
    a
}

/// `dmovc` (22.16.2): `if_true` when the 32-bit `condition` has any bit set, else `if_false`; words unchanged.
#[inline]
pub fn dmovc(condition: u32, if_true: DoubleWords, if_false: DoubleWords) -> DoubleWords {
    if condition != 0 { if_true } else { if_false }
}

/// `dtof` (22.17.1): a double to the nearest float, ties to even (so past the float range it is infinity); a
/// result in the float denormal range is flushed to a zero of its sign (22.17.1 lets float denormals be honoured or
/// flushed; 3.2.2 counts 32-bit floats as a format without denormals), judged after rounding like every float
/// result; NaN becomes [`NAN_F32`](super::NAN_F32).
#[inline]
pub fn dtof(a: DoubleWords) -> u32 {
    round_to_f32(read_f64(a))
}

/// `ftod` (22.17.2): a float to a double, exactly; a float denormal reads as a zero of its sign (22.17.2 lets it be
/// honoured or flushed); NaN becomes [`NAN_F64`].
#[inline]
pub fn ftod(a: u32) -> DoubleWords {
    write_f64(f64::from(f32::from_bits(flush_denorm(a))))
}

/// `dtoi` (22.17.3): a double to a signed integer, rounding toward zero, clamped to `[-2147483648.999,
/// 2147483647.999]` (so saturating), NaN giving 0.
#[inline]
pub fn dtoi(a: DoubleWords) -> u32 {
    // Rust's float-to-int `as` truncates, saturates and maps NaN to 0: exactly the rule.
    read_f64(a) as i32 as u32
}

/// `dtou` (22.17.4): a double to an unsigned integer, rounding toward zero, clamped to `[0, 4294967295.999]`, NaN
/// giving 0.
#[inline]
pub fn dtou(a: DoubleWords) -> u32 {
    read_f64(a) as u32
}

/// `itod` (22.17.5): a signed integer to a double, exactly.
#[inline]
pub fn itod(a: u32) -> DoubleWords {
    write_f64(f64::from(a as i32))
}

/// `utod` (22.17.6): an unsigned integer to a double, exactly.
#[inline]
pub fn utod(a: u32) -> DoubleWords {
    write_f64(f64::from(a))
}

#[cfg(test)]
mod tests {
    use super::super::{FALSE, NAN_F32, TRUE};
    use super::*;

    // Doubles as [low word, high word], from the IEEE 754 binary64 layout (sign | 11-bit exponent biased by 1023 |
    // 52-bit fraction); the high word holds the sign, exponent and top 20 fraction bits.
    const ONE: DoubleWords = [0, 0x3FF0_0000];
    const TWO: DoubleWords = [0, 0x4000_0000];
    const THREE: DoubleWords = [0, 0x4008_0000];
    const HALF: DoubleWords = [0, 0x3FE0_0000];
    const NEG_ONE: DoubleWords = [0, 0xBFF0_0000];
    const POS_ZERO: DoubleWords = [0, 0];
    const NEG_ZERO: DoubleWords = [0, 0x8000_0000];
    const POS_INF: DoubleWords = [0, 0x7FF0_0000];
    const NEG_INF: DoubleWords = [0, 0xFFF0_0000];
    const SMALLEST_DENORM: DoubleWords = [1, 0]; // 2^-1074
    const LARGEST_DENORM: DoubleWords = [0xFFFF_FFFF, 0x000F_FFFF]; // 2^-1022 - 2^-1074
    const MIN_NORMAL: DoubleWords = [0, 0x0010_0000]; // 2^-1022
    const NAN_PAYLOAD: DoubleWords = [0x1234_5678, 0x7FF8_0001];
    const CANONICAL_NAN: DoubleWords = [0, 0x7FF8_0000];

    fn is_nan(words: DoubleWords) -> bool {
        let [low, high] = words;
        high & 0x7FF0_0000 == 0x7FF0_0000 && (high & 0x000F_FFFF != 0 || low != 0)
    }

    #[test]
    fn doubles_are_read_low_word_first() {
        // 1 + 2 = 3 with the words in .xy order: x is the low word (0), y the high word.
        assert_eq!(dadd(ONE, TWO), THREE);
        // 1 + 2^-52 has its only fraction bit in the low word: [1, 0x3FF00000]; doubling it moves no bits between
        // words: [1, 0x40000000].
        assert_eq!(dadd([1, 0x3FF0_0000], [1, 0x3FF0_0000]), [1, 0x4000_0000]);
    }

    #[test]
    fn dadd_rounds_ties_to_even_and_keeps_denormals() {
        // 1 + 2^-53 is a tie between 1 (even) and 1 + 2^-52: 1. 2^-53 is [0, 0x3CA00000] (exponent 970).
        assert_eq!(dadd(ONE, [0, 0x3CA0_0000]), ONE);
        // 2^-1074 + 2^-1074 = 2^-1073, a denormal, kept (3.1.4: no flush-to-zero).
        assert_eq!(dadd(SMALLEST_DENORM, SMALLEST_DENORM), [2, 0]);
        // 1.5 * 2^-1022 - 2^-1022 = 2^-1023, a denormal: fraction bit 51, [0, 0x00080000].
        assert_eq!(dadd([0, 0x0018_0000], dneg(MIN_NORMAL)), [0, 0x0008_0000]);
    }

    #[test]
    fn dadd_follows_the_special_value_table() {
        // 22.14.1's table.
        assert_eq!(dadd(NEG_ZERO, POS_ZERO), POS_ZERO);
        assert_eq!(dadd(NEG_ZERO, NEG_ZERO), NEG_ZERO);
        assert!(is_nan(dadd(POS_INF, NEG_INF)));
        assert_eq!(dadd(POS_INF, ONE), POS_INF);
        assert_eq!(dadd(NAN_PAYLOAD, ONE), CANONICAL_NAN);
        // Overflow: the largest double doubled is infinity.
        let max = [0xFFFF_FFFF, 0x7FEF_FFFF];
        assert_eq!(dadd(max, max), POS_INF);
    }

    #[test]
    fn dmul_multiplies_and_keeps_denormals() {
        assert_eq!(dmul(TWO, THREE), [0, 0x4018_0000]); // 6
        assert_eq!(dmul(SMALLEST_DENORM, TWO), [2, 0]); // 2^-1073, a denormal
        assert_eq!(dmul(MIN_NORMAL, HALF), [0, 0x0008_0000]); // 2^-1023, a denormal
        // 22.14.4's table.
        assert_eq!(dmul(NEG_ZERO, NEG_ONE), POS_ZERO);
        assert_eq!(dmul(POS_ZERO, NEG_ONE), NEG_ZERO);
        assert!(is_nan(dmul(POS_INF, POS_ZERO)));
        assert_eq!(dmul(NEG_INF, NEG_ONE), POS_INF);
    }

    #[test]
    fn ddiv_divides_correctly_rounded() {
        // 1/3: fraction 0x5555555555555 rounded down (the next bits are 0101...): 0x3FD5555555555555.
        assert_eq!(ddiv(ONE, THREE), [0x5555_5555, 0x3FD5_5555]);
        assert_eq!(ddiv(ONE, POS_ZERO), POS_INF);
        assert_eq!(ddiv(ONE, NEG_ZERO), NEG_INF);
        assert!(is_nan(ddiv(POS_ZERO, POS_ZERO)));
        assert!(is_nan(ddiv(POS_INF, NEG_INF)));
        assert_eq!(ddiv(ONE, NEG_INF), NEG_ZERO);
    }

    #[test]
    fn ddiv_honours_denormals() {
        // 3.1.4: denormals are not read as zero, so denorm / denorm = 1, not 0 / 0 = NaN.
        assert_eq!(ddiv(SMALLEST_DENORM, SMALLEST_DENORM), ONE);
        // 2^-1074 / 2 is below the smallest denormal: a tie between 0 (even) and 2^-1074, so +0.
        assert_eq!(ddiv(SMALLEST_DENORM, TWO), POS_ZERO);
        // 2^-1022 / 4 = 2^-1024, a denormal: fraction bit 50, [0, 0x00040000].
        assert_eq!(ddiv(MIN_NORMAL, [0, 0x4010_0000]), [0, 0x0004_0000]);
    }

    #[test]
    fn dfma_rounds_once() {
        // (1 + 2^-27)(1 - 2^-27) = 1 - 2^-54 exactly. Rounded on its own it is a tie between 1 - 2^-53 (odd) and 1
        // (even), giving 1, and 1 - 1 = 0; fused, the result is -2^-54 = [0, 0xBC900000] (exponent 969).
        // 1 + 2^-27 = [0x02000000, 0x3FF00000] (fraction bit 25, in the low word); 1 - 2^-27 = (2 - 2^-26) * 2^-1 =
        // [0xFC000000, 0x3FEFFFFF] (exponent 1022, fraction bits 51..26 set).
        assert_eq!(
            dfma([0x0200_0000, 0x3FF0_0000], [0xFC00_0000, 0x3FEF_FFFF], NEG_ONE),
            [0, 0xBC90_0000]
        );
        assert_eq!(dfma(TWO, THREE, ONE), [0, 0x401C_0000]); // 2 * 3 + 1 = 7
        assert!(is_nan(dfma(POS_INF, POS_ZERO, ONE)));
    }

    #[test]
    fn drcp_computes_reciprocals() {
        assert_eq!(drcp(TWO), HALF);
        assert_eq!(drcp(THREE), [0x5555_5555, 0x3FD5_5555]);
        // 22.14.5's table.
        assert_eq!(drcp(POS_ZERO), POS_INF);
        assert_eq!(drcp(NEG_ZERO), NEG_INF);
        assert_eq!(drcp(POS_INF), POS_ZERO);
        assert_eq!(drcp(NEG_INF), NEG_ZERO);
        assert_eq!(drcp(NAN_PAYLOAD), CANONICAL_NAN);
    }

    #[test]
    fn drcp_of_a_denormal_is_finite_when_it_fits() {
        // 1 / (2^-1022 (1 - 2^-52)) = 2^1022 (1 + 2^-52 + 2^-104 + ...), which rounds to 2^1022 (1 + 2^-52):
        // [1, 0x7FD00000].
        assert_eq!(drcp(LARGEST_DENORM), [1, 0x7FD0_0000]);
        // 1 / 2^-1074 = 2^1074 is past the range: infinity (as the table's "denorm -> inf").
        assert_eq!(drcp(SMALLEST_DENORM), POS_INF);
        assert_eq!(drcp(dneg(SMALLEST_DENORM)), NEG_INF);
    }

    #[test]
    fn dmin_and_dmax_follow_the_nan_and_signed_zero_rules() {
        assert_eq!(dmin(NAN_PAYLOAD, TWO), TWO);
        assert_eq!(dmax(TWO, NAN_PAYLOAD), TWO);
        assert!(is_nan(dmin(NAN_PAYLOAD, CANONICAL_NAN)));
        assert!(is_nan(dmax(NAN_PAYLOAD, CANONICAL_NAN)));
        assert_eq!(dmin(NEG_ZERO, POS_ZERO), NEG_ZERO);
        assert_eq!(dmin(POS_ZERO, NEG_ZERO), NEG_ZERO);
        assert_eq!(dmax(NEG_ZERO, POS_ZERO), POS_ZERO);
        assert_eq!(dmax(POS_ZERO, NEG_ZERO), POS_ZERO);
        assert_eq!(dmin(ONE, TWO), ONE);
        assert_eq!(dmax(ONE, TWO), TWO);
        assert_eq!(dmin(NEG_INF, NEG_ONE), NEG_INF);
    }

    #[test]
    fn dmin_and_dmax_compare_denormals_as_themselves() {
        // Unlike the float versions, a denormal is greater than zero and is returned unflushed.
        assert_eq!(dmin(SMALLEST_DENORM, POS_ZERO), POS_ZERO);
        assert_eq!(dmax(SMALLEST_DENORM, POS_ZERO), SMALLEST_DENORM);
        assert_eq!(dmin(LARGEST_DENORM, ONE), LARGEST_DENORM);
    }

    #[test]
    fn double_comparisons_follow_ieee() {
        assert_eq!(deq(POS_ZERO, NEG_ZERO), TRUE);
        assert_eq!(dne(POS_ZERO, NEG_ZERO), FALSE);
        assert_eq!(deq(NAN_PAYLOAD, NAN_PAYLOAD), FALSE);
        assert_eq!(dne(NAN_PAYLOAD, ONE), TRUE);
        assert_eq!(dlt(NAN_PAYLOAD, ONE), FALSE);
        assert_eq!(dge(ONE, NAN_PAYLOAD), FALSE);
        assert_eq!(dlt(ONE, TWO), TRUE);
        assert_eq!(dge(TWO, TWO), TRUE);
        assert_eq!(dge(ONE, TWO), FALSE);
        assert_eq!(dlt(NEG_INF, NEG_ONE), TRUE);
        // Denormals are values, not zeros.
        assert_eq!(deq(SMALLEST_DENORM, POS_ZERO), FALSE);
        assert_eq!(dlt(POS_ZERO, SMALLEST_DENORM), TRUE);
        // Only the low words differ: still unequal.
        assert_eq!(deq([1, 0x3FF0_0000], ONE), FALSE);
    }

    #[test]
    fn dmov_and_dmovc_keep_the_words() {
        assert_eq!(dmov(NAN_PAYLOAD), NAN_PAYLOAD);
        assert_eq!(dmov(SMALLEST_DENORM), SMALLEST_DENORM);
        assert_eq!(dmovc(1, NAN_PAYLOAD, ONE), NAN_PAYLOAD);
        assert_eq!(dmovc(0x8000_0000, ONE, TWO), ONE); // any bit set
        assert_eq!(dmovc(0, ONE, LARGEST_DENORM), LARGEST_DENORM);
    }

    #[test]
    fn dtof_rounds_to_nearest_even() {
        // 22.17.1: "round-to-nearest-even". 1 + 2^-24 is a tie between 1 (even) and 1 + 2^-23: 1.
        // 1 + 2^-24 is fraction bit 28, in the low word: [0x10000000, 0x3FF00000].
        assert_eq!(dtof([0x1000_0000, 0x3FF0_0000]), 0x3F80_0000);
        // 1 + 3 * 2^-24 (fraction bits 29 and 28) is a tie between 1 + 2^-23 (odd) and 1 + 2^-22 (even).
        assert_eq!(dtof([0x3000_0000, 0x3FF0_0000]), 0x3F80_0002);
        // 1 + 2^-24 + 2^-52 is just above the tie: 1 + 2^-23.
        assert_eq!(dtof([0x1000_0001, 0x3FF0_0000]), 0x3F80_0001);
        assert_eq!(dtof(NEG_ONE), 0xBF80_0000);
    }

    #[test]
    fn dtof_overflows_to_infinity() {
        // The largest float, (2 - 2^-23) * 2^127, is [0xE0000000, 0x47EFFFFF]; it converts exactly.
        assert_eq!(dtof([0xE000_0000, 0x47EF_FFFF]), 0x7F7F_FFFF);
        // Half an ULP above it (2^128 - 2^103) is a tie between it (odd) and 2^128 (even): infinity.
        assert_eq!(dtof([0xF000_0000, 0x47EF_FFFF]), 0x7F80_0000);
        // 1e39 = [0xF49C4A1D, 0x48078287] is past the range.
        assert_eq!(dtof([0xF49C_4A1D, 0x4807_8287]), 0x7F80_0000);
        assert_eq!(dtof(NEG_INF), 0xFF80_0000);
        assert_eq!(dtof(NAN_PAYLOAD), NAN_F32);
    }

    #[test]
    fn dtof_flushes_float_denormal_results() {
        // 2^-126 converts exactly ([0, 0x38100000], exponent 897).
        assert_eq!(dtof([0, 0x3810_0000]), 0x0080_0000);
        // 2^-130 is a float denormal: +0; -2^-130: -0. 2^-130 = [0, 0x37D00000] (exponent 893).
        assert_eq!(dtof([0, 0x37D0_0000]), 0x0000_0000);
        assert_eq!(dtof([0, 0xB7D0_0000]), 0x8000_0000);
        // Double denormals are far below the float range: signed zeros.
        assert_eq!(dtof(SMALLEST_DENORM), 0x0000_0000);
        assert_eq!(dtof(dneg(LARGEST_DENORM)), 0x8000_0000);
    }

    #[test]
    fn ftod_converts_exactly_and_flushes_float_denormals() {
        assert_eq!(ftod(0x3FC0_0000), [0, 0x3FF8_0000]); // 1.5
        assert_eq!(ftod(0xFF80_0000), NEG_INF);
        // 0x3F800001 = 1 + 2^-23: fraction bit 29 of the double, [0x20000000, 0x3FF00000].
        assert_eq!(ftod(0x3F80_0001), [0x2000_0000, 0x3FF0_0000]);
        assert_eq!(ftod(0x0000_0001), POS_ZERO); // a float denormal, flushed
        assert_eq!(ftod(0x8000_0001), NEG_ZERO);
        assert_eq!(ftod(0x7FC1_2345), CANONICAL_NAN);
    }

    #[test]
    fn dtoi_truncates_saturates_and_maps_nan_to_zero() {
        // 22.17.3: clamped to [-2147483648.999, 2147483647.999], NaN -> 0.
        assert_eq!(dtoi([0, 0xBFF8_0000]), 0xFFFF_FFFF); // -1.5 -> -1
        // 2147483647.9 = [0xFFF9999A, 0x41DFFFFF] (exponent 30, so 22 fraction bits below the point): truncates to
        // 2^31 - 1.
        assert_eq!(dtoi([0xFFF9_999A, 0x41DF_FFFF]), 0x7FFF_FFFF);
        // -2147483648.9 = [0x001CCCCD, 0xC1E00000] (exponent 31): truncates to -2^31.
        assert_eq!(dtoi([0x001C_CCCD, 0xC1E0_0000]), 0x8000_0000);
        assert_eq!(dtoi([0x2000_0000, 0x4202_A05F]), 0x7FFF_FFFF); // 1e10 saturates
        assert_eq!(dtoi(NEG_INF), 0x8000_0000);
        assert_eq!(dtoi(NAN_PAYLOAD), 0);
        assert_eq!(dtoi(LARGEST_DENORM), 0);
    }

    #[test]
    fn dtou_truncates_saturates_and_maps_nan_to_zero() {
        assert_eq!(dtou(NEG_ONE), 0); // clamped to 0
        assert_eq!(dtou([0, 0xBFE0_0000]), 0); // -0.5 -> 0
        assert_eq!(dtou([0, 0x400C_0000]), 3); // 3.5 -> 3
        // 4294967295.9 = [0xFFFCCCCD, 0x41EFFFFF]: truncates to 2^32 - 1.
        assert_eq!(dtou([0xFFFC_CCCD, 0x41EF_FFFF]), 0xFFFF_FFFF);
        assert_eq!(dtou([0, 0x41F0_0000]), 0xFFFF_FFFF); // 2^32 clamps
        assert_eq!(dtou(POS_INF), 0xFFFF_FFFF);
        assert_eq!(dtou(NAN_PAYLOAD), 0);
    }

    #[test]
    fn itod_and_utod_convert_exactly() {
        assert_eq!(itod(0xFFFF_FFFF), NEG_ONE);
        assert_eq!(itod(0x8000_0000), [0, 0xC1E0_0000]); // -2^31
        assert_eq!(itod(0), POS_ZERO);
        // 2^32 - 1 = 1.11...1b * 2^31 (32 ones): exponent 1054 (0x41E), fraction 0xFFFFFFFE00000.
        assert_eq!(utod(0xFFFF_FFFF), [0xFFE0_0000, 0x41EF_FFFF]);
        assert_eq!(utod(0x8000_0000), [0, 0x41E0_0000]); // 2^31
    }

    #[test]
    fn double_sign_modifiers_touch_only_the_sign_bit() {
        assert_eq!(dneg(ONE), NEG_ONE);
        assert_eq!(dneg(POS_ZERO), NEG_ZERO);
        assert_eq!(dabs(NEG_INF), POS_INF);
        assert_eq!(dabs([0x1234_5678, 0xFFF8_0001]), NAN_PAYLOAD);
        assert_eq!(dneg(SMALLEST_DENORM), [1, 0x8000_0000]);
    }

    #[test]
    fn dsaturate_clamps_and_turns_nan_into_zero() {
        // 22.19.1 with dmin/dmax.
        assert_eq!(dsaturate(NAN_PAYLOAD), POS_ZERO);
        assert_eq!(dsaturate(TWO), ONE);
        assert_eq!(dsaturate(HALF), HALF);
        assert_eq!(dsaturate(NEG_ONE), POS_ZERO);
        assert_eq!(dsaturate(NEG_ZERO), POS_ZERO);
        assert_eq!(dsaturate(POS_INF), ONE);
        assert_eq!(dsaturate(SMALLEST_DENORM), SMALLEST_DENORM); // a denormal is in [0, 1] and kept
    }
}
