//! Pictures of a comparison and of targets, as RGBA8 buffers (rows packed, top first), and PNG encoding of them.
//!
//! - Difference mask ([`Comparison::difference_mask_rgba8`]): not compared (0, 0, 0, 0) transparent; match
//!   (0, 0, 0, 255) black; matched within the position deviation (0, 0, 160, 255) dark blue; ambiguous difference
//!   (255, 176, 0, 255) amber; real difference (255, 0, 0, 255) red.
//! - Heatmap ([`Comparison::heatmap_rgba8`]): each compared pixel's in-place error, the largest ULP distance over
//!   its compared channels, on a log scale: 0 ULP is black; an error of e >= 1 ULP is the colour of the viridis ramp
//!   at t = log2(e) / log2(max_ulps), clamped to [0, 1], so 1 ULP is the ramp's dark purple end and `max_ulps` or
//!   more its yellow end; a NaN or infinity meeting anything else is magenta (255, 0, 255, 255); pixels not
//!   compared are transparent. Bit differences with no ULP distance (under an exact tolerance: +0 against -0, two
//!   NaN payloads, SNORM's two -1.0 codes) show black here; the mask shows them as differences. The default `max_ulps` is the whole range of the compared channels (255 for 8-bit
//!   UNORM: the full 0..1 swing is yellow; 2^23 for float32: an error the size of the value). The ramp is
//!   matplotlib's viridis (perceptually uniform) at its five quartile stops #440154, #3b528b, #21918c, #5ec962,
//!   #fde725, linear in between.
//! - Preview ([`preview_rgba8`]): any decodable image through [`crate::format::display_rgba8`], with the channel
//!   selection, the display range (optionally the range of the data), and NaN (magenta) and infinities (cyan)
//!   highlighted.

use super::diff::{Comparison, PixelClass};
use super::image::{Image, is_stencil_slot};
use crate::format::{DisplayMapping, ShaderType, Texel, display_rgba8};
use crate::{Error, Result};

/// Mask colour of pixels not compared.
pub const MASK_NOT_COMPARED: [u8; 4] = [0, 0, 0, 0];
/// Mask colour of matching pixels.
pub const MASK_MATCH: [u8; 4] = [0, 0, 0, 255];
/// Mask colour of pixels matched within the position deviation.
pub const MASK_SHIFTED: [u8; 4] = [0, 0, 160, 255];
/// Mask colour of ambiguous differences.
pub const MASK_AMBIGUOUS: [u8; 4] = [255, 176, 0, 255];
/// Mask colour of real differences.
pub const MASK_DIFFERS: [u8; 4] = [255, 0, 0, 255];
/// Heatmap and preview colour of a NaN.
pub const NAN_COLOR: [u8; 4] = [255, 0, 255, 255];
/// Preview colour of an infinity.
pub const INFINITY_COLOR: [u8; 4] = [0, 255, 255, 255];

/// Viridis at t = 0, 0.25, 0.5, 0.75, 1.
const VIRIDIS: [[u8; 3]; 5] = [
    [0x44, 0x01, 0x54],
    [0x3b, 0x52, 0x8b],
    [0x21, 0x91, 0x8c],
    [0x5e, 0xc9, 0x62],
    [0xfd, 0xe7, 0x25],
];

/// The viridis colour at `t` in [0, 1] (clamped; NaN is 0).
pub fn viridis(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let position = t * 4.0;
    let lower = (position.floor() as usize).min(3);
    let fraction = position - lower as f64;
    let (Some(from), Some(to)) = (VIRIDIS.get(lower), VIRIDIS.get(lower.wrapping_add(1))) else {
        return [0xfd, 0xe7, 0x25];
    };
    let mut out = [0u8; 3];
    for ((o, &a), &b) in out.iter_mut().zip(from).zip(to) {
        *o = (f64::from(a) + (f64::from(b) - f64::from(a)) * fraction).round() as u8;
    }
    out
}

/// The error that maps to the top of the heatmap ramp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeatmapScale {
    /// ULPs shown at the yellow end (errors above are clamped to it).
    pub max_ulps: f64,
}

impl Comparison {
    /// The difference mask (colours in the module doc).
    pub fn difference_mask_rgba8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.classes.len().saturating_mul(4));
        for class in &self.classes {
            out.extend_from_slice(&match class {
                PixelClass::NotCompared => MASK_NOT_COMPARED,
                PixelClass::Match => MASK_MATCH,
                PixelClass::Shifted => MASK_SHIFTED,
                PixelClass::Ambiguous => MASK_AMBIGUOUS,
                PixelClass::Differs => MASK_DIFFERS,
            });
        }
        out
    }

    /// The heatmap's default scale: the whole range of the compared channels in ULPs.
    pub fn default_heatmap_scale(&self) -> HeatmapScale {
        HeatmapScale {
            max_ulps: self.range_ulps,
        }
    }

    /// The heatmap of in-place errors (colours and scale in the module doc).
    pub fn heatmap_rgba8(&self, scale: HeatmapScale) -> Vec<u8> {
        let top = scale.max_ulps.log2();
        let mut out = Vec::with_capacity(self.classes.len().saturating_mul(4));
        for (class, &error) in self.classes.iter().zip(&self.errors) {
            let colour = if *class == PixelClass::NotCompared {
                MASK_NOT_COMPARED
            } else if error.is_infinite() {
                NAN_COLOR
            } else if error <= 0.0 {
                MASK_MATCH
            } else {
                let t = if top > 0.0 { f64::from(error).log2() / top } else { 1.0 };
                let [r, g, b] = viridis(t);
                [r, g, b, 255]
            };
            out.extend_from_slice(&colour);
        }
        out
    }
}

