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

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests build blocks and expected values from small constants
mod tests {
    use super::*;

    /// Packs fields LSB-first into a 128-bit block, as the BC6H/BC7 layouts are written.
    struct Bits {
        value: u128,
        used: u32,
    }

    impl Bits {
        fn new() -> Bits {
            Bits { value: 0, used: 0 }
        }
        fn put(mut self, value: u32, bits: u32) -> Bits {
            assert!(u64::from(value) < (1u64 << bits));
            self.value |= u128::from(value) << self.used;
            self.used += bits;
            self
        }
        fn block(self) -> [u8; 16] {
            assert_eq!(self.used, 128, "a block is 128 bits");
            self.value.to_le_bytes()
        }
    }

    fn f(value: f32) -> u32 {
        value.to_bits()
    }

    fn unorm8_word(value: u32) -> u32 {
        (value as f32 / 255.0).to_bits()
    }

    fn decode(format: Format, block: &[u8]) -> BlockTexels {
        BcKind::of(format).unwrap().decode(block).unwrap()
    }

    /// A BC1-style colour block: two R5G6B5 endpoints and sixteen 2-bit codes (texel 0 in the lowest bits).
    fn color_block(color_0: u16, color_1: u16, codes: [u8; 16]) -> [u8; 8] {
        let mut packed = 0u32;
        for (i, &code) in codes.iter().enumerate() {
            packed |= u32::from(code) << (2 * i);
        }
        let [a, b] = color_0.to_le_bytes();
        let [c, d] = color_1.to_le_bytes();
        let [i0, i1, i2, i3] = packed.to_le_bytes();
        [a, b, c, d, i0, i1, i2, i3]
    }

