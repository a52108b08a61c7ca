//! LDR-FLIP: the perceptual difference of two sRGB pictures, after Andersson, Nilsson, Akenine-Möller, Oskarsson,
//! Åström and Fairchild, "FLIP: A Difference Evaluator for Alternating Images", Proc. ACM Comput. Graph.
//! Interact. Tech. 3(2), article 15, 2020 (NVIDIA). The constants and the order of the steps were checked against
//! NVIDIA's BSD-3-licensed reference implementation (github.com/NVlabs/flip, `FLIP.h`); the code is our own.
//!
//! [`flip`] gives one error in [0, 1] per pixel, roughly how visible the difference is to someone flipping between
//! the two pictures on a display seen at [`FlipOptions::pixels_per_degree`]. Two pipelines run side by side:
//! - Colour (the paper's colour pipeline): both pictures go from sRGB to linear RGB to XYZ to YCxCz (a linear
//!   opponent space: achromatic, red-green, blue-yellow), are blurred by the spatial filters that model the eye's
//!   contrast sensitivity per channel, go back to linear RGB (clamped to [0, 1]) and on to CIELAB, get their
//!   chroma scaled by lightness (the Hunt effect) and are compared with the HyAB distance, which is then
//!   compressed to [0, 1] (exponent qc = 0.7, knee at pc = 0.4 of the largest distance, mapped to pt = 0.95).
//! - Features (the paper's feature pipeline): the luminance of each picture is filtered with the first and second
//!   derivatives of a Gaussian (standard deviation 0.5 * 0.082 degrees) to find edges and points; the larger of the
//!   edge and point differences, over sqrt(2) and raised to qf = 0.5, is the feature difference.
//!
//! The error is colour ^ (1 - feature): a difference of colour alone counts as it is, and one that also moves an
//! edge or a point counts more.
//!
//! All filters are separable and run as a horizontal then a vertical pass of 1-D kernels, as the reference
//! implementation does (the blue-yellow filter, a sum of two Gaussians, as two separate pairs of passes); pixels
//! beyond the border repeat the nearest edge pixel. Rows stream through a ring of horizontally filtered rows, so
//! the working memory beyond the result is a few dozen rows. Arithmetic is `f32` as in the reference; kernels are
//! built in `f64`.

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

use crate::error::ErrorKind;
use crate::{Error, Result};

/// Pixels per degree of visual angle of a display `width_px` pixels and `monitor_width_m` metres wide seen from
/// `distance_m` metres: pixels per metre times the metres one degree spans at that distance (`distance_m` *
/// pi / 180, the small-angle approximation the paper uses).
pub const fn pixels_per_degree(distance_m: f32, width_px: f32, monitor_width_m: f32) -> f32 {
    distance_m * (width_px / monitor_width_m) * (std::f32::consts::PI / 180.0)
}

/// The paper's default viewing condition: a 0.7 m wide, 3840-pixel monitor seen from 0.7 m, that is
/// 3840 * pi / 180 = 67.02 pixels per degree.
pub const DEFAULT_PIXELS_PER_DEGREE: f32 = pixels_per_degree(0.7, 3840.0, 0.7);

/// The largest pixels per degree [`flip`] accepts (a 3840-pixel, 0.7 m monitor seen from about 3 m). The filter
/// radius grows with it (41 pixels here), and with it the time per pixel.
pub const MAX_PIXELS_PER_DEGREE: f32 = 300.0;

/// The largest width or height [`flip`] accepts.
pub const MAX_SIDE: u32 = 16384;

/// The most pixels [`flip`] accepts (8192 x 8192): the result alone then takes 256 MiB.
pub const MAX_PIXELS: u64 = 8192 * 8192;

/// How the pictures are viewed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlipOptions {
    /// Pixels per degree of visual angle (see [`pixels_per_degree`]); sets the size of every filter. In
    /// (0, [`MAX_PIXELS_PER_DEGREE`]].
    pub pixels_per_degree: f32,
}

impl Default for FlipOptions {
    /// The paper's default viewing condition, [`DEFAULT_PIXELS_PER_DEGREE`].
    fn default() -> Self {
        Self {
            pixels_per_degree: DEFAULT_PIXELS_PER_DEGREE,
        }
    }
}

/// The FLIP error of every pixel.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipMap {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The error of each pixel, in [0, 1] (0: no visible difference), rows packed, top row first.
    pub values: Vec<f32>,
}

impl FlipMap {
    /// The mean error (the paper's simplest pooling to one number); 0 for an empty map.
    pub fn mean(&self) -> f32 {
        if self.values.is_empty() {
            return 0.0;
        }
        let sum: f64 = self.values.iter().map(|&v| f64::from(v)).sum();
        (sum / self.values.len() as f64) as f32
    }

    /// The `p`-th percentile of the errors by the nearest-rank rule: on the errors sorted ascending (a copy), the
    /// value at rank ceil(p / 100 * n), counting from 1, and the smallest error for p = 0. `p` is clamped to
    /// [0, 100] (NaN counts as 0); an empty map gives 0. So p = 50 of [0.1, 0.2, 0.3, 0.4] is 0.2 and p = 100
    /// is the largest error.
    pub fn percentile(&self, p: f32) -> f32 {
        let count = self.values.len();
        if count == 0 {
            return 0.0;
        }
        let p = if p.is_nan() {
            0.0
        } else {
            f64::from(p).clamp(0.0, 100.0)
        };
        let rank = ((p / 100.0) * count as f64).ceil() as usize;
        let mut sorted = self.values.clone();
        sorted.sort_unstable_by(f32::total_cmp);
        sorted
            .get(rank.clamp(1, count).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    }

    /// The map as RGBA8 (opaque), each error through the magma colour map: error e shows entry round(e * 255) of
    /// [`MAGMA`] (so 0 is near-black, 1 pale yellow), as the reference tool shows its error maps.
    pub fn to_rgba8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.values.len().saturating_mul(4));
        for &value in &self.values {
            // NaN (never produced) casts to index 0.
            let index = (value.clamp(0.0, 1.0) * 255.0).round() as usize;
            let [r, g, b] = MAGMA.get(index).copied().unwrap_or([252, 253, 191]);
            out.extend_from_slice(&[r, g, b, 255]);
        }
        out
    }
}

/// A [`FlipMap`] pooled to a few numbers: its mean and the 50th, 95th and 99th percentiles and the largest error
/// (nearest rank, [`FlipMap::percentile`]), each in [0, 1]. What a replay reports of a target's perceptual
/// difference (`crate::replay::TargetReplay::perceptual`), the map itself being megabytes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerceptualError {
    /// The mean error ([`FlipMap::mean`]).
    pub mean: f32,
    /// The median error.
    pub p50: f32,
    /// The 95th percentile.
    pub p95: f32,
    /// The 99th percentile.
    pub p99: f32,
    /// The largest error (the 100th percentile).
    pub max: f32,
}

