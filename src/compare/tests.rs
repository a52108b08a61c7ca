//! Tests of the comparison on small hand-made images; every expected value is worked out in the comments.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::*;
use crate::format::{DisplayMapping, Format};

/// Bytes of RGBA8 pixels.
fn rgba8(pixels: &[[u8; 4]]) -> Vec<u8> {
    pixels.iter().flatten().copied().collect()
}

/// Bytes of R32G32B32A32 pixels given as raw words.
fn rgba32(pixels: &[[u32; 4]]) -> Vec<u8> {
    pixels.iter().flatten().flat_map(|w| w.to_le_bytes()).collect()
}

/// Bytes of R16G16B16A16_FLOAT pixels given as raw halves.
fn rgba16(pixels: &[[u16; 4]]) -> Vec<u8> {
    pixels.iter().flatten().flat_map(|w| w.to_le_bytes()).collect()
}

/// Bytes of 32-bit elements (R32_UINT, D24_UNORM_S8_UINT, R11G11B10_FLOAT).
fn words(elements: &[u32]) -> Vec<u8> {
    elements.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A D24_UNORM_S8_UINT element: depth code in bits 0..24, stencil in 24..32.
fn d24s8(depth: u32, stencil: u32) -> u32 {
    depth | stencil << 24
}

/// An R11G11B10_FLOAT element from the three raw fields (R bits 0..11, G 11..22, B 22..32).
fn r11g11b10(r: u32, g: u32, b: u32) -> u32 {
    r | g << 11 | b << 22
}

/// The float16 bits of `value`, from the `half` crate (independent of our conversions).
fn h(value: f32) -> u16 {
    half::f16::from_f32(value).to_bits()
}

fn image(format: Format, width: u32, height: u32, data: &[u8]) -> Image<'_> {
    Image::new(format, width, height, data).unwrap()
}

fn run(format: Format, width: u32, height: u32, reference: &[u8], result: &[u8], tolerance: Tolerance) -> Comparison {
    compare(
        &image(format, width, height, reference),
        &image(format, width, height, result),
        &CompareOptions::new(tolerance),
    )
    .unwrap()
}

/// Every channel within the given thresholds, nothing else.
fn thresholds(abs: f64, rel: f64, ulp: u64) -> Tolerance {
    Tolerance {
        channels: [ChannelTolerance {
            compare: true,
            exact: false,
            abs,
            rel,
            ulp,
        }; 4],
        position: 0,
    }
}

fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() <= 1e-12 * expected.abs().max(1.0)
}

// ---------------------------------------------------------------------------------------------------------------
// Exact and thresholds

#[test]
fn exact_mode_counts_any_bit_difference_and_the_default_allows_one_unorm_code() {
    // 2x2 RGBA8: pixel (1, 1) has G one code off.
    let reference = rgba8(&[[10, 20, 30, 255]; 4]);
    let mut result = reference.clone();
    result[3 * 4 + 1] = 21;
    let exact = run(Format::R8G8B8A8Unorm, 2, 2, &reference, &result, Tolerance::exact());
    assert_eq!(exact.report.compared_pixels, 4);
    assert_eq!(exact.report.differing_pixels, 1);
    assert!(!exact.report.matches);
    assert_eq!(exact.class_at(1, 1), Some(PixelClass::Differs));
    let default = run(
        Format::R8G8B8A8Unorm,
        2,
        2,
        &reference,
        &result,
        Tolerance::for_format(Format::R8G8B8A8Unorm),
    );
    assert!(default.report.matches);
    // Two codes off is past the default.
    result[3 * 4 + 1] = 22;
    let default = run(
        Format::R8G8B8A8Unorm,
        2,
        2,
        &reference,
        &result,
        Tolerance::for_format(Format::R8G8B8A8Unorm),
    );
    assert_eq!(default.report.differing_pixels, 1);
}

#[test]
fn absolute_and_relative_thresholds_on_float32() {
    // Pixel 0 R: 1.0 vs 1 + 2^-10 (both exact in f32): |d| = 0.0009765625.
    // Pixel 1 R: 100.0 vs 100.5: |d| = 0.5, relative to the larger magnitude 0.5 / 100.5 = 0.004975...
    let one = 1.0f32.to_bits();
    let reference = rgba32(&[[one, 0, 0, 0], [100.0f32.to_bits(), 0, 0, 0]]);
    let result = rgba32(&[
        [(1.0f32 + 1.0 / 1024.0).to_bits(), 0, 0, 0],
        [100.5f32.to_bits(), 0, 0, 0],
    ]);
    let f = Format::R32G32B32A32Float;
    // abs 1e-3 accepts pixel 0 (0.000977 <= 0.001) but not pixel 1.
    let t = run(f, 2, 1, &reference, &result, thresholds(1e-3, 0.0, 0));
    assert_eq!(t.classes(), &[PixelClass::Match, PixelClass::Differs]);
    // abs 9e-4 accepts neither.
    assert_eq!(
        run(f, 2, 1, &reference, &result, thresholds(9e-4, 0.0, 0))
            .report
            .differing_pixels,
        2
    );
    // rel 5e-3: pixel 1 passes (0.5 <= 0.005 * 100.5 = 0.5025); pixel 0 too (0.000977 <= 0.005 * 1.000977).
    assert!(
        run(f, 2, 1, &reference, &result, thresholds(0.0, 5e-3, 0))
            .report
            .matches
    );
    // rel 4.9e-3: 0.0049 * 100.5 = 0.49245 < 0.5 fails pixel 1; pixel 0 still passes (0.000977 <= 0.0049).
    let t = run(f, 2, 1, &reference, &result, thresholds(0.0, 4.9e-3, 0));
    assert_eq!(t.classes(), &[PixelClass::Match, PixelClass::Differs]);
    // Max abs error 0.5 (pixel 1), mean (2^-10 + 0.5) / 2.
    let r = &t.report.channels[0];
    assert_eq!(r.max_abs_error, 0.5);
    assert!(close(r.mean_abs_error, (1.0 / 1024.0 + 0.5) / 2.0));
}

