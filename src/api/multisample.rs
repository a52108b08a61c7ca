//! D3D11's standard multisample patterns (19.2.4 "Specification of Sample Positions"): where each sample of a pixel
//! lies when a resource or the rasterizer uses `D3D11_STANDARD_MULTISAMPLE_PATTERN`. The rasterizer places its
//! coverage samples here, and `samplepos` (22.4.22) returns them, so both read this one table.
//!
//! 19.2.4 draws each pattern on a grid of 1/16 pixel ("Sample Coordinate System": "Coordinates are in 1/16ths;
//! discrete sample (i,j) has continuous coordinates (i/16,j/16)", the pixel's centre at (0, 0), "Only coordinates
//! [-8,7] are valid for both axis"), x to the right and y down as in the pixel coordinate system (3.3.1). Standard
//! patterns exist for 1 (trivial), 2, 4, 8 and 16 samples; none for 32 ("the definition of standard patterns for
//! sample counts above 16 samples was postponed"). Each has a sibling centre pattern
//! (`D3D11_CENTER_MULTISAMPLE_PATTERN`), "the same number of samples, except with all samples located overlapping the
//! center of the pixel". A resource or target names its pattern by its quality level ([`pattern`]).

use crate::format::{Format, Layout, NumericKind};

/// Subdivisions of a pixel side on 19.2.4's sample grid: positions are in 1/16 pixel.
pub const SAMPLE_GRID: i8 = 16;

/// `D3D11_STANDARD_MULTISAMPLE_PATTERN`: the quality level that asks for the standard pattern (19.2.4).
pub const STANDARD_MULTISAMPLE_PATTERN: u32 = 0xFFFF_FFFF;

/// `D3D11_CENTER_MULTISAMPLE_PATTERN`: the quality level that asks for the centre pattern (19.2.4).
pub const CENTER_MULTISAMPLE_PATTERN: u32 = 0xFFFF_FFFE;

/// 1 sample: the pixel centre (19.2.4: "1(trivial)").
const PATTERN_1: [[i8; 2]; 1] = [[0, 0]];

/// "Standard 2 Sample Pattern": { (4,4), (-4,-4) }.
const PATTERN_2: [[i8; 2]; 2] = [[4, 4], [-4, -4]];

/// "Standard 4 Sample Pattern": { (-2,-6), (6,-2), (-6,2), (2,6) }.
const PATTERN_4: [[i8; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];

/// "Standard 8 Sample Pattern": { (1,-3), (-1,3), (5,1), (-3,-5), (-5,5), (-7,-1), (3,7), (7,-7) }.
const PATTERN_8: [[i8; 2]; 8] = [[1, -3], [-1, 3], [5, 1], [-3, -5], [-5, 5], [-7, -1], [3, 7], [7, -7]];

/// Every sample of a centre pattern: the pixel centre.
const CENTER: [[i8; 2]; 16] = [[0, 0]; 16];

/// "Standard 16 Sample Pattern": { (1,1), (-1,-3), (-3,2), (4,-1), (-5,-2), (2,5), (5,3), (3,-5), (-2,6), (0,-7),
/// (-4,-6), (-6,4), (-8,0), (7,-4), (6,7), (-7,-8) }.
const PATTERN_16: [[i8; 2]; 16] = [
    [1, 1],
    [-1, -3],
    [-3, 2],
    [4, -1],
    [-5, -2],
    [2, 5],
    [5, 3],
    [3, -5],
    [-2, 6],
    [0, -7],
    [-4, -6],
    [-6, 4],
    [-8, 0],
    [7, -4],
    [6, 7],
    [-7, -8],
];

/// The standard pattern of `sample_count` samples (19.2.4), sample 0 first, each (x, y) in 1/16 pixel from the
/// pixel centre ([`SAMPLE_GRID`]); `None` for a count with no standard pattern (0, 3, 32 ...).
pub fn standard_pattern(sample_count: u32) -> Option<&'static [[i8; 2]]> {
    match sample_count {
        1 => Some(&PATTERN_1),
        2 => Some(&PATTERN_2),
        4 => Some(&PATTERN_4),
        8 => Some(&PATTERN_8),
        16 => Some(&PATTERN_16),
        _ => None,
    }
}

/// The centre pattern of `sample_count` samples (19.2.4, `D3D11_CENTER_MULTISAMPLE_PATTERN`): that many (0, 0)
/// offsets; `None` for a count with no standard pattern.
pub fn center_pattern(sample_count: u32) -> Option<&'static [[i8; 2]]> {
    CENTER.get(..standard_pattern(sample_count)?.len())
}

