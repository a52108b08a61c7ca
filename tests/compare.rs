//! The comparison through the public API, as the CLI uses it: a `--tolerance` spec resolved per target, a compare,
//! the JSON report, and the heatmap and mask written as PNG bytes.

// Test code: a panic here is a test failure.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use iridia::compare::{CompareOptions, HeatmapScale, Image, PixelClass, Tolerance, ToleranceSpec, compare, encode_png};
use iridia::format::Format;

/// Decodes PNG bytes with the png crate: (width, height, RGBA8 pixels).
fn decode_png(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut out = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut out).unwrap();
    out.truncate(info.buffer_size());
    (info.width, info.height, out)
}

#[test]
fn a_spec_resolves_per_target_and_the_outputs_round_trip() {
    // One spec for two targets: RGBA8 (R one code off at (0, 0), three codes off at (1, 0)) and R32_UINT (equal).
    let spec = ToleranceSpec::parse("ulp=2,position=0").unwrap();
    let colour_ref = [10u8, 0, 0, 255, 10, 0, 0, 255];
    let colour_res = [11u8, 0, 0, 255, 13, 0, 0, 255];
    let colour = compare(
        &Image::new(Format::R8G8B8A8Unorm, 2, 1, &colour_ref).unwrap(),
        &Image::new(Format::R8G8B8A8Unorm, 2, 1, &colour_res).unwrap(),
        &CompareOptions::new(spec.resolve(Format::R8G8B8A8Unorm)),
    )
    .unwrap();
    // Within 2 codes: (0, 0) matches, (1, 0) does not.
    assert_eq!(colour.classes(), &[PixelClass::Match, PixelClass::Differs]);
    // For R32_UINT the spec's ulp=2 replaces the exact default.
    let uint = spec.resolve(Format::R32Uint);
    assert!(!uint.channels[0].exact && uint.channels[0].ulp == 2);

    // The JSON report a CLI prints.
    let json: serde_json::Value = serde_json::from_str(&serde_json::to_string(&colour.report).unwrap()).unwrap();
    assert_eq!(
        (
            json["compared_pixels"].as_u64(),
            json["differing_pixels"].as_u64(),
            json["ambiguous_pixels"].as_u64()
        ),
        (Some(2), Some(1), Some(0))
    );
    assert_eq!(json["channels"][0]["max_ulp_error"], 3);
    // The tolerance in the report reads back as the same value.
    let tolerance: Tolerance = serde_json::from_value(json["tolerance"].clone()).unwrap();
    assert_eq!(tolerance, spec.resolve(Format::R8G8B8A8Unorm));

    // The mask and heatmap as PNG: the mask's second pixel is red; with a 9-ULP scale the heatmap's first pixel
    // (1 ULP, t = 0) is #440154 and its second (3 ULP, t = log2 3 / log2 9 = 0.5) is #21918c.
    let (w, h, mask) = decode_png(encode_png(2, 1, &colour.difference_mask_rgba8()).unwrap());
    assert_eq!((w, h), (2, 1));
    assert_eq!(mask, [0, 0, 0, 255, 255, 0, 0, 255]);
    let heat = colour.heatmap_rgba8(HeatmapScale { max_ulps: 9.0 });
    let (_, _, decoded) = decode_png(encode_png(2, 1, &heat).unwrap());
    assert_eq!(decoded, [0x44, 0x01, 0x54, 255, 0x21, 0x91, 0x8c, 255]);
}

#[test]
fn exact_spec_matches_exact_tolerance() {
    for format in [Format::R8G8B8A8Unorm, Format::R32G32B32A32Float, Format::D24UnormS8Uint] {
        assert_eq!(ToleranceSpec::exact().resolve(format), Tolerance::exact());
    }
}
