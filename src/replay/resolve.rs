//! Replaying a recorded `ResolveSubresource`: the destination computed again from the recorded source samples and
//! compared with what the GPU left in it.
//!
//! The rule (D3D11.3 5.6.6, 19.2.4): "the algorithm to resolve multiple samples to one pixel is implementation
//! dependent", except that for the fixed sample patterns "a Resolve() ... is defined as a simple average of the
//! samples within each pixel". A capture does not record the quality level, and WARP's resolve is not published, so
//! every resolve here is that simple average (a box filter), for every sample count:
//!
//! - each sample is decoded to floats by the resolve format's conversions (3.2: UNORM, SNORM, float16/11/10 to
//!   float32; sRGB to linear first, as 5.6.6 requires: "multisample resolve is performed in linear space");
//! - per component the samples are summed in float64 (exactly, for UNORM, SNORM and sRGB samples; float32 samples of
//!   very different magnitudes round far below a float32 ULP) and the sum divided by the count (a power of two, so
//!   exactly), then rounded once to the nearest float32;
//! - that float is written back by the format's float conversion (3.2.3.6 FLOAT -> UNORM: clamp, times 2^n - 1,
//!   plus 0.5, truncate; 3.2.3.4 for SNORM; 3.2.3.8 for sRGB; round to nearest even for float16/11/10).
//!
//! So a UNORM channel resolves to the code nearest the mean of its samples' codes; a mean exactly halfway between
//! two codes goes the way the float32 roundings put it (codes 1 and 2 of 255 resolve to 2: the test
//! `a_mean_halfway_between_two_codes_rounds_as_the_floats_do`). Only formats [`resolvable`] allows are resolved;
//! the capture reader refuses the others.

use std::sync::Arc;

use serde::Serialize;

use crate::api::multisample::resolvable;
use crate::capture::CapturedResolve;
use crate::compare::{CompareOptions, Comparison, Image, TargetReport, ToleranceSpec, compare};
use crate::format::{Format, TexelCodec};
use crate::{Error, Result};

/// The box-filter resolve of `samples` (`sample_count` planes of `width * height` texels of `format`, sample 0's
/// first, rows packed, top row first) into one plane of the same layout (see the module documentation).
pub fn resolve_samples(format: Format, width: u32, height: u32, sample_count: u32, samples: &[u8]) -> Result<Vec<u8>> {
    let fail = |detail: String| Error::new("resolve", detail);
    resolvable(format).map_err(fail)?;
    let codec = TexelCodec::new(format)?;
    let texel_bytes = codec.element_bytes();
    let texels = usize::try_from(u64::from(width).saturating_mul(u64::from(height)))
        .map_err(|_| fail(format!("a {width}x{height} surface is too large")))?;
    let plane = texels
        .checked_mul(texel_bytes)
        .ok_or_else(|| fail(format!("a {width}x{height} surface is too large")))?;
    let count = usize::try_from(sample_count).unwrap_or(0);
    if count == 0 || plane.checked_mul(count) != Some(samples.len()) {
        return Err(fail(format!(
            "{} bytes of samples where {sample_count} planes of a {width}x{height} {format} surface take {}",
            samples.len(),
            plane.saturating_mul(count)
        )));
    }
    let mut out = vec![0u8; plane];
    for (texel, destination) in out.chunks_exact_mut(texel_bytes).enumerate() {
        let mut sum = [0.0f64; 4];
        for sample in 0..count {
            let start = sample
                .saturating_mul(plane)
                .saturating_add(texel.saturating_mul(texel_bytes));
            let bytes = samples
                .get(start..start.saturating_add(texel_bytes))
                .ok_or_else(|| fail(format!("sample {sample} of texel {texel} is past the data")))?;
            let words = codec.decode(bytes)?;
            for (total, word) in sum.iter_mut().zip(words) {
                *total += f64::from(f32::from_bits(word));
            }
        }
        let mean = sum.map(|total| ((total / f64::from(sample_count)) as f32).to_bits());
        codec.encode(mean, destination)?;
    }
    Ok(out)
}

/// A replayed resolve: the recorded destination against the one computed again.
#[derive(Clone, Debug, Serialize)]
pub struct ResolveReplay {
    /// Its position in the capture's `resolves`, from 0.
    pub index: usize,
    /// How many of the capture's draws came before it.
    pub before_draw: u64,
    /// What to call it.
    pub label: String,
    /// The API call, as recorded.
    pub api_call: Option<String>,
    /// The resolve format: the format of every byte buffer here.
    pub format: Format,
    /// Width of the destination, in texels.
    pub width: u32,
    /// Height of the destination, in texels.
    pub height: u32,
    /// Samples per texel of the source.
    pub samples: u32,
    /// Whether the capture records the destination after the resolve.
    pub recorded_after: bool,
    /// The destination before, as the GPU left it and as the replay computed it, compared.
    #[serde(flatten)]
    pub surfaces: ResolvedSurfaces,
}

