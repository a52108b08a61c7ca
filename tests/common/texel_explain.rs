//! Why a render-target texel may differ from the reference's (Wine's d3d11 on llvmpipe): the documented ways the
//! reference is off the specification or uses a freedom it gives (`fixtures/output-merger/README.md`), each with the
//! check that recognises it. Shared by the output-merger and draw reference tests, which include this file with
//! `#[path]` so that tests not using it do not compile it.

use iridia::format::{Field, FieldKind, convert};

/// Why a texel may differ from the reference's: each a documented way the reference (Wine's d3d11 on llvmpipe) is
/// off the specification or uses a freedom it gives, with the check that recognises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Explained {
    /// Both NaN with different bits: 3.1.3.2 leaves a NaN's bits open.
    NanBits,
    /// Float32 results one ULP apart: 17.5 lets blending fuse and reorder its operations (ours is unfused).
    FusedRounding,
    /// Ours NaN, theirs not, in the value set with NaN inputs: llvmpipe drops a term whose weight is 0, where 17.5
    /// says NaN propagates "including 0.0 blend weights".
    NanTimesZeroWeight,
    /// A write without blending whose code is within 0.6 of the exact scaled value: the tolerance of 3.2.3.6 and
    /// 3.2.3.8 (llvmpipe scales in float32 and rounds midpoints to even, and approximates the sRGB curve).
    ConversionTolerance,
    /// SNORM -1 stored as the most negative code, where 3.2.3.4 gives -(2^(n-1) - 1).
    SnormMinusOne,
    /// A blended fixed-point value one code apart: 17.5 lets UNORM/SNORM blending run at the format's own precision
    /// (llvmpipe blends in fixed point), ours is float32 rounded once at the end.
    BlendPrecision,
    /// A UNORM depth one code apart: llvmpipe scales the float32 depth in float32 and rounds the product to even;
    /// 17.11 rounds the exact value to nearest (0.3 * 16777215 = 5033164.7 is stored as 5033164).
    DepthConversion,
    /// The reference wrote with bit 0 of the SampleMask clear (GL applies the sample mask only to multisample
    /// targets); 17.17: "SampleMask is always applied, regardless of whether Multisample rendertargets are bound".
    SampleMaskIgnored,
    /// Not compared: blending into A8_UNORM, which wined3d emulates with a one-channel GL target whose write mask
    /// and factors see the wrong channel (only plain writes are compared).
    SkippedA8Blend,
    /// Not compared: SNORM blends of out-of-range or NaN inputs, where llvmpipe turns NaN into -1, writes -1 as the
    /// most negative code, is up to two codes off on negative values in 16 bits and wraps `1 - x` for negative x in
    /// 8-bit fixed point (17.5: `1 - x` is not clamped).
    SkippedSnormOutOfRange,
}

/// One stored component: its field's raw code.
pub fn field_code(field: &Field, bytes: &[u8]) -> u64 {
    let mut word = [0u8; 16];
    word[..bytes.len()].copy_from_slice(bytes);
    ((u128::from_le_bytes(word) >> field.offset) & ((1u128 << field.bits) - 1)) as u64
}

/// A float field's value.
pub fn float_value(field: &Field, code: u64) -> f64 {
    match field.bits {
        32 => f64::from(f32::from_bits(code as u32)),
        16 => f64::from(convert::f16_to_f32(code as u16)),
        11 => f64::from(convert::small_float_to_f32(code as u32, 6)),
        _ => f64::from(convert::small_float_to_f32(code as u32, 5)),
    }
}

/// The exact value FLOAT -> UNORM/SRGB/SNORM scales before rounding (3.2.3.4, 3.2.3.6, 3.2.3.8), for a word.
pub fn ideal_scaled(kind: FieldKind, bits: u8, word: u32) -> f64 {
    let v = f32::from_bits(word);
    if v.is_nan() {
        return 0.0;
    }
    match kind {
        FieldKind::Snorm => f64::from(v.clamp(-1.0, 1.0)) * ((1u64 << (bits - 1)) - 1) as f64,
        _ => {
            let c = f64::from(v.clamp(0.0, 1.0));
            let max = ((1u64 << bits) - 1) as f64;
            match kind {
                FieldKind::Srgb if v <= 0.003_130_8 => 12.92 * c * max,
                FieldKind::Srgb => (1.055 * c.powf(1.0 / 2.4) - 0.055) * max,
                _ => c * max,
            }
        }
    }
}

/// Why a component of a render-target texel differs, if it is a known way; `source` is the word the program wrote
/// to it in a setup draw (None in the blend stage).
pub fn explain_component(
    field: &Field,
    ours: &[u8],
    theirs: &[u8],
    source: Option<u32>,
    value_set: i64,
) -> Option<Option<Explained>> {
    let (a, b) = (field_code(field, ours), field_code(field, theirs));
    if a == b {
        return Some(None);
    }
    let signed = |code: u64| convert::sign_extend(code as u32, u32::from(field.bits)) as i64;
    Some(Some(match field.kind {
        FieldKind::Float => {
            let (x, y) = (float_value(field, a), float_value(field, b));
            if x.is_nan() && y.is_nan() {
                Explained::NanBits
            } else if x.is_nan() && value_set == 3 {
                Explained::NanTimesZeroWeight
            } else if field.bits == 32
                && source.is_none()
                && x.is_finite()
                && y.is_finite()
                && (a as i64 - b as i64).abs() <= 1
            {
                Explained::FusedRounding
            } else {
                return None;
            }
        }
        FieldKind::Unorm | FieldKind::Srgb | FieldKind::Snorm => {
            let snorm = field.kind == FieldKind::Snorm;
            let (x, y) = if snorm {
                (signed(a), signed(b))
            } else {
                (a as i64, b as i64)
            };
            let most_negative = -(1i64 << (field.bits - 1));
            if snorm && y == most_negative && x == most_negative + 1 {
                Explained::SnormMinusOne
            } else if let Some(word) = source {
                if (ideal_scaled(field.kind, field.bits, word) - y as f64).abs() <= 0.6 {
                    Explained::ConversionTolerance
                } else {
                    return None;
                }
            } else if (x - y).abs() <= 1 {
                Explained::BlendPrecision
            } else {
                return None;
            }
        }
        _ => return None,
    }))
}