/// PNG bytes of an RGBA8 image (8 bits per channel, no file I/O).
pub fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>> {
    // (2^32 - 1)^2 pixels of 4 bytes fit easily in u128, so the wrapping operations never wrap.
    let needed = u128::from(width).wrapping_mul(u128::from(height)).wrapping_mul(4);
    if rgba.len() as u128 != needed {
        return Err(Error::new(
            "png",
            format!(
                "a {width}x{height} RGBA8 image needs {needed} bytes; {} given",
                rgba.len()
            ),
        ));
    }
    if width == 0 || height == 0 {
        return Err(Error::new("png", format!("PNG cannot hold a {width}x{height} image")));
    }
    let failed = |e: png::EncodingError| Error::new("png", e.to_string());
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(rgba).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

/// Which channels a preview shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PreviewChannels {
    /// R, G, B and A as they are.
    #[default]
    Rgba,
    /// R, G, B, opaque.
    Rgb,
    /// Only R (or depth), as grey.
    R,
    /// Only G (or stencil), as grey.
    G,
    /// Only B, as grey.
    B,
    /// Only A, as grey.
    A,
}

impl PreviewChannels {
    /// The single slot shown as grey, if one.
    fn single(self) -> Option<usize> {
        match self {
            PreviewChannels::Rgba | PreviewChannels::Rgb => None,
            PreviewChannels::R => Some(0),
            PreviewChannels::G => Some(1),
            PreviewChannels::B => Some(2),
            PreviewChannels::A => Some(3),
        }
    }

    /// Whether slot `slot` is shown.
    fn shows(self, slot: usize) -> bool {
        match self.single() {
            Some(single) => single == slot,
            None => slot < 3 || self == PreviewChannels::Rgba,
        }
    }
}

/// How a preview maps texels to display colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PreviewOptions {
    /// The range, exposure and sRGB re-encoding (see [`DisplayMapping`]); `low`/`high` are replaced when
    /// `auto_range` is set.
    pub mapping: DisplayMapping,
    /// Which channels are shown.
    pub channels: PreviewChannels,
    /// Map the smallest and largest finite values of the shown channels (stencil aside) to 0 and 255, linearly
    /// (no exposure, no sRGB re-encoding).
    pub auto_range: bool,
    /// Show a pixel whose shown channels hold a NaN as magenta, or else an infinity as cyan.
    pub highlight_non_finite: bool,
}

impl PreviewOptions {
    /// The format's default mapping, all channels, fixed range, NaN/infinity highlighted.
    pub fn for_format(format: crate::format::Format) -> PreviewOptions {
        PreviewOptions {
            mapping: DisplayMapping::for_format(format),
            channels: PreviewChannels::Rgba,
            auto_range: false,
            highlight_non_finite: true,
        }
    }
}

/// Every texel of `image`, row-major, decoded (block formats block by block).
fn decode_all(image: &Image<'_>) -> Result<Vec<Texel>> {
    let codec = image.codec();
    let (width, height) = (image.width(), image.height());
    let mut texels = vec![[0u32; 4]; image.pixel_count()];
    if texels.is_empty() {
        return Ok(texels);
    }
    let (block_width, block_height) = codec.block_size();
    let element_bytes = codec.element_bytes();
    let blocks_across = width.div_ceil(block_width.max(1));
    let is_bc = image.format().is_block_compressed();
    let mut element_index = 0usize;
    for block_y in 0..height.div_ceil(block_height.max(1)) {
        for block_x in 0..blocks_across {
            let start = element_index.saturating_mul(element_bytes);
            element_index = element_index.wrapping_add(1);
            let bytes = image.data().get(start..).unwrap_or(&[]);
            let block = if is_bc { Some(codec.decode_block(bytes)?) } else { None };
            for dy in 0..block_height {
                for dx in 0..block_width {
                    let x = block_x.saturating_mul(block_width).saturating_add(dx);
                    let y = block_y.saturating_mul(block_height).saturating_add(dy);
                    if x >= width || y >= height {
                        continue;
                    }
                    let texel = match &block {
                        Some(block) => {
                            let at = (dy as usize).wrapping_mul(4).wrapping_add(dx as usize);
                            block.get(at).copied().unwrap_or_default()
                        }
                        None => codec.decode_at(bytes, dx, dy)?,
                    };
                    let index = u64::from(y).wrapping_mul(u64::from(width)).wrapping_add(u64::from(x));
                    if let Some(slot) = usize::try_from(index).ok().and_then(|i| texels.get_mut(i)) {
                        *slot = texel;
                    }
                }
            }
        }
    }
    Ok(texels)
}