    /// A BC4-style block: two endpoint bytes and sixteen 3-bit codes.
    fn value_block(red_0: u8, red_1: u8, codes: [u8; 16]) -> [u8; 8] {
        let mut packed = 0u64;
        for (i, &code) in codes.iter().enumerate() {
            packed |= u64::from(code) << (3 * i);
        }
        let bytes = packed.to_le_bytes();
        [red_0, red_1, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]]
    }

    const CODES_0123: [u8; 16] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3];

    #[test]
    fn bc1_four_colour_block_truncates_its_thirds() {
        // 19.5.6: color_0 = R 2 (5-bit) promotes to (2 << 3) | (2 >> 2) = 16; color_1 = 0. 0x1000 > 0: four colours.
        // color_2 = (2 * 16 + 0) / 3 = 10.67 -> 10 (integer division), color_3 = 16 / 3 = 5.33 -> 5. Alpha 1.0.
        let texels = decode(Format::Bc1Unorm, &color_block(0x1000, 0x0000, CODES_0123));
        let expected_red = [16, 0, 10, 5];
        for (i, texel) in texels.iter().enumerate() {
            assert_eq!(*texel, [unorm8_word(expected_red[i % 4]), 0, 0, f(1.0)], "texel {i}");
        }
    }

    #[test]
    fn bc1_pure_endpoints_interpolate_in_thirds() {
        // Red 0xf800 promotes to (255, 0, 0), blue 0x001f to (0, 0, 255); 0xf800 > 0x001f: four colours.
        // color_2 = (510/3, 0, 255/3) = (170, 0, 85); color_3 = (85, 0, 170).
        let texels = decode(Format::Bc1Unorm, &color_block(0xf800, 0x001f, CODES_0123));
        let expected = [[255, 0, 0], [0, 0, 255], [170, 0, 85], [85, 0, 170]];
        for (i, texel) in texels.iter().enumerate() {
            let [r, g, b] = expected[i % 4];
            assert_eq!(
                *texel,
                [unorm8_word(r), unorm8_word(g), unorm8_word(b), f(1.0)],
                "texel {i}"
            );
        }
        // A mid-green endpoint: G 32 (6-bit) promotes to (32 << 2) | (32 >> 4) = 130.
        let texels = decode(Format::Bc1Unorm, &color_block(32 << 5, 0, [0; 16]));
        assert_eq!(texels[0][1], unorm8_word(130));
    }

    #[test]
    fn bc1_three_colour_block_halves_and_has_transparent_black() {
        // color_0 = 0x001f (blue) <= color_1 = 0xf800 (red): color_2 = ((0 + 255) / 2, 0, (255 + 0) / 2) = (127, 0,
        // 127), truncated; code 3 is (0, 0, 0) with alpha 0.
        let texels = decode(Format::Bc1Unorm, &color_block(0x001f, 0xf800, CODES_0123));
        assert_eq!(texels[0], [0, 0, unorm8_word(255), f(1.0)]);
        assert_eq!(texels[1], [unorm8_word(255), 0, 0, f(1.0)]);
        assert_eq!(texels[2], [unorm8_word(127), 0, unorm8_word(127), f(1.0)]);
        assert_eq!(texels[3], [0, 0, 0, 0]);
        // Equal endpoints are a three-colour block too (color_0 > color_1 is false).
        let texels = decode(Format::Bc1Unorm, &color_block(0xffff, 0xffff, [3; 16]));
        assert_eq!(texels[5], [0, 0, 0, 0]);
    }

    #[test]
    fn bc1_srgb_linearizes_colour_but_not_alpha() {
        // The palette entry 127 goes through 3.2.3.7: ((127/255 + 0.055) / 1.055)^2.4 = 0.2122307 (hand calculation);
        // 255 is exactly 1.0; alpha of the transparent code stays 0.
        let texels = decode(Format::Bc1UnormSrgb, &color_block(0x001f, 0xf800, CODES_0123));
        assert_eq!(texels[0][2], f(1.0));
        let red = f32::from_bits(texels[2][0]);
        assert!((red - 0.212_230_7).abs() < 1e-6, "{red}");
        assert_eq!(texels[2][3], f(1.0));
        assert_eq!(texels[3], [0, 0, 0, 0]);
    }

    #[test]
    fn bc2_has_explicit_alpha_and_always_four_colours() {
        // 19.5.7: 4-bit alpha per texel, texel i holding i here, reads i / 15. The colour endpoints 0x0000 <= 0xffff
        // would be a three-colour BC1 block, but BC2 is always four-colour: code 2 = (2 * 0 + 255) / 3 = 85 in each
        // channel (G: 63 promotes to 255 as well).
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&0xfedc_ba98_7654_3210u64.to_le_bytes());
        block[8..].copy_from_slice(&color_block(0x0000, 0xffff, [2; 16]));
        let texels = decode(Format::Bc2Unorm, &block);
        for (i, texel) in texels.iter().enumerate() {
            let rgb = unorm8_word(85);
            assert_eq!(*texel, [rgb, rgb, rgb, (i as f32 / 15.0).to_bits()], "texel {i}");
        }
    }

    #[test]
    fn bc3_alpha_interpolates_in_sevenths_and_fifths() {
        // 19.5.8/19.5.9: alpha_0 = 200 > alpha_1 = 100: code 2 = (6 * 200/255 + 100/255) / 7 = 1300/1785 (f32
        // arithmetic, so compared to 1e-7); codes 0 and 1 are 200/255 and 100/255 exactly.
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&value_block(200, 100, [0, 1, 2, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        block[8..].copy_from_slice(&color_block(0xffff, 0x0000, [0; 16]));
        let texels = decode(Format::Bc3Unorm, &block);
        assert_eq!(texels[0], [f(1.0), f(1.0), f(1.0), unorm8_word(200)]);
        assert_eq!(texels[1][3], unorm8_word(100));
        assert!((f32::from_bits(texels[2][3]) - 1300.0 / 1785.0).abs() < 1e-7);
        // code 7 = (200 + 6 * 100) / 7 / 255 = 800 / 1785.
        assert!((f32::from_bits(texels[3][3]) - 800.0 / 1785.0).abs() < 1e-7);
        // alpha_0 = 100 <= alpha_1 = 200: six values; codes 6 and 7 are exactly 0.0 and 1.0.
        block[..8].copy_from_slice(&value_block(100, 200, [6, 7, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        let texels = decode(Format::Bc3Unorm, &block);
        assert_eq!(texels[0][3], f(0.0));
        assert_eq!(texels[1][3], f(1.0));
        // code 2 = (4 * 100 + 200) / 5 / 255 = 600 / 1275.
        assert!((f32::from_bits(texels[2][3]) - 600.0 / 1275.0).abs() < 1e-7);
    }

    #[test]
    fn bc4_unorm_reads_red_with_zero_green_blue_and_unit_alpha() {
        // red_0 = 0 <= red_1 = 255: six values; code 2 = (4 * 0 + 1.0) / 5 = 0.2 (one f32 division).
        let texels = decode(
            Format::Bc4Unorm,
            &value_block(0, 255, [0, 1, 2, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        );
        assert_eq!(texels[0], [f(0.0), 0, 0, f(1.0)]);
        assert_eq!(texels[1], [f(1.0), 0, 0, f(1.0)]);
        assert_eq!(texels[2], [f(1.0 / 5.0), 0, 0, f(1.0)]);
        assert_eq!(texels[3][0], f(0.0));
        assert_eq!(texels[4][0], f(1.0));
    }

    #[test]
    fn bc4_snorm_compares_the_raw_signed_bytes() {
        // 19.5.10: red_0 = 0x81 (-127) > red_1 = 0x80 (-128) as signed bytes: an eight-value block. Both read -1.0
        // (3.2.3.3), so every code, 7 included, is -1.0; a six-value block would make code 7 +1.0.
        let texels = decode(
            Format::Bc4Snorm,
            &value_block(0x81, 0x80, [7, 6, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        );
        assert_eq!(texels[0][0], f(-1.0));
        assert_eq!(texels[1][0], f(-1.0));
        assert_eq!(texels[2][0], f(-1.0));
        // red_0 = 127 (1.0) > red_1 = -127 (-1.0): code 2 = (6 - 1) / 7 = 5/7, code 7 = (1 - 6) / 7 = -5/7.
        let texels = decode(
            Format::Bc4Snorm,
            &value_block(0x7f, 0x81, [2, 7, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        );
        assert_eq!(texels[0][0], f(5.0 / 7.0));
        assert_eq!(texels[1][0], f(-5.0 / 7.0));
        assert_eq!(texels[2][0], f(1.0));
        assert_eq!(texels[3][0], f(-1.0));
        // red_0 = -127 <= red_1 = 127: six values; codes 6 and 7 are -1.0 and 1.0, code 2 = (4 * -1 + 1) / 5 = -0.6.
        let texels = decode(
            Format::Bc4Snorm,
            &value_block(0x81, 0x7f, [6, 7, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        );
        assert_eq!(texels[0][0], f(-1.0));
        assert_eq!(texels[1][0], f(1.0));
        assert_eq!(texels[2][0], f(-3.0 / 5.0));
    }

    #[test]
    fn bc5_decodes_red_and_green_independently() {
        // Red from the first 8 bytes, green from the second; blue 0, alpha 1.0 (19.1.3.3).
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&value_block(255, 0, [1; 16]));
        block[8..].copy_from_slice(&value_block(255, 0, [0; 16]));
        let texels = decode(Format::Bc5Unorm, &block);
        assert_eq!(texels[9], [f(0.0), f(1.0), 0, f(1.0)]);
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&value_block(0x80, 0x7f, [0; 16]));
        block[8..].copy_from_slice(&value_block(0x7f, 0x80, [1; 16]));
        let texels = decode(Format::Bc5Snorm, &block);
        assert_eq!(texels[0], [f(-1.0), f(-1.0), 0, f(1.0)]);
    }

    #[test]
    fn bc7_mode_6_interpolates_rgba_with_p_bits() {
        // 19.5.14.4.7: mode 6 is bit 6 set; 7-bit R0 R1 G0 G1 B0 B1 A0 A1, P0, P1, then 4-bit indices (texel 0: 3).
        // e0 = (127, 0, 64, 127) << 1 | P0=1 = (255, 1, 129, 255); e1 = (0, 127, 32, 0) << 1 | P1=0 = (0, 254, 64, 0).
        let mut bits = Bits::new().put(1 << 6, 7);
        for value in [127, 0, 0, 127, 64, 32, 127, 0] {
            bits = bits.put(value, 7);
        }
        bits = bits.put(1, 1).put(0, 1).put(0, 3).put(15, 4).put(8, 4);
        for _ in 3..16 {
            bits = bits.put(0, 4);
        }
        let texels = decode(Format::Bc7Unorm, &bits.block());
        let rgba = |v: [u32; 4]| v.map(unorm8_word);
        assert_eq!(texels[0], rgba([255, 1, 129, 255]));
        assert_eq!(texels[1], rgba([0, 254, 64, 0]));
        // Index 8 has weight 34: ((64 - 34) * e0 + 34 * e1 + 32) >> 6 per channel:
        // R (7650 + 32) >> 6 = 120; G (30 + 8636 + 32) >> 6 = 135; B (3870 + 2176 + 32) >> 6 = 94; A = 120.
        assert_eq!(texels[2], rgba([120, 135, 94, 120]));
        assert_eq!(texels[15], rgba([255, 1, 129, 255]));
    }

    #[test]
    fn bc7_mode_4_rotates_the_separate_scalar_channel() {
        // 19.5.14.4.5: mode 4 (bit 4), rotation 01 (swap A and R), index selector 0 (colour uses the 2-bit indices,
        // alpha the 3-bit ones). 5-bit R0 = 31 -> 255, R1 = 0; 6-bit A0 = 0, A1 = 63 -> 255.
        let mut bits = Bits::new().put(1 << 4, 5).put(1, 2).put(0, 1);
        for value in [31, 0, 0, 0, 0, 0] {
            bits = bits.put(value, 5);
        }
        bits = bits.put(0, 6).put(63, 6);
        // 2-bit indices: texel 0 (1 bit) = 0, texel 1 = 3, texel 2 = 1, the rest 0.
        bits = bits.put(0, 1).put(3, 2).put(1, 2);
        for _ in 3..16 {
            bits = bits.put(0, 2);
        }
        // 3-bit indices: texel 0 (2 bits) = 0, texel 1 = 7, texel 2 = 3.
        bits = bits.put(0, 2).put(7, 3).put(3, 3);
        for _ in 3..16 {
            bits = bits.put(0, 3);
        }
        let texels = decode(Format::Bc7Unorm, &bits.block());
        let rgba = |v: [u32; 4]| v.map(unorm8_word);
        // Before rotation texel 0 = (255, 0, 0, 0) and texel 1 = (0, 0, 0, 255); the rotation swaps R and A.
        assert_eq!(texels[0], rgba([0, 0, 0, 255]));
        assert_eq!(texels[1], rgba([255, 0, 0, 0]));
        // Texel 2: R with weight 21 = (43 * 255 + 32) >> 6 = 171; A with weight 27 = (27 * 255 + 32) >> 6 = 108.
        assert_eq!(texels[2], rgba([108, 0, 0, 171]));
    }

    #[test]
    fn bc7_mode_1_uses_the_partition_and_shared_p_bits() {
        // 19.5.14.4.2: mode 1 (bit 1), partition 0 (x < 2 is subset 0, x >= 2 subset 1; subset 1's fix-up is texel
        // 15), 6-bit endpoints R e0..e3, G e0..e3, B e0..e3, shared P-bits (subset 0: 1, subset 1: 0), 3-bit indices.
        // Subset 0: e0 = (63, 0, 0), e1 = 0 with P = 1: 7-bit (127, 1, 1) and (1, 1, 1), MSB-replicated to 8 bits:
        // (255, 2, 2) and (2, 2, 2). Subset 1: e2 = (0, 63, 0), e3 = 0 with P = 0: (0, 253, 0) and (0, 0, 0).
        let mut bits = Bits::new().put(0b10, 2).put(0, 6);
        for value in [63, 0, 0, 0, 0, 0, 63, 0, 0, 0, 0, 0] {
            bits = bits.put(value, 6);
        }
        bits = bits.put(1, 1).put(0, 1);
        let indices = [0u32, 4, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        for (texel, &index) in indices.iter().enumerate() {
            let width = if texel == 0 || texel == 15 { 2 } else { 3 };
            bits = bits.put(index, width);
        }
        let texels = decode(Format::Bc7Unorm, &bits.block());
        let rgba = |v: [u32; 4]| v.map(unorm8_word);
        assert_eq!(texels[0], rgba([255, 2, 2, 255]));
        // Texel 1, index 4 (weight 37): R = (27 * 255 + 37 * 2 + 32) >> 6 = 109; G = B = (27*2 + 37*2 + 32) >> 6 = 2.
        assert_eq!(texels[1], rgba([109, 2, 2, 255]));
        // Texel 2 (subset 1), index 7 (weight 64): e3.
        assert_eq!(texels[2], rgba([0, 0, 0, 255]));
        // Texel 15 (subset 1 fix-up), index 0: e2.
        assert_eq!(texels[15], rgba([0, 253, 0, 255]));
    }

    #[test]
    fn bc7_reserved_mode_8_is_all_zero() {
        // 19.5.14.4.8: no mode bit in the first byte: every channel 0, alpha included.
        let texels = decode(Format::Bc7Unorm, &[0u8; 16]);
        assert!(texels.iter().all(|t| *t == [0, 0, 0, 0]));
    }

    /// A BC6H mode 11 block (19.5.13.3 "10.10", mode bits 00011): raw 10-bit endpoints W and X per channel, then
    /// 4-bit indices (texel 0: 3 bits).
    fn bc6h_mode_11(w: [u32; 3], x: [u32; 3], indices: [u32; 16]) -> [u8; 16] {
        let mut bits = Bits::new().put(0b00011, 5);
        for value in w.into_iter().chain(x) {
            bits = bits.put(value, 10);
        }
        for (texel, &index) in indices.iter().enumerate() {
            bits = bits.put(index, if texel == 0 { 3 } else { 4 });
        }
        bits.block()
    }

    fn half(bits: u16) -> u32 {
        f16_to_f32(bits).to_bits()
    }

    #[test]
    fn bc6h_unsigned_mode_11_unquantizes_interpolates_and_scales() {
        // Unquantize (19.5.13.9, 10 bits): 1023 -> 0xffff; 0 -> 0; 512 -> ((512 << 16) + 0x8000) >> 10 = 32800;
        // 1 -> (65536 + 32768) >> 10 = 96. finish_unquantize (19.5.13.10): (c * 31) >> 6.
        let block = bc6h_mode_11(
            [1023, 512, 1],
            [0, 0, 1023],
            [0, 15, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        );
        let texels = decode(Format::Bc6hUf16, &block);
        // Texel 0 = endpoint W: R 65535 * 31 >> 6 = 31743 = 0x7bff; G 32800 * 31 >> 6 = 15887 = 0x3e0f;
        // B 96 * 31 >> 6 = 46 = 0x002e (a float16 denormal). Alpha 1.0.
        assert_eq!(texels[0], [half(0x7bff), half(0x3e0f), half(0x002e), f(1.0)]);
        assert_eq!(f32::from_bits(texels[0][0]), 65504.0);
        // Texel 1, index 15 (weight 64) = endpoint X: (0, 0, 0x7bff).
        assert_eq!(texels[1], [half(0), half(0), half(0x7bff), f(1.0)]);
        // Texel 2, index 8 (weight 34): R = (65535 * 30 + 32) >> 6 = 30720; * 31 >> 6 = 14880 = 0x3a20 (0.765625).
        assert_eq!(f32::from_bits(texels[2][0]), 0.765_625);
    }

    #[test]
    fn bc6h_signed_mode_11_sign_extends_and_keeps_the_sign() {
        // SF16: W is sign-extended to 10 bits (19.5.13.6): 1023 -> -1, 512 -> -512, 1 -> 1.
        // Unquantize: -1 -> -(((1 << 15) + 0x4000) >> 9) = -96; -512 reaches 2^9 - 1 -> -0x7fff; 1 -> 96.
        // finish_unquantize: magnitude * 31 >> 5, sign in bit 15: -96 -> 0x805d; -0x7fff -> 0xfbff; 96 -> 0x005d.
        let block = bc6h_mode_11([1023, 512, 1], [0, 0, 0], [0; 16]);
        let texels = decode(Format::Bc6hSf16, &block);
        assert_eq!(texels[0], [half(0x805d), half(0xfbff), half(0x005d), f(1.0)]);
        assert_eq!(f32::from_bits(texels[0][1]), -65504.0);
    }

    #[test]
    fn bc6h_transformed_endpoints_wrap_within_the_base_precision() {
        // Mode 12 ("11.9", mode bits 00111): rw[9:0] gw[9:0] bw[9:0] rx[8:0] rw[10] gx[8:0] gw[10] bx[8:0] bw[10]
        // (19.5.13.5). R: W = 2047, delta X = +1: (2047 + 1) & 0x7ff = 0 (19.5.13.7's wrap). G: W = 0, delta 0x1ff
        // (-1): 0x7ff. B: W = 100, delta 0: 100.
        let mut bits = Bits::new()
            .put(0b00111, 5)
            .put(2047 & 0x3ff, 10)
            .put(0, 10)
            .put(100, 10);
        bits = bits.put(1, 9).put(1, 1).put(0x1ff, 9).put(0, 1).put(0, 9).put(0, 1);
        bits = bits.put(0, 3).put(15, 4);
        for _ in 2..16 {
            bits = bits.put(0, 4);
        }
        let texels = decode(Format::Bc6hUf16, &bits.block());
        // Unquantize at 11 bits: 2047 -> 0xffff, 0 -> 0, 100 -> ((100 << 16) + 0x8000) >> 11 = 3216.
        // finish: 0xffff -> 0x7bff; 3216 * 31 >> 6 = 1557 = 0x0615.
        assert_eq!(texels[0], [half(0x7bff), half(0), half(0x0615), f(1.0)]);
        assert_eq!(texels[1], [half(0), half(0x7bff), half(0x0615), f(1.0)]);
    }

    #[test]
    fn bc6h_reserved_modes_give_zero_colour_and_unit_alpha() {
        // 19.5.13.3: mode 10011 is reserved: R, G, B are 0, alpha 1.0.
        let mut block = [0xffu8; 16];
        block[0] = 0b0001_0011;
        let texels = decode(Format::Bc6hUf16, &block);
        assert!(texels.iter().all(|t| *t == [0, 0, 0, f(1.0)]));
    }

    #[test]
    fn a_short_block_is_an_error() {
        assert!(BcKind::of(Format::Bc1Unorm).unwrap().decode(&[0u8; 7]).is_err());
        assert!(BcKind::of(Format::Bc7Unorm).unwrap().decode(&[0u8; 15]).is_err());
        assert!(BcKind::of(Format::Bc3Unorm).unwrap().decode(&[0u8; 12]).is_err());
        assert!(BcKind::of(Format::Bc1Typeless).is_none());
    }
}
