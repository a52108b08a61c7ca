//! Texel decode and encode: element bytes <-> the four 32-bit words a shader reads or writes.
//!
//! - Decode gives what a load or a point sample returns before any filtering: for each stored field, UNORM, SNORM,
//!   SRGB and float16/11/10 become f32 bits by the conversions of 3.2 (see [`super::convert`]); float32 fields are
//!   passed through unchanged (8.20: "read without modifying the bits"); UINT fields are zero-extended (3.2.3.12) and
//!   SINT fields sign-extended (3.2.3.9).
//! - Components the format lacks read as 0, except alpha, which reads as 1 in the interpretation of the first typed
//!   component present: 1.0f for UNORM/SNORM/SRGB/FLOAT formats, 0x1 for UINT/SINT ones (19.1.3.3). So R16G16_UINT
//!   reads (r, g, 0, 1) and R24_UNORM_X8_TYPELESS reads (d, 0, 0, 1.0f).
//! - Depth/stencil formats decode depth into x (as a float) and stencil into y (as a uint), which is what their
//!   R24_UNORM_X8 / X24_G8_UINT (and R32_FLOAT_X8X24 / X32_G8X24_UINT) views return.
//! - R9G9B9E5_SHAREDEXP decodes by 19.3.2.1; R8G8_B8G8 and G8R8_G8B8 are 2x1 blocks whose texels share R and B
//!   (19.4); BC formats decode a 4x4 block (19.5, see [`super::bc`]).
//! - Encode converts shader output words to the element: float words by FLOAT -> UNORM/SNORM/SRGB/float16/11/10
//!   (3.2.2, 3.2.3.4, 3.2.3.6, 3.2.3.8), UINT words clamped to the field (3.2.3.13, the word read as a uint32), SINT
//!   words clamped (read as an int32), float32 words stored unchanged. Depth is quantised like any UNORM or float
//!   field: "round to nearest (+0.5 and truncate)" (17.11), i.e. FLOAT -> UNORM. Bits the format leaves unused (X)
//!   are kept as they were in the output bytes.

use super::bc::{BcKind, BlockTexels};
use super::convert::{
    f16_to_f32, f32_to_f16, f32_to_rgbe, f32_to_small_float, f32_to_snorm, f32_to_srgb8, f32_to_unorm, i32_to_sint,
    rgbe_to_f32, sign_extend, small_float_to_f32, snorm_to_f32, srgb8_to_f32, u32_to_uint, unorm_to_f32,
};
use super::table::{Channel, Field, FieldKind, Format, Layout, NumericKind, Texel};
use crate::{Error, Result};

impl Format {
    /// Whether this module decodes texels of the format (see [`TexelCodec`]).
    pub fn is_decodable(self) -> bool {
        TexelCodec::new(self).is_ok()
    }
}

/// The bits of 1.0f.
const ONE_F32: u32 = 0x3f80_0000;

/// A write mask for [`TexelCodec::encode_masked`]: bit 0 = x (R, depth) .. bit 3 = w (A).
pub type WriteMask = u8;

/// Every component.
pub const WRITE_ALL: WriteMask = 0b1111;

/// How one format's elements decode and encode, prepared once so each texel costs one match and a few shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelCodec {
    /// The format.
    format: Format,
    /// Which decoder.
    kind: CodecKind,
    /// Bytes per element.
    element_bytes: usize,
    /// Texels per element across and down.
    block: (u32, u32),
    /// The stored fields (for [`CodecKind::Fields`]).
    fields: [Field; 4],
    /// How many entries of `fields` are used.
    field_count: usize,
    /// The words of the components the format does not store (19.1.3.3).
    defaults: Texel,
}

/// The decoder a format needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CodecKind {
    /// Bit fields converted one by one.
    Fields,
    /// R9G9B9E5_SHAREDEXP.
    SharedExponent,
    /// R8G8_B8G8_UNORM (`g_first` false) or G8R8_G8B8_UNORM (`g_first` true).
    SubSampled { g_first: bool },
    /// A BC format.
    Block(BcKind),
}

