//! One stored channel of a texel as the comparison sees it: its raw bits, the value they stand for, and where the
//! value sits among the values the channel can hold (its ordinal), which is what a ULP distance counts.
//!
//! ULP (3.1.2: "the smallest representable delta from one value in a numeric representation to an adjacent value")
//! is measured as the number of steps between two representable values of the channel's own format:
//! - UNORM, SRGB, UINT: the code itself is the ordinal, so one ULP is one code (for SRGB one step of the stored
//!   8-bit code, not of the linear value).
//! - SNORM, SINT: the two's-complement code. SNORM's most negative code reads as -1.0 like the one above it
//!   (3.2.3.3), so it takes that code's ordinal: the two -1.0 codes are 0 ULP apart.
//! - float32/16/11/10: finite values are ordered by sign and magnitude bits, +0 and -0 both at 0, so adjacent floats
//!   (across binade boundaries and through the denormals) are 1 apart. Within one binade [2^e, 2^(e+1)) that is
//!   |a - b| / 2^(e - m) for m mantissa bits (m = 23, 10, 6, 5). NaN and the infinities have no ordinal.

use crate::format::convert::{f16_to_f32, sign_extend, small_float_to_f32, srgb8_to_f32};
use crate::format::{Channel, FieldKind};

/// How a channel's bits are interpreted, with its width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChannelKind {
    /// Unsigned normalized (also UNORM depth).
    Unorm(u8),
    /// Signed normalized.
    Snorm(u8),
    /// 8-bit sRGB-encoded colour.
    Srgb,
    /// Unsigned integer (also stencil).
    Uint(u8),
    /// Signed integer.
    Sint(u8),
    /// Floating point of 32, 16, 11 or 10 bits (also float depth).
    Float(u8),
}

/// What a channel's raw bits are, for matching and counting ULPs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// A finite value at this ordinal.
    Finite(i64),
    /// Not a number (any payload, any sign).
    Nan,
    /// An infinity, positive when `true`.
    Infinite(bool),
}

/// The sign bit (if any) and mantissa width of a float field of `bits` bits (3.1.3, 3.1.5, 3.1.6).
const fn float_layout(bits: u8) -> (Option<u32>, u32) {
    match bits {
        16 => (Some(15), 10),
        11 => (None, 6),
        10 => (None, 5),
        _ => (Some(31), 23),
    }
}

/// 2^bits - 1 as an i64, for `bits` up to 32.
fn code_max(bits: u8) -> i64 {
    (1i64 << u32::from(bits).min(32)).wrapping_sub(1)
}

impl ChannelKind {
    /// The kind of a stored field, or `None` for fields the comparison cannot read on their own (shared-exponent
    /// mantissas, typeless bits).
    pub(crate) fn of(kind: FieldKind, bits: u8) -> Option<ChannelKind> {
        Some(match kind {
            FieldKind::Unorm => ChannelKind::Unorm(bits),
            FieldKind::Snorm => ChannelKind::Snorm(bits),
            FieldKind::Srgb => ChannelKind::Srgb,
            FieldKind::Uint => ChannelKind::Uint(bits),
            FieldKind::Sint => ChannelKind::Sint(bits),
            FieldKind::Float if matches!(bits, 32 | 16 | 11 | 10) => ChannelKind::Float(bits),
            FieldKind::Float | FieldKind::SharedExp | FieldKind::Typeless => return None,
        })
    }

    /// Whether the channel is floating point.
    pub(crate) fn is_float(self) -> bool {
        matches!(self, ChannelKind::Float(_))
    }

    /// The field width in bits.
    pub(crate) fn bits(self) -> u8 {
        match self {
            ChannelKind::Unorm(b)
            | ChannelKind::Snorm(b)
            | ChannelKind::Uint(b)
            | ChannelKind::Sint(b)
            | ChannelKind::Float(b) => b,
            ChannelKind::Srgb => 8,
        }
    }