#[test]
fn float32_ulps_scale_with_magnitude() {
    // 1.0 = 0x3f800000; 0x3f800003 is 3 ULP above, an ULP being 2^-23 there: |d| = 3 * 2^-23.
    // 1024.0 = 0x44800000; 0x44800003 is 3 ULP above, an ULP being 2^(10-23) = 2^-13: |d| = 3 * 2^-13.
    // 1.0 and the largest float below it, 0x3f7fffff = 1 - 2^-24, are 1 ULP apart across the binade boundary.
    // -0 (0x80000000) and the smallest positive denormal 0x00000001 are 1 apart; -denormal and +denormal 2.
    let reference = rgba32(&[[0x3f80_0000, 0x4480_0000, 0x3f80_0000, 0x8000_0001]]);
    let result = rgba32(&[[0x3f80_0003, 0x4480_0003, 0x3f7f_ffff, 0x0000_0001]]);
    let f = Format::R32G32B32A32Float;
    let t = run(f, 1, 1, &reference, &result, thresholds(0.0, 0.0, 3));
    assert!(t.report.matches);
    let ulps: Vec<u64> = t.report.channels.iter().map(|c| c.max_ulp_error).collect();
    assert_eq!(ulps, [3, 3, 1, 2]);
    assert_eq!(t.report.channels[0].max_abs_error, 3.0 * 2f64.powi(-23));
    assert_eq!(t.report.channels[1].max_abs_error, 3.0 * 2f64.powi(-13));
    assert_eq!(t.report.channels[2].max_abs_error, 2f64.powi(-24));
    // ulp=2 rejects the two 3-ULP channels; the default (4 ULP) accepts all.
    let t = run(f, 1, 1, &reference, &result, thresholds(0.0, 0.0, 2));
    assert_eq!(
        t.report.channels.iter().map(|c| c.differing_pixels).collect::<Vec<_>>(),
        [1, 1, 0, 0]
    );
    assert!(
        run(f, 1, 1, &reference, &result, Tolerance::for_format(f))
            .report
            .matches
    );
    // precision_bits of R: relative error 3 * 2^-23 / (1 + 3 * 2^-23); -log2 of it, below the 24-bit cap.
    let rel = 3.0 * 2f64.powi(-23) / (1.0 + 3.0 * 2f64.powi(-23));
    assert!(close(t.report.channels[0].precision_bits, -rel.log2()));
}

#[test]
fn float16_ulps_at_one_and_at_2048() {
    // float16 has 10 mantissa bits: at 1.0 an ULP is 2^-10, at 2048 = 2^11 it is 2^(11-10) = 2.
    // 1.0 vs 1.001953125 (1 + 2/1024) is 2 ULP; 2048 vs 2052 is 2 ULP; 0.5 vs 0.5 + 2^-11 is 1 ULP.
    let reference = rgba16(&[[h(1.0), h(2048.0), h(0.5), h(-3.0)]]);
    let result = rgba16(&[[h(1.001_953_1), h(2052.0), h(0.500_488_3), h(-3.0)]]);
    assert_eq!(h(2052.0), 0x6802);
    let f = Format::R16G16B16A16Float;
    let t = run(f, 1, 1, &reference, &result, thresholds(0.0, 0.0, 1));
    let ulps: Vec<u64> = t.report.channels.iter().map(|c| c.max_ulp_error).collect();
    assert_eq!(ulps, [2, 2, 1, 0]);
    assert_eq!(t.report.channels[1].max_abs_error, 4.0);
    // The default float16 tolerance is 1 ULP: R and G differ, so the pixel does.
    let t = run(f, 1, 1, &reference, &result, Tolerance::for_format(f));
    assert_eq!(t.report.differing_pixels, 1);
    assert_eq!(
        t.report.channels.iter().map(|c| c.differing_pixels).collect::<Vec<_>>(),
        [1, 1, 0, 0]
    );
    // Exact match in A: the precision cap, 11 significand bits.
    assert_eq!(t.report.channels[3].precision_bits, 11.0);
}

#[test]
fn r11g11b10_ulps_follow_the_small_float_layouts() {
    // float11: 5 exponent bits over 6 mantissa bits, bias 15. 1.0 = 15 << 6 = 0x3c0; 0x3c1 = 1 + 1/64 (1 ULP).
    // 4.0 = 17 << 6 = 0x440; 0x441 = 4 + 4/64 = 4.0625 (1 ULP, 0.0625).
    // float10: 1.0 = 15 << 5 = 0x1e0; 0x1e2 = 1 + 2/32 (2 ULP, 0.0625).
    let reference = words(&[r11g11b10(0x3c0, 0x440, 0x1e0)]);
    let result = words(&[r11g11b10(0x3c1, 0x441, 0x1e2)]);
    let f = Format::R11G11B10Float;
    let t = run(f, 1, 1, &reference, &result, Tolerance::for_format(f));
    let stats = &t.report.channels;
    assert_eq!(stats.iter().map(|c| c.max_ulp_error).collect::<Vec<_>>(), [1, 1, 2]);
    assert_eq!(
        stats.iter().map(|c| c.max_abs_error).collect::<Vec<_>>(),
        [1.0 / 64.0, 0.0625, 0.0625]
    );
    // Default 1 ULP: only B is out.
    assert_eq!(stats.iter().map(|c| c.differing_pixels).collect::<Vec<_>>(), [0, 0, 1]);
    // B's relative error 0.0625 / 1.0625: precision -log2 = log2(17) = 4.09 bits (of 6).
    assert!(close(stats[2].precision_bits, 17f64.log2()));
}