impl TexelCodec {
    /// The codec for `format`, or an error saying why it has none (typeless, video, R1, display-only).
    pub fn new(format: Format) -> Result<TexelCodec> {
        let info = format.info();
        let unsupported = |why: &str| {
            Err(Error::of_kind(
                crate::error::ErrorKind::Unsupported,
                "format",
                format!("{format} {why}"),
            ))
        };
        let invalid = |why: &str| Err(Error::new("format", format!("{format} {why}")));
        let element_bytes = match info.layout.element_bytes() {
            Some(bytes) => bytes,
            None => return unsupported("has no texel layout (unknown, video, planar or palette format)"),
        };
        match info.kind {
            NumericKind::Typeless => return invalid("is typeless: a view must give its bits a type"),
            NumericKind::Other => {
                return unsupported("has no conversion in the D3D11.3 specification (display-only format)");
            }
            _ => {}
        }
        let kind = match format {
            Format::R9G9B9E5Sharedexp => CodecKind::SharedExponent,
            Format::R8G8B8G8Unorm => CodecKind::SubSampled { g_first: false },
            Format::G8R8G8B8Unorm => CodecKind::SubSampled { g_first: true },
            Format::R1Unorm => return unsupported("was removed from D3D11 (chapter 19) and is not decoded"),
            _ => match (info.layout, BcKind::of(format)) {
                (Layout::Texel { .. }, _) => CodecKind::Fields,
                (_, Some(bc)) => CodecKind::Block(bc),
                _ => return unsupported("has no decoder"),
            },
        };
        let fields = info.fields();
        let mut stored = [Field {
            channel: Channel::Unused,
            kind: FieldKind::Typeless,
            offset: 0,
            bits: 0,
        }; 4];
        for (slot, field) in stored.iter_mut().zip(fields) {
            *slot = *field;
        }
        Ok(TexelCodec {
            format,
            kind,
            element_bytes,
            block: info.layout.block_size(),
            fields: stored,
            field_count: fields.len(),
            defaults: defaults(format),
        })
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Bytes per element (texel, or block of [`TexelCodec::block_size`] texels).
    pub fn element_bytes(&self) -> usize {
        self.element_bytes
    }

    /// Texels per element across and down: (1, 1), (2, 1) for the sub-sampled formats, (4, 4) for BC.
    pub fn block_size(&self) -> (u32, u32) {
        self.block
    }

    /// The words of one texel of a 1x1-element format from its bytes (at least [`TexelCodec::element_bytes`]).
    pub fn decode(&self, bytes: &[u8]) -> Result<Texel> {
        match self.kind {
            CodecKind::Fields => {
                let element = self.read_element(bytes)?;
                let mut texel = self.defaults;
                for field in self.fields.iter().take(self.field_count) {
                    if let (Some(slot), Some(word)) = (field.channel.slot(), decode_field(field, element))
                        && let Some(out) = texel.get_mut(slot)
                    {
                        *out = word;
                    }
                }
                Ok(texel)
            }
            CodecKind::SharedExponent => {
                let [r, g, b] = rgbe_to_f32(self.read_element(bytes)? as u32);
                Ok([r.to_bits(), g.to_bits(), b.to_bits(), ONE_F32])
            }
            CodecKind::SubSampled { .. } | CodecKind::Block(_) => Err(Error::new(
                "format",
                format!(
                    "{} stores texels in blocks: decode the block or the texel at a position",
                    self.format
                ),
            )),
        }
    }

    /// The texel at (`x`, `y`) inside one element (0..block width, 0..block height); for 1x1 formats (0, 0).
    /// For BC formats this decodes the whole block; decode it once with [`TexelCodec::decode_block`] to read many.
    pub fn decode_at(&self, bytes: &[u8], x: u32, y: u32) -> Result<Texel> {
        let (width, height) = self.block;
        if x >= width || y >= height {
            return Err(Error::new(
                "format",
                format!(
                    "texel ({x}, {y}) is outside the {width}x{height} element of {}",
                    self.format
                ),
            ));
        }
        match self.kind {
            CodecKind::Fields | CodecKind::SharedExponent => self.decode(bytes),
            CodecKind::SubSampled { g_first } => {
                let element = self.read_element(bytes)?;
                Ok(sub_sampled(element as u32, g_first, x))
            }
            CodecKind::Block(bc) => {
                let texels = bc.decode(self.element(bytes)?)?;
                let index = (y as usize).wrapping_mul(4).wrapping_add(x as usize);
                texels
                    .get(index)
                    .copied()
                    .ok_or_else(|| Error::new("format", "texel index past the block"))
            }
        }
    }

    /// All 16 texels of a BC block, row by row (19.5).
    pub fn decode_block(&self, bytes: &[u8]) -> Result<BlockTexels> {
        match self.kind {
            CodecKind::Block(bc) => bc.decode(self.element(bytes)?),
            _ => Err(Error::new("format", format!("{} is not block-compressed", self.format))),
        }
    }

    /// Writes a texel's words into `out` (at least [`TexelCodec::element_bytes`] bytes): every stored field is
    /// replaced, unused bits are kept.
    pub fn encode(&self, texel: Texel, out: &mut [u8]) -> Result<()> {
        self.encode_masked(texel, WRITE_ALL, out)
    }

    /// Writes only the components in `mask` (bit 0 = x .. bit 3 = w; for depth/stencil formats bit 0 is depth and
    /// bit 1 stencil), keeping every other bit of `out` (17.15's output write masks).
    pub fn encode_masked(&self, texel: Texel, mask: WriteMask, out: &mut [u8]) -> Result<()> {
        let mut element = self.read_element(out)?;
        match self.kind {
            CodecKind::Fields => {
                for field in self.fields.iter().take(self.field_count) {
                    let Some(slot) = field.channel.slot() else { continue };
                    if mask & (1 << slot) == 0 {
                        continue;
                    }
                    let Some(bits) = encode_field(field, texel, slot) else {
                        continue;
                    };
                    let field_mask = u128::from(super::convert::unsigned_max(u32::from(field.bits)));
                    let shift = u32::from(field.offset);
                    element = (element & !(field_mask << shift)) | ((u128::from(bits) & field_mask) << shift);
                }
            }
            CodecKind::SharedExponent => {
                // 19.3.2: not a render target; writing it is for building test data. The mask applies to the
                // decoded components, which share the exponent, so the unmasked ones are decoded and re-encoded.
                let old = rgbe_to_f32(element as u32);
                let mut rgb = [0.0f32; 3];
                for (i, value) in rgb.iter_mut().enumerate() {
                    let written = mask & (1 << i) != 0;
                    let word = texel.get(i).copied().unwrap_or(0);
                    *value = if written {
                        f32::from_bits(word)
                    } else {
                        old.get(i).copied().unwrap_or(0.0)
                    };
                }
                element = u128::from(f32_to_rgbe(rgb));
            }
            CodecKind::SubSampled { .. } | CodecKind::Block(_) => {
                return Err(Error::new(
                    "format",
                    format!(
                        "{} cannot be written texel by texel (not a render target format)",
                        self.format
                    ),
                ));
            }
        }
        self.write_element(element, out)
    }

    /// The element's bytes, checked for length.
    fn element<'a>(&self, bytes: &'a [u8]) -> Result<&'a [u8]> {
        bytes.get(..self.element_bytes).ok_or_else(|| {
            Error::new(
                "format",
                format!(
                    "{} needs {} bytes per element; {} given",
                    self.format,
                    self.element_bytes,
                    bytes.len()
                ),
            )
        })
    }

    /// The element (at most 16 bytes for non-block formats) as a little-endian integer.
    fn read_element(&self, bytes: &[u8]) -> Result<u128> {
        let element = self.element(bytes)?;
        let mut buffer = [0u8; 16];
        let used = buffer
            .get_mut(..element.len())
            .ok_or_else(|| Error::new("format", "element past 16 bytes"))?;
        used.copy_from_slice(element);
        Ok(u128::from_le_bytes(buffer))
    }

    /// Stores the little-endian element into `out`.
    fn write_element(&self, element: u128, out: &mut [u8]) -> Result<()> {
        let bytes = element.to_le_bytes();
        let (Some(dst), Some(src)) = (out.get_mut(..self.element_bytes), bytes.get(..self.element_bytes)) else {
            return Err(Error::new(
                "format",
                format!("{} needs {} bytes", self.format, self.element_bytes),
            ));
        };
        dst.copy_from_slice(src);
        Ok(())
    }
}