impl std::ops::Deref for ResolveReplay {
    type Target = ResolvedSurfaces;

    fn deref(&self) -> &ResolvedSurfaces {
        &self.surfaces
    }
}

/// One resolved surface before, as the GPU left it and as the replay computed it (each one plane, rows packed, top
/// row first), and the comparison of the two: a replayed resolve's destination, or a multisampled render target's
/// surfaces resolved ([`super::TargetReplay::resolved`]).
#[derive(Clone, Debug, Serialize)]
pub struct ResolvedSurfaces {
    /// Before.
    #[serde(skip)]
    pub before: Arc<[u8]>,
    /// As the GPU left it; `None` when not recorded.
    #[serde(skip)]
    pub recorded: Option<Arc<[u8]>>,
    /// As the replay computed it.
    #[serde(skip)]
    pub replayed: Arc<[u8]>,
    /// The comparison of replayed against recorded; `None` when nothing was recorded.
    pub report: Option<TargetReport>,
    /// The whole comparison, with each pixel's class and error.
    #[serde(skip)]
    pub comparison: Option<Comparison>,
}

impl ResolvedSurfaces {
    /// `replayed` against `recorded` (a `width` x `height` plane of `format`) under `options`.
    pub fn compared(
        (format, width, height): (Format, u32, u32),
        before: Arc<[u8]>,
        recorded: Option<Arc<[u8]>>,
        replayed: Arc<[u8]>,
        options: &CompareOptions<'_>,
    ) -> Result<ResolvedSurfaces> {
        let comparison = match &recorded {
            Some(after) => Some(compare(
                &Image::new(format, width, height, after)?,
                &Image::new(format, width, height, &replayed)?,
                options,
            )?),
            None => None,
        };
        Ok(ResolvedSurfaces {
            before,
            recorded,
            replayed,
            report: comparison.as_ref().map(|c| c.report.clone()),
            comparison,
        })
    }

    /// Whether the surfaces match; `None` when nothing was recorded.
    pub fn matches(&self) -> Option<bool> {
        self.report.as_ref().map(|r| r.matches)
    }
}

