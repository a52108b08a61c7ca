//! Conversions between 32-bit floats, integers and halves (22.13), by the rules of 3.2.2 and each instruction's text.

use super::{SIGN_F32, flush_denorm};

/// `ftoi` (22.13.3): a float to a signed integer, rounding toward zero; inputs are clamped to
/// `[-2147483648.999, 2147483647.999]` first, so out-of-range values and infinities saturate to `0x80000000` /
/// `0x7FFFFFFF`, and NaN gives 0. A denormal input reads as zero.
#[inline]
pub fn ftoi(a: u32) -> u32 {
    // Rust's float-to-int `as` truncates, saturates and maps NaN to 0: exactly the rule.
    f32::from_bits(flush_denorm(a)) as i32 as u32
}

/// `ftou` (22.13.4): a float to an unsigned integer, rounding toward zero; inputs are clamped to `[0.0,
/// 4294967295.999]` first, so negative values give 0, values past 2^32 and `+inf` give `0xFFFFFFFF`, and NaN gives 0.
#[inline]
pub fn ftou(a: u32) -> u32 {
    f32::from_bits(flush_denorm(a)) as u32
}

/// `itof` (22.13.5): a signed integer to the nearest float, ties to even (the spec's "strongly recommended" mode).
#[inline]
pub fn itof(a: u32) -> u32 {
    (a as i32 as f32).to_bits()
}

/// `utof` (22.13.6): an unsigned integer to the nearest float, ties to even (the spec's "strongly recommended" mode).
#[inline]
pub fn utof(a: u32) -> u32 {
    (a as f32).to_bits()
}

/// The exponent bias of a 32-bit float.
const BIAS_F32: u32 = 127;

/// The exponent bias of a half.
const BIAS_F16: u32 = 15;

/// The largest finite half, 65504.
const MAX_F16: u32 = 0x7BFF;

/// A half's infinity (positive).
const INFINITY_F16: u32 = 0x7C00;

/// The quiet bit of a half NaN.
const QUIET_F16: u32 = 0x0200;

/// `f32tof16` rounding to nearest even (the `f32tof16-nearest` variant, [`crate::shader::AluVariants`]):
/// IEEE 754's conversion, a finite value past the largest half becoming an infinity; a float denormal input reads as a
/// zero of its sign, as in [`f32tof16`].
#[inline]
pub fn f32tof16_nearest(a: u32) -> u32 {
    u32::from(half::f16::from_f32(f32::from_bits(flush_denorm(a))).to_bits())
}

/// `f32tof16` (22.13.2): a float to a half in the low 16 bits, the high 16 bits 0, by 3.2.2's rules for converting to
/// a lower-range float format: round toward zero; a finite value too large becomes the largest half of its sign
/// (`0x7BFF`, 65504 — never infinity); infinities stay infinities; NaN stays NaN (the sign and the top 10 fraction
/// bits kept, the quiet bit set); a value below the normal half range becomes a half denormal, or a zero of its sign
/// below 2^-24. A float denormal input reads as a zero of its sign (3.1.3.2).
#[inline]
pub fn f32tof16(a: u32) -> u32 {
    let bits = flush_denorm(a);
    let sign = (bits & SIGN_F32).wrapping_shr(16);
    let exponent = bits.wrapping_shr(23) & 0xFF;
    let fraction = bits & 0x007F_FFFF;
    let magnitude = if exponent == 0xFF {
        if fraction == 0 {
            INFINITY_F16
        } else {
            INFINITY_F16 | QUIET_F16 | fraction.wrapping_shr(13)
        }
    } else if exponent > BIAS_F32 + BIAS_F16 {
        // 2^16 or more; truncating anything from 65504 up to 2^16 lands on 65504 below too.
        MAX_F16
    } else if exponent >= BIAS_F32 - 14 {
        // A normal half: rebias the exponent, truncate the fraction to 10 bits.
        exponent.wrapping_sub(BIAS_F32 - BIAS_F16).wrapping_shl(10) | fraction.wrapping_shr(13)
    } else if exponent >= BIAS_F32 - 24 {
        // A half denormal counts units of 2^-24: the significand 1.f * 2^e is (2^23 + f) * 2^(e - 23), so the count
        // is (2^23 + f) >> (-1 - e), truncated. e = exponent - 127 runs from -24 (shift 23) to -15 (shift 14).
        (0x0080_0000 | fraction).wrapping_shr((BIAS_F32 - 1).wrapping_sub(exponent))
    } else {
        0
    };
    sign | magnitude
}