/// The pattern of `sample_count` samples at quality level `quality` (`DXGI_SAMPLE_DESC`), in 1/16 pixel: the
/// standard pattern for [`STANDARD_MULTISAMPLE_PATTERN`] and for quality 0 (19.2.4 lets hardware whose only
/// patterns are the standard ones "pretend QualityLevel = 0 behaves the same as QualityLevel =
/// D3D11_STANDARD_MULTISAMPLE_PATTERN"), the centre pattern for [`CENTER_MULTISAMPLE_PATTERN`], the pixel centre
/// for one sample whatever the quality. `None` for a vendor quality level (positions unknown) or a count with no
/// standard pattern (32).
pub fn pattern(sample_count: u32, quality: u32) -> Option<&'static [[i8; 2]]> {
    match quality {
        0 | STANDARD_MULTISAMPLE_PATTERN => standard_pattern(sample_count),
        CENTER_MULTISAMPLE_PATTERN => center_pattern(sample_count),
        _ if sample_count == 1 => Some(&PATTERN_1),
        _ => None,
    }
}

/// Sample `index` of [`pattern`]`(sample_count, quality)` in pixels from the pixel centre (x right, y down; 3.3.1),
/// as `samplepos` (22.4.22) returns it; `None` when the pattern is unknown or the index is not below the count.
pub fn sample_position(sample_count: u32, quality: u32, index: u32) -> Option<[f32; 2]> {
    let offset = pattern(sample_count, quality)?.get(usize::try_from(index).ok()?)?;
    Some(offset.map(|o| f32::from(o) / f32::from(SAMPLE_GRID)))
}

/// Sample `index` of the standard pattern of `sample_count` samples (19.2.4) in 1/16 pixel from the pixel centre;
/// `None` when the count has no standard pattern or the index is not below the count.
pub fn standard_sample_offset(sample_count: u32, index: u32) -> Option<[i8; 2]> {
    standard_pattern(sample_count)?
        .get(usize::try_from(index).ok()?)
        .copied()
}

/// Sample `index` of the standard pattern of `sample_count` samples (19.2.4) in pixels from the pixel centre (x
/// right, y down; 3.3.1), as `samplepos` (22.4.22) returns it: each 1/16 step exact in float. `None` when the count
/// has no standard pattern or the index is not below the count.
pub fn standard_sample_position(sample_count: u32, index: u32) -> Option<[f32; 2]> {
    standard_sample_offset(sample_count, index).map(|offset| offset.map(|o| f32::from(o) / f32::from(SAMPLE_GRID)))
}

/// Whether `ResolveSubresource` may resolve data of `format` (its `Format` argument), and why not. 19.2.3 (2):
/// "any format that supports multisampling and which has type _UNORM, _UNORM_SRGB, _SNORM or _FLOAT must support
/// Resolve"; 19.2.2: "integer formats do not have a fixed-function resolve permitted" and depth formats are
/// "restricted to be RenderTargets only", so neither a depth format nor a view of a depth family's bits
/// (`R24_UNORM_X8_TYPELESS`, `R32_FLOAT_X8X24_TYPELESS`) resolves. 5.6.6: the resolve format is typed ("format
/// conversion is not desired"; a typeless resource takes its interpretation from it). A format must also be one a
/// render target holds: one element a texel (no block-compressed, sub-sampled or shared-exponent data, 19.1).
pub fn resolvable(format: Format) -> Result<(), String> {
    let info = format.info();
    let depth_family = matches!(info.family, Some(Format::R24G8Typeless | Format::R32G8X24Typeless));
    let why = match info.kind {
        _ if format.is_depth() || depth_family => "is depth data, which is not resolvable (19.2.2)",
        NumericKind::Uint | NumericKind::Sint => "is an integer format, which has no fixed-function resolve (19.2.2)",
        NumericKind::Typeless => "is typeless: the resolve format must give the bits a type (5.6.6)",
        NumericKind::Unorm | NumericKind::Snorm | NumericKind::Srgb | NumericKind::Float
            if matches!(info.layout, Layout::Texel { .. }) =>
        {
            return Ok(());
        }
        _ => "is not a render target format (19.2.3 (2) resolves UNORM, UNORM_SRGB, SNORM and FLOAT ones)",
    };
    Err(format!("{format} {why}"))
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)] // tests count through the hand-written tables
mod tests {
    use super::*;

