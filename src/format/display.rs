//! Texels to display RGBA8 for previews: a linear map of a chosen range to 0..255, nothing more.
//!
//! This is for looking at data, not part of any D3D rule. Float words are mapped from [low, high] (after scaling by
//! 2^exposure) to [0, 255] and clamped, NaN showing as 0; integer formats map their words the same way as numbers;
//! for `_SRGB` formats the colour is re-encoded with the FLOAT -> SRGB curve by default, so the preview shows the
//! stored values as a display would (19.1.3.4: scan-out ignores the SRGB modifier).

use super::convert::f32_to_srgb8;
use super::table::Texel;
use super::table::{Channel, Format, NumericKind, ShaderType};

/// How texel values map to display bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplayMapping {
    /// The value shown as 0.
    pub low: f32,
    /// The value shown as 255.
    pub high: f32,
    /// Values are multiplied by 2^exposure before the mapping (for float data).
    pub exposure: f32,
    /// Whether R, G, B are re-encoded to sRGB before the mapping (alpha never is).
    pub srgb_encode: bool,
}

impl DisplayMapping {
    /// A sensible default for `format`: [0, 1] for UNORM/SRGB/float/depth, [-1, 1] for SNORM, [0, 255] for UINT and
    /// [-128, 127] for SINT (adjust for wider integers), sRGB re-encoding for `_SRGB` formats.
    pub fn for_format(format: Format) -> DisplayMapping {
        let info = format.info();
        let (low, high) = match (info.kind, info.shader_type) {
            (NumericKind::Snorm, _) => (-1.0, 1.0),
            (_, ShaderType::Uint) => (0.0, 255.0),
            (_, ShaderType::Sint) => (-128.0, 127.0),
            _ => (0.0, 1.0),
        };
        DisplayMapping {
            low,
            high,
            exposure: 0.0,
            srgb_encode: info.kind == NumericKind::Srgb,
        }
    }

    /// The display byte for one value.
    fn byte(&self, value: f32, srgb: bool) -> u8 {
        let scaled = value * self.exposure.exp2();
        let value = if srgb {
            f32::from(f32_to_srgb8(scaled)) / 255.0
        } else {
            scaled
        };
        let span = self.high - self.low;
        let unit = if span == 0.0 { 0.0 } else { (value - self.low) / span };
        if unit.is_nan() {
            0
        } else {
            (unit.clamp(0.0, 1.0) * 255.0).round() as u8
        }
    }
}

/// One texel of `format` as display RGBA8 under `mapping`. The stencil of a depth/stencil format (a uint in a
/// float-typed texel) is shown as itself over 255, whatever the mapping.
pub fn display_rgba8(format: Format, texel: Texel, mapping: &DisplayMapping) -> [u8; 4] {
    let info = format.info();
    let mut out = [0u8; 4];
    for (i, (byte, &word)) in out.iter_mut().zip(&texel).enumerate() {
        let stencil = info
            .fields()
            .iter()
            .any(|f| f.channel == Channel::Stencil && f.channel.slot() == Some(i));
        if stencil && info.shader_type == ShaderType::Float {
            *byte = u8::try_from(word).unwrap_or(u8::MAX);
            continue;
        }
        let value = match info.shader_type {
            ShaderType::Uint => word as f32,
            ShaderType::Sint => word as i32 as f32,
            ShaderType::Float | ShaderType::None => f32::from_bits(word),
        };
        *byte = mapping.byte(value, mapping.srgb_encode && i < 3);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_texels_show_as_their_bytes() {
        // 128/255 maps back to 128; 1.0 to 255; 0 to 0.
        let mapping = DisplayMapping::for_format(Format::R8G8B8A8Unorm);
        let texel = [(128.0f32 / 255.0).to_bits(), 1.0f32.to_bits(), 0, 1.0f32.to_bits()];
        assert_eq!(
            display_rgba8(Format::R8G8B8A8Unorm, texel, &mapping),
            [128, 255, 0, 255]
        );
    }

    #[test]
    fn srgb_texels_show_their_stored_encoding() {
        // Linear 0.5 is stored as sRGB 188 (see convert's tests); alpha 0.5 stays linear: 127.5 rounds to 128.
        let mapping = DisplayMapping::for_format(Format::R8G8B8A8UnormSrgb);
        let texel = [0.5f32.to_bits(), 0, 0, 0.5f32.to_bits()];
        assert_eq!(
            display_rgba8(Format::R8G8B8A8UnormSrgb, texel, &mapping),
            [188, 0, 0, 128]
        );
    }

    #[test]
    fn float_texels_use_range_and_exposure_and_nan_shows_black() {
        let mapping = DisplayMapping {
            low: 0.0,
            high: 4.0,
            exposure: 1.0,
            srgb_encode: false,
        };
        // 1.0 * 2 = 2.0 is half of [0, 4]: 127.5 rounds to 128; 3.0 * 2 clamps to 255; NaN is 0; -1 clamps to 0.
        let texel = [
            1.0f32.to_bits(),
            3.0f32.to_bits(),
            f32::NAN.to_bits(),
            (-1.0f32).to_bits(),
        ];
        assert_eq!(
            display_rgba8(Format::R32G32B32A32Float, texel, &mapping),
            [128, 255, 0, 0]
        );
    }

    #[test]
    fn depth_shows_on_the_mapping_and_stencil_as_itself() {
        // D24_UNORM_S8_UINT decodes to (depth, stencil, 0, 1.0): depth 0.5 -> 128 (127.5 rounded), stencil 7 -> 7.
        let mapping = DisplayMapping::for_format(Format::D24UnormS8Uint);
        let texel = [0.5f32.to_bits(), 7, 0, 1.0f32.to_bits()];
        assert_eq!(display_rgba8(Format::D24UnormS8Uint, texel, &mapping), [128, 7, 0, 255]);
    }

    #[test]
    fn integer_texels_map_as_numbers() {
        let mapping = DisplayMapping::for_format(Format::R8G8B8A8Sint);
        // [-128, 127]: -128 -> 0, 127 -> 255, -1 -> 127/255*255 = 127.
        let texel = [(-128i32) as u32, 127, (-1i32) as u32, 1];
        assert_eq!(display_rgba8(Format::R8G8B8A8Sint, texel, &mapping), [0, 255, 127, 129]);
    }
}
