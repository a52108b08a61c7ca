//! The comparison of a replayed target with the recorded one: per-pixel classes, statistics and the report.

use serde::{Deserialize, Serialize};

use super::channel::{ChannelKind, Class};
use super::image::{Image, PlannedChannel, plan};
use super::tolerance::{ChannelTolerance, MAX_POSITION_DEVIATION, Tolerance};
use crate::format::Format;
use crate::{Error, Result};

/// A rectangle of pixels: a region of interest, or the bounds of the differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl Rect {
    /// Whether (`x`, `y`) is inside.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        let inside =
            |p: u32, start: u32, size: u32| p >= start && u64::from(p) < u64::from(start).wrapping_add(u64::from(size));
        inside(x, self.x, self.width) && inside(y, self.y, self.height)
    }

    /// The smallest rectangle holding this one and (`x`, `y`).
    fn grown_to(self, x: u32, y: u32) -> Rect {
        let right = self.x.saturating_add(self.width).max(x.saturating_add(1));
        let bottom = self.y.saturating_add(self.height).max(y.saturating_add(1));
        let left = self.x.min(x);
        let top = self.y.min(y);
        Rect {
            x: left,
            y: top,
            width: right.saturating_sub(left),
            height: bottom.saturating_sub(top),
        }
    }
}

/// What a comparison asks besides the two images.
#[derive(Clone, Copy, Debug)]
pub struct CompareOptions<'a> {
    /// How channels are matched, and the position deviation.
    pub tolerance: Tolerance,
    /// Only pixels inside this rectangle are compared (e.g. viewport ∩ scissor).
    pub region: Option<Rect>,
    /// Only pixels whose entry is `true` are compared (e.g. the pixels the draw touched); one entry per pixel,
    /// row-major.
    pub mask: Option<&'a [bool]>,
    /// Pixels whose coverage depends on rounding at a triangle edge; a difference there is reported as ambiguous,
    /// not wrong. One entry per pixel, row-major.
    pub ambiguous: Option<&'a [bool]>,
    /// How many differing (and, separately, ambiguous) pixels the report lists with their values.
    pub max_listed: usize,
}

impl CompareOptions<'_> {
    /// Every pixel compared under `tolerance`, no ambiguity, eight differences listed.
    pub fn new(tolerance: Tolerance) -> CompareOptions<'static> {
        CompareOptions {
            tolerance,
            region: None,
            mask: None,
            ambiguous: None,
            max_listed: 8,
        }
    }
}

/// What the comparison found at one pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PixelClass {
    /// Outside the region or mask.
    NotCompared,
    /// Every compared channel matches in place.
    Match,
    /// No match in place, but one within the position deviation, both ways (see [`super::compare`]).
    Shifted,
    /// A difference at a pixel the ambiguity mask marks.
    Ambiguous,
    /// A real difference.
    Differs,
}

/// The error statistics of one channel over the measured pixels (compared pixels that are neither shifted nor
/// ambiguous differences: the in-place errors of matches and real differences).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelStats {
    /// "R", "G", "B", "A", "Depth" or "Stencil".
    pub channel: String,
    /// Measured pixels where this channel is outside its tolerance in place.
    pub differing_pixels: u64,
    /// The largest |reference - result| over pairs of finite values (or equal infinities/NaNs), in the channel's
    /// value units (see [`super::Tolerance`]).
    pub max_abs_error: f64,
    /// The mean of |reference - result| over the same pairs.
    pub mean_abs_error: f64,
    /// The largest distance in ULPs over the same pairs.
    pub max_ulp_error: u64,
    /// Pairs where one value is NaN or infinite and the other is not the same kind (no finite error).
    pub non_finite_mismatches: u64,
    /// -log2 of the largest normalized error, capped at the channel's own precision and floored at 0 (see the
    /// module doc of [`super`]).
    pub precision_bits: f64,
    /// apitrace's measure: -log2 of the mean squared normalized error, capped at twice the channel's precision.
    pub mean_square_precision_bits: f64,
}

/// One channel of a listed pixel, in both images.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelValues {
    /// The channel's name.
    pub channel: String,
    /// The reference's raw bits.
    pub reference_bits: u32,
    /// The result's raw bits.
    pub result_bits: u32,
    /// The reference's value (NaN and infinities serialize as JSON null).
    pub reference: f64,
    /// The result's value.
    pub result: f64,
    /// Their distance in ULPs; none when one is NaN or infinite and the other not the same.
    pub ulps: Option<u64>,
    /// Whether the channel matches in place.
    pub matches: bool,
}