/// `f16tof32` (22.13.1): the half in the low 16 bits of `a` (the high 16 ignored) to a float, exactly: half
/// denormals become normal floats, infinities stay, NaN stays NaN (3.2.2).
#[inline]
pub fn f16tof32(a: u32) -> u32 {
    half::f16::from_bits(a as u16).to_f32().to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_nan_f32(bits: u32) -> bool {
        bits & 0x7F80_0000 == 0x7F80_0000 && bits & 0x007F_FFFF != 0
    }

    #[test]
    fn ftoi_truncates_toward_zero() {
        assert_eq!(ftoi(0x3FF3_3333), 1); // 1.9 -> 1
        assert_eq!(ftoi(0xBFF3_3333), 0xFFFF_FFFF); // -1.9 -> -1
        assert_eq!(ftoi(0xBF00_0000), 0); // -0.5 -> 0
        assert_eq!(ftoi(0x4EFF_FFFF), 2_147_483_520); // the largest float below 2^31 is exact
    }

    #[test]
    fn ftoi_saturates_out_of_range_values_and_maps_nan_to_zero() {
        // 22.13.3: clamped to [-2147483648.999, 2147483647.999]; NaN -> 0.
        assert_eq!(ftoi(0x4F00_0000), 0x7FFF_FFFF); // 2^31
        assert_eq!(ftoi(0xCF00_0000), 0x8000_0000); // -2^31 is in range
        assert_eq!(ftoi(0xCF00_0001), 0x8000_0000); // just below -2^31
        assert_eq!(ftoi(0x7F80_0000), 0x7FFF_FFFF); // +inf
        assert_eq!(ftoi(0xFF80_0000), 0x8000_0000); // -inf
        assert_eq!(ftoi(0x7FC0_0000), 0);
        assert_eq!(ftoi(0xFFC1_2345), 0);
        assert_eq!(ftoi(0x0000_0001), 0); // a denormal
    }

    #[test]
    fn ftou_truncates_and_clamps_negative_values_to_zero() {
        assert_eq!(ftou(0x407F_5C29), 3); // 3.99 -> 3
        assert_eq!(ftou(0xBF66_6666), 0); // -0.9 -> 0
        assert_eq!(ftou(0xBF80_0000), 0); // -1 clamps to 0
        assert_eq!(ftou(0xFF80_0000), 0); // -inf
        assert_eq!(ftou(0x4F7F_FFFF), 0xFFFF_FF00); // 2^32 - 256, the largest float below 2^32
        assert_eq!(ftou(0x4F80_0000), 0xFFFF_FFFF); // 2^32 clamps
        assert_eq!(ftou(0x7F80_0000), 0xFFFF_FFFF); // +inf
        assert_eq!(ftou(0x7FC0_0000), 0); // NaN
    }

    #[test]
    fn itof_rounds_ties_to_even() {
        assert_eq!(itof(0xFFFF_FFFF), 0xBF80_0000); // -1
        assert_eq!(itof(16_777_217), 0x4B80_0000); // 2^24 + 1: a tie between 2^24 (even) and 2^24 + 2
        assert_eq!(itof(16_777_219), 0x4B80_0002); // 2^24 + 3: a tie, to 2^24 + 4 (fraction 2, even)
        assert_eq!(itof(0x8000_0000), 0xCF00_0000); // -2^31 exactly
        assert_eq!(itof(0x7FFF_FFFF), 0x4F00_0000); // 2^31 - 1 rounds to 2^31
        assert_eq!(itof(0), 0); // +0
    }

    #[test]
    fn utof_rounds_ties_to_even() {
        assert_eq!(utof(0xFFFF_FFFF), 0x4F80_0000); // 2^32 - 1 rounds to 2^32
        assert_eq!(utof(0x8000_0001), 0x4F00_0000); // 2^31 + 1: ULP 256, rounds down
        assert_eq!(utof(0x8000_0080), 0x4F00_0000); // 2^31 + 128: a tie, to 2^31 (even)
        assert_eq!(utof(0x8000_0180), 0x4F00_0002); // 2^31 + 384: a tie, to 2^31 + 512 (fraction 2)
        assert_eq!(utof(1), 0x3F80_0000);
    }

    #[test]
    fn f32tof16_converts_representable_values_exactly() {
        assert_eq!(f32tof16(0x3F80_0000), 0x3C00); // 1
        assert_eq!(f32tof16(0xC000_0000), 0xC000); // -2
        assert_eq!(f32tof16(0x477F_E000), 0x7BFF); // 65504, the largest half
        assert_eq!(f32tof16(0x3880_0000), 0x0400); // 2^-14, the smallest normal half
        assert_eq!(f32tof16(0x0000_0000), 0x0000);
        assert_eq!(f32tof16(0x8000_0000), 0x8000);
    }

    #[test]
    fn f32tof16_sets_the_high_half_to_zero() {
        // -1 is 0xBC00 in the low 16 bits, not sign-extended (22.13.2).
        assert_eq!(f32tof16(0xBF80_0000), 0x0000_BC00);
    }

    #[test]
    fn f32tof16_rounds_toward_zero() {
        // 3.2.2: "Round-to-zero must be used during conversion to another float format."
        // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 (0x3C01) and 1 + 2^-9 (0x3C02); nearest-even would give
        // 0x3C02, truncation gives 0x3C01. 0x3F803000 = 1 + 2^-10 + 2^-11.
        assert_eq!(f32tof16(0x3F80_3000), 0x3C01);
        // Just below 1 + 2^-10 (1 + 2^-10 - 2^-23 = 0x3F801FFF) truncates to 1.
        assert_eq!(f32tof16(0x3F80_1FFF), 0x3C00);
        // The same toward zero for negatives: -(1 + 2^-10 + 2^-11) -> -(1 + 2^-10).
        assert_eq!(f32tof16(0xBF80_3000), 0xBC01);
    }

    #[test]
    fn f32tof16_to_nearest_rounds_ties_to_even_and_overflows_to_infinity() {
        // the cases above under IEEE 754's rounding: 1 + 3 * 2^-11 is a tie -> the even 1 + 2^-9 (0x3C02); just below
        // 1 + 2^-10 rounds up to it (0x3C01); 65520 is halfway to 2^16 -> infinity (0x7C00); a denormal input is 0
        assert_eq!(f32tof16_nearest(0x3F80_3000), 0x3C02);
        assert_eq!(f32tof16_nearest(0x3F80_1FFF), 0x3C01);
        assert_eq!(f32tof16_nearest(0x477F_F000), 0x7C00);
        assert_eq!(f32tof16_nearest(0x8000_0001), 0x8000);
        assert_eq!(f32tof16_nearest(0xBF80_0000), 0x0000_BC00);
    }

    #[test]
    fn f32tof16_saturates_finite_overflow_to_the_largest_half() {
        // 3.2.2: "the maximum representable (appropriately signed) value results, NOT including signed infinity".
        assert_eq!(f32tof16(0x477F_F000), 0x7BFF); // 65520, which nearest-even would round to infinity
        assert_eq!(f32tof16(0x4780_0000), 0x7BFF); // 65536
        assert_eq!(f32tof16(0x501502F9), 0x7BFF); // 1e10
        assert_eq!(f32tof16(0xFF7F_FFFF), 0xFBFF); // -MAX_FLOAT -> -65504
    }

    #[test]
    fn f32tof16_keeps_infinities_and_nans() {
        assert_eq!(f32tof16(0x7F80_0000), 0x7C00);
        assert_eq!(f32tof16(0xFF80_0000), 0xFC00);
        // A NaN stays NaN: exponent all ones and a non-zero fraction, even when the payload sits in the low bits
        // that truncation drops (0x7F800001 is a signaling NaN with only bit 0 set).
        for nan in [0x7FC0_0000, 0x7F80_0001, 0xFFC1_2345] {
            let half = f32tof16(nan);
            assert_eq!(half & 0x7C00, 0x7C00, "{nan:#x}");
            assert_ne!(half & 0x03FF, 0, "{nan:#x}");
            assert_eq!(half & 0xFFFF_0000, 0, "{nan:#x}");
        }
    }

    #[test]
    fn f32tof16_makes_half_denormals_by_truncation() {
        assert_eq!(f32tof16(0x3380_0000), 0x0001); // 2^-24, the smallest half denormal
        assert_eq!(f32tof16(0x3800_0000), 0x0200); // 2^-15 = 512 * 2^-24
        assert_eq!(f32tof16(0x33C0_0000), 0x0001); // 1.5 * 2^-24 truncates to 1 unit
        assert_eq!(f32tof16(0x387F_C000), 0x03FF); // 2^-14 - 2^-24, the largest half denormal
        assert_eq!(f32tof16(0x387F_FFFF), 0x03FF); // just below 2^-14 truncates to the largest denormal
        assert_eq!(f32tof16(0xB3C0_0000), 0x8001); // the negative of 1.5 * 2^-24
    }

    #[test]
    fn f32tof16_gives_a_signed_zero_below_the_half_range() {
        assert_eq!(f32tof16(0x3300_0000), 0x0000); // 2^-25
        assert_eq!(f32tof16(0x337F_FFFF), 0x0000); // just below 2^-24
        assert_eq!(f32tof16(0xB300_0000), 0x8000); // -2^-25
        // Float denormals read as signed zeros first.
        assert_eq!(f32tof16(0x0000_0001), 0x0000);
        assert_eq!(f32tof16(0x807F_FFFF), 0x8000);
    }

    #[test]
    fn f16tof32_converts_exactly() {
        assert_eq!(f16tof32(0x3C00), 0x3F80_0000); // 1
        assert_eq!(f16tof32(0xC000), 0xC000_0000); // -2
        assert_eq!(f16tof32(0x7BFF), 0x477F_E000); // 65504
        assert_eq!(f16tof32(0x3C01), 0x3F80_2000); // 1 + 2^-10
        assert_eq!(f16tof32(0x0000), 0x0000_0000);
        assert_eq!(f16tof32(0x8000), 0x8000_0000); // -0
    }

    #[test]
    fn f16tof32_makes_half_denormals_normal_floats() {
        // 0x0001 is 2^-24 = float exponent 103: 0x33800000.
        assert_eq!(f16tof32(0x0001), 0x3380_0000);
        // 0x03FF is 1023 * 2^-24 = (2 - 2^-9) * 2^-15: exponent 112, fraction 0x7FC000.
        assert_eq!(f16tof32(0x03FF), 0x387F_C000);
        assert_eq!(f16tof32(0x8200), 0xB800_0000); // -512 * 2^-24 = -2^-15
    }

    #[test]
    fn f16tof32_keeps_infinities_and_nans() {
        assert_eq!(f16tof32(0x7C00), 0x7F80_0000);
        assert_eq!(f16tof32(0xFC00), 0xFF80_0000);
        assert!(is_nan_f32(f16tof32(0x7E00)));
        assert!(is_nan_f32(f16tof32(0x7C01)));
        assert!(is_nan_f32(f16tof32(0xFFFF)));
    }

    #[test]
    fn f16tof32_ignores_the_high_16_bits() {
        assert_eq!(f16tof32(0xFFFF_3C00), 0x3F80_0000);
        assert_eq!(f16tof32(0x1234_0000), 0x0000_0000);
    }
}
