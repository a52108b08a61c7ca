//! Scalar data conversions between a stored component and the 32-bit value a shader sees, as D3D11.3 section 3.2
//! (and 3.1.5, 3.1.6, 19.3.2) defines them.
//!
//! Reading (resource -> shader) is exact everywhere, as 3.2.3.2 requires: UNORM and SNORM are one correctly rounded
//! f32 division; float16/11/10 values are all representable in f32; sRGB reads come from a table holding the f32
//! nearest to the spec's ideal curve (3.2.3.7) for each 8-bit value.
//!
//! Writing (shader -> resource) implements the ideal conversions the spec writes out, computed without intermediate
//! rounding (in f64, where every step is exact or, for the sRGB curve, far more precise than the 0.6 ULP tolerance
//! the spec allows):
//! - FLOAT -> UNORM (3.2.3.6) and FLOAT -> SRGB (3.2.3.8): NaN -> 0, clamp to [0, 1], scale by 2^n - 1, add 0.5,
//!   truncate: round half up.
//! - FLOAT -> SNORM (3.2.3.4): NaN -> 0, clamp to [-1, 1], scale by 2^(n-1) - 1, add 0.5 away from zero, truncate:
//!   round half away from zero. -1.0 becomes the second-most-negative code (-(2^(n-1) - 1)); the most negative code,
//!   which also reads as -1.0 (3.2.3.3), is never written.
//! - FLOAT -> float16/11/10 (3.2.2): round toward zero; a finite value past the largest becomes the largest finite
//!   value (not infinity); infinity stays infinity; NaN stays NaN; f32 denormals are zero (3.2.2 counts float32 as
//!   having no denormals) and results too small for the target's denormals become zero. float11/10 have no sign, so
//!   every negative value, -0 and -infinity become 0 (3.1.6).
//! - The spec allows 0.6 ULP for UNORM/SNORM/SRGB writes; WARP's exact choice is not documented, so the ideal
//!   (0.5 ULP, round half up) is implemented.

use std::sync::OnceLock;

/// The largest value an unsigned field of `bits` bits holds (`bits` in 1..=32).
pub(crate) const fn unsigned_max(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits).wrapping_sub(1)
    }
}

/// UNORM -> FLOAT (3.2.3.5): the n-bit value divided by 2^n - 1, for n in 1..=24, where both are exact in f32 and
/// the one division is correctly rounded.
pub fn unorm_to_f32(value: u32, bits: u32) -> f32 {
    let max = unsigned_max(bits);
    (value & max) as f32 / max as f32
}

/// SNORM -> FLOAT (3.2.3.3) for the low `bits` bits of `value` (two's complement, `bits` in 2..=24): the most
/// negative code is -1.0, every other code c is c / (2^(n-1) - 1), so both -2^(n-1) and -(2^(n-1) - 1) read as -1.0.
pub fn snorm_to_f32(value: u32, bits: u32) -> f32 {
    let signed = sign_extend(value, bits);
    let scale = unsigned_max(bits.saturating_sub(1));
    let most_negative = (scale as i32).wrapping_neg().wrapping_sub(1);
    if signed == most_negative {
        -1.0
    } else {
        signed as f32 / scale as f32
    }
}

/// The low `bits` bits of `value` as a two's complement number (SINT -> SINT with more bits, 3.2.3.9).
pub fn sign_extend(value: u32, bits: u32) -> i32 {
    if bits == 0 || bits >= 32 {
        return value as i32;
    }
    let unused = 32u32.wrapping_sub(bits);
    (value.wrapping_shl(unused) as i32).wrapping_shr(unused)
}

/// FLOAT -> UNORM (3.2.3.6), exactly: NaN -> 0, clamped to [0, 1], times 2^n - 1, plus 0.5, truncated (`bits` in
/// 1..=24, so the product is exact in f64).
pub fn f32_to_unorm(value: f32, bits: u32) -> u32 {
    if value.is_nan() {
        return 0;
    }
    let max = unsigned_max(bits);
    let clamped = f64::from(value.clamp(0.0, 1.0));
    (clamped * f64::from(max) + 0.5).floor() as u32
}