/// A listed pixel: its position and its compared channels in both images.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PixelDifference {
    /// Column.
    pub x: u32,
    /// Row (0 at the top).
    pub y: u32,
    /// The compared channels.
    pub channels: Vec<ChannelValues>,
}

/// The comparison of one target, as the CLI's `--json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetReport {
    /// The format of both images.
    pub format: Format,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The tolerance used.
    pub tolerance: Tolerance,
    /// Whether no pixel differs (ambiguous differences do not count).
    pub matches: bool,
    /// Pixels inside the region and mask.
    pub compared_pixels: u64,
    /// Compared pixels that differ and are not ambiguous.
    pub differing_pixels: u64,
    /// Compared pixels that differ where the ambiguity mask is set.
    pub ambiguous_pixels: u64,
    /// Compared pixels matched only within the position deviation.
    pub shifted_pixels: u64,
    /// Compared pixels the statistics measure: all but the shifted and the ambiguous ones.
    pub measured_pixels: u64,
    /// Statistics of each compared channel.
    pub channels: Vec<ChannelStats>,
    /// The bounds of the differing pixels.
    pub difference_bounds: Option<Rect>,
    /// The bounds of the ambiguous differences.
    pub ambiguous_bounds: Option<Rect>,
    /// The first differing pixels in row order, with their values.
    pub first_differences: Vec<PixelDifference>,
    /// The first ambiguous differences in row order.
    pub first_ambiguous: Vec<PixelDifference>,
}

/// A finished comparison: the report, and per pixel its class and in-place error for the mask and heatmap.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The report.
    pub report: TargetReport,
    /// Per pixel, row-major.
    pub(crate) classes: Vec<PixelClass>,
    /// Per pixel, the largest in-place ULP distance over the compared channels; infinity for a non-finite
    /// mismatch.
    pub(crate) errors: Vec<f32>,
    /// The largest whole-range ULP count of the compared channels (the default heatmap scale).
    pub(crate) range_ulps: f64,
}

impl Comparison {
    /// Each pixel's class, row-major.
    pub fn classes(&self) -> &[PixelClass] {
        &self.classes
    }

    /// The class of pixel (`x`, `y`), if inside the image.
    pub fn class_at(&self, x: u32, y: u32) -> Option<PixelClass> {
        let index = super::image::pixel_index(self.report.width, self.report.height, x, y)?;
        self.classes.get(index).copied()
    }

    /// Each pixel's largest in-place error in ULPs over the compared channels (infinity where a NaN or infinity
    /// meets anything else; 0 outside the comparison), row-major.
    pub fn ulp_errors(&self) -> &[f32] {
        &self.errors
    }
}

/// The errors of one channel of one pixel pair.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Evaluation {
    /// Whether it is within tolerance.
    matches: bool,
    /// The finite errors, or `None` when a NaN or infinity meets something else.
    error: Option<ChannelError>,
}

/// Finite errors of one channel.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ChannelError {
    /// |a - b| in value units.
    abs: f64,
    /// ULP distance.
    ulps: u64,
    /// The normalized error: ULPs over the channel's range for fixed-point and integer channels, relative error
    /// for floats.
    normalized: f64,
}

/// Compares one channel's raw bits `a` (reference) and `b` (result) under `tolerance` (see
/// [`super::tolerance`]'s doc for the rules).
fn evaluate(kind: ChannelKind, tolerance: &ChannelTolerance, a: u32, b: u32) -> Evaluation {
    let zero = ChannelError {
        abs: 0.0,
        ulps: 0,
        normalized: 0.0,
    };
    if a == b {
        // Equal bits match under every tolerance, NaNs included; the common case skips the value decoding.
        return Evaluation {
            matches: true,
            error: Some(zero),
        };
    }
    let (error, within) = match (kind.class(a), kind.class(b)) {
        (Class::Finite(oa), Class::Finite(ob)) => {
            let (va, vb) = (kind.value(a), kind.value(b));
            let abs = (va - vb).abs();
            let larger = va.abs().max(vb.abs());
            let normalized = if kind.is_float() {
                if abs == 0.0 { 0.0 } else { abs / larger }
            } else {
                (oa.abs_diff(ob) as f64) / kind.range_ulps()
            };
            let ulps = oa.abs_diff(ob);
            let within = abs <= tolerance.abs || abs <= tolerance.rel * larger || ulps <= tolerance.ulp;
            (Some(ChannelError { abs, ulps, normalized }), within)
        }
        (Class::Nan, Class::Nan) => (Some(zero), true),
        (Class::Infinite(sa), Class::Infinite(sb)) if sa == sb => (Some(zero), true),
        _ => (None, false),
    };
    Evaluation {
        matches: !tolerance.exact && within,
        error,
    }
}