/// Whether slot `slot` of `format` holds float data a preview can range and highlight (not stencil).
fn float_slot(image: &Image<'_>, slot: usize) -> bool {
    image.format().info().shader_type == ShaderType::Float && !is_stencil_slot(image.format(), slot)
}

/// The numeric value of slot `slot` of a texel of `image`'s format, as the preview maps it.
fn slot_value(image: &Image<'_>, texel: &Texel, slot: usize) -> f32 {
    let word = texel.get(slot).copied().unwrap_or(0);
    match image.format().info().shader_type {
        ShaderType::Uint => word as f32,
        ShaderType::Sint => word as i32 as f32,
        ShaderType::Float | ShaderType::None => f32::from_bits(word),
    }
}

/// What a preview of an image shows, besides its colours: the range of finite values and how many texels hold a
/// NaN or an infinity in the shown channels (stencil aside, as [`preview_rgba8`]'s automatic range leaves it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PreviewStatistics {
    /// The smallest and largest finite value of the shown channels; `None` when there is none.
    pub range: Option<(f32, f32)>,
    /// Texels with a NaN or an infinity in a shown float channel.
    pub non_finite_texels: u64,
}

/// The [`PreviewStatistics`] of `image` with `channels` shown: the range [`preview_rgba8`] maps with `auto_range`,
/// and the texels it would highlight.
pub fn preview_statistics(image: &Image<'_>, channels: PreviewChannels) -> Result<PreviewStatistics> {
    let format = image.format();
    let present = format.info().channels;
    let mut statistics = PreviewStatistics::default();
    for texel in &decode_all(image)? {
        let mut non_finite = false;
        for slot in (0..4).filter(|&s| channels.shows(s) && present >> s & 1 == 1) {
            if is_stencil_slot(format, slot) {
                continue;
            }
            let value = slot_value(image, texel, slot);
            if value.is_finite() {
                statistics.range = Some(
                    statistics
                        .range
                        .map_or((value, value), |(lo, hi)| (lo.min(value), hi.max(value))),
                );
            } else if float_slot(image, slot) {
                non_finite = true;
            }
        }
        if non_finite {
            statistics.non_finite_texels = statistics.non_finite_texels.saturating_add(1);
        }
    }
    Ok(statistics)
}

/// An RGBA8 preview of `image` (rules in the module doc); the viewer uses the same function.
pub fn preview_rgba8(image: &Image<'_>, options: &PreviewOptions) -> Result<Vec<u8>> {
    let format = image.format();
    let texels = decode_all(image)?;
    let present = format.info().channels;
    let mut mapping = options.mapping;
    if options.auto_range {
        let mut range: Option<(f32, f32)> = None;
        for texel in &texels {
            for slot in (0..4).filter(|&s| options.channels.shows(s) && present >> s & 1 == 1) {
                if is_stencil_slot(format, slot) {
                    continue;
                }
                let value = slot_value(image, texel, slot);
                if value.is_finite() {
                    range = Some(range.map_or((value, value), |(lo, hi)| (lo.min(value), hi.max(value))));
                }
            }
        }
        if let Some((low, high)) = range {
            // A flat image shows as black rather than dividing by zero.
            mapping.low = low;
            mapping.high = if high > low { high } else { low + 1.0 };
            mapping.exposure = 0.0;
            mapping.srgb_encode = false;
        }
    }
    let mut out = Vec::with_capacity(texels.len().saturating_mul(4));
    for texel in &texels {
        let mut highlight = None;
        if options.highlight_non_finite {
            for slot in (0..4).filter(|&s| options.channels.shows(s) && float_slot(image, s)) {
                let value = slot_value(image, texel, slot);
                if value.is_nan() {
                    highlight = Some(NAN_COLOR);
                    break;
                }
                if value.is_infinite() {
                    highlight = Some(INFINITY_COLOR);
                }
            }
        }
        let colour = match highlight {
            Some(colour) => colour,
            None => {
                let shown = display_rgba8(format, *texel, &mapping);
                match options.channels.single() {
                    Some(slot) => {
                        let grey = shown.get(slot).copied().unwrap_or(0);
                        [grey, grey, grey, 255]
                    }
                    None if options.channels == PreviewChannels::Rgb => [shown[0], shown[1], shown[2], 255],
                    None => shown,
                }
            }
        };
        out.extend_from_slice(&colour);
    }
    Ok(out)
}