/// The words for components `format` does not store: 0, and 1 (as 1.0f, or 0x1 for UINT/SINT) for alpha
/// (19.1.3.3).
fn defaults(format: Format) -> Texel {
    let info = format.info();
    let first_typed = info
        .fields()
        .iter()
        .find(|f| f.channel.slot().is_some())
        .map(|f| f.kind);
    let integer = matches!(first_typed, Some(FieldKind::Uint | FieldKind::Sint));
    [0, 0, 0, if integer { 1 } else { ONE_F32 }]
}

/// Extracts a field's bits from the element.
fn field_bits(field: &Field, element: u128) -> u32 {
    let mask = u128::from(super::convert::unsigned_max(u32::from(field.bits)));
    ((element >> field.offset) & mask) as u32
}

/// The shader word of one field; None for fields with no interpretation.
fn decode_field(field: &Field, element: u128) -> Option<u32> {
    let raw = field_bits(field, element);
    let bits = u32::from(field.bits);
    Some(match field.kind {
        FieldKind::Unorm => unorm_to_f32(raw, bits).to_bits(),
        FieldKind::Snorm => snorm_to_f32(raw, bits).to_bits(),
        FieldKind::Srgb => srgb8_to_f32(raw as u8).to_bits(),
        FieldKind::Uint => raw,
        FieldKind::Sint => sign_extend(raw, bits) as u32,
        FieldKind::Float => match bits {
            32 => raw,
            16 => f16_to_f32(raw as u16).to_bits(),
            11 => small_float_to_f32(raw, 6).to_bits(),
            10 => small_float_to_f32(raw, 5).to_bits(),
            _ => return None,
        },
        FieldKind::SharedExp | FieldKind::Typeless => return None,
    })
}

/// The bits of one field for the shader word in `texel[slot]`; None for fields with no interpretation.
fn encode_field(field: &Field, texel: Texel, slot: usize) -> Option<u32> {
    let word = texel.get(slot).copied()?;
    let value = f32::from_bits(word);
    let bits = u32::from(field.bits);
    Some(match field.kind {
        FieldKind::Unorm => f32_to_unorm(value, bits),
        FieldKind::Snorm => f32_to_snorm(value, bits),
        FieldKind::Srgb => u32::from(f32_to_srgb8(value)),
        FieldKind::Uint => u32_to_uint(word, bits),
        FieldKind::Sint => i32_to_sint(word as i32, bits),
        FieldKind::Float => match bits {
            32 => word,
            16 => u32::from(f32_to_f16(value)),
            11 => f32_to_small_float(value, 6),
            10 => f32_to_small_float(value, 5),
            _ => return None,
        },
        FieldKind::SharedExp | FieldKind::Typeless => return None,
    })
}

/// Texel `x` (0 or 1) of a sub-sampled 2x1 element (19.4): each texel has its own G; both share the element's R
/// and B. R8G8_B8G8 stores bytes R, G0, B, G1; G8R8_G8B8 stores G0, R, G1, B.
fn sub_sampled(element: u32, g_first: bool, x: u32) -> Texel {
    let [b0, b1, b2, b3] = element.to_le_bytes();
    let (r, g0, b, g1) = if g_first { (b1, b0, b3, b2) } else { (b0, b1, b2, b3) };
    let g = if x == 0 { g0 } else { g1 };
    let unorm = |v: u8| unorm_to_f32(u32::from(v), 8).to_bits();
    [unorm(r), unorm(g), unorm(b), ONE_F32]
}

/// The depth and stencil a depth/stencil element holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthStencil {
    /// Depth as a float (UNORM depth converted by 3.2.3.5).
    pub depth: f32,
    /// Stencil, for formats that have it.
    pub stencil: Option<u8>,
}