#[test]
fn srgb_errors_are_codes_in_ulps_and_linear_values_in_abs() {
    // Codes 200 and 201: 1 ULP. Their linear values from the sRGB curve (3.2.3.7), computed here in f64.
    let linear = |code: f64| ((code / 255.0 + 0.055) / 1.055f64).powf(2.4);
    let reference = rgba8(&[[200, 0, 0, 255]]);
    let result = rgba8(&[[201, 0, 0, 255]]);
    let t = run(
        Format::R8G8B8A8UnormSrgb,
        1,
        1,
        &reference,
        &result,
        thresholds(0.0, 0.0, 1),
    );
    assert!(t.report.matches);
    assert_eq!(t.report.channels[0].max_ulp_error, 1);
    // The stored decode is the nearest f32 to the curve: within 1e-7 of the f64 difference.
    assert!((t.report.channels[0].max_abs_error - (linear(201.0) - linear(200.0))).abs() < 1e-7);
}

// ---------------------------------------------------------------------------------------------------------------
// NaN, signed zero, infinities, equivalent encodings

#[test]
fn nans_match_any_nan_signed_zeros_match_and_infinities_only_themselves() {
    let f = Format::R32G32B32A32Float;
    // R: two NaNs of different sign and payload; G: +0 vs -0; B: +inf vs +inf; A: 1.0 vs 1.0.
    let reference = rgba32(&[[0x7fc0_0000, 0x0000_0000, 0x7f80_0000, 0x3f80_0000]]);
    let result = rgba32(&[[0xffc0_0001, 0x8000_0000, 0x7f80_0000, 0x3f80_0000]]);
    let t = run(f, 1, 1, &reference, &result, Tolerance::for_format(f));
    assert!(t.report.matches);
    assert!(
        t.report
            .channels
            .iter()
            .all(|c| c.max_ulp_error == 0 && c.max_abs_error == 0.0)
    );
    // Exact mode compares bits: the NaN payloads and the zero signs differ.
    let t = run(f, 1, 1, &reference, &result, Tolerance::exact());
    assert_eq!(
        t.report.channels.iter().map(|c| c.differing_pixels).collect::<Vec<_>>(),
        [1, 1, 0, 0]
    );

    // +inf vs the largest finite float (0x7f7fffff) is a mismatch, not "1 ULP"; NaN vs 1.0 too.
    let reference = rgba32(&[[0x7f80_0000, 0x7fc0_0000, 0xff80_0000, 0]]);
    let result = rgba32(&[[0x7f7f_ffff, 0x3f80_0000, 0x7f80_0000, 0]]);
    let t = run(f, 1, 1, &reference, &result, thresholds(1e30, 1.0, 1 << 40));
    assert_eq!(t.report.differing_pixels, 1);
    for stats in &t.report.channels[..3] {
        assert_eq!(stats.non_finite_mismatches, 1);
        assert_eq!(stats.precision_bits, 0.0);
        assert_eq!(stats.max_ulp_error, 0);
    }
    let listed = &t.report.first_differences[0].channels;
    assert_eq!(listed[0].ulps, None);
    assert!(listed[1].reference.is_nan() && listed[1].result == 1.0);
    // The heatmap marks the non-finite mismatch magenta.
    assert_eq!(t.heatmap_rgba8(t.default_heatmap_scale()), render::NAN_COLOR);
}

#[test]
fn float16_nans_and_zeros_follow_the_same_rules() {
    let f = Format::R16G16B16A16Float;
    // 0x7e00 and 0xfe01 are both NaN (exponent 31, mantissa non-zero, 3.1.5 (a)); 0x8000 is -0.
    let reference = rgba16(&[[0x7e00, 0x0000, 0x7c00, h(1.0)]]);
    let result = rgba16(&[[0xfe01, 0x8000, 0x7c00, h(1.0)]]);
    assert!(
        run(f, 1, 1, &reference, &result, Tolerance::for_format(f))
            .report
            .matches
    );
    // -inf (0xfc00) vs +inf.
    let result = rgba16(&[[0xfe01, 0x8000, 0xfc00, h(1.0)]]);
    assert_eq!(
        run(f, 1, 1, &reference, &result, Tolerance::for_format(f))
            .report
            .channels[2]
            .non_finite_mismatches,
        1
    );
}

#[test]
fn the_two_snorm_minus_one_codes_match_unless_exact() {
    // 8-bit SNORM 0x80 and 0x81 both read -1.0 (3.2.3.3).
    let reference = rgba8(&[[0x80, 0, 0, 0]]);
    let result = rgba8(&[[0x81, 0, 0, 0]]);
    let f = Format::R8G8B8A8Snorm;
    let t = run(f, 1, 1, &reference, &result, thresholds(0.0, 0.0, 0));
    assert!(t.report.matches);
    assert!(!run(f, 1, 1, &reference, &result, Tolerance::exact()).report.matches);
}

// ---------------------------------------------------------------------------------------------------------------
// Integers and depth-stencil

#[test]
fn r32_uint_is_exact_by_default_and_abs_is_in_integer_units() {
    // 2x2: (1, 0) is 1000 vs 1003 (3 units); (0, 1) 0xffffffff vs 0.
    let reference = words(&[5, 1000, 0xffff_ffff, 9]);
    let result = words(&[5, 1003, 0, 9]);
    let f = Format::R32Uint;
    let t = run(f, 2, 2, &reference, &result, Tolerance::for_format(f));
    assert_eq!(t.report.differing_pixels, 2);
    let stats = &t.report.channels[0];
    assert_eq!(stats.max_ulp_error, 0xffff_ffff);
    assert_eq!(stats.max_abs_error, 4_294_967_295.0);
    // Mean over 4 pixels: (3 + 4294967295) / 4.
    assert_eq!(stats.mean_abs_error, 4_294_967_298.0 / 4.0);
    // Normalized error 1.0 (the whole range): 0 bits.
    assert_eq!(stats.precision_bits, 0.0);
    // abs=3 accepts the first difference only.
    let t = run(f, 2, 2, &reference, &result, Tolerance::parse("abs=3", f).unwrap());
    assert_eq!(
        t.classes(),
        &[
            PixelClass::Match,
            PixelClass::Match,
            PixelClass::Differs,
            PixelClass::Match
        ]
    );
}

