//! An image as the comparison and previews read it: raw bytes of one DXGI format, rows packed (row of blocks for
//! block formats), top row first, checked once against its size.

use super::channel::{ChannelKind, channel_name};
use crate::format::{Channel, Format, Layout, TexelCodec};
use crate::{Error, Result};

/// A width x height image of `format` over borrowed bytes.
#[derive(Clone, Copy, Debug)]
pub struct Image<'a> {
    /// The codec of the format (which also names it).
    codec: TexelCodec,
    /// Width in pixels.
    width: u32,
    /// Height in pixels.
    height: u32,
    /// Exactly the bytes the size needs.
    data: &'a [u8],
    /// width * height.
    pixels: usize,
}

impl<'a> Image<'a> {
    /// An image of `format`, `width` x `height` pixels over `data`, which must hold exactly the packed rows
    /// (elements of blocks for block formats: ceil(width / block width) per row). Errors for formats without a
    /// decoder (typeless, video) and for a size that does not match the data.
    pub fn new(format: Format, width: u32, height: u32, data: &'a [u8]) -> Result<Image<'a>> {
        let codec = TexelCodec::new(format).map_err(|e| e.within("image"))?;
        let (block_width, block_height) = codec.block_size();
        let needed = u64::from(width.div_ceil(block_width.max(1)))
            .checked_mul(u64::from(height.div_ceil(block_height.max(1))))
            .and_then(|elements| elements.checked_mul(codec.element_bytes() as u64));
        if needed != Some(data.len() as u64) {
            let needed = needed.map_or_else(|| "more than 2^64".to_owned(), |n| n.to_string());
            return Err(Error::new(
                "image",
                format!(
                    "a {width}x{height} {format} image needs {needed} bytes; {} given",
                    data.len()
                ),
            ));
        }
        // The data bounds the pixel count: at least one byte per pixel, or 8 bytes per 16 pixels for BC1/BC4.
        let pixels = usize::try_from(u64::from(width).saturating_mul(u64::from(height)))
            .map_err(|_| Error::new("image", format!("{width}x{height} pixels do not fit in memory")))?;
        Ok(Image {
            codec,
            width,
            height,
            data,
            pixels,
        })
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.codec.format()
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// width * height.
    pub fn pixel_count(&self) -> usize {
        self.pixels
    }

    /// The bytes of texel (`x`, `y`), if inside (a 1x1-element format; block formats have no single texel's bytes).
    pub fn texel(&self, x: u32, y: u32) -> Option<&'a [u8]> {
        if self.codec.block_size() != (1, 1) {
            return None;
        }
        let size = self.codec.element_bytes();
        let start = pixel_index(self.width, self.height, x, y)?.checked_mul(size)?;
        self.data.get(start..start.checked_add(size)?)
    }

    /// The codec.
    pub(crate) fn codec(&self) -> &TexelCodec {
        &self.codec
    }

    /// The element of pixel `index` (row-major) of a 1x1-element format, as a little-endian integer.
    pub(crate) fn element(&self, index: usize) -> u128 {
        let size = self.codec.element_bytes();
        let start = index.saturating_mul(size);
        let mut buffer = [0u8; 16];
        if let (Some(bytes), Some(out)) = (self.data.get(start..start.saturating_add(size)), buffer.get_mut(..size)) {
            out.copy_from_slice(bytes);
        }
        u128::from_le_bytes(buffer)
    }
}

/// Where pixel (`x`, `y`) of a `width` x `height` grid stored row by row, top row first, is: its index, or `None`
/// outside the grid. Every per-pixel array of a target (texels, compare classes, the ambiguity mask) is addressed
/// through it.
pub fn pixel_index(width: u32, height: u32, x: u32, y: u32) -> Option<usize> {
    if x >= width || y >= height {
        return None;
    }
    let index = u64::from(y).checked_mul(u64::from(width))?.checked_add(u64::from(x))?;
    usize::try_from(index).ok()
}

/// One compared channel of a format: where its bits are and how they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlannedChannel {
    /// Its slot (0..4) in the texel and in a [`super::Tolerance`].
    pub slot: usize,
    /// Its name in reports ("R", "Depth", ...).
    pub name: &'static str,
    /// How its bits are read.
    pub kind: ChannelKind,
    /// Lowest bit in the element.
    pub offset: u8,
}