impl PerceptualError {
    /// The figures of `map` (all 0 for an empty map).
    pub fn of(map: &FlipMap) -> PerceptualError {
        PerceptualError {
            mean: map.mean(),
            p50: map.percentile(50.0),
            p95: map.percentile(95.0),
            p99: map.percentile(99.0),
            max: map.values.iter().copied().fold(0.0, f32::max),
        }
    }
}

/// The LDR-FLIP error map of `test` against `reference`, two `width` x `height` RGBA8 pictures with
/// sRGB-encoded colour (alpha is ignored), rows packed, top row first.
///
/// Errors, of kind [`ErrorKind::Request`], for a zero width or height or pixels per degree that are not a
/// number in (0, [`MAX_PIXELS_PER_DEGREE`]]; of kind [`ErrorKind::Budget`] for a side over [`MAX_SIDE`], more
/// than [`MAX_PIXELS`] pixels or memory that cannot be had; of kind [`ErrorKind::Invalid`] when either buffer
/// is not exactly width * height * 4 bytes.
pub fn flip(reference: &[u8], test: &[u8], width: u32, height: u32, options: &FlipOptions) -> Result<FlipMap> {
    let pixels = check_size(reference, test, width, height, options.pixels_per_degree)?;
    let mut values = Vec::new();
    values
        .try_reserve_exact(pixels)
        .map_err(|_| Error::of_kind(ErrorKind::Budget, "flip", format!("no memory for {pixels} errors")))?;
    run(reference, test, width, options.pixels_per_degree, |colour, feature| {
        values.push(combine(colour, feature));
    })?;
    Ok(FlipMap { width, height, values })
}

/// Checks the arguments of [`flip`]; the pixel count.
fn check_size(reference: &[u8], test: &[u8], width: u32, height: u32, pixels_per_degree: f32) -> Result<usize> {
    if !(pixels_per_degree > 0.0 && pixels_per_degree <= MAX_PIXELS_PER_DEGREE) {
        return Err(Error::of_kind(
            ErrorKind::Request,
            "flip",
            format!("{pixels_per_degree} pixels per degree is not in (0, {MAX_PIXELS_PER_DEGREE}]"),
        ));
    }
    if width == 0 || height == 0 {
        return Err(Error::of_kind(
            ErrorKind::Request,
            "flip",
            format!("a {width}x{height} picture has no pixels"),
        ));
    }
    let pixels = u64::from(width).saturating_mul(u64::from(height));
    if width > MAX_SIDE || height > MAX_SIDE || pixels > MAX_PIXELS {
        return Err(Error::of_kind(
            ErrorKind::Budget,
            "flip",
            format!("a {width}x{height} picture is over the limit of {MAX_PIXELS} pixels, {MAX_SIDE} a side"),
        ));
    }
    let pixels = usize::try_from(pixels).map_err(|_| {
        Error::of_kind(
            ErrorKind::Budget,
            "flip",
            format!("{pixels} pixels do not fit in memory"),
        )
    })?;
    let bytes = pixels.saturating_mul(4);
    for (name, data) in [("reference", reference), ("test", test)] {
        if data.len() != bytes {
            return Err(Error::new(
                format!("flip {name}"),
                format!(
                    "a {width}x{height} RGBA8 picture needs {bytes} bytes; {} given",
                    data.len()
                ),
            ));
        }
    }
    Ok(pixels)
}

/// The FLIP error of a pixel from its colour difference and feature difference: colour ^ (1 - feature) (the
/// paper's final combination of the two pipelines), clamped to [0, 1] in case two colours are farther apart than
/// the pair that defines the largest distance.
fn combine(colour: f32, feature: f32) -> f32 {
    colour.powf(1.0 - feature).clamp(0.0, 1.0)
}

/// qc, the exponent that compresses the HyAB distance of the colour pipeline.
const QC: f32 = 0.7;
/// pc, where the error mapping of the colour pipeline has its knee, as a fraction of the largest distance.
const PC: f32 = 0.4;
/// pt, the error the knee maps to: distances below it spread over [0, pt], the rest over [pt, 1].
const PT: f32 = 0.95;
/// qf, the exponent of the feature difference.
const QF: f32 = 0.5;
/// w, the width in degrees of the feature filters; their Gaussian's standard deviation is half of it.
const FEATURE_WIDTH_DEGREES: f64 = 0.082;

/// The paper's fit of the contrast sensitivity of each YCxCz channel in the spatial domain: a sum of Gaussians
/// a * sqrt(pi / b) * exp(-pi^2 x^2 / b) of the distance x in degrees, given as (a, b). Achromatic (Y).
const ACHROMATIC: (f64, f64) = (1.0, 0.0047);
/// Red-green (Cx): one Gaussian as for [`ACHROMATIC`].
const RED_GREEN: (f64, f64) = (1.0, 0.0053);
/// Blue-yellow (Cz): the sum of two Gaussians as for [`ACHROMATIC`].
const BLUE_YELLOW: [(f64, f64); 2] = [(34.1, 0.04), (13.5, 0.025)];
/// The largest b of the filters above: it sets their common radius.
const WIDEST_B: f64 = 0.04;

/// Linear sRGB to CIE XYZ, as the reference implementation has it (image-engineering.de's technote 958, the
/// matrix for a D65 white), rows X, Y, Z.
const RGB_TO_XYZ: [[f32; 3]; 3] = [
    [0.412_386_57, 0.357_591_48, 0.180_450_48],
    [0.212_636_83, 0.715_182_96, 0.072_180_2],
    [0.019_330_62, 0.119_197_16, 0.950_372_6],
];
/// The inverse of [`RGB_TO_XYZ`] (computed from it in double precision).
const XYZ_TO_RGB: [[f32; 3]; 3] = [
    [3.241_003_3, -1.537_398_9, -0.498_615_9],
    [-0.969_224_3, 1.875_93, 0.041_554_227],
    [0.055_639_42, -0.204_011_2, 1.057_148_9],
];
/// The white point: XYZ of linear RGB (1, 1, 1) by [`RGB_TO_XYZ`] (its row sums), D65 with Y = 1.
const WHITE: [f32; 3] = [0.950_428_55, 1.0, 1.088_900_3];

/// Eight values filtered side by side, one per lane, so that one pass of each direction serves every filter.
///
/// Horizontal pass: the lanes of a pixel are (Y, Cx, Cz, Cz, L, L, L, L), L the luminance (Y of XYZ over the
/// white's), weighted per lane by (achromatic, red-green, blue-yellow 1, blue-yellow 2, G', G'', G, G), G the
/// feature Gaussian and G', G'' its derivatives. Vertical pass: weights (achromatic, red-green, blue-yellow 1,
/// blue-yellow 2, G, G, G', G''), which leaves the filtered Y, Cx, the two halves of Cz, and the edge and point
/// responses d/dx, d2/dx2, d/dy, d2/dy2 of the luminance.
type Lanes = [f32; 8];