#[test]
fn d24s8_compares_depth_in_24_bit_codes_and_stencil_exactly() {
    // 2x2. (1, 0): depth 0x800000 vs 0x800001 (1 code, within the default), stencil equal.
    // (0, 1): depth equal, stencil 3 vs 4: stencil is exact, so it differs.
    // (1, 1): depth 0x100 vs 0x103: 3 codes, past the default 1.
    let reference = words(&[d24s8(0, 0), d24s8(0x80_0000, 1), d24s8(0x40_0000, 3), d24s8(0x100, 2)]);
    let result = words(&[d24s8(0, 0), d24s8(0x80_0001, 1), d24s8(0x40_0000, 4), d24s8(0x103, 2)]);
    let f = Format::D24UnormS8Uint;
    let t = run(f, 2, 2, &reference, &result, Tolerance::for_format(f));
    assert_eq!(
        t.classes(),
        &[
            PixelClass::Match,
            PixelClass::Match,
            PixelClass::Differs,
            PixelClass::Differs
        ]
    );
    let [depth, stencil] = &t.report.channels[..] else {
        panic!()
    };
    assert_eq!((depth.channel.as_str(), stencil.channel.as_str()), ("Depth", "Stencil"));
    assert_eq!(depth.max_ulp_error, 3);
    assert!(close(depth.max_abs_error, 3.0 / 16_777_215.0));
    assert_eq!((depth.differing_pixels, stencil.differing_pixels), (1, 1));
    // Depth precision: -log2(3 / (2^24 - 1)).
    assert!(close(depth.precision_bits, (16_777_215.0f64 / 3.0).log2()));
    // `channels=d` compares depth only (the stencil difference is ignored) and `d.ulp=3` accepts 3 codes.
    let t = run(
        f,
        2,
        2,
        &reference,
        &result,
        Tolerance::parse("channels=d,d.ulp=3", f).unwrap(),
    );
    assert!(t.report.matches);
    assert_eq!(t.report.channels.len(), 1);
}

// ---------------------------------------------------------------------------------------------------------------
// Position deviation

/// A 4x4 R32_UINT with 7 in columns x < `edge` and 0 elsewhere.
fn edge_image(edge: u32) -> Vec<u8> {
    let mut elements = Vec::new();
    for _y in 0..4 {
        for x in 0..4 {
            elements.push(if x < edge { 7 } else { 0 });
        }
    }
    words(&elements)
}

#[test]
fn a_one_pixel_deviation_finds_a_shifted_edge() {
    // The reference's edge is between columns 1 and 2, the result's between 2 and 3: column 2 differs in place.
    // With position=1, at (2, y) the result's 7 is in the reference at (1, y) and the reference's 0 in the result
    // at (3, y): both found, so the four pixels are shifted, not different.
    let (reference, result) = (edge_image(2), edge_image(3));
    let f = Format::R32Uint;
    let t = run(f, 4, 4, &reference, &result, Tolerance::exact());
    assert_eq!(t.report.differing_pixels, 4);
    assert_eq!(
        t.report.difference_bounds,
        Some(Rect {
            x: 2,
            y: 0,
            width: 1,
            height: 4
        })
    );
    let t = run(
        f,
        4,
        4,
        &reference,
        &result,
        Tolerance {
            position: 1,
            ..Tolerance::exact()
        },
    );
    assert!(t.report.matches);
    assert_eq!(t.report.shifted_pixels, 4);
    assert_eq!(t.class_at(2, 3), Some(PixelClass::Shifted));
    // Shifted pixels are not measured: 12 pixels, all exact.
    assert_eq!(t.report.measured_pixels, 12);
    assert_eq!(t.report.channels[0].max_abs_error, 0.0);
    // A two-pixel shift (reference edge after column 0, result after column 2) is not found within one pixel: at
    // (1, y) the reference's 0 is nowhere in the result's columns 0..=2 (all 7), and at (2, y) the result's 7 is
    // nowhere in the reference's columns 1..=3 (all 0). Within two pixels both are found.
    let t = run(
        f,
        4,
        4,
        &edge_image(1),
        &result,
        Tolerance {
            position: 1,
            ..Tolerance::exact()
        },
    );
    assert_eq!((t.report.differing_pixels, t.report.shifted_pixels), (8, 0));
    let t = run(
        f,
        4,
        4,
        &edge_image(1),
        &result,
        Tolerance {
            position: 2,
            ..Tolerance::exact()
        },
    );
    assert_eq!((t.report.differing_pixels, t.report.shifted_pixels), (0, 8));
}

#[test]
fn a_deviation_needs_a_match_both_ways() {
    // Reference row [5, 9, 5], result [5, 5, 5]: at x = 1 the result's 5 is next door in the reference, but the
    // reference's 9 appears nowhere in the result's window: a vanished line is not excused (CTS checks both ways).
    let f = Format::R32Uint;
    let t = run(
        f,
        3,
        1,
        &words(&[5, 9, 5]),
        &words(&[5, 5, 5]),
        Tolerance {
            position: 1,
            ..Tolerance::exact()
        },
    );
    assert_eq!(
        t.classes(),
        &[PixelClass::Match, PixelClass::Differs, PixelClass::Match]
    );
    // A colour found nowhere nearby stays a difference: result (0, 0) red where everything is white.
    let f = Format::R8G8B8A8Unorm;
    let white = [255, 255, 255, 255];
    let reference = rgba8(&[white; 9]);
    let mut pixels = [white; 9];
    pixels[0] = [255, 0, 0, 255];
    let t = run(
        f,
        3,
        3,
        &reference,
        &rgba8(&pixels),
        Tolerance {
            position: 1,
            ..Tolerance::for_format(f)
        },
    );
    assert_eq!(t.report.differing_pixels, 1);
    assert_eq!(t.report.shifted_pixels, 0);
}