/// Running statistics of one channel.
#[derive(Clone, Copy, Debug, Default)]
struct Accumulator {
    /// Measured pixels outside tolerance.
    differing: u64,
    /// Pairs with finite errors.
    finite: u64,
    /// Sum of absolute errors.
    sum_abs: f64,
    /// Largest absolute error.
    max_abs: f64,
    /// Largest ULP distance.
    max_ulps: u64,
    /// Largest normalized error.
    max_normalized: f64,
    /// Sum of squared normalized errors.
    sum_normalized_squared: f64,
    /// Non-finite mismatches.
    non_finite: u64,
}

impl Accumulator {
    /// Adds one measured pixel's evaluation.
    fn add(&mut self, evaluation: &Evaluation) {
        if !evaluation.matches {
            self.differing = self.differing.saturating_add(1);
        }
        match evaluation.error {
            Some(error) => {
                self.finite = self.finite.saturating_add(1);
                self.sum_abs += error.abs;
                self.max_abs = self.max_abs.max(error.abs);
                self.max_ulps = self.max_ulps.max(error.ulps);
                self.max_normalized = self.max_normalized.max(error.normalized);
                self.sum_normalized_squared += error.normalized * error.normalized;
            }
            None => self.non_finite = self.non_finite.saturating_add(1),
        }
    }

    /// The channel's statistics.
    fn finish(&self, channel: &PlannedChannel) -> ChannelStats {
        let cap = channel.kind.precision_cap();
        let bits = |error: f64, cap: f64| {
            if self.non_finite > 0 {
                0.0
            } else if error <= 0.0 {
                cap
            } else {
                (-error.log2()).clamp(0.0, cap)
            }
        };
        let mean_square = if self.finite == 0 {
            0.0
        } else {
            self.sum_normalized_squared / self.finite as f64
        };
        ChannelStats {
            channel: channel.name.to_owned(),
            differing_pixels: self.differing,
            max_abs_error: self.max_abs,
            mean_abs_error: if self.finite == 0 {
                0.0
            } else {
                self.sum_abs / self.finite as f64
            },
            max_ulp_error: self.max_ulps,
            non_finite_mismatches: self.non_finite,
            precision_bits: bits(self.max_normalized, cap),
            mean_square_precision_bits: bits(mean_square, 2.0 * cap),
        }
    }
}

/// The two images and the channels compared, with their tolerances.
struct Pair<'a, 'b> {
    /// The recorded image.
    reference: &'b Image<'a>,
    /// The replayed image.
    result: &'b Image<'a>,
    /// Compared channels with their tolerances.
    channels: Vec<(PlannedChannel, ChannelTolerance)>,
}

impl Pair<'_, '_> {
    /// Whether reference pixel `r` and result pixel `s` match in every compared channel.
    fn pixels_match(&self, r: usize, s: usize) -> bool {
        let (a, b) = (self.reference.element(r), self.result.element(s));
        self.channels
            .iter()
            .all(|(c, t)| evaluate(c.kind, t, c.raw(a), c.raw(b)).matches)
    }

    /// CTS's position-deviation test for pixel (`x`, `y`): some result pixel within `deviation` matches the
    /// reference pixel, and some reference pixel within `deviation` matches the result pixel.
    fn matches_shifted(&self, x: u32, y: u32, deviation: u32) -> bool {
        let width = self.reference.width();
        let height = self.reference.height();
        let here = index_of(x, y, width);
        let window = |pick: &dyn Fn(usize) -> bool| {
            let (x0, x1) = (
                x.saturating_sub(deviation),
                x.saturating_add(deviation).min(width.saturating_sub(1)),
            );
            let (y0, y1) = (
                y.saturating_sub(deviation),
                y.saturating_add(deviation).min(height.saturating_sub(1)),
            );
            (y0..=y1).any(|sy| (x0..=x1).any(|sx| pick(index_of(sx, sy, width))))
        };
        window(&|q| self.pixels_match(here, q)) && window(&|q| self.pixels_match(q, here))
    }

    /// The listed values of pixel `index`.
    fn describe(&self, index: usize, x: u32, y: u32) -> PixelDifference {
        let (a, b) = (self.reference.element(index), self.result.element(index));
        let channels = self
            .channels
            .iter()
            .map(|(c, t)| {
                let (ra, rb) = (c.raw(a), c.raw(b));
                let evaluation = evaluate(c.kind, t, ra, rb);
                ChannelValues {
                    channel: c.name.to_owned(),
                    reference_bits: ra,
                    result_bits: rb,
                    reference: c.kind.value(ra),
                    result: c.kind.value(rb),
                    ulps: evaluation.error.map(|e| e.ulps),
                    matches: evaluation.matches,
                }
            })
            .collect();
        PixelDifference { x, y, channels }
    }
}