/// The 1-D kernels of both passes, all with the same radius (the shorter filter padded with zero weights, which
/// add nothing).
#[derive(Debug)]
struct Kernels {
    /// Taps each side of the centre.
    radius: usize,
    /// The weights of the horizontal pass, tap by tap from -radius (lanes in [`Lanes`]).
    horizontal: Vec<Lanes>,
    /// The weights of the vertical pass, tap by tap from -radius.
    vertical: Vec<Lanes>,
}

impl Kernels {
    /// The kernels for `pixels_per_degree` (positive and finite).
    ///
    /// Colour (the paper's spatial filtering): the radius covers 3 standard deviations of the widest Gaussian,
    /// ceil(3 * sqrt(b / (2 pi^2)) * ppd) pixels; tap i sits at i / ppd degrees. The achromatic and red-green
    /// kernels are normalised to sum to 1. The blue-yellow filter is the 2-D sum of two Gaussians, so it runs as
    /// two separable filters, each with 1-D weights sqrt(a * sqrt(pi / b)) * exp(-pi^2 x^2 / b), both divided by
    /// sqrt(S1^2 + S2^2) (S1, S2 their sums) so that the 2-D sum S1^2 + S2^2 becomes 1.
    ///
    /// Features (the paper's edge and point detection): a Gaussian of standard deviation s = 0.5 * 0.082 * ppd
    /// pixels over ceil(3 s) taps each side, its first derivative -x g(x) and second derivative
    /// (x^2 / s^2 - 1) g(x); the Gaussian sums to 1, and the positive and the negative weights of each
    /// derivative sum to 1 and -1.
    fn new(pixels_per_degree: f32) -> Kernels {
        let ppd = f64::from(pixels_per_degree);
        let colour_radius = (3.0 * (WIDEST_B / (2.0 * PI * PI)).sqrt() * ppd).ceil() as usize;
        let sigma = 0.5 * FEATURE_WIDTH_DEGREES * ppd;
        let feature_radius = (3.0 * sigma).ceil() as usize;
        let radius = colour_radius.max(feature_radius);

        let gaussian = |(a, b): (f64, f64), x2: f64| a * (PI / b).sqrt() * (-PI * PI * x2 / b).exp();
        let root_gaussian = |(a, b): (f64, f64), x2: f64| (a * (PI / b).sqrt()).sqrt() * (-PI * PI * x2 / b).exp();
        let [blue_yellow_1, blue_yellow_2] = BLUE_YELLOW;
        // Unnormalised weights per tap: achromatic, red-green, blue-yellow 1 and 2, G, G', G''.
        let raw: Vec<[f64; 7]> = (0..=radius.saturating_mul(2))
            .map(|tap| {
                let offset = tap as f64 - radius as f64;
                let distance = offset.abs() as usize;
                let [a, rg, by1, by2] = if distance <= colour_radius {
                    let x = offset / ppd;
                    let x2 = x * x;
                    [
                        gaussian(ACHROMATIC, x2),
                        gaussian(RED_GREEN, x2),
                        root_gaussian(blue_yellow_1, x2),
                        root_gaussian(blue_yellow_2, x2),
                    ]
                } else {
                    [0.0; 4]
                };
                let [g, dg, ddg] = if distance <= feature_radius {
                    let g = (-(offset * offset) / (2.0 * sigma * sigma)).exp();
                    [g, -offset * g, (offset * offset / (sigma * sigma) - 1.0) * g]
                } else {
                    [0.0; 3]
                };
                [a, rg, by1, by2, g, dg, ddg]
            })
            .collect();

        let sum = |lane: usize, keep: fn(f64) -> bool| -> f64 {
            raw.iter()
                .filter_map(|w| w.get(lane).copied())
                .filter(|&v| keep(v))
                .sum()
        };
        let all = |_: f64| true;
        let positive = |v: f64| v > 0.0;
        let negative = |v: f64| v < 0.0;
        let divide = |v: f64, by: f64| if by != 0.0 { (v / by) as f32 } else { 0.0 };
        let blue_yellow_norm = sum(2, all).hypot(sum(3, all));
        let (achromatic_sum, red_green_sum, g_sum) = (sum(0, all), sum(1, all), sum(4, all));
        let (dg_positive, dg_negative) = (sum(5, positive), -sum(5, negative));
        let (ddg_positive, ddg_negative) = (sum(6, positive), -sum(6, negative));

        let mut horizontal = Vec::with_capacity(raw.len());
        let mut vertical = Vec::with_capacity(raw.len());
        for &[achromatic, red_green, blue_yellow_1, blue_yellow_2, g, dg, ddg] in &raw {
            let a = divide(achromatic, achromatic_sum);
            let rg = divide(red_green, red_green_sum);
            let by1 = divide(blue_yellow_1, blue_yellow_norm);
            let by2 = divide(blue_yellow_2, blue_yellow_norm);
            let g = divide(g, g_sum);
            let dg = divide(dg, if dg > 0.0 { dg_positive } else { dg_negative });
            let ddg = divide(ddg, if ddg > 0.0 { ddg_positive } else { ddg_negative });
            horizontal.push([a, rg, by1, by2, dg, ddg, g, g]);
            vertical.push([a, rg, by1, by2, g, g, dg, ddg]);
        }
        Kernels {
            radius,
            horizontal,
            vertical,
        }
    }

    /// Taps per kernel, 2 * radius + 1.
    fn taps(&self) -> usize {
        self.horizontal.len()
    }
}

/// `acc += weight * value`, lane by lane.
#[inline(always)]
fn mul_add(acc: &mut Lanes, weight: &Lanes, value: &Lanes) {
    for ((a, w), v) in acc.iter_mut().zip(weight).zip(value) {
        *a += w * v;
    }
}

/// `m * v` for a 3x3 matrix.
fn mul(m: &[[f32; 3]; 3], v: [f32; 3]) -> [f32; 3] {
    let [[a, b, c], [d, e, f], [g, h, i]] = *m;
    let [x, y, z] = v;
    [a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z]
}

/// XYZ over the white's, component by component.
fn relative_to_white(xyz: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = xyz;
    let [wx, wy, wz] = WHITE;
    [x / wx, y / wy, z / wz]
}

/// The linear value of each 8-bit sRGB code (the sRGB transfer function of IEC 61966-2-1).
fn srgb_decoding_table() -> [f32; 256] {
    let mut table = [0.0; 256];
    for (code, linear) in (0..=255u8).zip(table.iter_mut()) {
        let c = f64::from(code) / 255.0;
        *linear = if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        } as f32;
    }
    table
}