    /// The value the bits stand for: what a shader reads (3.2.3.3, 3.2.3.5, 3.2.3.7, 3.1.5, 3.1.6), or the integer
    /// for UINT/SINT. SRGB reads as its linear value.
    pub(crate) fn value(self, raw: u32) -> f64 {
        match self {
            ChannelKind::Unorm(bits) => (i64::from(raw) as f64) / (code_max(bits) as f64),
            ChannelKind::Snorm(bits) => {
                let scale = code_max(bits.saturating_sub(1));
                let code = i64::from(sign_extend(raw, u32::from(bits))).max(scale.wrapping_neg());
                (code as f64) / (scale as f64)
            }
            ChannelKind::Srgb => f64::from(srgb8_to_f32(raw as u8)),
            ChannelKind::Uint(_) => f64::from(raw),
            ChannelKind::Sint(bits) => f64::from(sign_extend(raw, u32::from(bits))),
            ChannelKind::Float(16) => f64::from(f16_to_f32(raw as u16)),
            ChannelKind::Float(11) => f64::from(small_float_to_f32(raw, 6)),
            ChannelKind::Float(10) => f64::from(small_float_to_f32(raw, 5)),
            ChannelKind::Float(_) => f64::from(f32::from_bits(raw)),
        }
    }

    /// Where the bits sit among the channel's values (see the module doc), or NaN/infinity.
    pub(crate) fn class(self, raw: u32) -> Class {
        match self {
            ChannelKind::Unorm(_) | ChannelKind::Srgb | ChannelKind::Uint(_) => Class::Finite(i64::from(raw)),
            ChannelKind::Sint(bits) => Class::Finite(i64::from(sign_extend(raw, u32::from(bits)))),
            ChannelKind::Snorm(bits) => {
                let lowest = code_max(bits.saturating_sub(1)).wrapping_neg();
                Class::Finite(i64::from(sign_extend(raw, u32::from(bits))).max(lowest))
            }
            ChannelKind::Float(bits) => {
                let (sign_bit, mantissa_bits) = float_layout(bits);
                let magnitude_bits = sign_bit.unwrap_or(u32::from(bits));
                let magnitude = raw & low_mask(magnitude_bits);
                let mantissa = magnitude & low_mask(mantissa_bits);
                let exponent_all_ones = low_mask(magnitude_bits) & !low_mask(mantissa_bits);
                let negative = sign_bit.is_some_and(|bit| raw >> bit & 1 == 1);
                if magnitude & exponent_all_ones == exponent_all_ones {
                    if mantissa == 0 {
                        Class::Infinite(!negative)
                    } else {
                        Class::Nan
                    }
                } else if negative {
                    Class::Finite(i64::from(magnitude).wrapping_neg())
                } else {
                    Class::Finite(i64::from(magnitude))
                }
            }
        }
    }

    /// The number of ULPs across the channel's whole range, used to normalise errors for precision and to scale
    /// heatmaps: 2^n - 1 codes for UNORM/SRGB/UINT/SINT, 2^n - 2 for SNORM (its two -1.0 codes are one value), and
    /// 2^m for a float with m mantissa bits (the ULPs in one binade: an error as large as the value itself).
    pub(crate) fn range_ulps(self) -> f64 {
        match self {
            ChannelKind::Unorm(bits) | ChannelKind::Uint(bits) | ChannelKind::Sint(bits) => code_max(bits) as f64,
            ChannelKind::Srgb => 255.0,
            ChannelKind::Snorm(bits) => code_max(bits).wrapping_sub(1) as f64,
            ChannelKind::Float(bits) => f64::from(float_layout(bits).1).exp2(),
        }
    }

    /// The most precision, in bits, a comparison of this channel can report: the field width for fixed-point and
    /// integer channels (an exact 8-bit match is 8 bits), the significand width (mantissa + hidden bit: 24, 11, 7,
    /// 6) for floats.
    pub(crate) fn precision_cap(self) -> f64 {
        match self {
            ChannelKind::Float(bits) => f64::from(float_layout(bits).1.wrapping_add(1)),
            other => f64::from(other.bits()),
        }
    }
}