/// The row-major index of (`x`, `y`) in an image `width` wide (inside an image whose pixel count fits a usize).
fn index_of(x: u32, y: u32, width: u32) -> usize {
    (u64::from(y).wrapping_mul(u64::from(width)).wrapping_add(u64::from(x))) as usize
}

/// Checks an optional per-pixel mask's length.
fn check_mask(mask: Option<&[bool]>, pixels: usize, what: &str) -> Result<()> {
    match mask {
        Some(mask) if mask.len() != pixels => Err(Error::new(
            "compare",
            format!(
                "the {what} has {} entries but the images have {pixels} pixels",
                mask.len()
            ),
        )),
        _ => Ok(()),
    }
}

/// The values of pixel (`x`, `y`) in `reference` and `result` (same format and size), channel by channel as a
/// comparison under `tolerance` reads them: raw bits, values, ULP distance and whether they match in place (what a
/// report lists for a differing pixel, for any pixel). Channels the tolerance does not compare are left out.
pub fn describe_pixel(
    reference: &Image<'_>,
    result: &Image<'_>,
    x: u32,
    y: u32,
    tolerance: &Tolerance,
) -> Result<PixelDifference> {
    if reference.format() != result.format()
        || reference.width() != result.width()
        || reference.height() != result.height()
    {
        return Err(Error::new(
            "compare",
            "the two images of a pixel must have the same format and size",
        ));
    }
    if x >= reference.width() || y >= reference.height() {
        return Err(Error::new(
            "compare",
            format!(
                "pixel ({x}, {y}) is outside the {}x{} image",
                reference.width(),
                reference.height()
            ),
        ));
    }
    let channels: Vec<_> = plan(reference.format())?
        .into_iter()
        .filter_map(|c| tolerance.channels.get(c.slot).filter(|t| t.compare).map(|t| (c, *t)))
        .collect();
    let pair = Pair {
        reference,
        result,
        channels,
    };
    Ok(pair.describe(index_of(x, y, reference.width()), x, y))
}