/// The lanes of the horizontal pass for one pixel of linear RGB: its YCxCz (Y = 116 y - 16, Cx = 500 (x - y),
/// Cz = 200 (y - z) of XYZ relative to the white: CIELAB without the cube root) and its relative luminance y,
/// which is what the reference's feature pipeline reads, (Y + 16) / 116.
fn input_lanes(linear: [f32; 3]) -> Lanes {
    let [x, y, z] = relative_to_white(mul(&RGB_TO_XYZ, linear));
    let (cx, cz) = (500.0 * (x - y), 200.0 * (y - z));
    [116.0 * y - 16.0, cx, cz, cz, y, y, y, y]
}

/// CIELAB of XYZ (D65 white of [`WHITE`]).
fn lab(xyz: [f32; 3]) -> [f32; 3] {
    const DELTA: f32 = 6.0 / 29.0;
    let f = |t: f32| {
        if t > DELTA * DELTA * DELTA {
            t.cbrt()
        } else {
            t / (3.0 * DELTA * DELTA) + 4.0 / 29.0
        }
    };
    let [x, y, z] = relative_to_white(xyz).map(f);
    [116.0 * y - 16.0, 500.0 * (x - y), 200.0 * (y - z)]
}

/// The Hunt adjustment of the colour pipeline: chroma grows with lightness, a and b scaled by L / 100.
fn hunt([l, a, b]: [f32; 3]) -> [f32; 3] {
    [l, 0.01 * l * a, 0.01 * l * b]
}

/// The HyAB distance: |L1 - L2| plus the Euclidean distance of (a, b).
fn hyab([l1, a1, b1]: [f32; 3], [l2, a2, b2]: [f32; 3]) -> f32 {
    let (da, db) = (a1 - a2, b1 - b2);
    (l1 - l2).abs() + (da * da + db * db).sqrt()
}

/// Hunt-adjusted CIELAB of a filtered YCxCz colour: back to XYZ and to linear RGB, clamped to [0, 1] (the
/// filters can leave the gamut), then to CIELAB.
fn hunt_lab_of_filtered([y, cx, cz]: [f32; 3]) -> [f32; 3] {
    let [wx, wy, wz] = WHITE;
    let fy = (y + 16.0) / 116.0;
    let xyz = [(fy + cx / 500.0) * wx, fy * wy, (fy - cz / 200.0) * wz];
    let linear = mul(&XYZ_TO_RGB, xyz).map(|c| c.clamp(0.0, 1.0));
    hunt(lab(mul(&RGB_TO_XYZ, linear)))
}

/// The mapping of HyAB distances to colour errors in [0, 1].
#[derive(Clone, Copy, Debug)]
struct ColourScale {
    /// cmax: the largest distance after the exponent qc, that of pure green and pure blue.
    max: f32,
    /// pc * cmax.
    knee: f32,
}

impl ColourScale {
    /// The scale of the paper: cmax from linear green (0, 1, 0) against blue (0, 0, 1).
    fn new() -> ColourScale {
        let green = hunt(lab(mul(&RGB_TO_XYZ, [0.0, 1.0, 0.0])));
        let blue = hunt(lab(mul(&RGB_TO_XYZ, [0.0, 0.0, 1.0])));
        let max = hyab(green, blue).powf(QC);
        ColourScale { max, knee: PC * max }
    }

    /// The colour error of a HyAB distance: d = distance ^ qc, then d * pt / knee below the knee and
    /// pt + (d - knee) / (cmax - knee) * (1 - pt) above it.
    fn error(&self, distance: f32) -> f32 {
        let d = distance.powf(QC);
        if d < self.knee {
            d * PT / self.knee
        } else {
            PT + (d - self.knee) / (self.max - self.knee) * (1.0 - PT)
        }
    }
}

/// The colour error of a pixel from the filtered lanes of both pictures.
fn colour_difference(reference: &Lanes, test: &Lanes, scale: &ColourScale) -> f32 {
    let [y1, cx1, cz1a, cz1b, ..] = *reference;
    let [y2, cx2, cz2a, cz2b, ..] = *test;
    scale.error(hyab(
        hunt_lab_of_filtered([y1, cx1, cz1a + cz1b]),
        hunt_lab_of_filtered([y2, cx2, cz2a + cz2b]),
    ))
}

/// The feature difference of a pixel from the filtered lanes of both pictures: edge strength is the length of
/// the first-derivative response (d/dx, d/dy), point strength that of the second-derivative one; the larger of
/// the two differences, over sqrt(2), raised to qf.
fn feature_difference(reference: &Lanes, test: &Lanes) -> f32 {
    let length = |a: f32, b: f32| (a * a + b * b).sqrt();
    let [.., dx1, ddx1, dy1, ddy1] = *reference;
    let [.., dx2, ddx2, dy2, ddy2] = *test;
    let edge = (length(dx1, dy1) - length(dx2, dy2)).abs();
    let point = (length(ddx1, ddy1) - length(ddx2, ddy2)).abs();
    (edge.max(point) * std::f32::consts::FRAC_1_SQRT_2).powf(QF)
}

/// A zeroed vector of `len` lanes, or a budget error.
fn zeroed(len: usize) -> Result<Vec<Lanes>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::of_kind(
            ErrorKind::Budget,
            "flip",
            format!("no memory for {len} filtered pixels"),
        )
    })?;
    v.resize(len, [0.0; 8]);
    Ok(v)
}

/// One picture streaming through the filters: its rows, the last 2 * radius + 1 of them filtered horizontally
/// (row r in slot r mod slots), and the vertical result of the current row.
struct Stream<'a> {
    /// The picture's rows not yet filtered.
    source: std::slice::ChunksExact<'a, u8>,
    /// Rows filtered so far.
    filled: usize,
    /// Pixels per row.
    width: usize,
    /// Slots of the ring, 2 * radius + 1.
    slots: usize,
    /// The ring of horizontally filtered rows, `slots` rows of `width` pixels.
    ring: Vec<Lanes>,
    /// The source row padded by `radius` copies of its end pixels each side, as lanes (scratch).
    padded: Vec<Lanes>,
    /// The current output row after both passes.
    filtered: Vec<Lanes>,
}