/// FLOAT -> SNORM (3.2.3.4), exactly: NaN -> 0, clamped to [-1, 1], times 2^(n-1) - 1, 0.5 added away from zero,
/// truncated; the result is the low `bits` bits of the two's complement code.
pub fn f32_to_snorm(value: f32, bits: u32) -> u32 {
    if value.is_nan() {
        return 0;
    }
    let scale = f64::from(unsigned_max(bits.saturating_sub(1)));
    let scaled = f64::from(value.clamp(-1.0, 1.0)) * scale;
    let rounded = if scaled >= 0.0 { scaled + 0.5 } else { scaled - 0.5 }.trunc();
    (rounded as i32 as u32) & unsigned_max(bits)
}

/// SINT or UINT -> SINT or UINT with fewer or equal bits (3.2.3.13): a UINT32 shader value clamped to the range of
/// an unsigned field of `bits` bits.
pub fn u32_to_uint(value: u32, bits: u32) -> u32 {
    value.min(unsigned_max(bits))
}

/// SINT or UINT -> SINT or UINT with fewer or equal bits (3.2.3.13): a SINT32 shader value clamped to the range of a
/// signed field of `bits` bits, returned as the field's low `bits` bits.
pub fn i32_to_sint(value: i32, bits: u32) -> u32 {
    let max = unsigned_max(bits.saturating_sub(1)) as i32;
    let min = max.wrapping_neg().wrapping_sub(1);
    (value.clamp(min, max) as u32) & unsigned_max(bits)
}

/// The ideal SRGB -> FLOAT curve of 3.2.3.7 at c = n / 255, in f64: c / 12.92 up to 0.04045, else
/// ((c + 0.055) / 1.055)^2.4.
fn srgb_curve(code: u8) -> f64 {
    let c = f64::from(code) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// SRGB -> FLOAT (3.2.3.7) for an 8-bit code: the f32 nearest the ideal curve. The spec allows 0.5 ULP on the sRGB
/// side and requires 0 and 255 to give exactly 0.0 and 1.0; the nearest f32 is far inside that and exact at the ends.
pub fn srgb8_to_f32(code: u8) -> f32 {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = [0.0f32; 256];
        for (code, entry) in (0u8..=255).zip(table.iter_mut()) {
            *entry = srgb_curve(code) as f32;
        }
        table
    });
    table.get(usize::from(code)).copied().unwrap_or(0.0)
}

/// FLOAT -> SRGB (3.2.3.8) for an 8-bit field, as the ideal conversion: NaN -> 0, clamped to [0, 1], 12.92 c up to
/// 0.0031308 (compared in f32, as the spec writes the constant), else 1.055 c^(1/2.4) - 0.055, times 255, plus 0.5,
/// truncated. The curve is evaluated in f64.
pub fn f32_to_srgb8(value: f32) -> u8 {
    if value.is_nan() {
        return 0;
    }
    let c = value.clamp(0.0, 1.0);
    let encoded = if c <= 0.003_130_8_f32 {
        12.92 * f64::from(c)
    } else {
        1.055 * f64::from(c).powf(1.0 / 2.4) - 0.055
    };
    (encoded * 255.0 + 0.5).floor().clamp(0.0, 255.0) as u8
}

/// float16 -> FLOAT (3.1.5): every float16 value, denormals, infinities and NaN included, is exact in f32.
pub fn f16_to_f32(bits: u16) -> f32 {
    half::f16::from_bits(bits).to_f32()
}

/// FLOAT -> float16 (3.2.2): round toward zero, finite overflow to the largest finite value (0x7bff, 65504),
/// infinity to infinity, NaN to a quiet NaN, sign kept.
pub fn f32_to_f16(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent_field = (bits >> 23) & 0xff;
    let mantissa = bits & 0x007f_ffff;
    if exponent_field == 0xff {
        return if mantissa == 0 {
            sign | 0x7c00
        } else {
            // Keep the top payload bits and make sure the result is a (quiet) NaN.
            sign | 0x7e00 | (mantissa >> 13) as u16
        };
    }
    let exponent = (exponent_field as i32).wrapping_sub(127);
    let magnitude = if exponent >= 16 {
        0x7bff
    } else if exponent >= -14 {
        // Normal: rebias the exponent, drop the low 13 mantissa bits (toward zero).
        ((exponent.wrapping_add(15) as u32) << 10 | (mantissa >> 13)) as u16
    } else if exponent >= -24 {
        // Denormal: the value in units of 2^-24 is (1.m * 2^23) >> (-exponent - 1), truncated.
        let shift = exponent.wrapping_neg().wrapping_sub(1) as u32;
        ((0x0080_0000 | mantissa) >> shift) as u16
    } else {
        0
    };
    sign | magnitude
}