#[test]
fn a_deviation_uses_the_thresholds() {
    // RGBA8 row: reference [0, 100, 200], result [0, 0, 101]: x = 1 and 2 differ in place. Within 1 code and
    // 1 pixel: at x = 2 the result's 101 is 1 code from the reference's 100 at x = 1, but the reference's 200 is
    // 99 codes from everything in the result's window (0, 101): still different. At x = 1 the result's 0 is in
    // the reference at x = 0 and the reference's 100 is 1 code from the result's 101 at x = 2: shifted.
    let px = |v: u8| [v, 0, 0, 255];
    let reference = rgba8(&[px(0), px(100), px(200)]);
    let result = rgba8(&[px(0), px(0), px(101)]);
    let f = Format::R8G8B8A8Unorm;
    let t = run(
        f,
        3,
        1,
        &reference,
        &result,
        Tolerance {
            position: 1,
            ..Tolerance::for_format(f)
        },
    );
    assert_eq!(
        t.classes(),
        &[PixelClass::Match, PixelClass::Shifted, PixelClass::Differs]
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Ambiguity, region, mask

#[test]
fn ambiguous_differences_are_reported_apart_and_do_not_fail_the_target() {
    // 2x2 D24S8. (1, 0): depth 5 codes off, marked ambiguous. (0, 1): 3 codes off, not marked.
    let f = Format::D24UnormS8Uint;
    let reference = words(&[d24s8(10, 0), d24s8(20, 0), d24s8(30, 0), d24s8(40, 0)]);
    let result = words(&[d24s8(10, 0), d24s8(25, 0), d24s8(33, 0), d24s8(40, 0)]);
    let ambiguous = [false, true, false, false];
    let options = CompareOptions {
        ambiguous: Some(&ambiguous),
        ..CompareOptions::new(Tolerance::for_format(f))
    };
    let t = compare(&image(f, 2, 2, &reference), &image(f, 2, 2, &result), &options).unwrap();
    let r = &t.report;
    assert_eq!((r.compared_pixels, r.differing_pixels, r.ambiguous_pixels), (4, 1, 1));
    assert_eq!(r.measured_pixels, 3);
    // The ambiguous pixel's 5 codes are not in the statistics: the largest measured error is 3 codes.
    assert_eq!(r.channels[0].max_ulp_error, 3);
    assert_eq!(r.first_ambiguous[0].x, 1);
    assert_eq!(r.first_ambiguous[0].channels[0].ulps, Some(5));
    assert_eq!(
        r.ambiguous_bounds,
        Some(Rect {
            x: 1,
            y: 0,
            width: 1,
            height: 1
        })
    );
    assert!(!r.matches);
    // Only the ambiguous difference left: the target matches.
    let result = words(&[d24s8(10, 0), d24s8(25, 0), d24s8(30, 0), d24s8(40, 0)]);
    let t = compare(&image(f, 2, 2, &reference), &image(f, 2, 2, &result), &options).unwrap();
    assert!(t.report.matches);
    assert_eq!(t.report.ambiguous_pixels, 1);
}

#[test]
fn only_pixels_in_the_region_and_mask_are_compared() {
    // 4x4 RGBA8, every result pixel 50 codes off in R. Region: x 1..5, y 2..4 (clipped to 3 columns x 2 rows = 6
    // pixels); mask: only even x. Compared: (2, 2), (2, 3) = 2 pixels.
    let reference = rgba8(&[[0, 0, 0, 255]; 16]);
    let result = rgba8(&[[50, 0, 0, 255]; 16]);
    let mask: Vec<bool> = (0..16).map(|i| i % 2 == 0).collect();
    let f = Format::R8G8B8A8Unorm;
    let options = CompareOptions {
        region: Some(Rect {
            x: 1,
            y: 2,
            width: 4,
            height: 5,
        }),
        mask: Some(&mask),
        ..CompareOptions::new(Tolerance::for_format(f))
    };
    let t = compare(&image(f, 4, 4, &reference), &image(f, 4, 4, &result), &options).unwrap();
    assert_eq!(t.report.compared_pixels, 2);
    assert_eq!(t.report.differing_pixels, 2);
    assert_eq!(
        t.report.difference_bounds,
        Some(Rect {
            x: 2,
            y: 2,
            width: 1,
            height: 2
        })
    );
    assert_eq!(t.class_at(0, 0), Some(PixelClass::NotCompared));
    assert_eq!(t.class_at(3, 2), Some(PixelClass::NotCompared));
    assert_eq!(t.class_at(4, 0), None);
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics

#[test]
fn statistics_of_a_2x2_rgba8_by_hand() {
    // R codes: reference [10, 10, 10, 10], result [10, 12, 9, 10]: errors 0, 2, 1, 0 codes. G, B, A equal.
    let reference = rgba8(&[[10, 20, 30, 255]; 4]);
    let result = rgba8(&[
        [10, 20, 30, 255],
        [12, 20, 30, 255],
        [9, 20, 30, 255],
        [10, 20, 30, 255],
    ]);
    let f = Format::R8G8B8A8Unorm;
    let t = run(f, 2, 2, &reference, &result, Tolerance::for_format(f));
    let r = &t.report;
    // Only (1, 0) is past 1 code.
    assert_eq!((r.compared_pixels, r.differing_pixels, r.measured_pixels), (4, 1, 4));
    assert_eq!(
        r.difference_bounds,
        Some(Rect {
            x: 1,
            y: 0,
            width: 1,
            height: 1
        })
    );
    let red = &r.channels[0];
    assert_eq!(red.channel, "R");
    assert_eq!(red.max_abs_error, 2.0 / 255.0);
    // Mean of 0, 2/255, 1/255, 0.
    assert!(close(red.mean_abs_error, 3.0 / 255.0 / 4.0));
    assert_eq!(red.max_ulp_error, 2);
    // precision: -log2(2/255) = log2(127.5) = 6.994.
    assert!(close(red.precision_bits, 127.5f64.log2()));
    // apitrace's: -log2(((2/255)^2 + (1/255)^2) / 4) = log2(4 * 65025 / 5) = log2(52020) = 15.667.
    assert!(close(red.mean_square_precision_bits, 52020f64.log2()));
    // G exact: 8 bits, and 16 for the mean-square measure.
    assert_eq!(
        (r.channels[1].precision_bits, r.channels[1].mean_square_precision_bits),
        (8.0, 16.0)
    );
    // The listed pixel with both values.
    let listed = &r.first_differences;
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].x, listed[0].y), (1, 0));
    let red = &listed[0].channels[0];
    assert_eq!(
        (red.reference_bits, red.result_bits, red.ulps, red.matches),
        (10, 12, Some(2), false)
    );
    assert_eq!((red.reference, red.result), (10.0 / 255.0, 12.0 / 255.0));
    assert!(listed[0].channels[1].matches);
}