impl<'a> Stream<'a> {
    /// A stream over `data`, rows of `width` RGBA8 pixels (`width` > 0, `data` whole rows).
    fn new(data: &'a [u8], width: usize, kernels: &Kernels) -> Result<Stream<'a>> {
        let slots = kernels.taps();
        let stride = width.saturating_mul(4);
        Ok(Stream {
            source: data.chunks_exact(stride),
            filled: 0,
            width,
            slots,
            ring: zeroed(slots.saturating_mul(width))?,
            padded: zeroed(width.saturating_add(slots))?,
            filtered: zeroed(width)?,
        })
    }

    /// The ring slot of row `row`.
    fn slot(&self, row: usize) -> &[Lanes] {
        let start = row.checked_rem(self.slots).unwrap_or(0).saturating_mul(self.width);
        self.ring.get(start..start.saturating_add(self.width)).unwrap_or(&[])
    }

    /// Filters the next source row horizontally into its slot.
    fn fill_next(&mut self, kernels: &Kernels, decode: &[f32; 256]) {
        let Some(row) = self.source.next() else {
            return;
        };
        let lanes = |pixel: &[u8]| match *pixel {
            [r, g, b, _] => {
                let linear = |code: u8| decode.get(usize::from(code)).copied().unwrap_or(0.0);
                input_lanes([linear(r), linear(g), linear(b)])
            }
            _ => [0.0; 8],
        };
        let first = row.chunks_exact(4).next().map_or([0.0; 8], lanes);
        let last = row.chunks_exact(4).next_back().map_or([0.0; 8], lanes);
        self.padded.clear();
        self.padded.extend(std::iter::repeat_n(first, kernels.radius));
        self.padded.extend(row.chunks_exact(4).map(lanes));
        self.padded.extend(std::iter::repeat_n(last, kernels.radius));

        let start = self
            .filled
            .checked_rem(self.slots)
            .unwrap_or(0)
            .saturating_mul(self.width);
        let end = start.saturating_add(self.width);
        if let Some(out) = self.ring.get_mut(start..end) {
            for (out, window) in out.iter_mut().zip(self.padded.windows(kernels.taps())) {
                let mut acc = [0.0; 8];
                for (weight, value) in kernels.horizontal.iter().zip(window) {
                    mul_add(&mut acc, weight, value);
                }
                *out = acc;
            }
        }
        self.filled = self.filled.saturating_add(1);
    }

    /// Filters output row `y` of a picture `height` rows tall vertically into `filtered`, filling the ring as far
    /// as that needs. Rows above the top and below the bottom repeat the edge rows.
    fn filter_row(&mut self, y: usize, height: usize, kernels: &Kernels, decode: &[f32; 256]) {
        let last_row = height.saturating_sub(1);
        let needed = y.saturating_add(kernels.radius).min(last_row);
        while self.filled <= needed && self.filled < height {
            self.fill_next(kernels, decode);
        }
        let mut filtered = std::mem::take(&mut self.filtered);
        filtered.fill([0.0; 8]);
        for (tap, weight) in kernels.vertical.iter().enumerate() {
            let row = y.saturating_add(tap).saturating_sub(kernels.radius).min(last_row);
            for (acc, value) in filtered.iter_mut().zip(self.slot(row)) {
                mul_add(acc, weight, value);
            }
        }
        self.filtered = filtered;
    }
}

/// Runs both pipelines over two checked pictures `width` pixels wide, calling `sink` with the colour and feature
/// differences of each pixel in row order.
fn run(
    reference: &[u8],
    test: &[u8],
    width: u32,
    pixels_per_degree: f32,
    mut sink: impl FnMut(f32, f32),
) -> Result<()> {
    let width = width as usize;
    let height = reference.len().checked_div(width.saturating_mul(4)).unwrap_or(0);
    let kernels = Kernels::new(pixels_per_degree);
    let scale = ColourScale::new();
    let decode = srgb_decoding_table();
    let mut reference = Stream::new(reference, width, &kernels)?;
    let mut test = Stream::new(test, width, &kernels)?;
    for y in 0..height {
        reference.filter_row(y, height, &kernels, &decode);
        test.filter_row(y, height, &kernels, &decode);
        for (r, t) in reference.filtered.iter().zip(&test.filtered) {
            sink(colour_difference(r, t, &scale), feature_difference(r, t));
        }
    }
    Ok(())
}

/// matplotlib's magma colour map (Nathaniel J. Smith and Stéfan van der Walt, CC0; `_magma_data` in matplotlib's
/// `_cm_listed.py`), 256 entries from black-purple to pale yellow, each component times 255 rounded.
#[rustfmt::skip]
pub const MAGMA: [[u8; 3]; 256] = [
    [0, 0, 4], [1, 0, 5], [1, 1, 6], [1, 1, 8], [2, 1, 9], [2, 2, 11], [2, 2, 13], [3, 3, 15],
    [3, 3, 18], [4, 4, 20], [5, 4, 22], [6, 5, 24], [6, 5, 26], [7, 6, 28], [8, 7, 30], [9, 7, 32],
    [10, 8, 34], [11, 9, 36], [12, 9, 38], [13, 10, 41], [14, 11, 43], [16, 11, 45], [17, 12, 47], [18, 13, 49],
    [19, 13, 52], [20, 14, 54], [21, 14, 56], [22, 15, 59], [24, 15, 61], [25, 16, 63], [26, 16, 66], [28, 16, 68],
    [29, 17, 71], [30, 17, 73], [32, 17, 75], [33, 17, 78], [34, 17, 80], [36, 18, 83], [37, 18, 85], [39, 18, 88],
    [41, 17, 90], [42, 17, 92], [44, 17, 95], [45, 17, 97], [47, 17, 99], [49, 17, 101], [51, 16, 103], [52, 16, 105],
    [54, 16, 107], [56, 16, 108], [57, 15, 110], [59, 15, 112], [61, 15, 113], [63, 15, 114], [64, 15, 116], [66, 15, 117],
    [68, 15, 118], [69, 16, 119], [71, 16, 120], [73, 16, 120], [74, 16, 121], [76, 17, 122], [78, 17, 123], [79, 18, 123],
    [81, 18, 124], [82, 19, 124], [84, 19, 125], [86, 20, 125], [87, 21, 126], [89, 21, 126], [90, 22, 126], [92, 22, 127],
    [93, 23, 127], [95, 24, 127], [96, 24, 128], [98, 25, 128], [100, 26, 128], [101, 26, 128], [103, 27, 128], [104, 28, 129],
    [106, 28, 129], [107, 29, 129], [109, 29, 129], [110, 30, 129], [112, 31, 129], [114, 31, 129], [115, 32, 129], [117, 33, 129],
    [118, 33, 129], [120, 34, 129], [121, 34, 130], [123, 35, 130], [124, 35, 130], [126, 36, 130], [128, 37, 130], [129, 37, 129],
    [131, 38, 129], [132, 38, 129], [134, 39, 129], [136, 39, 129], [137, 40, 129], [139, 41, 129], [140, 41, 129], [142, 42, 129],
    [144, 42, 129], [145, 43, 129], [147, 43, 128], [148, 44, 128], [150, 44, 128], [152, 45, 128], [153, 45, 128], [155, 46, 127],
    [156, 46, 127], [158, 47, 127], [160, 47, 127], [161, 48, 126], [163, 48, 126], [165, 49, 126], [166, 49, 125], [168, 50, 125],
    [170, 51, 125], [171, 51, 124], [173, 52, 124], [174, 52, 123], [176, 53, 123], [178, 53, 123], [179, 54, 122], [181, 54, 122],
    [183, 55, 121], [184, 55, 121], [186, 56, 120], [188, 57, 120], [189, 57, 119], [191, 58, 119], [192, 58, 118], [194, 59, 117],
    [196, 60, 117], [197, 60, 116], [199, 61, 115], [200, 62, 115], [202, 62, 114], [204, 63, 113], [205, 64, 113], [207, 64, 112],
    [208, 65, 111], [210, 66, 111], [211, 67, 110], [213, 68, 109], [214, 69, 108], [216, 69, 108], [217, 70, 107], [219, 71, 106],
    [220, 72, 105], [222, 73, 104], [223, 74, 104], [224, 76, 103], [226, 77, 102], [227, 78, 101], [228, 79, 100], [229, 80, 100],
    [231, 82, 99], [232, 83, 98], [233, 84, 98], [234, 86, 97], [235, 87, 96], [236, 88, 96], [237, 90, 95], [238, 91, 94],
    [239, 93, 94], [240, 95, 94], [241, 96, 93], [242, 98, 93], [242, 100, 92], [243, 101, 92], [244, 103, 92], [244, 105, 92],
    [245, 107, 92], [246, 108, 92], [246, 110, 92], [247, 112, 92], [247, 114, 92], [248, 116, 92], [248, 118, 92], [249, 120, 93],
    [249, 121, 93], [249, 123, 93], [250, 125, 94], [250, 127, 94], [250, 129, 95], [251, 131, 95], [251, 133, 96], [251, 135, 97],
    [252, 137, 97], [252, 138, 98], [252, 140, 99], [252, 142, 100], [252, 144, 101], [253, 146, 102], [253, 148, 103], [253, 150, 104],
    [253, 152, 105], [253, 154, 106], [253, 155, 107], [254, 157, 108], [254, 159, 109], [254, 161, 110], [254, 163, 111], [254, 165, 113],
    [254, 167, 114], [254, 169, 115], [254, 170, 116], [254, 172, 118], [254, 174, 119], [254, 176, 120], [254, 178, 122], [254, 180, 123],
    [254, 182, 124], [254, 183, 126], [254, 185, 127], [254, 187, 129], [254, 189, 130], [254, 191, 132], [254, 193, 133], [254, 194, 135],
    [254, 196, 136], [254, 198, 138], [254, 200, 140], [254, 202, 141], [254, 204, 143], [254, 205, 144], [254, 207, 146], [254, 209, 148],
    [254, 211, 149], [254, 213, 151], [254, 215, 153], [254, 216, 154], [253, 218, 156], [253, 220, 158], [253, 222, 160], [253, 224, 161],
    [253, 226, 163], [253, 227, 165], [253, 229, 167], [253, 231, 169], [253, 233, 170], [253, 235, 172], [252, 236, 174], [252, 238, 176],
    [252, 240, 178], [252, 242, 180], [252, 244, 182], [252, 246, 184], [252, 247, 185], [252, 249, 187], [252, 251, 189], [252, 253, 191],
];

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]
mod tests {
    use super::*;