/// Reads a D16_UNORM, D24_UNORM_S8_UINT, D32_FLOAT or D32_FLOAT_S8X24_UINT element.
pub fn decode_depth_stencil(format: Format, bytes: &[u8]) -> Result<DepthStencil> {
    if !format.is_depth() {
        return Err(Error::new("format", format!("{format} is not a depth/stencil format")));
    }
    let texel = TexelCodec::new(format)?.decode(bytes)?;
    let has_stencil = format.info().kind == NumericKind::DepthStencil;
    Ok(DepthStencil {
        depth: f32::from_bits(texel[0]),
        stencil: if has_stencil { Some(texel[1] as u8) } else { None },
    })
}

/// Writes `depth` into a depth/stencil element (its stencil bits kept), quantised per 17.11: +0.5 and truncate for
/// UNORM depth (FLOAT -> UNORM, 3.2.3.6), unchanged for D32_FLOAT. The caller clamps to the viewport range (17.10).
pub fn encode_depth(format: Format, depth: f32, out: &mut [u8]) -> Result<()> {
    if !format.is_depth() {
        return Err(Error::new("format", format!("{format} is not a depth/stencil format")));
    }
    TexelCodec::new(format)?.encode_masked([depth.to_bits(), 0, 0, 0], 0b0001, out)
}

/// Writes `stencil` into a depth/stencil element, keeping its depth bits.
pub fn encode_stencil(format: Format, stencil: u8, out: &mut [u8]) -> Result<()> {
    if format.info().kind != NumericKind::DepthStencil {
        return Err(Error::new("format", format!("{format} has no stencil")));
    }
    TexelCodec::new(format)?.encode_masked([0, u32::from(stencil), 0, 0], 0b0010, out)
}

/// The value a depth test compares for `depth` in a buffer of `format`: converted to the buffer's precision and
/// back (17.11), e.g. round(depth * 65535) / 65535 for D16_UNORM; `depth` itself for D32_FLOAT.
pub fn quantize_depth(format: Format, depth: f32) -> Result<f32> {
    let mut bytes = [0u8; 8];
    encode_depth(format, depth, &mut bytes)?;
    Ok(decode_depth_stencil(format, &bytes)?.depth)
}

/// The words of one texel of a 1x1-element format (see [`TexelCodec::decode`]).
pub fn decode_texel(format: Format, bytes: &[u8]) -> Result<Texel> {
    TexelCodec::new(format)?.decode(bytes)
}

