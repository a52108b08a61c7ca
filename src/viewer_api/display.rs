//! A target's image as RGBA8 for the viewer's canvas ([`ViewerCapture::render_target`]): the replayed, recorded or
//! before image through [`crate::compare::preview_rgba8`], or the comparison's difference mask or heatmap
//! ([`crate::compare::render`] has the colours).
//!
//! Display rules (for looking, not part of any D3D rule):
//! - Channels: one channel alone shows as grey; otherwise the shown colour channels keep their colour and the
//!   others are black, and alpha is shown (non-premultiplied) only when selected, else the image is opaque. A
//!   `depth` target shows its depth channel as grey, a `stencil` target its stencil channel.
//! - Range: float, integer, depth and stencil targets map the display range to black..white: the one asked for, or
//!   the image's own finite range when none is (so a depth buffer near 1.0 is not all white). UNORM, SNORM and
//!   sRGB targets use their format's range (sRGB re-encoded as a display would) unless a range is asked for.
//! - NaN shows magenta and ±Infinity cyan when asked.
//! - The difference view is the comparison's mask over the replayed image: differing, ambiguous and shifted pixels
//!   in the mask's colours, every other pixel the replayed image dimmed to a fifth of its colour plus under half of
//!   its grey (so the mask stands out and the shape stays recognisable).

use crate::compare::{Comparison, Image, PixelClass};
use crate::compare::{PreviewChannels, PreviewOptions, PreviewStatistics, preview_rgba8, preview_statistics};
use crate::format::{NumericKind, ShaderType};
use crate::{Error, Result};

use super::types::{DisplayOptions, ImageKind, RenderedImage, TargetId, ValueRange};
use super::{ViewTarget, ViewerCapture};

/// The preview channel selection for target `id` and the display's channel toggles, and the colour channels to
/// black out afterwards (two of R, G, B shown without the third).
fn preview_channels(id: TargetId, display: &DisplayOptions) -> (PreviewChannels, [bool; 3]) {
    let all = [true; 3];
    match id {
        TargetId::Depth => return (PreviewChannels::R, all),
        TargetId::Stencil => return (PreviewChannels::G, all),
        _ => {}
    }
    let c = display.channels;
    let shown = [c.r, c.g, c.b, c.a];
    match shown.iter().filter(|&&on| on).count() {
        1 => {
            let single = match shown {
                [true, _, _, _] => PreviewChannels::R,
                [_, true, _, _] => PreviewChannels::G,
                [_, _, true, _] => PreviewChannels::B,
                _ => PreviewChannels::A,
            };
            (single, all)
        }
        0 => (PreviewChannels::Rgb, [false; 3]),
        _ if c.a => (PreviewChannels::Rgba, [c.r, c.g, c.b]),
        _ => (PreviewChannels::Rgb, [c.r, c.g, c.b]),
    }
}

/// Whether a target's values are shown over their own range by default (not UNORM/SNORM/sRGB colour).
fn ranged(target: &ViewTarget) -> bool {
    match target.id {
        TargetId::Depth | TargetId::Stencil => true,
        _ => {
            let info = target.format.info();
            !matches!(info.kind, NumericKind::Unorm | NumericKind::Snorm | NumericKind::Srgb)
                || info.shader_type != ShaderType::Float
        }
    }
}

/// `image` (of `target`) rendered under `display`.
pub(super) fn render_values(target: &ViewTarget, image: &Image<'_>, display: &DisplayOptions) -> Result<RenderedImage> {
    let (channels, keep) = preview_channels(target.id, display);
    let statistics: PreviewStatistics = preview_statistics(image, channels)?;
    let mut options = PreviewOptions::for_format(target.format);
    options.channels = channels;
    options.highlight_non_finite = display.highlight_non_finite;
    match display.range {
        Some(range) => {
            options.mapping.low = range.min as f32;
            options.mapping.high = range.max as f32;
            options.mapping.exposure = 0.0;
            options.mapping.srgb_encode = false;
        }
        None => options.auto_range = ranged(target),
    }
    let mut rgba = preview_rgba8(image, &options)?;
    if keep.iter().any(|k| !k) {
        for pixel in rgba.chunks_exact_mut(4) {
            for (byte, keep) in pixel.iter_mut().zip(keep) {
                if !keep {
                    *byte = 0;
                }
            }
        }
    }
    let (min, max) = statistics.range.unwrap_or((0.0, 0.0));
    Ok(RenderedImage {
        width: target.width,
        height: target.height,
        rgba,
        value_range: ValueRange {
            min: f64::from(min),
            max: f64::from(max),
        },
        non_finite_texels: statistics.non_finite_texels,
    })
}