/// Compares `result` (the replayed target) with `reference` (what the GPU wrote), which must have the same format
/// and size; see [`super`] for the rules.
pub fn compare(reference: &Image<'_>, result: &Image<'_>, options: &CompareOptions<'_>) -> Result<Comparison> {
    if reference.format() != result.format()
        || reference.width() != result.width()
        || reference.height() != result.height()
    {
        return Err(Error::new(
            "compare",
            format!(
                "the reference is a {}x{} {} image but the result is a {}x{} {} image",
                reference.width(),
                reference.height(),
                reference.format(),
                result.width(),
                result.height(),
                result.format()
            ),
        ));
    }
    let tolerance = options.tolerance;
    if tolerance.position > MAX_POSITION_DEVIATION {
        return Err(Error::new(
            "compare",
            format!(
                "a position deviation of {} pixels is past the {MAX_POSITION_DEVIATION} allowed",
                tolerance.position
            ),
        ));
    }
    let pixels = reference.pixel_count();
    check_mask(options.mask, pixels, "mask")?;
    check_mask(options.ambiguous, pixels, "ambiguity mask")?;
    let channels: Vec<_> = plan(reference.format())?
        .into_iter()
        .filter_map(|c| tolerance.channels.get(c.slot).filter(|t| t.compare).map(|t| (c, *t)))
        .collect();
    let range_ulps = channels.iter().map(|(c, _)| c.kind.range_ulps()).fold(0.0, f64::max);
    let pair = Pair {
        reference,
        result,
        channels,
    };

    let mut classes = vec![PixelClass::NotCompared; pixels];
    let mut errors = vec![0.0f32; pixels];
    let mut accumulators = vec![Accumulator::default(); pair.channels.len()];
    let mut evaluations = Vec::with_capacity(pair.channels.len());
    let mut report = TargetReport {
        format: reference.format(),
        width: reference.width(),
        height: reference.height(),
        tolerance,
        matches: true,
        compared_pixels: 0,
        differing_pixels: 0,
        ambiguous_pixels: 0,
        shifted_pixels: 0,
        measured_pixels: 0,
        channels: Vec::new(),
        difference_bounds: None,
        ambiguous_bounds: None,
        first_differences: Vec::new(),
        first_ambiguous: Vec::new(),
    };
    let width = reference.width();
    let rows = if pixels == 0 { 0 } else { reference.height() };
    let mut index = 0usize;
    // a row whose bytes are equal on both sides, every pixel compared: every pixel matches with no error (equal bits
    // match under every tolerance, as `evaluate` says), counted at once
    let whole_rows = options.region.is_none() && options.mask.is_none();
    let row_bytes = (width as usize).saturating_mul(reference.codec().element_bytes());
    for y in 0..rows {
        if whole_rows {
            let bytes =
                (y as usize).saturating_mul(row_bytes)..(y as usize).saturating_add(1).saturating_mul(row_bytes);
            let equal = match (reference.data().get(bytes.clone()), result.data().get(bytes)) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            };
            let row = index..index.saturating_add(width as usize);
            if equal && let Some(row_classes) = classes.get_mut(row) {
                row_classes.fill(PixelClass::Match);
                let count = u64::from(width);
                report.compared_pixels = report.compared_pixels.saturating_add(count);
                report.measured_pixels = report.measured_pixels.saturating_add(count);
                for accumulator in &mut accumulators {
                    accumulator.finite = accumulator.finite.saturating_add(count);
                }
                index = index.saturating_add(width as usize);
                continue;
            }
        }
        for x in 0..width {
            let here = index;
            index = index.wrapping_add(1);
            let selected = options.region.is_none_or(|r| r.contains(x, y))
                && options.mask.is_none_or(|m| m.get(here).copied().unwrap_or(false));
            if !selected {
                continue;
            }
            report.compared_pixels = report.compared_pixels.saturating_add(1);
            let (a, b) = (reference.element(here), result.element(here));
            evaluations.clear();
            evaluations.extend(
                pair.channels
                    .iter()
                    .map(|(c, t)| evaluate(c.kind, t, c.raw(a), c.raw(b))),
            );
            let heat = evaluations
                .iter()
                .map(|e| e.error.map_or(f32::INFINITY, |e| e.ulps as f32))
                .fold(0.0f32, f32::max);
            if let Some(slot) = errors.get_mut(here) {
                *slot = heat;
            }
            let class = if evaluations.iter().all(|e| e.matches) {
                PixelClass::Match
            } else if tolerance.position > 0 && pair.matches_shifted(x, y, tolerance.position) {
                PixelClass::Shifted
            } else if options.ambiguous.is_some_and(|m| m.get(here).copied().unwrap_or(false)) {
                PixelClass::Ambiguous
            } else {
                PixelClass::Differs
            };
            if let Some(slot) = classes.get_mut(here) {
                *slot = class;
            }
            match class {
                PixelClass::Match | PixelClass::Differs => {
                    report.measured_pixels = report.measured_pixels.saturating_add(1);
                    for (accumulator, evaluation) in accumulators.iter_mut().zip(&evaluations) {
                        accumulator.add(evaluation);
                    }
                }
                PixelClass::Shifted => report.shifted_pixels = report.shifted_pixels.saturating_add(1),
                PixelClass::Ambiguous | PixelClass::NotCompared => {}
            }
            match class {
                PixelClass::Differs => {
                    report.differing_pixels = report.differing_pixels.saturating_add(1);
                    report.difference_bounds = Some(grow(report.difference_bounds, x, y));
                    if report.first_differences.len() < options.max_listed {
                        report.first_differences.push(pair.describe(here, x, y));
                    }
                }
                PixelClass::Ambiguous => {
                    report.ambiguous_pixels = report.ambiguous_pixels.saturating_add(1);
                    report.ambiguous_bounds = Some(grow(report.ambiguous_bounds, x, y));
                    if report.first_ambiguous.len() < options.max_listed {
                        report.first_ambiguous.push(pair.describe(here, x, y));
                    }
                }
                PixelClass::Match | PixelClass::Shifted | PixelClass::NotCompared => {}
            }
        }
    }
    report.matches = report.differing_pixels == 0;
    report.channels = pair
        .channels
        .iter()
        .zip(&accumulators)
        .map(|((c, _), accumulator)| accumulator.finish(c))
        .collect();
    Ok(Comparison {
        report,
        classes,
        errors,
        range_ulps,
    })
}

/// `bounds` grown to hold (`x`, `y`).
fn grow(bounds: Option<Rect>, x: u32, y: u32) -> Rect {
    match bounds {
        Some(bounds) => bounds.grown_to(x, y),
        None => Rect {
            x,
            y,
            width: 1,
            height: 1,
        },
    }
}