/// float11 (`mantissa_bits` = 6) or float10 (`mantissa_bits` = 5) -> FLOAT (3.1.6): 5 exponent bits with bias 15, no
/// sign; exponent 31 is infinity (mantissa 0) or NaN; exponent 0 is zero or a denormal m * 2^-(14 + mantissa_bits).
pub fn small_float_to_f32(value: u32, mantissa_bits: u32) -> f32 {
    let mantissa = value & unsigned_max(mantissa_bits);
    let exponent = (value >> mantissa_bits) & 0x1f;
    let mantissa_shift = 23u32.saturating_sub(mantissa_bits);
    match exponent {
        31 if mantissa == 0 => f32::INFINITY,
        31 => f32::from_bits(0x7fc0_0000 | (mantissa << mantissa_shift)),
        0 => {
            // m * 2^-(14 + mantissa_bits): both factors exact, the product exact.
            let unit = f32::from_bits(113u32.wrapping_sub(mantissa_bits) << 23);
            mantissa as f32 * unit
        }
        _ => f32::from_bits((exponent.wrapping_add(112) << 23) | (mantissa << mantissa_shift)),
    }
}

/// FLOAT -> float11 (`mantissa_bits` = 6) or float10 (`mantissa_bits` = 5), per 3.2.2 and 3.1.6: NaN stays NaN,
/// negative values (and -0, -infinity) become 0, +infinity stays infinity, finite values round toward zero and
/// saturate at the largest finite value.
pub fn f32_to_small_float(value: f32, mantissa_bits: u32) -> u32 {
    let infinity = 31u32 << mantissa_bits;
    if value.is_nan() {
        return infinity | (1 << mantissa_bits.saturating_sub(1));
    }
    if value.is_sign_negative() || value == 0.0 {
        return 0;
    }
    if value == f32::INFINITY {
        return infinity;
    }
    let bits = value.to_bits();
    let exponent = (((bits >> 23) & 0xff) as i32).wrapping_sub(127);
    let mantissa = bits & 0x007f_ffff;
    let drop = 23u32.saturating_sub(mantissa_bits);
    if exponent >= 16 {
        (30 << mantissa_bits) | unsigned_max(mantissa_bits)
    } else if exponent >= -14 {
        ((exponent.wrapping_add(15) as u32) << mantissa_bits) | (mantissa >> drop)
    } else {
        // Denormal: value / 2^-(14 + m) = (1.m * 2^23) >> (9 - m - exponent), truncated; 0 once the shift passes 24.
        let shift = 9i32.wrapping_sub(mantissa_bits as i32).wrapping_sub(exponent) as u32;
        (0x0080_0000 | mantissa).checked_shr(shift).unwrap_or(0)
    }
}

/// RGBE -> FLOAT (19.3.2.1) for DXGI_FORMAT_R9G9B9E5_SHAREDEXP: each 9-bit mantissa is 0.frac (no hidden 1) times
/// 2^(E - 15), i.e. frac * 2^(E - 24), exact in f32; there is no infinity or NaN.
pub fn rgbe_to_f32(packed: u32) -> [f32; 3] {
    let exponent = packed >> 27;
    // 2^(E - 24) with E in 0..=31: a normal f32 for every E.
    let scale = f32::from_bits(exponent.wrapping_add(103) << 23);
    [packed & 0x1ff, (packed >> 9) & 0x1ff, (packed >> 18) & 0x1ff].map(|frac| frac as f32 * scale)
}