/// A comparison's heatmap.
fn render_heatmap(target: &ViewTarget, comparison: &Comparison) -> RenderedImage {
    let scale = comparison.default_heatmap_scale();
    RenderedImage {
        width: target.width,
        height: target.height,
        rgba: comparison.heatmap_rgba8(scale),
        value_range: ValueRange {
            min: 0.0,
            max: scale.max_ulps,
        },
        non_finite_texels: 0,
    }
}

/// A perceptual error map (LDR-FLIP, 0 to 1) through the magma colour map; its value range is the map's.
fn render_perceptual(map: &crate::compare::flip::FlipMap) -> RenderedImage {
    RenderedImage {
        width: map.width,
        height: map.height,
        rgba: map.to_rgba8(),
        value_range: ValueRange {
            min: 0.0,
            max: f64::from(map.percentile(100.0)),
        },
        non_finite_texels: 0,
    }
}

/// A comparison's difference mask over the replayed image `under` (rendered under the page's display options).
pub(super) fn render_difference(comparison: &Comparison, mut under: RenderedImage) -> RenderedImage {
    let mask = comparison.difference_mask_rgba8();
    for ((pixel, marked), class) in under
        .rgba
        .chunks_exact_mut(4)
        .zip(mask.chunks_exact(4))
        .zip(comparison.classes())
    {
        if matches!(class, PixelClass::Differs | PixelClass::Ambiguous | PixelClass::Shifted) {
            pixel.copy_from_slice(marked);
        } else {
            let grey = pixel.iter().take(3).map(|&c| u32::from(c)).sum::<u32>() / 3;
            for channel in pixel.iter_mut().take(3) {
                // 0.45 grey + 0.2 colour, in whole 1/20ths: at most 9·255 + 4·255 = 3315, so /20 fits a byte
                let dimmed = (grey
                    .saturating_mul(9)
                    .saturating_add(u32::from(*channel).saturating_mul(4)))
                    / 20;
                *channel = u8::try_from(dimmed).unwrap_or(u8::MAX);
            }
            if let Some(alpha) = pixel.get_mut(3) {
                *alpha = u8::MAX;
            }
        }
    }
    under
}

/// The largest thumbnail side [`ViewerCapture::thumbnail`] makes.
pub const MAX_THUMBNAIL_SIDE: u32 = 256;

/// `image` shrunk to fit `max_width` × `max_height` (each at least 1), keeping its aspect: each thumbnail pixel is
/// the image's pixel at its centre (nearest); an image already small enough is returned as it is.
pub(crate) fn shrink(image: RenderedImage, max_width: u32, max_height: u32) -> RenderedImage {
    let (w, h) = (u64::from(image.width), u64::from(image.height));
    let (mw, mh) = (u64::from(max_width.max(1)), u64::from(max_height.max(1)));
    if w <= mw && h <= mh || w == 0 || h == 0 {
        return image;
    }
    // the scale is the smaller of mw/w and mh/h: compare mw*h with mh*w
    let (tw, th) = if mw.saturating_mul(h) <= mh.saturating_mul(w) {
        (mw, h.saturating_mul(mw).checked_div(w).unwrap_or(1).max(1))
    } else {
        (w.saturating_mul(mh).checked_div(h).unwrap_or(1).max(1), mh)
    };
    let mut rgba = Vec::with_capacity(usize::try_from(tw.saturating_mul(th).saturating_mul(4)).unwrap_or(0));
    for ty in 0..th {
        let sy = (ty.saturating_mul(2).saturating_add(1))
            .saturating_mul(h)
            .checked_div(th.saturating_mul(2))
            .unwrap_or(0);
        for tx in 0..tw {
            let sx = (tx.saturating_mul(2).saturating_add(1))
                .saturating_mul(w)
                .checked_div(tw.saturating_mul(2))
                .unwrap_or(0);
            let at = usize::try_from(sy.saturating_mul(w).saturating_add(sx).saturating_mul(4)).unwrap_or(usize::MAX);
            let pixel = image.rgba.get(at..at.saturating_add(4)).unwrap_or(&[0, 0, 0, 255]);
            rgba.extend_from_slice(pixel);
        }
    }
    RenderedImage {
        width: u32::try_from(tw).unwrap_or(1),
        height: u32::try_from(th).unwrap_or(1),
        rgba,
        ..image
    }
}