/// The low `bits` bits set (bits <= 32).
fn low_mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits).wrapping_sub(1)
    }
}

/// The name a report gives a channel.
pub(crate) fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::R => "R",
        Channel::G => "G",
        Channel::B => "B",
        Channel::A => "A",
        Channel::Depth => "Depth",
        Channel::Stencil => "Stencil",
        Channel::Exponent => "Exponent",
        Channel::Unused => "Unused",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_and_srgb_ordinals_are_their_codes() {
        assert_eq!(ChannelKind::Unorm(8).class(200), Class::Finite(200));
        assert_eq!(ChannelKind::Srgb.class(7), Class::Finite(7));
        // 128 / 255 and 1.0.
        assert_eq!(ChannelKind::Unorm(8).value(128), 128.0 / 255.0);
        assert_eq!(ChannelKind::Unorm(24).value(0xff_ffff), 1.0);
    }

    #[test]
    fn the_two_snorm_minus_one_codes_share_an_ordinal() {
        // 8-bit SNORM: 0x80 (-128) and 0x81 (-127) both read -1.0 (3.2.3.3); both sit at ordinal -127.
        assert_eq!(ChannelKind::Snorm(8).class(0x80), Class::Finite(-127));
        assert_eq!(ChannelKind::Snorm(8).class(0x81), Class::Finite(-127));
        assert_eq!(ChannelKind::Snorm(8).value(0x80), -1.0);
        assert_eq!(ChannelKind::Snorm(8).value(0x7f), 1.0);
        // 127 codes either side of zero: 254 ULPs end to end.
        assert_eq!(ChannelKind::Snorm(8).range_ulps(), 254.0);
    }

    #[test]
    fn float32_ordinals_count_representable_values() {
        let k = ChannelKind::Float(32);
        // +0 and -0 share ordinal 0; the smallest denormal is 1 step away; 1.0 is 0x3f800000 steps from zero.
        assert_eq!(k.class(0x8000_0000), Class::Finite(0));
        assert_eq!(k.class(0x0000_0001), Class::Finite(1));
        assert_eq!(k.class(0x3f80_0000), Class::Finite(0x3f80_0000));
        assert_eq!(k.class(0xbf80_0000), Class::Finite(-0x3f80_0000));
        assert_eq!(k.class(0x7f80_0000), Class::Infinite(true));
        assert_eq!(k.class(0xff80_0000), Class::Infinite(false));
        assert_eq!(k.class(0x7fc0_0000), Class::Nan);
        assert_eq!(k.class(0xffc0_0001), Class::Nan);
    }

    #[test]
    fn small_float_layouts_follow_3_1_5_and_3_1_6() {
        // float16: 0x7c00 is +inf, 0x7c01 NaN, 0x3c00 is 1.0.
        let h = ChannelKind::Float(16);
        assert_eq!(h.class(0x7c00), Class::Infinite(true));
        assert_eq!(h.class(0xfc00), Class::Infinite(false));
        assert_eq!(h.class(0x7e00), Class::Nan);
        assert_eq!(h.value(0x3c00), 1.0);
        assert_eq!(h.class(0xbc00), Class::Finite(-0x3c00));
        // float11: exponent 5 bits above 6 mantissa bits, no sign: 0x7c0 is +inf, 0x3c0 is 1.0 (e = 15).
        let f11 = ChannelKind::Float(11);
        assert_eq!(f11.class(0x7c0), Class::Infinite(true));
        assert_eq!(f11.class(0x7c1), Class::Nan);
        assert_eq!(f11.value(0x3c0), 1.0);
        // float10: 0x3e0 is +inf, 0x1e0 is 1.0.
        let f10 = ChannelKind::Float(10);
        assert_eq!(f10.class(0x3e0), Class::Infinite(true));
        assert_eq!(f10.value(0x1e0), 1.0);
        assert_eq!(f10.range_ulps(), 32.0);
        assert_eq!(f11.precision_cap(), 7.0);
    }
}