    /// A `width` x `height` RGBA8 picture of one colour.
    fn uniform(width: usize, height: usize, [r, g, b]: [u8; 3]) -> Vec<u8> {
        [r, g, b, 255].repeat(width * height)
    }

    /// A `width` x `height` RGBA8 picture of pseudo-random colours (a fixed linear congruential sequence).
    fn noise(width: usize, height: usize, seed: u32) -> Vec<u8> {
        let mut state = seed;
        (0..width * height * 4)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            })
            .collect()
    }

    /// FLIP at the default viewing condition.
    fn flip_default(reference: &[u8], test: &[u8], width: u32, height: u32) -> FlipMap {
        flip(reference, test, width, height, &FlipOptions::default()).unwrap()
    }

    /// The colour error of two uniform pictures, worked by hand from CIELAB values: Hunt-adjust both, take HyAB,
    /// then the paper's mapping with cmax from the CIELAB of the sRGB primaries as commonly tabulated (D65):
    /// green (87.73, -86.18, 83.18), blue (32.30, 79.19, -107.86). Hunt: green (87.73, -75.61, 72.97), blue
    /// (32.30, 25.58, -34.84); HyAB = 55.43 + sqrt(101.19^2 + 107.81^2) = 203.30; cmax = 203.30^0.7 = 41.274.
    fn colour_error_by_hand(lab1: [f64; 3], lab2: [f64; 3]) -> f64 {
        let hunt = |[l, a, b]: [f64; 3]| [l, 0.01 * l * a, 0.01 * l * b];
        let hyab = |[l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]| (l1 - l2).abs() + (a1 - a2).hypot(b1 - b2);
        let cmax = hyab(hunt([87.73, -86.18, 83.18]), hunt([32.30, 79.19, -107.86])).powf(0.7);
        let knee = 0.4 * cmax;
        let d = hyab(hunt(lab1), hunt(lab2)).powf(0.7);
        if d < knee {
            d * 0.95 / knee
        } else {
            0.95 + (d - knee) / (cmax - knee) * 0.05
        }
    }

    #[test]
    fn the_default_viewing_condition_is_67_pixels_per_degree() {
        // 0.7 m * (3840 px / 0.7 m) * pi / 180 = 3840 * 0.0174533 = 67.0206.
        assert!(
            (DEFAULT_PIXELS_PER_DEGREE - 67.0206).abs() < 1e-3,
            "{DEFAULT_PIXELS_PER_DEGREE}"
        );
        assert_eq!(FlipOptions::default().pixels_per_degree, DEFAULT_PIXELS_PER_DEGREE);
    }

    #[test]
    fn the_filters_reach_10_pixels_at_the_default_viewing_condition() {
        // Colour: ceil(3 * sqrt(0.04 / (2 pi^2)) * 67.02) = ceil(3 * 0.04502 * 67.02) = ceil(9.05) = 10.
        // Features: ceil(3 * 0.5 * 0.082 * 67.02) = ceil(8.24) = 9, padded to 10 with zero weights.
        let kernels = Kernels::new(DEFAULT_PIXELS_PER_DEGREE);
        assert_eq!(kernels.radius, 10);
        assert_eq!(kernels.taps(), 21);
        let lane_sum = |lane: usize, keep: fn(f32) -> bool| -> f32 {
            kernels.horizontal.iter().map(|w| w[lane]).filter(|&v| keep(v)).sum()
        };
        // The blurs sum to 1 (blue-yellow: its two halves' sums squared add to 1), the derivatives' positive
        // and negative weights to 1 and -1.
        assert!((lane_sum(0, |_| true) - 1.0).abs() < 1e-6);
        assert!((lane_sum(1, |_| true) - 1.0).abs() < 1e-6);
        assert!((lane_sum(2, |_| true).powi(2) + lane_sum(3, |_| true).powi(2) - 1.0).abs() < 1e-6);
        assert!((lane_sum(6, |_| true) - 1.0).abs() < 1e-6);
        for lane in [4, 5] {
            assert!((lane_sum(lane, |v| v > 0.0) - 1.0).abs() < 1e-6);
            assert!((lane_sum(lane, |v| v < 0.0) + 1.0).abs() < 1e-6);
        }
        // The outermost feature taps (offset +-10, beyond 9) weigh nothing.
        assert_eq!(kernels.horizontal[0][4..], [0.0; 4]);
        assert_eq!(kernels.horizontal[20][4..], [0.0; 4]);
    }

    #[test]
    fn identical_pictures_differ_by_nothing_anywhere() {
        let picture = noise(23, 17, 7);
        let map = flip_default(&picture, &picture, 23, 17);
        assert_eq!((map.width, map.height), (23, 17));
        assert_eq!(map.values.len(), 23 * 17);
        assert!(map.values.iter().all(|&v| v == 0.0));
        assert_eq!(map.mean(), 0.0);
    }

    #[test]
    fn black_against_white_is_0_967_everywhere() {
        // CIELAB black is (0, 0, 0) and white (100, 0, 0): HyAB 100, 100^0.7 = 25.119 is above the knee
        // 0.4 * 41.274 = 16.510, so the error is 0.95 + (25.119 - 16.510) / (41.274 - 16.510) * 0.05 = 0.96738.
        // A uniform picture has no edges or points, so that is also the FLIP error, up to the borders.
        let expected = colour_error_by_hand([0.0; 3], [100.0, 0.0, 0.0]);
        assert!((expected - 0.96738).abs() < 1e-5, "{expected}");
        let map = flip_default(&uniform(16, 12, [0; 3]), &uniform(16, 12, [255; 3]), 16, 12);
        for &v in &map.values {
            assert!((f64::from(v) - expected).abs() < 1e-4, "{v} against {expected}");
        }
        // The same one pixel in size (every tap clamps to it).
        let map = flip_default(&uniform(1, 1, [255; 3]), &uniform(1, 1, [0; 3]), 1, 1);
        assert!((f64::from(map.values[0]) - expected).abs() < 1e-4);
    }

    #[test]
    fn a_small_grey_step_maps_below_the_knee() {
        // sRGB 128 decodes to Y = ((128 / 255 + 0.055) / 1.055)^2.4 = 0.215861, L* = 116 * Y^(1/3) - 16 = 53.585;
        // 138 to Y = 0.254152, L* = 57.478. HyAB 3.8928, ^0.7 = 2.5887 < 16.510: 2.5887 * 0.95 / 16.510 = 0.14899.
        let expected = colour_error_by_hand([53.585, 0.0, 0.0], [57.478, 0.0, 0.0]);
        assert!((expected - 0.14899).abs() < 1e-4, "{expected}");
        let map = flip_default(&uniform(9, 9, [128; 3]), &uniform(9, 9, [138; 3]), 9, 9);
        for &v in &map.values {
            assert!((f64::from(v) - expected).abs() < 1e-4, "{v} against {expected}");
        }
    }

    #[test]
    fn the_error_grows_with_the_colour_difference() {
        let reference = uniform(8, 8, [128; 3]);
        let mut previous = 0.0;
        for step in [1u8, 2, 4, 8, 16, 32, 64, 127] {
            let map = flip_default(&reference, &uniform(8, 8, [128 + step; 3]), 8, 8);
            let mean = map.mean();
            assert!(
                mean > previous,
                "a step of {step} gives {mean}, not more than {previous}"
            );
            previous = mean;
        }
        // Hue too: 128 grey against ever more saturated reds of about its lightness.
        let mut previous = 0.0;
        for step in [4u8, 16, 64] {
            let map = flip_default(&reference, &uniform(8, 8, [128 + step, 128 - step, 128 - step]), 8, 8);
            assert!(map.mean() > previous);
            previous = map.mean();
        }
    }

    #[test]
    fn a_single_changed_pixel_is_seen_only_within_the_filter_radius() {
        let (width, height) = (48usize, 40usize);
        let reference = uniform(width, height, [100; 3]);
        let mut test = reference.clone();
        let (cx, cy) = (20usize, 25usize);
        test[(cy * width + cx) * 4..][..3].copy_from_slice(&[255, 255, 255]);
        let map = flip_default(&reference, &test, width as u32, height as u32);
        // Beyond 10 pixels (the radius of every filter) both pictures filter to bit-identical values.
        for y in 0..height {
            for x in 0..width {
                let v = map.values[y * width + x];
                if x.abs_diff(cx) > 10 || y.abs_diff(cy) > 10 {
                    assert_eq!(v, 0.0, "({x}, {y})");
                } else {
                    assert!((0.0..=1.0).contains(&v), "({x}, {y}): {v}");
                }
            }
        }
        let peak = map.values[cy * width + cx];
        assert!(peak > 0.0, "{peak}");
        assert!(map.values.iter().all(|&v| v <= peak));
    }

    #[test]
    fn a_step_edge_against_a_flat_picture_has_feature_difference_2_to_the_minus_quarter() {
        // Left 16 columns black, the rest white, against all black. The derivative kernel's weights are
        // positive left of the centre and negative right of it, normalised to 1 and -1, so on the last black
        // column (only the taps right of the centre see white) and on the first white one (the centre weight is
        // 0) the horizontal response is exactly -1; each column is uniform, so the vertical Gaussian keeps it and
        // the vertical derivatives give 0. Edge strength 1 against 0; the point response there is -w(0) / 2 =
        // 0.149 (w(0) = -1 / 3.3456, the negative weights (1 - k^2 / s^2) exp(-k^2 / (2 s^2)) for |k| <= 2,
        // s = 2.7478, summing to 3.3456), smaller. So the feature difference is (1 / sqrt(2))^0.5 = 2^(-1/4)
        // = 0.840896.
        let (width, height) = (32usize, 6usize);
        let mut reference = uniform(width, height, [0; 3]);
        for pixel in reference
            .chunks_exact_mut(4)
            .enumerate()
            .filter(|(i, _)| i % width >= 16)
        {
            pixel.1[..3].copy_from_slice(&[255; 3]);
        }
        let test = uniform(width, height, [0; 3]);
        let mut differences = Vec::new();
        run(&reference, &test, width as u32, DEFAULT_PIXELS_PER_DEGREE, |c, f| {
            differences.push((c, f))
        })
        .unwrap();
        let map = flip_default(&reference, &test, width as u32, height as u32);
        for y in 0..height {
            for x in [15, 16] {
                let (colour, feature) = differences[y * width + x];
                assert!((feature - 0.840_896).abs() < 1e-5, "({x}, {y}): {feature}");
                // The final error is colour ^ (1 - feature): the edge raises it.
                let v = map.values[y * width + x];
                assert!((v - colour.powf(1.0 - 0.840_896)).abs() < 1e-5);
                assert!(v > colour);
            }
        }
    }

    #[test]
    fn one_pixel_wide_or_tall_pictures_work() {
        for (width, height) in [(1, 7), (7, 1), (2, 2)] {
            let map = flip_default(
                &noise(width, height, 1),
                &noise(width, height, 2),
                width as u32,
                height as u32,
            );
            assert_eq!(map.values.len(), width * height);
            assert!(
                map.values.iter().all(|v| (0.0..=1.0).contains(v)),
                "{width}x{height}: {:?}",
                map.values
            );
        }
    }

    #[test]
    fn alpha_is_ignored() {
        let reference = noise(6, 5, 3);
        let mut test = reference.clone();
        for pixel in test.chunks_exact_mut(4) {
            pixel[3] = 255 - pixel[3];
        }
        assert!(flip_default(&reference, &test, 6, 5).values.iter().all(|&v| v == 0.0));
    }

    #[test]
    fn the_colour_map_runs_from_magmas_first_colour_to_its_last() {
        // matplotlib's magma: first (0.001462, 0.000466, 0.013866) * 255 = (0.37, 0.12, 3.54) -> (0, 0, 4);
        // entry 128 (0.716387, 0.214982, 0.475290) -> (183, 55, 121); last (0.987053, 0.991438, 0.749504)
        // -> (251.70, 252.82, 191.12) -> (252, 253, 191). 0.5 * 255 = 127.5 rounds to entry 128.
        let map = FlipMap {
            width: 5,
            height: 1,
            values: vec![0.0, 0.5, 1.0, -0.25, 2.0],
        };
        assert_eq!(
            map.to_rgba8(),
            [
                [0, 0, 4, 255],
                [183, 55, 121, 255],
                [252, 253, 191, 255],
                [0, 0, 4, 255],
                [252, 253, 191, 255]
            ]
            .concat()
        );
    }

    #[test]
    fn mean_and_percentiles_follow_the_nearest_rank_rule() {
        let map = FlipMap {
            width: 2,
            height: 2,
            values: vec![0.4, 0.1, 0.3, 0.2],
        };
        assert!((map.mean() - 0.25).abs() < 1e-7);
        // Sorted 0.1, 0.2, 0.3, 0.4; rank ceil(p / 100 * 4).
        assert_eq!(map.percentile(0.0), 0.1);
        assert_eq!(map.percentile(25.0), 0.1);
        assert_eq!(map.percentile(26.0), 0.2);
        assert_eq!(map.percentile(50.0), 0.2);
        assert_eq!(map.percentile(75.0), 0.3);
        assert_eq!(map.percentile(76.0), 0.4);
        assert_eq!(map.percentile(100.0), 0.4);
        assert_eq!(map.percentile(150.0), 0.4);
        assert_eq!(map.percentile(f32::NAN), 0.1);
        let empty = FlipMap {
            width: 0,
            height: 0,
            values: Vec::new(),
        };
        assert_eq!((empty.mean(), empty.percentile(50.0)), (0.0, 0.0));
    }

    #[test]
    fn the_perceptual_figures_are_the_maps_mean_percentiles_and_largest_error() {
        // 100 errors 0.00, 0.01, ..., 0.99 (shuffled): nearest rank ceil(p / 100 * 100) = p, so the p-th percentile
        // is entry p - 1 of the sorted list: 0.49, 0.94, 0.98; the mean is 0.99 / 2 = 0.495; the largest 0.99.
        let mut values: Vec<f32> = (0..100).map(|i| i as f32 / 100.0).collect();
        values.reverse();
        values.swap(3, 70);
        let figures = PerceptualError::of(&FlipMap {
            width: 10,
            height: 10,
            values,
        });
        assert!((figures.mean - 0.495).abs() < 1e-6, "{figures:?}");
        assert_eq!(
            (figures.p50, figures.p95, figures.p99, figures.max),
            (0.49, 0.94, 0.98, 0.99)
        );
        let empty = PerceptualError::of(&FlipMap {
            width: 0,
            height: 0,
            values: Vec::new(),
        });
        assert_eq!(
            empty,
            PerceptualError {
                mean: 0.0,
                p50: 0.0,
                p95: 0.0,
                p99: 0.0,
                max: 0.0
            }
        );
    }

    #[test]
    fn bad_sizes_and_viewing_conditions_are_errors() {
        let options = FlipOptions::default();
        let four = uniform(2, 2, [9; 3]);
        let kind = |r: Result<FlipMap>| r.unwrap_err().kind;
        assert_eq!(kind(flip(&[], &[], 0, 4, &options)), ErrorKind::Request);
        assert_eq!(kind(flip(&[], &[], 4, 0, &options)), ErrorKind::Request);
        assert_eq!(kind(flip(&four, &four[..12], 2, 2, &options)), ErrorKind::Invalid);
        assert_eq!(kind(flip(&four[..12], &four, 2, 2, &options)), ErrorKind::Invalid);
        assert_eq!(kind(flip(&four, &four, 2, 1, &options)), ErrorKind::Invalid);
        assert_eq!(kind(flip(&four, &four, MAX_SIDE + 1, 1, &options)), ErrorKind::Budget);
        assert_eq!(kind(flip(&four, &four, 8193, 8193, &options)), ErrorKind::Budget);
        assert_eq!(
            kind(flip(&four, &four, u32::MAX, u32::MAX, &options)),
            ErrorKind::Budget
        );
        for pixels_per_degree in [0.0, -1.0, f32::NAN, f32::INFINITY, MAX_PIXELS_PER_DEGREE * 2.0] {
            let options = FlipOptions { pixels_per_degree };
            assert_eq!(
                kind(flip(&four, &four, 2, 2, &options)),
                ErrorKind::Request,
                "{pixels_per_degree}"
            );
        }
        // The extremes of the accepted range run.
        for pixels_per_degree in [1e-6, 1.0, MAX_PIXELS_PER_DEGREE] {
            let map = flip(
                &four,
                &uniform(2, 2, [200; 3]),
                2,
                2,
                &FlipOptions { pixels_per_degree },
            )
            .unwrap();
            assert!(
                map.values.iter().all(|v| (0.0..=1.0).contains(v)),
                "{pixels_per_degree}: {:?}",
                map.values
            );
        }
    }
}