/// FLOAT -> RGBE (19.3.2.2), which the spec lists for software encoders only (the format cannot be a render
/// target): negative values and NaN become 0, values saturate at 0.111111111b * 2^16 = 65408, the exponent is the
/// largest component's, and mantissas round to nearest even (the spec's "should").
pub fn f32_to_rgbe(rgb: [f32; 3]) -> u32 {
    const MAX: f64 = 65408.0;
    let clamped = rgb.map(|c| if c.is_nan() { 0.0 } else { f64::from(c).clamp(0.0, MAX) });
    let largest = clamped.iter().copied().fold(0.0, f64::max);
    if largest == 0.0 {
        return 0;
    }
    // The smallest E in 0..=31 with largest < 2^(E - 15), so its 9-bit fraction 0.frac is below 1.
    let mut exponent = (largest.log2().floor() as i32).saturating_add(16).clamp(0, 31);
    loop {
        let unit = 2f64.powi(exponent.wrapping_sub(24));
        let mantissas = clamped.map(|c| (c / unit).round_ties_even());
        if mantissas.iter().any(|&m| m > 511.0) && exponent < 31 {
            exponent = exponent.wrapping_add(1);
            continue;
        }
        let [r, g, b] = mantissas.map(|m| m.min(511.0) as u32);
        return ((exponent as u32) << 27) | (b << 18) | (g << 9) | r;
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests compute expected values from small constants
mod tests {
    use super::*;

    #[test]
    fn unorm_reads_as_the_code_over_its_maximum() {
        // 3.2.3.5: 0 -> 0.0, 255 -> 1.0, 128 -> 128/255 (the f32 nearest 0.50196078...).
        assert_eq!(unorm_to_f32(0, 8), 0.0);
        assert_eq!(unorm_to_f32(255, 8), 1.0);
        assert_eq!(unorm_to_f32(128, 8), 128.0f32 / 255.0);
        assert_eq!(unorm_to_f32(65535, 16), 1.0);
        assert_eq!(unorm_to_f32(1, 16), 1.0 / 65535.0);
        // 2-bit UNORM represents 0, 1/3, 2/3, 1 (3.2.3.1's example).
        assert_eq!(unorm_to_f32(1, 2), 1.0 / 3.0);
        assert_eq!(unorm_to_f32(0x00ff_ffff, 24), 1.0);
    }

    #[test]
    fn snorm_has_two_encodings_of_minus_one() {
        // 3.2.3.3: 5-bit 10000 (-16) and 10001 (-15 / 15) are both -1.0; 01111 is 1.0.
        assert_eq!(snorm_to_f32(0b10000, 5), -1.0);
        assert_eq!(snorm_to_f32(0b10001, 5), -1.0);
        assert_eq!(snorm_to_f32(0b01111, 5), 1.0);
        assert_eq!(snorm_to_f32(0x80, 8), -1.0);
        assert_eq!(snorm_to_f32(0x81, 8), -1.0);
        assert_eq!(snorm_to_f32(0x7f, 8), 1.0);
        assert_eq!(snorm_to_f32(0, 8), 0.0);
        // 0xc0 is -64: -64 / 127.
        assert_eq!(snorm_to_f32(0xc0, 8), -64.0 / 127.0);
        assert_eq!(snorm_to_f32(0x8000, 16), -1.0);
        assert_eq!(snorm_to_f32(0x8001, 16), -1.0);
        assert_eq!(snorm_to_f32(0x4000, 16), 16384.0 / 32767.0);
    }

    #[test]
    fn unorm_writes_round_half_up_at_the_code_boundaries() {
        // 3.2.3.6: c * 255 + 0.5 truncated. 0.5/255 lies exactly on the boundary between codes 0 and 1 in exact
        // arithmetic; as an f32 it is slightly above or below, so compare with its exact product.
        let half_code = 0.5f32 / 255.0;
        let expected = if f64::from(half_code) * 255.0 >= 0.5 { 1 } else { 0 };
        assert_eq!(f32_to_unorm(half_code, 8), expected);
        // Just below and above the boundary by a clear margin.
        assert_eq!(f32_to_unorm(0.49 / 255.0, 8), 0);
        assert_eq!(f32_to_unorm(0.51 / 255.0, 8), 1);
        // 0.5 * 255 = 127.5 exactly: rounds up to 128.
        assert_eq!(f32_to_unorm(0.5, 8), 128);
        // 1/3 * 65535 = 21845 exactly (plus f32 error well below 0.5).
        assert_eq!(f32_to_unorm(1.0 / 3.0, 16), 21845);
    }

    #[test]
    fn unorm_writes_clamp_and_send_nan_to_zero() {
        assert_eq!(f32_to_unorm(f32::NAN, 8), 0);
        assert_eq!(f32_to_unorm(-0.25, 8), 0);
        assert_eq!(f32_to_unorm(f32::NEG_INFINITY, 8), 0);
        assert_eq!(f32_to_unorm(1.5, 8), 255);
        assert_eq!(f32_to_unorm(f32::INFINITY, 16), 65535);
        assert_eq!(f32_to_unorm(1.0, 24), 0x00ff_ffff);
    }

    #[test]
    fn snorm_writes_round_half_away_from_zero_and_clamp_to_the_second_most_negative_code() {
        // 3.2.3.4: -1.0 * 127 = -127 -> 0x81; -2 clamps to -1 -> 0x81; the code 0x80 is never produced.
        assert_eq!(f32_to_snorm(-1.0, 8), 0x81);
        assert_eq!(f32_to_snorm(-2.0, 8), 0x81);
        assert_eq!(f32_to_snorm(f32::NEG_INFINITY, 8), 0x81);
        assert_eq!(f32_to_snorm(1.0, 8), 0x7f);
        assert_eq!(f32_to_snorm(f32::NAN, 8), 0);
        // 0.5 * 127 = 63.5 -> 64; -0.5 * 127 = -63.5 -> -64 (0xc0).
        assert_eq!(f32_to_snorm(0.5, 8), 64);
        assert_eq!(f32_to_snorm(-0.5, 8), 0xc0);
        assert_eq!(f32_to_snorm(-1.0, 16), 0x8001);
    }

    #[test]
    fn snorm_round_trips_every_code_but_the_extra_minus_one() {
        // 19.1.2.1: invertibility holds for SNORM except the most negative code.
        for code in 0u32..256 {
            let back = f32_to_snorm(snorm_to_f32(code, 8), 8);
            if code == 0x80 {
                assert_eq!(back, 0x81);
            } else {
                assert_eq!(back, code, "code {code:#x}");
            }
        }
        for code in 0u32..=0xffff {
            assert_eq!(f32_to_unorm(unorm_to_f32(code, 16), 16), code);
        }
    }

    #[test]
    fn integer_writes_clamp_to_the_field_range() {
        // 3.2.3.13: 300 into 8 bits -> 255; -200 into SINT8 -> -128 (0x80); 100 stays.
        assert_eq!(u32_to_uint(300, 8), 255);
        assert_eq!(u32_to_uint(u32::MAX, 32), u32::MAX);
        assert_eq!(i32_to_sint(-200, 8), 0x80);
        assert_eq!(i32_to_sint(200, 8), 0x7f);
        assert_eq!(i32_to_sint(-1, 16), 0xffff);
        assert_eq!(i32_to_sint(100, 8), 100);
        assert_eq!(i32_to_sint(i32::MIN, 32), 0x8000_0000);
        assert_eq!(sign_extend(0x80, 8), -128);
        assert_eq!(sign_extend(0x3ff, 10), -1);
    }

    #[test]
    fn srgb_reads_the_ideal_curve_with_exact_ends() {
        assert_eq!(srgb8_to_f32(0), 0.0);
        assert_eq!(srgb8_to_f32(255), 1.0);
        // Hand calculation of 3.2.3.7: 10/255 = 0.0392157 <= 0.04045, so 10/255/12.92 = 0.00303527...
        assert!((srgb8_to_f32(10) - 0.003_035_27).abs() < 1e-8);
        // 128/255 = 0.5019608; (0.5019608 + 0.055) / 1.055 = 0.5279249; ^2.4 = 0.2158605.
        assert!((srgb8_to_f32(128) - 0.215_860_5).abs() < 1e-6);
        // 11/255 = 0.0431373 > 0.04045: ((0.0431373 + 0.055) / 1.055)^2.4 = 0.0033465.
        assert!((srgb8_to_f32(11) - 0.003_346_5).abs() < 1e-6);
    }

    #[test]
    fn srgb_reads_are_within_half_an_srgb_ulp_and_every_code_round_trips() {
        // 3.2.3.7's tolerance: map the result back through the ideal FLOAT -> SRGB curve without rounding; it must
        // land within 0.5 of the starting code. 19.1.2 requires the write of the read to give the code back.
        for code in 0u8..=255 {
            let linear = f64::from(srgb8_to_f32(code));
            let encoded = if linear <= 0.003_130_8 {
                12.92 * linear
            } else {
                1.055 * linear.powf(1.0 / 2.4) - 0.055
            };
            let error = (encoded * 255.0 - f64::from(code)).abs();
            assert!(error <= 0.5, "code {code}: error {error}");
            assert_eq!(f32_to_srgb8(srgb8_to_f32(code)), code);
        }
    }

    #[test]
    fn srgb_writes_clamp_and_round_half_up() {
        assert_eq!(f32_to_srgb8(f32::NAN), 0);
        assert_eq!(f32_to_srgb8(-1.0), 0);
        assert_eq!(f32_to_srgb8(2.0), 255);
        // Linear 0.001: 12.92 * 0.001 * 255 = 3.2946 -> 3.
        assert_eq!(f32_to_srgb8(0.001), 3);
        // Linear 0.5: 1.055 * 0.5^(1/2.4) - 0.055 = 0.7353569; * 255 = 187.516 -> 188.
        assert_eq!(f32_to_srgb8(0.5), 188);
    }

    #[test]
    fn float16_reads_denormals_infinities_and_nan() {
        // 3.1.5: 0x3c00 = 1.0; 0xc000 = -2.0; 0x0001 = 2^-14 * (1/1024) = 2^-24; 0x03ff = 1023 * 2^-24;
        // 0x7c00 = +inf; 0xfc00 = -inf; 0x7e00 NaN; 0x7bff = 65504; 0x8000 = -0.
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x03ff), 1023.0 * 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert!(f16_to_f32(0xfc01).is_nan());
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x8000).to_bits(), 0x8000_0000);
    }

    #[test]
    fn float16_writes_round_toward_zero_and_saturate_finite_values() {
        // 3.2.2: round-to-zero. 1 + 2^-11 lies exactly between 1.0 (0x3c00) and 1 + 2^-10 (0x3c01): RTZ gives 0x3c00
        // where round-to-nearest-even would too; 1 + 3*2^-12 is nearer 0x3c01 but RTZ gives 0x3c00.
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-12)), 0x3c00);
        assert_eq!(f32_to_f16(-1.0 - 3.0 * 2f32.powi(-12)), 0xbc00);
        // Past 65504: the largest finite value, not infinity.
        assert_eq!(f32_to_f16(65519.0), 0x7bff);
        assert_eq!(f32_to_f16(1e10), 0x7bff);
        assert_eq!(f32_to_f16(-1e10), 0xfbff);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16(f32::NEG_INFINITY), 0xfc00);
        let nan = f32_to_f16(f32::NAN);
        assert_eq!(nan & 0x7c00, 0x7c00);
        assert_ne!(nan & 0x03ff, 0);
        // Denormals: 2^-24 -> 0x0001; 3 * 2^-25 = 1.5 units -> 1; 2^-25 -> 0 (below the smallest denormal).
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16(3.0 * 2f32.powi(-25)), 0x0001);
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0);
        assert_eq!(f32_to_f16(2f32.powi(-15)), 0x0200);
        assert_eq!(f32_to_f16(-2f32.powi(-14)), 0x8400);
        // An f32 denormal is zero; -0 stays -0.
        assert_eq!(f32_to_f16(f32::from_bits(1)), 0);
        assert_eq!(f32_to_f16(-0.0), 0x8000);
    }

    #[test]
    fn float16_round_trips_every_value() {
        for bits in 0u16..=0xffff {
            let back = f32_to_f16(f16_to_f32(bits));
            if f16_to_f32(bits).is_nan() {
                assert_eq!(back & 0x7c00, 0x7c00);
                assert_ne!(back & 0x03ff, 0);
            } else {
                assert_eq!(back, bits, "{bits:#06x}");
            }
        }
    }

    #[test]
    fn float11_and_float10_read_per_3_1_6() {
        // float11: e=15, m=0 -> 1.0 (0x3c0); e=0, m=1 -> 2^-14 / 64 = 2^-20; e=30, m=63 -> 2^15 * (1 + 63/64) = 65024;
        // e=31, m=0 -> inf; e=31, m!=0 -> NaN.
        assert_eq!(small_float_to_f32(15 << 6, 6), 1.0);
        assert_eq!(small_float_to_f32(1, 6), 2f32.powi(-20));
        assert_eq!(small_float_to_f32(63, 6), 63.0 * 2f32.powi(-20));
        assert_eq!(small_float_to_f32((30 << 6) | 63, 6), 65024.0);
        assert_eq!(small_float_to_f32(31 << 6, 6), f32::INFINITY);
        assert!(small_float_to_f32((31 << 6) | 1, 6).is_nan());
        // float10: e=16, m=16 -> 2 * (1 + 16/32) = 3.0; e=0, m=1 -> 2^-19; max = 2^15 * (1 + 31/32) = 64512.
        assert_eq!(small_float_to_f32((16 << 5) | 16, 5), 3.0);
        assert_eq!(small_float_to_f32(1, 5), 2f32.powi(-19));
        assert_eq!(small_float_to_f32((30 << 5) | 31, 5), 64512.0);
        assert!(small_float_to_f32((31 << 5) | 3, 5).is_nan());
    }

    #[test]
    fn float11_and_float10_writes_clamp_negatives_to_zero_and_round_toward_zero() {
        assert_eq!(f32_to_small_float(-1.0, 6), 0);
        assert_eq!(f32_to_small_float(-0.0, 6), 0);
        assert_eq!(f32_to_small_float(f32::NEG_INFINITY, 5), 0);
        assert_eq!(f32_to_small_float(f32::INFINITY, 6), 31 << 6);
        let nan = f32_to_small_float(f32::NAN, 5);
        assert_eq!(nan >> 5, 31);
        assert_ne!(nan & 31, 0);
        assert_eq!(f32_to_small_float(1e9, 6), (30 << 6) | 63);
        assert_eq!(f32_to_small_float(1e9, 5), (30 << 5) | 31);
        // 1 + 1/64 + 1/128 is between float11 1+1/64 and 1+2/64: RTZ keeps 1 + 1/64 (e=15, m=1).
        assert_eq!(f32_to_small_float(1.0 + 1.0 / 64.0 + 1.0 / 128.0, 6), (15 << 6) | 1);
        // Smallest float10 denormal 2^-19; half of it truncates to 0; 2^-15 is m = 16 denormal.
        assert_eq!(f32_to_small_float(2f32.powi(-19), 5), 1);
        assert_eq!(f32_to_small_float(2f32.powi(-20), 5), 0);
        assert_eq!(f32_to_small_float(2f32.powi(-15), 5), 16);
        for value in 0u32..(1 << 11) {
            let read = small_float_to_f32(value, 6);
            if !read.is_nan() {
                assert_eq!(f32_to_small_float(read, 6), value);
            }
        }
        for value in 0u32..(1 << 10) {
            let read = small_float_to_f32(value, 5);
            if !read.is_nan() {
                assert_eq!(f32_to_small_float(read, 5), value);
            }
        }
    }

    #[test]
    fn shared_exponent_reads_the_spec_example() {
        // 19.3.2.1's worked example: 0x999320c8 -> (6.25, 12.5, 3.125).
        assert_eq!(rgbe_to_f32(0x9993_20c8), [6.25, 12.5, 3.125]);
        // E = 0, mantissa 1: 2^-9 * 2^-15 = 2^-24. E = 31, mantissa 511: 511/512 * 2^16 = 65408 (19.3.2.2's MAXFLOAT).
        assert_eq!(rgbe_to_f32(1), [2f32.powi(-24), 0.0, 0.0]);
        assert_eq!(rgbe_to_f32((31 << 27) | 0x1ff), [65408.0, 0.0, 0.0]);
    }

    #[test]
    fn shared_exponent_writes_use_the_largest_components_exponent() {
        // The inverse of the spec example; negative and NaN components become 0; values past 65408 saturate.
        assert_eq!(f32_to_rgbe([6.25, 12.5, 3.125]), 0x9993_20c8);
        assert_eq!(f32_to_rgbe([-1.0, f32::NAN, 0.0]), 0);
        assert_eq!(rgbe_to_f32(f32_to_rgbe([1e9, 0.0, 0.0])), [65408.0, 0.0, 0.0]);
        // 1.0 needs E = 16 (0.100000000b * 2^1); 511.9/512 rounds up past 511 and moves to the next exponent.
        assert_eq!(rgbe_to_f32(f32_to_rgbe([1.0, 0.5, 0.25])), [1.0, 0.5, 0.25]);
        assert_eq!(rgbe_to_f32(f32_to_rgbe([0.99999, 0.0, 0.0])), [1.0, 0.0, 0.0]);
    }
}