impl PlannedChannel {
    /// The channel's raw bits in `element`.
    pub fn raw(&self, element: u128) -> u32 {
        let bits = u32::from(self.kind.bits());
        let mask = if bits >= 32 {
            u128::from(u32::MAX)
        } else {
            (1u128 << bits).wrapping_sub(1)
        };
        ((element >> self.offset) & mask) as u32
    }
}

/// The channels of `format` a comparison reads, in slot order; an error for formats whose texels are not single
/// elements of separately stored fields (block, sub-sampled and shared-exponent formats, none of which can be a
/// render or depth target).
pub(crate) fn plan(format: Format) -> Result<Vec<PlannedChannel>> {
    let info = format.info();
    let refuse = |why: &str| Err(Error::new("compare", format!("{format} {why}")));
    if !matches!(info.layout, Layout::Texel { .. }) {
        return refuse("stores texels in blocks; only render-target and depth formats are compared");
    }
    let mut channels = Vec::with_capacity(4);
    for field in info.fields() {
        let Some(slot) = field.channel.slot() else { continue };
        let Some(kind) = ChannelKind::of(field.kind, field.bits) else {
            return refuse("has a field the comparison cannot read alone (shared exponent or typeless)");
        };
        channels.push(PlannedChannel {
            slot,
            name: channel_name(field.channel),
            kind,
            offset: field.offset,
        });
    }
    channels.sort_by_key(|c| c.slot);
    if channels.is_empty() {
        return refuse("has no channel to compare");
    }
    Ok(channels)
}

/// Whether a slot of `format` holds a stencil value (shown as itself in previews).
pub(crate) fn is_stencil_slot(format: Format, slot: usize) -> bool {
    format
        .info()
        .fields()
        .iter()
        .any(|f| f.channel == Channel::Stencil && f.channel.slot() == Some(slot))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_must_match_the_data() {
        // 2x2 RGBA8 is 16 bytes.
        assert!(Image::new(Format::R8G8B8A8Unorm, 2, 2, &[0; 16]).is_ok());
        let error = Image::new(Format::R8G8B8A8Unorm, 2, 2, &[0; 15]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "image: a 2x2 R8G8B8A8_UNORM image needs 16 bytes; 15 given"
        );
        // 5x5 BC1 is 2x2 blocks of 8 bytes.
        assert!(Image::new(Format::Bc1Unorm, 5, 5, &[0; 32]).is_ok());
        // An absurd size is refused without allocating.
        let error = Image::new(Format::R32G32B32A32Float, u32::MAX, u32::MAX, &[]).unwrap_err();
        assert!(error.detail.contains("needs 4722366482800925736976 bytes") || error.detail.contains("2^64"));
        assert!(Image::new(Format::R8G8B8A8Typeless, 1, 1, &[0; 4]).is_err());
        // Zero-sized images are empty, not errors.
        assert_eq!(Image::new(Format::R8Unorm, 0, u32::MAX, &[]).unwrap().pixel_count(), 0);
    }

    #[test]
    fn d24s8_plans_depth_then_stencil_and_skips_the_unused_bits() {
        let channels = plan(Format::D24UnormS8Uint).unwrap();
        assert_eq!(channels.len(), 2);
        assert_eq!(
            (channels[0].name, channels[0].kind, channels[0].offset),
            ("Depth", ChannelKind::Unorm(24), 0)
        );
        assert_eq!(
            (channels[1].name, channels[1].kind, channels[1].offset),
            ("Stencil", ChannelKind::Uint(8), 24)
        );
        // Element 0xAB123456: depth 0x123456, stencil 0xAB.
        assert_eq!(channels[0].raw(0xAB12_3456), 0x12_3456);
        assert_eq!(channels[1].raw(0xAB12_3456), 0xAB);
    }

    #[test]
    fn block_and_shared_exponent_formats_are_not_compared() {
        assert!(plan(Format::Bc1Unorm).is_err());
        assert!(plan(Format::R9G9B9E5Sharedexp).is_err());
        // B8G8R8A8: R is stored in the third byte but planned in slot 0.
        let bgra = plan(Format::B8G8R8A8Unorm).unwrap();
        assert_eq!((bgra[0].name, bgra[0].offset), ("R", 16));
    }
}
