//! A texel's channels as the comparison reads them (raw bits and value per channel), and the per-channel difference
//! of a recorded and a replayed texel (bits, values, ULPs, absolute error, whether it is within tolerance).
//!
//! Everything here is read through [`crate::compare::compare`] on one-pixel images, so that channel names, values and
//! ULP distances are exactly the ones a replay report gives: a comparison under the exact tolerance lists every
//! channel of a pixel that differs in any bit, with both values; a texel is listed against its own complement (every
//! bit flipped, so every channel differs) to read its channels alone.

use crate::compare::{CompareOptions, Image, Tolerance, compare};
use crate::format::Format;
use crate::{Error, Result};
use serde::Serialize;

/// One channel of a texel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelValue {
    /// "R", "G", "B", "A", "Depth" or "Stencil".
    pub channel: String,
    /// Its raw bits.
    pub bits: u32,
    /// What they stand for (UNORM/SNORM as their float, sRGB as its linear value, integers as themselves; NaN and
    /// infinities are JSON null).
    pub value: f64,
}

/// A texel: its bytes and its channels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TexelValue {
    /// The element's bytes in hex, first byte first.
    pub bytes: String,
    /// Its channels in the format's order.
    pub channels: Vec<ChannelValue>,
}

/// One channel of a recorded and a replayed texel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelDifference {
    /// "R", "G", "B", "A", "Depth" or "Stencil".
    pub channel: String,
    /// The recorded raw bits.
    pub recorded_bits: u32,
    /// The replayed raw bits.
    pub replayed_bits: u32,
    /// The recorded value.
    pub recorded: f64,
    /// The replayed value.
    pub replayed: f64,
    /// Their distance in ULPs of the channel's format; `None` when a NaN or infinity meets something else.
    pub ulps: Option<u64>,
    /// |recorded - replayed|; `None` with `ulps`.
    pub abs_error: Option<f64>,
    /// Whether the channel is compared under the tolerance.
    pub compared: bool,
    /// Whether it is within the tolerance (true for a channel not compared).
    pub within_tolerance: bool,
}

impl ChannelDifference {
    /// Whether the bits differ.
    pub fn differs(&self) -> bool {
        self.recorded_bits != self.replayed_bits
    }
}

pub(super) use crate::text::hex;

/// The compare listing of one-pixel `reference` against `result` under the exact tolerance: every channel, when any
/// bit differs; empty when the texels are equal.
fn listing(format: Format, reference: &[u8], result: &[u8]) -> Result<Vec<crate::compare::ChannelValues>> {
    let a = Image::new(format, 1, 1, reference)?;
    let b = Image::new(format, 1, 1, result)?;
    let options = CompareOptions {
        max_listed: 1,
        ..CompareOptions::new(Tolerance::exact())
    };
    let comparison = compare(&a, &b, &options)?;
    Ok(comparison
        .report
        .first_differences
        .into_iter()
        .next()
        .map(|d| d.channels)
        .unwrap_or_default())
}

/// The channels of the texel `bytes` of `format`.
pub fn texel_value(format: Format, bytes: &[u8]) -> Result<TexelValue> {
    let complement: Vec<u8> = bytes.iter().map(|b| !b).collect();
    let rows = listing(format, bytes, &complement)?;
    Ok(TexelValue {
        bytes: hex(bytes),
        channels: rows
            .into_iter()
            .map(|r| ChannelValue {
                channel: r.channel,
                bits: r.reference_bits,
                value: r.reference,
            })
            .collect(),
    })
}

/// The per-channel difference of the `recorded` and `replayed` texels of `format` under `tolerance`.
pub fn channel_differences(
    format: Format,
    tolerance: &Tolerance,
    recorded: &[u8],
    replayed: &[u8],
) -> Result<Vec<ChannelDifference>> {
    let rows = listing(format, recorded, replayed)?;
    if rows.is_empty() {
        let same = texel_value(format, recorded)?;
        return Ok(same
            .channels
            .into_iter()
            .map(|c| ChannelDifference {
                channel: c.channel,
                recorded_bits: c.bits,
                replayed_bits: c.bits,
                recorded: c.value,
                replayed: c.value,
                ulps: Some(0),
                abs_error: Some(0.0),
                compared: true,
                within_tolerance: true,
            })
            .collect());
    }
    let a = Image::new(format, 1, 1, recorded)?;
    let b = Image::new(format, 1, 1, replayed)?;
    let under = compare(&a, &b, &CompareOptions::new(*tolerance))?;
    let stats = |name: &str| under.report.channels.iter().find(|c| c.channel == name);
    Ok(rows
        .into_iter()
        .map(|r| {
            let compared = stats(&r.channel);
            ChannelDifference {
                abs_error: r.ulps.map(|_| (r.reference - r.result).abs()),
                compared: compared.is_some(),
                within_tolerance: compared.is_none_or(|s| s.differing_pixels == 0),
                channel: r.channel,
                recorded_bits: r.reference_bits,
                replayed_bits: r.result_bits,
                recorded: r.reference,
                replayed: r.result,
                ulps: r.ulps,
            }
        })
        .collect())
}

/// The error for a pixel outside a target.
pub(super) fn outside(x: u32, y: u32, width: u32, height: u32) -> Error {
    Error::new(
        "inspect",
        format!("pixel ({x}, {y}) is outside the {width}x{height} target"),
    )
}
