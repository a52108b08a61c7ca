//! Texel values for a person ([`ViewerCapture::read_texels`]): a texel of a target in the before, recorded and
//! replayed images, each channel's value as the format's conversion gives it, its stored bits and a text, and the
//! difference replayed − recorded with its distance in ULPs, read with [`crate::compare::describe_pixel`] so the
//! numbers are the comparison's own.
//!
//! Text per channel kind: UNORM, SNORM and sRGB show the value to 5 decimals and the stored code (`0.50196 (128)`;
//! sRGB's value is the linear one the shader reads); floats show their shortest exact decimal, NaN with its bits
//! (`NaN (0x7fc00000)`) and `+Inf`/`-Inf`; integers and stencil show the integer.

use crate::compare::{Image, PixelClass, Tolerance, describe_pixel};
use crate::error::ErrorKind;
use crate::format::{Channel, FieldKind, Format};
use crate::inspect::values::channel_differences;
use crate::{Error, Result};

use super::types::{ChannelDifference, ChannelValue, PixelVerdictKind, TargetId, TexelReadout, TexelValue};
use super::{Outcome, ViewTarget, ViewerCapture};

/// How a channel of a format is stored: its field kind and width.
fn field_of(format: Format, name: &str) -> Option<(FieldKind, u8)> {
    format
        .info()
        .fields()
        .iter()
        .find(|f| channel_name(f.channel).is_some_and(|n| n.eq_ignore_ascii_case(name)))
        .map(|f| (f.kind, f.bits))
}

/// The protocol's name of a channel.
fn channel_name(channel: Channel) -> Option<&'static str> {
    match channel {
        Channel::R => Some("r"),
        Channel::G => Some("g"),
        Channel::B => Some("b"),
        Channel::A => Some("a"),
        Channel::Depth => Some("depth"),
        Channel::Stencil => Some("stencil"),
        Channel::Exponent | Channel::Unused => None,
    }
}

/// A float for a person: its shortest exact decimal, NaN with its bits, infinities signed.
pub(crate) fn float_text(value: f64, bits: u32, width: u8) -> String {
    if value.is_nan() {
        let digits = usize::from(width.div_ceil(4)).max(1);
        format!("NaN (0x{bits:0digits$x})")
    } else if value == f64::INFINITY {
        "+Inf".to_owned()
    } else if value == f64::NEG_INFINITY {
        "-Inf".to_owned()
    } else if width == 32 {
        // the f32's shortest decimal, not the f64's
        format!("{}", value as f32)
    } else {
        format!("{value}")
    }
}

/// A channel's value for a person (see the module doc).
pub(super) fn channel_text(format: Format, channel: &str, value: f64, bits: u32) -> String {
    match field_of(format, channel) {
        Some((FieldKind::Unorm | FieldKind::Srgb, _)) => format!("{value:.5} ({bits})"),
        Some((FieldKind::Snorm, width)) => {
            // the code as a two's-complement number of the field's width
            let shift = 32u32.saturating_sub(u32::from(width));
            let code = (bits << shift) as i32 >> shift;
            format!("{value:.5} ({code})")
        }
        Some((FieldKind::Float, width)) => float_text(value, bits, width),
        _ => format!("{value}"),
    }
}

/// A difference replayed − recorded of `channel` for a person, `ulps` apart.
fn difference_text(format: Format, channel: &str, difference: f64, ulps: Option<u64>) -> (f64, String) {
    let shown = match field_of(format, channel) {
        Some((FieldKind::Float, width)) if !difference.is_finite() => float_text(difference, 0, width),
        Some((FieldKind::Uint | FieldKind::Sint, _)) | None => format!("{difference:+}"),
        _ if difference == 0.0 => "0".to_owned(),
        _ => format!("{difference:+.6e}"),
    };
    let text = match ulps {
        Some(0) | None => shown,
        Some(1) => format!("{shown} (1 ULP)"),
        Some(ulps) => format!("{shown} ({ulps} ULP)"),
    };
    (difference, text)
}

/// How a pixel compares, for the texel readout and the inspector alike: from its compare class and, when known,
/// whether a fragment of the draw reached it (a matching pixel no fragment reached is "not covered"; a pixel of a
/// target the capture does not record after the draw, with no class, is "not recorded").
pub(super) fn verdict_kind(class: Option<PixelClass>, covered: Option<bool>) -> PixelVerdictKind {
    match class {
        Some(PixelClass::Differs) => PixelVerdictKind::Differs,
        Some(PixelClass::Ambiguous) => PixelVerdictKind::Ambiguous,
        // no class: the comparison has no recorded image
        None => PixelVerdictKind::NotRecorded,
        _ if covered == Some(false) => PixelVerdictKind::NotCovered,
        _ => PixelVerdictKind::Matches,
    }
}