/// Writes one texel of a 1x1-element format (see [`TexelCodec::encode`]).
pub fn encode_texel(format: Format, texel: Texel, out: &mut [u8]) -> Result<()> {
    TexelCodec::new(format)?.encode(texel, out)
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests compute expected values from small constants
mod tests {
    use super::*;

    fn f(value: f32) -> u32 {
        value.to_bits()
    }

    fn decode(format: Format, bytes: &[u8]) -> Texel {
        decode_texel(format, bytes).unwrap()
    }

    fn encode(format: Format, texel: Texel) -> Vec<u8> {
        let codec = TexelCodec::new(format).unwrap();
        let mut out = vec![0u8; codec.element_bytes()];
        codec.encode(texel, &mut out).unwrap();
        out
    }

    #[test]
    fn eight_bit_unorm_snorm_uint_sint_and_srgb_read_per_3_2() {
        // UNORM: code / 255 (3.2.3.5).
        assert_eq!(
            decode(Format::R8G8B8A8Unorm, &[0, 255, 128, 1]),
            [f(0.0), f(1.0), f(128.0 / 255.0), f(1.0 / 255.0)]
        );
        // SNORM: 0x80 and 0x81 are both -1.0, 0x7f is 1.0 (3.2.3.3).
        assert_eq!(
            decode(Format::R8G8B8A8Snorm, &[0x80, 0x81, 0x7f, 0x40]),
            [f(-1.0), f(-1.0), f(1.0), f(64.0 / 127.0)]
        );
        assert_eq!(decode(Format::R8G8B8A8Uint, &[1, 2, 3, 255]), [1, 2, 3, 255]);
        // SINT sign-extends (3.2.3.9): 0xff = -1, 0x80 = -128.
        assert_eq!(
            decode(Format::R8G8B8A8Sint, &[0xff, 0x80, 0x7f, 0]),
            [u32::MAX, (-128i32) as u32, 127, 0]
        );
        // SRGB colour through 3.2.3.7 (128 -> 0.2158605, hand calculation), alpha linear: 128 / 255.
        let texel = decode(Format::R8G8B8A8UnormSrgb, &[255, 0, 128, 128]);
        assert_eq!(texel[0], f(1.0));
        assert_eq!(texel[1], f(0.0));
        assert!((f32::from_bits(texel[2]) - 0.215_860_5).abs() < 1e-6);
        assert_eq!(texel[3], f(128.0 / 255.0));
    }

    #[test]
    fn bgra_formats_swap_into_rgba_and_x_reads_as_one() {
        // B8G8R8A8: byte 0 is blue. B8G8R8X8: the X byte is ignored; alpha is the default 1.0 (19.1.3.3).
        assert_eq!(
            decode(Format::B8G8R8A8Unorm, &[51, 102, 153, 204]),
            [f(153.0 / 255.0), f(102.0 / 255.0), f(51.0 / 255.0), f(204.0 / 255.0)]
        );
        assert_eq!(
            decode(Format::B8G8R8X8Unorm, &[0, 0, 255, 17]),
            [f(1.0), f(0.0), f(0.0), f(1.0)]
        );
        let texel = decode(Format::B8G8R8A8UnormSrgb, &[0, 0, 255, 51]);
        assert_eq!(texel, [f(1.0), f(0.0), f(0.0), f(0.2)]);
    }

    #[test]
    fn missing_components_read_zero_and_alpha_one_in_the_formats_interpretation() {
        // 19.1.3.3's own examples: R16G16_UINT gives B = 0, A = 0x1; R16_SINT gives 0, 0, 0x1;
        // R24_UNORM_X8_TYPELESS gives G = B = 0, A = 1.0f.
        assert_eq!(decode(Format::R16G16Uint, &[1, 0, 2, 0]), [1, 2, 0, 1]);
        assert_eq!(decode(Format::R16Sint, &[0xfe, 0xff]), [(-2i32) as u32, 0, 0, 1]);
        assert_eq!(
            decode(Format::R24UnormX8Typeless, &[0xff, 0xff, 0xff, 0x12]),
            [f(1.0), 0, 0, f(1.0)]
        );
        assert_eq!(decode(Format::R32Float, &[0, 0, 0x80, 0x3f]), [f(1.0), 0, 0, f(1.0)]);
        assert_eq!(decode(Format::R8G8Snorm, &[0x81, 0x7f]), [f(-1.0), f(1.0), 0, f(1.0)]);
        // A8_UNORM: only alpha is stored; 51 / 255 = 0.2.
        assert_eq!(decode(Format::A8Unorm, &[51]), [0, 0, 0, f(0.2)]);
        // X24_TYPELESS_G8_UINT: stencil in G, the first typed component is UINT, so A = 0x1.
        assert_eq!(
            decode(Format::X24TypelessG8Uint, &[0x56, 0x34, 0x12, 0xab]),
            [0, 0xab, 0, 1]
        );
    }

    #[test]
    fn sixteen_and_thirty_two_bit_components_read_exactly() {
        // float16 (3.1.5): 0x3c00 = 1, 0xc000 = -2, 0x0001 = 2^-24 (denormal), 0x7c00 = +inf.
        let bytes: Vec<u8> = [0x3c00u16, 0xc000, 0x0001, 0x7c00]
            .iter()
            .flat_map(|h| h.to_le_bytes())
            .collect();
        assert_eq!(
            decode(Format::R16G16B16A16Float, &bytes),
            [f(1.0), f(-2.0), f(2f32.powi(-24)), f(f32::INFINITY)]
        );
        let bytes: Vec<u8> = [0xffffu16, 0x8000, 0x8001, 0x4000]
            .iter()
            .flat_map(|h| h.to_le_bytes())
            .collect();
        assert_eq!(decode(Format::R16G16B16A16Unorm, &bytes)[0], f(1.0));
        assert_eq!(
            decode(Format::R16G16B16A16Snorm, &bytes),
            [f(-1.0 / 32767.0), f(-1.0), f(-1.0), f(16384.0 / 32767.0)]
        );
        // float32 words pass through untouched, NaN payloads and denormals included (8.20).
        let words = [0x7fc0_0001u32, 0x0000_0001, 0x8000_0000, 0x4049_0fdb];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(decode(Format::R32G32B32A32Float, &bytes), words);
        assert_eq!(
            decode(Format::R32G32B32Uint, &bytes[..12]),
            [words[0], words[1], words[2], 1]
        );
        assert_eq!(decode(Format::R32G32Sint, &bytes[..8]), [words[0], words[1], 0, 1]);
    }

    #[test]
    fn packed_formats_read_their_bit_fields() {
        // R10G10B10A2_UNORM: R = 1023, G = 0, B = 512, A = 1 -> (1, 0, 512/1023, 1/3).
        let word: u32 = 1023 | (512 << 20) | (1 << 30);
        assert_eq!(
            decode(Format::R10G10B10A2Unorm, &word.to_le_bytes()),
            [f(1.0), f(0.0), f(512.0 / 1023.0), f(1.0 / 3.0)]
        );
        assert_eq!(decode(Format::R10G10B10A2Uint, &word.to_le_bytes()), [1023, 0, 512, 1]);
        // R11G11B10_FLOAT: R float11 0x3c0 (e 15, m 0) = 1.0; G 0x420 (e 16, m 32) = 2 * 1.5 = 3.0;
        // B float10 0x1c0 (e 14, m 0) = 0.5; alpha 1.0 (19.3.4).
        let word: u32 = 0x3c0 | (0x420 << 11) | (0x1c0 << 22);
        assert_eq!(
            decode(Format::R11G11B10Float, &word.to_le_bytes()),
            [f(1.0), f(3.0), f(0.5), f(1.0)]
        );
        // R9G9B9E5: 19.3.2.1's example.
        assert_eq!(
            decode(Format::R9G9B9E5Sharedexp, &0x9993_20c8u32.to_le_bytes()),
            [f(6.25), f(12.5), f(3.125), f(1.0)]
        );
        // B5G6R5: R = 31 (bits 11-15), G = 0, B = 1 -> (1, 0, 1/31, 1).
        let word: u16 = (31 << 11) | 1;
        assert_eq!(
            decode(Format::B5G6R5Unorm, &word.to_le_bytes()),
            [f(1.0), f(0.0), f(1.0 / 31.0), f(1.0)]
        );
        // B5G5R5A1: A = 1 (bit 15), R = 0, G = 16 (bits 5-9), B = 0.
        let word: u16 = 0x8000 | (16 << 5);
        assert_eq!(
            decode(Format::B5G5R5A1Unorm, &word.to_le_bytes()),
            [f(0.0), f(16.0 / 31.0), f(0.0), f(1.0)]
        );
        // B4G4R4A4: 0x1234 -> B = 4, G = 3, R = 2, A = 1 (fifteenths). A4B4G4R4: A = 4, B = 3, G = 2, R = 1.
        assert_eq!(
            decode(Format::B4G4R4A4Unorm, &0x1234u16.to_le_bytes()),
            [f(2.0 / 15.0), f(3.0 / 15.0), f(4.0 / 15.0), f(1.0 / 15.0)]
        );
        assert_eq!(
            decode(Format::A4B4G4R4Unorm, &0x1234u16.to_le_bytes()),
            [f(1.0 / 15.0), f(2.0 / 15.0), f(3.0 / 15.0), f(4.0 / 15.0)]
        );
    }

    #[test]
    fn depth_formats_read_depth_as_float_and_stencil_as_uint() {
        assert_eq!(decode(Format::D16Unorm, &[0xff, 0xff]), [f(1.0), 0, 0, f(1.0)]);
        // D24_UNORM_S8_UINT: depth 0x800000 / 0xffffff, stencil 0x80.
        let word: u32 = 0x0080_0000 | (0x80 << 24);
        let depth = decode_depth_stencil(Format::D24UnormS8Uint, &word.to_le_bytes()).unwrap();
        assert_eq!(
            depth,
            DepthStencil {
                depth: 8_388_608.0 / 16_777_215.0,
                stencil: Some(0x80)
            }
        );
        // D32_FLOAT_S8X24_UINT: 0.5 then stencil 7 and 24 unused bits; its two views read (0.5, 0, 0, 1.0f) and
        // (0, 7, 0, 0x1).
        let mut bytes = 0.5f32.to_le_bytes().to_vec();
        bytes.extend([7, 0xaa, 0xbb, 0xcc]);
        assert_eq!(
            decode_depth_stencil(Format::D32FloatS8X24Uint, &bytes).unwrap(),
            DepthStencil {
                depth: 0.5,
                stencil: Some(7)
            }
        );
        assert_eq!(decode(Format::R32FloatX8X24Typeless, &bytes), [f(0.5), 0, 0, f(1.0)]);
        assert_eq!(decode(Format::X32TypelessG8X24Uint, &bytes), [0, 7, 0, 1]);
        assert_eq!(
            decode_depth_stencil(Format::D32Float, &bytes[..4]).unwrap().stencil,
            None
        );
        assert!(decode_depth_stencil(Format::R32Float, &bytes[..4]).is_err());
    }

    #[test]
    fn sub_sampled_pairs_share_red_and_blue() {
        // 19.4: R8G8_B8G8 holds R, G0, B, G1; texel 0 is (R, G0, B), texel 1 (R, G1, B); alpha 1.0.
        let codec = TexelCodec::new(Format::R8G8B8G8Unorm).unwrap();
        assert_eq!(codec.block_size(), (2, 1));
        let u = |v: u32| f(v as f32 / 255.0);
        assert_eq!(
            codec.decode_at(&[10, 20, 30, 40], 0, 0).unwrap(),
            [u(10), u(20), u(30), f(1.0)]
        );
        assert_eq!(
            codec.decode_at(&[10, 20, 30, 40], 1, 0).unwrap(),
            [u(10), u(40), u(30), f(1.0)]
        );
        // G8R8_G8B8 holds G0, R, G1, B.
        let codec = TexelCodec::new(Format::G8R8G8B8Unorm).unwrap();
        assert_eq!(
            codec.decode_at(&[20, 10, 40, 30], 1, 0).unwrap(),
            [u(10), u(40), u(30), f(1.0)]
        );
        assert!(codec.decode_at(&[20, 10, 40, 30], 2, 0).is_err());
        assert!(codec.decode(&[20, 10, 40, 30]).is_err());
    }

    #[test]
    fn block_formats_decode_by_position_or_whole_block() {
        // A BC4 block with red_0 = 255 > red_1 = 0 and texel 5's code 1: 0.0 there, 1.0 elsewhere.
        let codes: u64 = 1 << (3 * 5);
        let c = codes.to_le_bytes();
        let block = [255, 0, c[0], c[1], c[2], c[3], c[4], c[5]];
        let codec = TexelCodec::new(Format::Bc4Unorm).unwrap();
        assert_eq!(codec.block_size(), (4, 4));
        assert_eq!(codec.decode_at(&block, 1, 1).unwrap(), [f(0.0), 0, 0, f(1.0)]);
        assert_eq!(codec.decode_at(&block, 2, 1).unwrap(), [f(1.0), 0, 0, f(1.0)]);
        assert_eq!(codec.decode_block(&block).unwrap()[5][0], f(0.0));
        assert!(codec.decode_at(&block, 4, 0).is_err());
        assert!(codec.decode(&block).is_err());
        assert!(TexelCodec::new(Format::R8Unorm).unwrap().decode_block(&[0]).is_err());
    }

    #[test]
    fn only_typed_formats_with_a_spec_conversion_have_codecs() {
        for &format in Format::ALL {
            let info = format.info();
            let expected = !matches!(info.kind, NumericKind::Typeless | NumericKind::Other)
                && info.layout != Layout::Opaque
                && format != Format::R1Unorm;
            assert_eq!(TexelCodec::new(format).is_ok(), expected, "{format}");
        }
        let error = TexelCodec::new(Format::R8G8B8A8Typeless).unwrap_err();
        assert!(error.detail.contains("typeless"), "{error}");
        assert!(TexelCodec::new(Format::Nv12).is_err());
        assert!(TexelCodec::new(Format::Unknown).is_err());
    }

    #[test]
    fn short_input_is_an_error_not_a_panic() {
        let error = decode_texel(Format::R32G32B32A32Float, &[0; 15]).unwrap_err();
        assert!(error.detail.contains("needs 16 bytes"), "{error}");
        assert!(encode_texel(Format::R16G16Float, [0; 4], &mut [0u8; 3]).is_err());
        assert!(
            TexelCodec::new(Format::Bc7Unorm)
                .unwrap()
                .decode_block(&[0; 8])
                .is_err()
        );
        assert!(decode_depth_stencil(Format::D24UnormS8Uint, &[0; 2]).is_err());
    }

    #[test]
    fn writes_clamp_round_and_send_nan_to_zero() {
        // R8G8B8A8_UNORM: 0.5 -> 127.5 + 0.5 = 128; 1.5 clamps to 255; -1 to 0; NaN to 0 (3.2.3.6).
        assert_eq!(
            encode(Format::R8G8B8A8Unorm, [f(0.5), f(1.5), f(-1.0), f(f32::NAN)]),
            [128, 255, 0, 0]
        );
        // SRGB colour (linear 0.5 -> 188, see convert's tests) and linear alpha 0.5 -> 128.
        assert_eq!(
            encode(Format::R8G8B8A8UnormSrgb, [f(0.5), f(0.0), f(1.0), f(0.5)]),
            [188, 0, 255, 128]
        );
        // SNORM: -1 -> 0x81, -2 clamps to 0x81, 1 -> 0x7f, 0.5 -> 63.5 + 0.5 = 64 (3.2.3.4).
        assert_eq!(
            encode(Format::R8G8B8A8Snorm, [f(-1.0), f(-2.0), f(1.0), f(0.5)]),
            [0x81, 0x81, 0x7f, 64]
        );
        // UINT: 300 -> 255; SINT: -200 -> -128, 200 -> 127, -1 -> 0xff (3.2.3.13).
        assert_eq!(encode(Format::R8G8B8A8Uint, [300, 5, u32::MAX, 0]), [255, 5, 255, 0]);
        assert_eq!(
            encode(Format::R8G8B8A8Sint, [(-200i32) as u32, 200, u32::MAX, 5]),
            [0x80, 0x7f, 0xff, 5]
        );
        // B8G8R8A8: R goes to byte 2.
        assert_eq!(
            encode(Format::B8G8R8A8Unorm, [f(1.0), f(0.0), f(0.0), f(0.0)]),
            [0, 0, 255, 0]
        );
    }

    #[test]
    fn float_writes_round_toward_zero_and_saturate() {
        // float16 (3.2.2): 1 + 3 * 2^-12 truncates to 1.0 (0x3c00); 65519 saturates to 0x7bff; inf stays inf.
        let bytes = encode(
            Format::R16G16B16A16Float,
            [f(1.0 + 3.0 * 2f32.powi(-12)), f(65519.0), f(f32::INFINITY), f(-0.0)],
        );
        assert_eq!(bytes, [0x00, 0x3c, 0xff, 0x7b, 0x00, 0x7c, 0x00, 0x80]);
        // R11G11B10_FLOAT: -1 -> 0 (no sign, 3.1.6); 3.0 -> 0x420; 0.5 -> float10 0x1c0.
        let bytes = encode(Format::R11G11B10Float, [f(-1.0), f(3.0), f(0.5), f(7.0)]);
        assert_eq!(
            u32::from_le_bytes(bytes.try_into().unwrap()),
            (0x420 << 11) | (0x1c0 << 22)
        );
        // float32 words are stored as given.
        assert_eq!(
            encode(Format::R32Float, [0x7fc0_0001, 0, 0, 0]),
            0x7fc0_0001u32.to_le_bytes()
        );
    }

    #[test]
    fn packed_writes_place_each_field() {
        // R10G10B10A2_UNORM: 1 -> 1023; 0.5 -> 511.5 + 0.5 = 512; alpha 0.4 -> 1.2 + 0.5 = 1.
        let bytes = encode(Format::R10G10B10A2Unorm, [f(1.0), f(0.0), f(0.5), f(0.4)]);
        assert_eq!(
            u32::from_le_bytes(bytes.try_into().unwrap()),
            1023 | (512 << 20) | (1 << 30)
        );
        // R10G10B10A2_UINT: 5000 clamps to 1023; alpha 7 clamps to 3.
        let bytes = encode(Format::R10G10B10A2Uint, [5000, 1, 2, 7]);
        assert_eq!(
            u32::from_le_bytes(bytes.try_into().unwrap()),
            1023 | (1 << 10) | (2 << 20) | (3 << 30)
        );
        // B5G6R5: R 1 -> 31 (bits 11-15); G 0.5 -> 31.5 + 0.5 = 32 (bits 5-10); B 0.
        assert_eq!(
            encode(Format::B5G6R5Unorm, [f(1.0), f(0.5), f(0.0), f(1.0)]),
            0xfc00u16.to_le_bytes()
        );
        // R9G9B9E5 (for building data only): the spec's example.
        assert_eq!(
            encode(Format::R9G9B9E5Sharedexp, [f(6.25), f(12.5), f(3.125), 0]),
            0x9993_20c8u32.to_le_bytes()
        );
    }

    #[test]
    fn unused_bits_and_masked_components_keep_their_old_values() {
        // B8G8R8X8: the X byte is not written.
        let codec = TexelCodec::new(Format::B8G8R8X8Unorm).unwrap();
        let mut bytes = [0, 0, 0, 0x5a];
        codec.encode([f(1.0), f(1.0), f(1.0), f(0.0)], &mut bytes).unwrap();
        assert_eq!(bytes, [255, 255, 255, 0x5a]);
        // Write mask R|B (17.15): G and A keep 7 and 9.
        let codec = TexelCodec::new(Format::R8G8B8A8Unorm).unwrap();
        let mut bytes = [1, 7, 3, 9];
        codec
            .encode_masked([f(1.0), f(1.0), f(1.0), f(1.0)], 0b0101, &mut bytes)
            .unwrap();
        assert_eq!(bytes, [255, 7, 255, 9]);
        // Masked writes to a packed format touch only that field's bits: A of R10G10B10A2.
        let codec = TexelCodec::new(Format::R10G10B10A2Unorm).unwrap();
        let mut bytes = 0x3fff_ffffu32.to_le_bytes();
        codec.encode_masked([0, 0, 0, f(1.0)], 0b1000, &mut bytes).unwrap();
        assert_eq!(u32::from_le_bytes(bytes), u32::MAX);
        assert!(
            TexelCodec::new(Format::Bc1Unorm)
                .unwrap()
                .encode([0; 4], &mut [0; 8])
                .is_err()
        );
    }

    #[test]
    fn depth_is_quantised_by_round_to_nearest_and_stencil_is_kept() {
        // 17.11: +0.5 and truncate. D16: 0.5 * 65535 + 0.5 = 32768 = 0x8000.
        let mut bytes = [0u8; 2];
        encode_depth(Format::D16Unorm, 0.5, &mut bytes).unwrap();
        assert_eq!(bytes, [0x00, 0x80]);
        // D24: 0.5 * 16777215 + 0.5 = 8388608 = 0x800000; the stencil byte 0x42 is kept; then stencil 0x17 replaces it.
        let mut bytes = [0, 0, 0, 0x42];
        encode_depth(Format::D24UnormS8Uint, 0.5, &mut bytes).unwrap();
        assert_eq!(bytes, [0x00, 0x00, 0x80, 0x42]);
        encode_stencil(Format::D24UnormS8Uint, 0x17, &mut bytes).unwrap();
        assert_eq!(bytes, [0x00, 0x00, 0x80, 0x17]);
        // D32_FLOAT stores the value itself; D32_FLOAT_S8X24 keeps its stencil and unused bytes.
        let mut bytes = [0, 0, 0, 0, 3, 0xaa, 0xbb, 0xcc];
        encode_depth(Format::D32FloatS8X24Uint, 0.25, &mut bytes).unwrap();
        assert_eq!(bytes[..4], 0.25f32.to_le_bytes());
        assert_eq!(bytes[4..], [3, 0xaa, 0xbb, 0xcc]);
        // The compared value: 1/3 in D16 is round(21845.0) / 65535 (1/3 * 65535 = 21845 exactly).
        assert_eq!(quantize_depth(Format::D16Unorm, 1.0 / 3.0).unwrap(), 21845.0 / 65535.0);
        assert_eq!(quantize_depth(Format::D24UnormS8Uint, 1.0).unwrap(), 1.0);
        assert_eq!(quantize_depth(Format::D32Float, 0.123).unwrap(), 0.123);
        assert!(encode_stencil(Format::D16Unorm, 1, &mut [0; 2]).is_err());
        assert!(encode_depth(Format::R16Unorm, 0.5, &mut [0; 2]).is_err());
    }

    #[test]
    fn what_is_read_writes_back_to_the_same_value() {
        // 19.1.2 data invertibility: decode, encode, decode gives the first decode (NaNs aside), for every plain
        // format and a spread of bit patterns; the bytes come back too (19.1.2.1's SNORM exception aside).
        let patterns: Vec<[u8; 16]> = vec![
            [0; 16],
            [0xff; 16],
            [0x55; 16],
            [0xaa; 16],
            core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11)),
            core::array::from_fn(|i| (i as u8).wrapping_mul(101).wrapping_add(200)),
            [
                0x80, 0x00, 0x81, 0x7f, 0x01, 0x80, 0xff, 0x7f, 0x00, 0x3c, 0xff, 0x7b, 0x12, 0x34, 0x56, 0x78,
            ],
        ];
        for &format in Format::ALL {
            let Ok(codec) = TexelCodec::new(format) else { continue };
            if codec.block_size() != (1, 1) {
                continue;
            }
            let size = codec.element_bytes();
            for pattern in &patterns {
                let bytes = &pattern[..size];
                let first = codec.decode(bytes).unwrap();
                let float = codec.format().info().shader_type == super::super::ShaderType::Float;
                if float && first.iter().any(|&w| f32::from_bits(w).is_nan()) {
                    continue;
                }
                let mut written = bytes.to_vec();
                codec.encode(first, &mut written).unwrap();
                assert_eq!(codec.decode(&written).unwrap(), first, "{format} {bytes:x?}");
                // SNORM's extra -1 code and RGBE's many encodings of one colour (an unnormalised exponent, 19.3.2)
                // come back as the same value in other bits.
                let has_snorm = format
                    .info()
                    .fields()
                    .iter()
                    .any(|field| field.kind == FieldKind::Snorm);
                if !has_snorm && format != Format::R9G9B9E5Sharedexp {
                    assert_eq!(written, bytes, "{format}");
                }
            }
        }
    }
}