/// Resolves `resolve`'s recorded samples again and compares the destination with the recorded one under
/// `tolerance` (resolved for the resolve format). Errors name the resolve.
pub fn replay_resolve(resolve: &CapturedResolve, tolerance: &ToleranceSpec) -> Result<ResolveReplay> {
    let at = format!("resolve {}", resolve.index);
    let layout = &resolve.layout;
    let replayed: Arc<[u8]> = resolve_samples(
        layout.format,
        layout.width,
        layout.height,
        layout.samples,
        &resolve.samples,
    )
    .map_err(|e| e.within(at.as_str()))?
    .into();
    let surfaces = ResolvedSurfaces::compared(
        (layout.format, layout.width, layout.height),
        resolve.before.clone(),
        resolve.after.clone(),
        replayed,
        &CompareOptions::new(tolerance.resolve(layout.format)),
    )
    .map_err(|e| e.within(at.as_str()))?;
    Ok(ResolveReplay {
        index: resolve.index,
        before_draw: resolve.before_draw,
        label: resolve.label.clone(),
        api_call: resolve.api_call.clone(),
        format: layout.format,
        width: layout.width,
        height: layout.height,
        samples: layout.samples,
        recorded_after: resolve.after.is_some(),
        surfaces,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)] // tests index their own small buffers
mod tests {
    use super::*;
    use crate::api::enums::ResourceDimension;
    use crate::api::resource::TextureShape;
    use crate::capture::{Capture, CaptureWriter, ResolveRecord};

    /// `planes[sample][texel]` as the capture lays samples out: sample 0's plane first.
    fn planes<const N: usize>(planes: &[[[u8; N]; 2]]) -> Vec<u8> {
        planes.iter().flatten().flatten().copied().collect()
    }

    /// Two RGBA8 texels, 4 samples each: sample s of texel t is `SAMPLES[s][t]`.
    const SAMPLES: [[[u8; 4]; 2]; 4] = [
        [[0, 10, 1, 255], [1, 100, 0, 3]],
        [[255, 20, 2, 255], [2, 101, 0, 3]],
        [[255, 30, 2, 255], [1, 100, 0, 4]],
        [[255, 41, 2, 255], [2, 100, 1, 4]],
    ];

    /// The box average of `SAMPLES` by hand, channel by channel (mean code, then the nearest code):
    /// texel 0: R (0 + 3 x 255) / 4 = 191.25 -> 191; G (10 + 20 + 30 + 41) / 4 = 25.25 -> 25; B 7 / 4 = 1.75 -> 2;
    /// A 255. Texel 1: R (1 + 2 + 1 + 2) / 4 = 1.5 -> 2 and A (3 + 3 + 4 + 4) / 4 = 3.5 -> 4 (halfway: the float32
    /// mean of the codes / 255 lies a hair above the midpoint, so FLOAT -> UNORM's +0.5 truncation goes up);
    /// G 401 / 4 = 100.25 -> 100; B 1 / 4 = 0.25 -> 0.
    const RESOLVED: [u8; 8] = [191, 25, 2, 255, 2, 100, 0, 4];

    #[test]
    fn four_unorm_samples_resolve_to_their_mean_code() {
        let out = resolve_samples(Format::R8G8B8A8Unorm, 2, 1, 4, &planes(&SAMPLES)).unwrap();
        assert_eq!(out, RESOLVED);
    }

    #[test]
    fn a_mean_halfway_between_two_codes_rounds_as_the_floats_do() {
        // codes 1 and 2 of 255: the mean 1.5 / 255 is 0.0058823530 in float32, above 1.5 / 255 = 0.00588235294...
        let out = resolve_samples(Format::R8Unorm, 1, 1, 2, &[1, 2]).unwrap();
        assert_eq!(out, [2]);
    }

    #[test]
    fn srgb_samples_are_averaged_in_linear_space() {
        // codes 0 and 255 are linear 0.0 and 1.0, mean 0.5; 3.2.3.8: 1.055 x 0.5^(1/2.4) - 0.055 = 0.735357,
        // x 255 = 187.516 -> 188 (averaging the codes would give 127.5). Alpha is UNORM: 255.
        let samples = [0, 0, 0, 255, 255, 255, 255, 255];
        let out = resolve_samples(Format::R8G8B8A8UnormSrgb, 1, 1, 2, &samples).unwrap();
        assert_eq!(out, [188, 188, 188, 255]);
    }

    #[test]
    fn float_and_snorm_samples_resolve_to_their_mean() {
        // (1 + 2 + 3 + 4.5) / 4 = 2.625, exact in float32
        let samples: Vec<u8> = [1.0f32, 2.0, 3.0, 4.5].iter().flat_map(|f| f.to_le_bytes()).collect();
        let out = resolve_samples(Format::R32Float, 1, 1, 4, &samples).unwrap();
        assert_eq!(out, 2.625f32.to_le_bytes());
        // R8_SNORM -127 (-1.0), 127 (1.0), 64 (64/127), 0: mean 0.125984, x 127 = 16.0 -> 16
        let out = resolve_samples(Format::R8Snorm, 1, 1, 4, &[0x81, 127, 64, 0]).unwrap();
        assert_eq!(out, [16]);
    }

    #[test]
    fn unresolvable_formats_and_wrong_sizes_are_errors() {
        let error = resolve_samples(Format::R8G8B8A8Uint, 2, 1, 4, &planes(&SAMPLES)).unwrap_err();
        assert!(error.detail.contains("integer format"), "{error}");
        let error = resolve_samples(Format::R8G8B8A8Unorm, 2, 1, 4, &[0; 31]).unwrap_err();
        assert!(error.detail.contains("31 bytes of samples where 4 planes"), "{error}");
        assert!(resolve_samples(Format::R8G8B8A8Unorm, u32::MAX, u32::MAX, 32, &[]).is_err());
        assert!(resolve_samples(Format::R8G8B8A8Unorm, 2, 1, 0, &[]).is_err());
    }

    /// A capture of the resolve of `SAMPLES` whose recorded destination is `after`.
    fn replayed(after: [u8; 8]) -> ResolveReplay {
        let shape = |sample_count| TextureShape {
            dimension: ResourceDimension::Texture2D,
            format: Format::R8G8B8A8Unorm,
            width: 2,
            height: 1,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            sample_count,
        };
        let mut writer = CaptureWriter::in_memory();
        writer
            .add_resolve(&ResolveRecord::<[u8]> {
                api_call: None,
                format: Format::R8G8B8A8Unorm,
                source: shape(4),
                source_subresource: 0,
                source_data: planes(&SAMPLES).into(),
                destination: shape(1),
                destination_subresource: 0,
                destination_before: vec![0; 8].into(),
                destination_after: Some(after.to_vec().into()),
            })
            .unwrap();
        let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
        replay_resolve(&capture.resolve(0).unwrap(), &ToleranceSpec::default()).unwrap()
    }

    #[test]
    fn a_replayed_resolve_is_compared_with_the_recorded_destination() {
        let same = replayed(RESOLVED);
        assert_eq!(same.matches(), Some(true));
        assert_eq!(&same.replayed[..], &RESOLVED);
        assert_eq!((same.width, same.height, same.samples), (2, 1, 4));
        // one code off is within the default tolerance; three codes are a difference
        let mut near = RESOLVED;
        near[0] = 190;
        assert_eq!(replayed(near).matches(), Some(true));
        let mut far = RESOLVED;
        far[5] = 103;
        let report = replayed(far).surfaces.report.unwrap();
        assert!(!report.matches);
        assert_eq!((report.compared_pixels, report.differing_pixels), (2, 1));
    }
}