/// The channels `tolerance` compares of the `recorded` and `replayed` texels of `format`, replayed − recorded: the
/// library's per-channel difference ([`crate::inspect::values::channel_differences`], the inspector's), in the
/// protocol's shape.
pub(super) fn pixel_differences(
    format: Format,
    tolerance: &Tolerance,
    recorded: &[u8],
    replayed: &[u8],
) -> Result<Vec<ChannelDifference>> {
    Ok(channel_differences(format, tolerance, recorded, replayed)?
        .into_iter()
        .filter(|c| c.compared)
        .map(|c| {
            let channel = c.channel.to_lowercase();
            let (difference, text) = difference_text(format, &channel, c.replayed - c.recorded, c.ulps);
            ChannelDifference {
                channel,
                difference,
                ulps: c.ulps,
                text,
            }
        })
        .collect())
}

/// The error for a pixel outside `target`.
fn outside(x: u32, y: u32, target: &ViewTarget) -> Error {
    Error::of_kind(
        ErrorKind::Request,
        "request",
        format!(
            "pixel ({x}, {y}) is outside the {}x{} target",
            target.width, target.height
        ),
    )
}

/// The texel at (`x`, `y`) of `image`, the channels `target` shows.
fn texel_value(target: &ViewTarget, image: &Image<'_>, x: u32, y: u32) -> Result<TexelValue> {
    texel_of(target.format, image, x, y, &target.tolerance())
}

/// A texel of `format` stored as `bytes` (one element), every channel.
pub(super) fn stored_texel(format: Format, bytes: &[u8]) -> Result<TexelValue> {
    texel_of(
        format,
        &Image::new(format, 1, 1, bytes)?,
        0,
        0,
        &Tolerance::for_format(format),
    )
}

/// The texel at (`x`, `y`) of `image` (of `format`), the channels `tolerance` compares.
fn texel_of(format: Format, image: &Image<'_>, x: u32, y: u32, tolerance: &Tolerance) -> Result<TexelValue> {
    let described = describe_pixel(image, image, x, y, tolerance)?;
    let stored = image.texel(x, y).unwrap_or(&[]);
    Ok(TexelValue {
        channels: described
            .channels
            .iter()
            .map(|c| {
                let channel = c.channel.to_lowercase();
                ChannelValue {
                    text: channel_text(format, &channel, c.reference, c.reference_bits),
                    channel,
                    value: c.reference,
                    bits: c.reference_bits,
                }
            })
            .collect(),
        hex: super::hex(stored),
    })
}

impl ViewerCapture {
    /// Texel (`x`, `y`) of target `id` of draw `index` in each image, with the difference and the verdict.
    pub fn read_texels(&mut self, index: usize, id: TargetId, x: u32, y: u32) -> Result<TexelReadout> {
        let target = self.recorded_target(index, id)?;
        if x >= target.width || y >= target.height {
            return Err(outside(x, y, &target));
        }
        let before = target.image(&target.before)?;
        let recorded_bytes = target.recorded.clone();
        let recorded = recorded_bytes.as_deref().map(|bytes| target.image(bytes)).transpose()?;
        let mut readout = TexelReadout {
            target: id,
            x,
            y,
            format: target.format.to_string(),
            recorded: recorded.as_ref().map(|r| texel_value(&target, r, x, y)).transpose()?,
            replayed: None,
            before: texel_value(&target, &before, x, y)?,
            difference: Vec::new(),
            verdict: PixelVerdictKind::NotReplayed,
        };
        let replayed = match self.outcomes.get(&index) {
            Some(Outcome::Full(replayed)) => replayed,
            // the full result is gone: say so rather than show no replayed value
            Some(Outcome::Summarized(_)) => {
                self.replayed(index)?;
                return Ok(readout);
            }
            // not replayed, or the replay failed (its error is the draw's status): the recorded values alone
            Some(Outcome::Failed(_)) | None => return Ok(readout),
        };
        let Some((_, bytes, comparison)) = replayed.target(id) else {
            return Ok(readout);
        };
        let result = target.image(bytes)?;
        readout.replayed = Some(texel_value(&target, &result, x, y)?);
        // nothing recorded: nothing to differ from
        let Some(recorded) = recorded else {
            readout.verdict = PixelVerdictKind::NotRecorded;
            return Ok(readout);
        };
        let missing = || outside(x, y, &target);
        let (recorded_texel, replayed_texel) = (
            recorded.texel(x, y).ok_or_else(missing)?,
            result.texel(x, y).ok_or_else(missing)?,
        );
        readout.difference = pixel_differences(target.format, &target.tolerance(), recorded_texel, replayed_texel)?;
        readout.verdict = verdict_kind(comparison.and_then(|c| c.class_at(x, y)), None);
        Ok(readout)
    }
}