impl ViewerCapture {
    /// A thumbnail of draw `index`'s main target as the capture recorded it after the draw (render target 0, else
    /// the depth target), shrunk to fit `max_width` × `max_height` (each at most [`MAX_THUMBNAIL_SIDE`]) under the
    /// default display options; needs no replay. A multisampled target shows as one plane of the target's own
    /// aspect, not its sample planes stacked: a resolvable colour target resolved (the box average, 19.2.2), any
    /// other (depth, integer formats) its sample 0.
    pub fn thumbnail(&mut self, index: usize, max_width: u32, max_height: u32) -> Result<RenderedImage> {
        let draw = self.read_draw(index)?;
        let targets = super::view_targets(&draw);
        let target = [TargetId::Rt0, TargetId::Depth]
            .into_iter()
            .find_map(|id| targets.iter().find(|t| t.id == id && t.recorded.is_some()))
            .ok_or_else(|| {
                Error::new(
                    "capture",
                    format!("the capture holds no image of rt0 or depth after draw {index}"),
                )
            })?;
        thumbnail_image(target, index, max_width, max_height)
    }

    /// [`ViewerCapture::thumbnail`] of target `id` of draw `index`.
    #[cfg(test)]
    pub(super) fn thumbnail_of(
        &mut self,
        index: usize,
        id: TargetId,
        max_width: u32,
        max_height: u32,
    ) -> Result<RenderedImage> {
        let target = self.recorded_target(index, id)?;
        thumbnail_image(&target, index, max_width, max_height)
    }

    /// Image `kind` of target `id` of draw `index` as RGBA8 under `display` (rules in the module doc), of a
    /// multisampled colour target's samples resolved (the box average) when `resolved` is set. The recorded and
    /// before images need no replay; the others need the draw replayed.
    pub fn render_target(
        &mut self,
        index: usize,
        id: TargetId,
        kind: ImageKind,
        display: &DisplayOptions,
        resolved: bool,
    ) -> Result<RenderedImage> {
        if resolved {
            return self.render_resolved(index, id, kind, display);
        }
        match kind {
            ImageKind::Recorded | ImageKind::Before => {
                render_stored(&self.recorded_target(index, id)?, kind, index, display)
            }
            ImageKind::Perceptual => {
                let replayed = self.replayed_mut(index)?;
                let map = replayed.perceptual(id)?.ok_or_else(|| {
                    Error::new(
                        "request",
                        format!(
                            "draw {index} has no perceptual map of {}: only a render target with a recorded after has \
                             one",
                            id.name()
                        ),
                    )
                })?;
                Ok(render_perceptual(map))
            }
            ImageKind::Replayed | ImageKind::Difference | ImageKind::Heatmap => {
                let replayed = self.replayed(index)?;
                let (target, bytes, comparison) = replayed.target(id).ok_or_else(|| super::no_target(index, id))?;
                match (kind, comparison) {
                    (ImageKind::Replayed, _) => render_values(target, &target.image(bytes)?, display),
                    (ImageKind::Heatmap, Some(comparison)) => Ok(render_heatmap(target, comparison)),
                    (_, Some(comparison)) => Ok(render_difference(
                        comparison,
                        render_values(target, &target.image(bytes)?, display)?,
                    )),
                    (_, None) => Err(Error::new(
                        "capture",
                        format!(
                            "the capture holds no image of {} after draw {index} to compare with",
                            id.name()
                        ),
                    )),
                }
            }
        }
    }