    /// 19.2.4's figures, transcribed by hand from the spec's text beside each grid, in 1/16 pixel.
    const SPEC: [(u32, &[(i8, i8)]); 5] = [
        (1, &[(0, 0)]),
        (2, &[(4, 4), (-4, -4)]),
        (4, &[(-2, -6), (6, -2), (-6, 2), (2, 6)]),
        (
            8,
            &[(1, -3), (-1, 3), (5, 1), (-3, -5), (-5, 5), (-7, -1), (3, 7), (7, -7)],
        ),
        (
            16,
            &[
                (1, 1),
                (-1, -3),
                (-3, 2),
                (4, -1),
                (-5, -2),
                (2, 5),
                (5, 3),
                (3, -5),
                (-2, 6),
                (0, -7),
                (-4, -6),
                (-6, 4),
                (-8, 0),
                (7, -4),
                (6, 7),
                (-7, -8),
            ],
        ),
    ];

    #[test]
    fn every_standard_pattern_is_the_spec_table() {
        for (count, expected) in SPEC {
            let pattern = standard_pattern(count).unwrap_or_else(|| panic!("no pattern for {count}"));
            assert_eq!(pattern.len(), expected.len(), "{count} samples");
            for (index, &(x, y)) in expected.iter().enumerate() {
                let index = u32::try_from(index).unwrap();
                assert_eq!(
                    standard_sample_offset(count, index),
                    Some([x, y]),
                    "{count} samples, #{index}"
                );
            }
        }
    }

    #[test]
    fn positions_are_sixteenths_of_a_pixel() {
        // 4 samples, #1 = (6, -2) / 16 = (0.375, -0.125); 16 samples, #12 = (-8, 0) / 16 = (-0.5, 0);
        // #15 = (-7, -8) / 16 = (-0.4375, -0.5); 2 samples, #0 = (4, 4) / 16 = (0.25, 0.25).
        assert_eq!(standard_sample_position(4, 1), Some([0.375, -0.125]));
        assert_eq!(standard_sample_position(16, 12), Some([-0.5, 0.0]));
        assert_eq!(standard_sample_position(16, 15), Some([-0.4375, -0.5]));
        assert_eq!(standard_sample_position(2, 0), Some([0.25, 0.25]));
        assert_eq!(standard_sample_position(1, 0), Some([0.0, 0.0]));
        // 8 samples, #7 = (7, -7) / 16 = (0.4375, -0.4375).
        assert_eq!(standard_sample_position(8, 7), Some([0.4375, -0.4375]));
    }

    #[test]
    fn every_sample_lies_on_the_grid_inside_the_pixel_and_apart() {
        // 19.2.4's grid: "Only coordinates [-8,7] are valid for both axis"; no two samples of a pattern share a row
        // or a column ("it is undesirable for a sample pattern to have multiple samples line up").
        for (count, _) in SPEC {
            let pattern = standard_pattern(count).unwrap();
            for (i, a) in pattern.iter().enumerate() {
                assert!(a.iter().all(|c| (-8..=7).contains(c)), "{count}: {a:?}");
                for b in pattern.iter().skip(i + 1) {
                    assert!(a[0] != b[0] && a[1] != b[1], "{count}: {a:?} and {b:?} line up");
                }
            }
        }
    }

    #[test]
    fn quality_levels_pick_the_standard_or_the_centre_pattern() {
        // 19.2.4: 0xFFFFFFFF the standard pattern (and quality 0 read as it), 0xFFFFFFFE every sample at the centre.
        for quality in [0, STANDARD_MULTISAMPLE_PATTERN] {
            assert_eq!(sample_position(4, quality, 2), Some([-0.375, 0.125])); // (-6, 2) / 16
        }
        assert_eq!(pattern(8, CENTER_MULTISAMPLE_PATTERN), Some(&[[0, 0]; 8][..]));
        assert_eq!(sample_position(16, CENTER_MULTISAMPLE_PATTERN, 15), Some([0.0, 0.0]));
        assert_eq!(sample_position(16, CENTER_MULTISAMPLE_PATTERN, 16), None);
        // A vendor quality level: unknown positions, but for the one sample at the centre.
        assert_eq!(pattern(4, 3), None);
        assert_eq!(pattern(1, 3), Some(&[[0, 0]][..]));
        assert_eq!(pattern(32, CENTER_MULTISAMPLE_PATTERN), None);
    }

    #[test]
    fn counts_without_a_standard_pattern_and_indices_past_the_count_have_none() {
        for count in [0, 3, 5, 32, u32::MAX] {
            assert_eq!(standard_pattern(count), None, "{count}");
            assert_eq!(standard_sample_position(count, 0), None, "{count}");
        }
        assert_eq!(standard_sample_position(4, 4), None);
        assert_eq!(standard_sample_position(1, 1), None);
        assert_eq!(standard_sample_position(16, u32::MAX), None);
    }
}
