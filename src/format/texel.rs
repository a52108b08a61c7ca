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
use super::table::{Channel, Field, FieldKind, Format, Layout, NumericKind};
use crate::{Error, Result};

/// The four 32-bit words (x, y, z, w) a shader reads from or writes to a texel: f32 bits for float, normalized and
/// depth data, integers for UINT and SINT data.
pub type Texel = [u32; 4];

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
        let unsupported = |why: &str| Err(Error::new("format", format!("{format} {why}")));
        let element_bytes = match info.layout.element_bytes() {
            Some(bytes) => bytes,
            None => return unsupported("has no texel layout (unknown, video, planar or palette format)"),
        };
        match info.kind {
            NumericKind::Typeless => return unsupported("is typeless: a view must give its bits a type"),
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