    /// [`ViewerCapture::render_target`] of the resolved view.
    fn render_resolved(
        &mut self,
        index: usize,
        id: TargetId,
        kind: ImageKind,
        display: &DisplayOptions,
    ) -> Result<RenderedImage> {
        let not_resolvable = |target: &super::ViewTarget| {
            Error::new(
                "request",
                format!(
                    "{} ({}, {} sample(s)) has no resolved view: only a multisampled render target of a resolvable \
                     format has one (19.2.2)",
                    id.name(),
                    target.format,
                    target.samples
                ),
            )
        };
        match kind {
            ImageKind::Recorded | ImageKind::Before => {
                let target = self.recorded_target(index, id)?;
                if !target.resolvable() {
                    return Err(not_resolvable(&target));
                }
                render_stored(&target.resolved()?, kind, index, display)
            }
            ImageKind::Perceptual => Err(Error::new(
                "request",
                "the resolved view has no perceptual map: show the samples stacked to see it",
            )),
            ImageKind::Replayed | ImageKind::Difference | ImageKind::Heatmap => {
                let replayed = self.replayed(index)?;
                let target = replayed.target(id).ok_or_else(|| super::no_target(index, id))?.0;
                let resolved = replayed
                    .session
                    .replay()
                    .and_then(|r| r.target(super::slot_of(id)))
                    .and_then(|t| t.resolved.as_ref());
                let Some(resolved) = resolved else {
                    return Err(not_resolvable(target));
                };
                let one = target.one_plane(resolved.before.clone(), resolved.recorded.clone());
                let image = one.image(&resolved.replayed)?;
                match (kind, &resolved.comparison) {
                    (ImageKind::Replayed, _) => render_values(&one, &image, display),
                    (ImageKind::Heatmap, Some(comparison)) => Ok(render_heatmap(&one, comparison)),
                    (_, Some(comparison)) => Ok(render_difference(comparison, render_values(&one, &image, display)?)),
                    (_, None) => Err(Error::new(
                        "capture",
                        format!(
                            "the capture holds no image of {} after draw {index} to compare with",
                            id.name()
                        ),
                    )),
                }
            }
        }
    }
}

/// The image of `target` the capture stores (its before for [`ImageKind::Before`], else its recorded after) of draw
/// `index`, as RGBA8 under `display`.
fn render_stored(
    target: &ViewTarget,
    kind: ImageKind,
    index: usize,
    display: &DisplayOptions,
) -> Result<RenderedImage> {
    let bytes = match kind {
        ImageKind::Before => target.before.clone(),
        _ => target.recorded.clone().ok_or_else(|| {
            Error::new(
                "capture",
                format!("the capture holds no image of {} after draw {index}", target.id.name()),
            )
        })?,
    };
    render_values(target, &target.image(&bytes)?, display)
}

/// A thumbnail of `target`'s recorded after of draw `index` ([`ViewerCapture::thumbnail`]'s rules): one plane under
/// the default display options, shrunk to fit `max_width` × `max_height` (each at most [`MAX_THUMBNAIL_SIDE`]).
fn thumbnail_image(target: &ViewTarget, index: usize, max_width: u32, max_height: u32) -> Result<RenderedImage> {
    let one_plane;
    let shown = if target.resolvable() {
        one_plane = target.resolved()?;
        &one_plane
    } else if target.samples > 1 {
        one_plane = target.first_sample();
        &one_plane
    } else {
        target
    };
    Ok(shrink(
        render_stored(shown, ImageKind::Recorded, index, &DisplayOptions::default())?,
        max_width.min(MAX_THUMBNAIL_SIDE),
        max_height.min(MAX_THUMBNAIL_SIDE),
    ))
}