#[test]
fn the_listing_is_in_row_order_and_bounded() {
    // 3x3 R32_UINT, every pixel differs; max_listed 2 lists (0, 0) then (1, 0); the bounds cover all.
    let f = Format::R32Uint;
    let options = CompareOptions {
        max_listed: 2,
        ..CompareOptions::new(Tolerance::exact())
    };
    let (a, b) = (words(&[0; 9]), words(&[1; 9]));
    let t = compare(&image(f, 3, 3, &a), &image(f, 3, 3, &b), &options).unwrap();
    let positions: Vec<_> = t.report.first_differences.iter().map(|d| (d.x, d.y)).collect();
    assert_eq!(positions, [(0, 0), (1, 0)]);
    assert_eq!(
        t.report.difference_bounds,
        Some(Rect {
            x: 0,
            y: 0,
            width: 3,
            height: 3
        })
    );
}

#[test]
fn the_json_report_has_the_counts_and_nan_values_become_null() {
    let f = Format::R32G32B32A32Float;
    let reference = rgba32(&[[0x7fc0_0000, 0, 0, 0]]);
    let result = rgba32(&[[0x3f80_0000, 0, 0, 0]]);
    let t = run(f, 1, 1, &reference, &result, Tolerance::for_format(f));
    let json: serde_json::Value = serde_json::to_value(&t.report).unwrap();
    assert_eq!(json["format"], "R32G32B32A32_FLOAT");
    assert_eq!(json["compared_pixels"], 1);
    assert_eq!(json["differing_pixels"], 1);
    assert_eq!(json["ambiguous_pixels"], 0);
    assert_eq!(json["matches"], false);
    assert_eq!(json["channels"][0]["non_finite_mismatches"], 1);
    assert_eq!(json["tolerance"]["channels"][0]["ulp"], 4);
    assert!(json["first_differences"][0]["channels"][0]["reference"].is_null());
    assert_eq!(json["first_differences"][0]["channels"][0]["result"], 1.0);
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

#[test]
fn mismatched_images_and_masks_are_errors_naming_both() {
    let a = rgba8(&[[0; 4]; 4]);
    let b = words(&[0; 4]);
    let error = compare(
        &image(Format::R8G8B8A8Unorm, 2, 2, &a),
        &image(Format::R32Uint, 2, 2, &b),
        &CompareOptions::new(Tolerance::exact()),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "compare: the reference is a 2x2 R8G8B8A8_UNORM image but the result is a 2x2 R32_UINT image"
    );
    let error = compare(
        &image(Format::R8G8B8A8Unorm, 2, 2, &a),
        &image(Format::R8G8B8A8Unorm, 4, 1, &a),
        &CompareOptions::new(Tolerance::exact()),
    )
    .unwrap_err();
    assert!(error.detail.contains("2x2") && error.detail.contains("4x1"));
    let mask = [true; 3];
    let options = CompareOptions {
        ambiguous: Some(&mask),
        ..CompareOptions::new(Tolerance::exact())
    };
    let img = image(Format::R8G8B8A8Unorm, 2, 2, &a);
    let error = compare(&img, &img, &options).unwrap_err();
    assert_eq!(
        error.detail,
        "the ambiguity mask has 3 entries but the images have 4 pixels"
    );
    let options = CompareOptions::new(Tolerance {
        position: 9,
        ..Tolerance::exact()
    });
    assert!(
        compare(&img, &img, &options)
            .unwrap_err()
            .detail
            .contains("past the 8 allowed")
    );
    let bc = [0u8; 8];
    let bc = image(Format::Bc1Unorm, 4, 4, &bc);
    assert!(compare(&bc, &bc, &CompareOptions::new(Tolerance::exact())).is_err());
}

#[test]
fn arbitrary_bytes_never_panic() {
    // Every format the comparison reads, 3x3 images of pseudo-random bytes (an LCG), every option on.
    let mut state = 0x1234_5678u32;
    let mut next = || {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 24) as u8
    };
    let ambiguous = [true, false, true, false, true, false, true, false, true];
    for &format in crate::format::Format::ALL {
        let Ok(codec) = crate::format::TexelCodec::new(format) else {
            continue;
        };
        let (bw, bh) = codec.block_size();
        let bytes = 3u32.div_ceil(bw) as usize * 3u32.div_ceil(bh) as usize * codec.element_bytes();
        let a: Vec<u8> = (0..bytes).map(|_| next()).collect();
        let b: Vec<u8> = (0..bytes).map(|_| next()).collect();
        let (ia, ib) = (image(format, 3, 3, &a), image(format, 3, 3, &b));
        let _ = preview_rgba8(
            &ia,
            &PreviewOptions {
                auto_range: true,
                ..PreviewOptions::for_format(format)
            },
        );
        let options = CompareOptions {
            ambiguous: Some(&ambiguous),
            region: Some(Rect {
                x: 1,
                y: 0,
                width: u32::MAX,
                height: 2,
            }),
            ..CompareOptions::new(Tolerance {
                position: 2,
                ..thresholds(1e-3, 1e-2, 3)
            })
        };
        if let Ok(t) = compare(&ia, &ib, &options) {
            assert_eq!(t.report.compared_pixels, 4);
            assert_eq!(t.difference_mask_rgba8().len(), 36);
            assert_eq!(t.heatmap_rgba8(t.default_heatmap_scale()).len(), 36);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures

#[test]
fn heatmap_colours_at_known_errors() {
    // RGBA8 1x6, R errors 0, 1, 2, 4, 16, 255 codes; scale 16 ULPs: t = log2(e) / log2(16) = 0 (black, no
    // error), 0, 0.25, 0.5, 1, and clamped 1 -> black, #440154, #3b528b, #21918c, #fde725, #fde725.
    let reference = rgba8(&[[0, 0, 0, 255]; 6]);
    let result = rgba8(&[
        [0, 0, 0, 255],
        [1, 0, 0, 255],
        [2, 0, 0, 255],
        [4, 0, 0, 255],
        [16, 0, 0, 255],
        [255, 0, 0, 255],
    ]);
    let f = Format::R8G8B8A8Unorm;
    let t = run(f, 6, 1, &reference, &result, Tolerance::for_format(f));
    assert_eq!(t.default_heatmap_scale().max_ulps, 255.0);
    assert_eq!(t.ulp_errors(), &[0.0, 1.0, 2.0, 4.0, 16.0, 255.0]);
    let heat = t.heatmap_rgba8(HeatmapScale { max_ulps: 16.0 });
    assert_eq!(
        heat,
        rgba8(&[
            [0, 0, 0, 255],
            [0x44, 0x01, 0x54, 255],
            [0x3b, 0x52, 0x8b, 255],
            [0x21, 0x91, 0x8c, 255],
            [0xfd, 0xe7, 0x25, 255],
            [0xfd, 0xe7, 0x25, 255],
        ])
    );
    // Between stops the ramp is linear: t = 0.125 is halfway from #440154 to #3b528b:
    // (68 + 59) / 2 = 63.5 -> 64, (1 + 82) / 2 = 41.5 -> 42, (84 + 139) / 2 = 111.5 -> 112.
    assert_eq!(viridis(0.125), [64, 42, 112]);
}

#[test]
fn the_difference_mask_colours_each_class() {
    // R32_UINT row: reference [1, 1, 2, 3, 4], result [9, 1, 3, 9, 9], exact. x = 0 masked out, x = 1 equal,
    // x = 2 and x = 4 differ, x = 3 differs where the ambiguity mask is set.
    let f = Format::R32Uint;
    let (a, b) = (words(&[1, 1, 2, 3, 4]), words(&[9, 1, 3, 9, 9]));
    let mask = [false, true, true, true, true];
    let ambiguous = [false, false, false, true, false];
    let options = CompareOptions {
        mask: Some(&mask),
        ambiguous: Some(&ambiguous),
        ..CompareOptions::new(Tolerance::exact())
    };
    let t = compare(&image(f, 5, 1, &a), &image(f, 5, 1, &b), &options).unwrap();
    assert_eq!(
        t.classes(),
        &[
            PixelClass::NotCompared,
            PixelClass::Match,
            PixelClass::Differs,
            PixelClass::Ambiguous,
            PixelClass::Differs
        ]
    );
    let mask = t.difference_mask_rgba8();
    assert_eq!(&mask[..4], &[0, 0, 0, 0]);
    assert_eq!(&mask[4..8], &[0, 0, 0, 255]);
    assert_eq!(&mask[8..12], &[255, 0, 0, 255]);
    assert_eq!(&mask[12..16], &[255, 176, 0, 255]);
    // The shifted colour, from the edge test's comparison.
    let t = run(
        f,
        4,
        4,
        &edge_image(2),
        &edge_image(3),
        Tolerance {
            position: 1,
            ..Tolerance::exact()
        },
    );
    assert_eq!(&t.difference_mask_rgba8()[8..12], &[0, 0, 160, 255]);
}

#[test]
fn png_bytes_decode_back_to_the_same_pixels() {
    let rgba: Vec<u8> = (0..3 * 2 * 4).map(|i| (i * 11) as u8).collect();
    let bytes = encode_png(3, 2, &rgba).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut out = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut out).unwrap();
    assert_eq!((info.width, info.height), (3, 2));
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    assert_eq!(&out[..info.buffer_size()], &rgba[..]);
    assert!(
        encode_png(3, 2, &rgba[1..])
            .unwrap_err()
            .detail
            .contains("needs 24 bytes; 23 given")
    );
    assert!(encode_png(0, 0, &[]).is_err());
}

#[test]
fn previews_map_ranges_select_channels_and_highlight_non_finite() {
    // RGBA16F 4x1: (0.5, 0.25, 1, 1), (NaN, 0, 0, 1), (+inf, 0, 0, 1), (2, 0, 0, 1).
    let f = Format::R16G16B16A16Float;
    let data = rgba16(&[
        [h(0.5), h(0.25), h(1.0), h(1.0)],
        [0x7e00, 0, 0, h(1.0)],
        [0x7c00, 0, 0, h(1.0)],
        [h(2.0), 0, 0, h(1.0)],
    ]);
    let img = image(f, 4, 1, &data);
    let preview = preview_rgba8(&img, &PreviewOptions::for_format(f)).unwrap();
    // [0, 1] -> 0..255: 0.5 -> 127.5 -> 128, 0.25 -> 63.75 -> 64; NaN magenta; inf cyan; 2 clamps to 255.
    assert_eq!(&preview[..4], &[128, 64, 255, 255]);
    assert_eq!(&preview[4..8], &render::NAN_COLOR);
    assert_eq!(&preview[8..12], &render::INFINITY_COLOR);
    assert_eq!(&preview[12..16], &[255, 0, 0, 255]);
    // G alone as grey: NaN in R is not shown, so pixel 1 is G = 0.
    let g = preview_rgba8(
        &img,
        &PreviewOptions {
            channels: PreviewChannels::G,
            ..PreviewOptions::for_format(f)
        },
    )
    .unwrap();
    assert_eq!(&g[..8], &[64, 64, 64, 255, 0, 0, 0, 255]);
    // R alone with the data's range: finite R values 0.5 and 2 -> [0.5, 2]; 0.5 -> 0, 2 -> 255.
    let r = preview_rgba8(
        &img,
        &PreviewOptions {
            channels: PreviewChannels::R,
            auto_range: true,
            ..PreviewOptions::for_format(f)
        },
    )
    .unwrap();
    assert_eq!(&r[..4], &[0, 0, 0, 255]);
    assert_eq!(&r[12..16], &[255, 255, 255, 255]);
    // Exposure 1 doubles: 0.25 * 2 = 0.5 -> 128 in G; RGB forces alpha opaque.
    let exposed = PreviewOptions {
        mapping: DisplayMapping {
            exposure: 1.0,
            ..DisplayMapping::for_format(f)
        },
        channels: PreviewChannels::Rgb,
        ..PreviewOptions::for_format(f)
    };
    assert_eq!(&preview_rgba8(&img, &exposed).unwrap()[..4], &[255, 128, 255, 255]);
}

#[test]
fn depth_previews_show_depth_on_a_range_and_stencil_as_itself() {
    // D24S8 2x1: depth codes 0x400000 (0.25) and 0xc00000 (0.75), stencil 7 and 200.
    let f = Format::D24UnormS8Uint;
    let data = words(&[d24s8(0x40_0000, 7), d24s8(0xc0_0000, 200)]);
    let img = image(f, 2, 1, &data);
    let depth = PreviewOptions {
        channels: PreviewChannels::R,
        ..PreviewOptions::for_format(f)
    };
    // 0x400000 / 0xffffff = 0.2500000149 -> 63.75 -> 64; 0.75000004 -> 191.25 -> 191.
    assert_eq!(
        preview_rgba8(&img, &depth).unwrap(),
        [64, 64, 64, 255, 191, 191, 191, 255]
    );
    // The data's range [0.25, 0.75] stretches to 0..255.
    let auto = PreviewOptions {
        auto_range: true,
        ..depth
    };
    assert_eq!(preview_rgba8(&img, &auto).unwrap(), [0, 0, 0, 255, 255, 255, 255, 255]);
    let stencil = PreviewOptions {
        channels: PreviewChannels::G,
        ..PreviewOptions::for_format(f)
    };
    assert_eq!(
        preview_rgba8(&img, &stencil).unwrap(),
        [7, 7, 7, 255, 200, 200, 200, 255]
    );
}

#[test]
fn block_formats_preview_block_by_block() {
    // BC1 6x4 = two blocks. Block 0: both endpoints 0xf800 (5:6:5 red, R = 31 -> 255), indices 0: all red.
    // Block 1: endpoints 0x001f (blue), indices 0: all blue. Columns 4..6 come from block 1.
    let mut data = vec![0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0];
    data.extend_from_slice(&[0x1f, 0x00, 0x1f, 0x00, 0, 0, 0, 0]);
    let f = Format::Bc1Unorm;
    let img = image(f, 6, 4, &data);
    let preview = preview_rgba8(&img, &PreviewOptions::for_format(f)).unwrap();
    assert_eq!(preview.len(), 6 * 4 * 4);
    for y in 0..4 {
        for x in 0..6 {
            let at = (y * 6 + x) * 4;
            let expected = if x < 4 { [255, 0, 0, 255] } else { [0, 0, 255, 255] };
            assert_eq!(&preview[at..at + 4], &expected, "({x}, {y})");
        }
    }
}

#[test]
fn rows_equal_on_both_sides_are_counted_as_the_pixels_one_by_one_would_be() {
    // a 7x5 float32 target whose rows 1 and 3 differ (one pixel each, one of them NaN against a number) and whose
    // other rows are equal (one holds NaNs and infinities on both sides): compared with every pixel selected (rows
    // at once) and with an all-true mask (pixel by pixel), the comparisons are the same
    let (width, height) = (7u32, 5u32);
    let mut reference: Vec<[u32; 4]> = (0..width * height)
        .map(|i| {
            [
                (i as f32 * 0.37).to_bits(),
                1.0f32.to_bits(),
                (-(i as f32)).to_bits(),
                0,
            ]
        })
        .collect();
    reference[2] = [
        f32::NAN.to_bits(),
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        0,
    ];
    let mut result = reference.clone();
    result[8][0] = (0.37f32 * 8.0 + 0.25).to_bits();
    result[22][1] = f32::NAN.to_bits();
    let (reference, result) = (rgba32(&reference), rgba32(&result));
    for tolerance in [Tolerance::exact(), thresholds(0.5, 0.0, 0)] {
        let image_a = image(Format::R32G32B32A32Float, width, height, &reference);
        let image_b = image(Format::R32G32B32A32Float, width, height, &result);
        let all = vec![true; (width * height) as usize];
        let rows = compare(&image_a, &image_b, &CompareOptions::new(tolerance)).unwrap();
        let one_by_one = compare(
            &image_a,
            &image_b,
            &CompareOptions {
                mask: Some(&all),
                ..CompareOptions::new(tolerance)
            },
        )
        .unwrap();
        // (as text: a listed difference holds a NaN, which is not equal to itself)
        assert_eq!(format!("{:?}", rows.report), format!("{:?}", one_by_one.report));
        assert_eq!(rows.classes, one_by_one.classes);
        assert_eq!(rows.errors, one_by_one.errors);
        assert_eq!(rows.report.compared_pixels, 35);
        assert!(rows.report.differing_pixels >= 1);
    }
}
