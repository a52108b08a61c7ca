//! Replaying a recorded draw: draw N of a capture run again on the CPU from the contents its targets had before it,
//! and every target it writes compared with what the GPU left there after it.
//!
//! [`replay_draw`] reads the draw from a [`Capture`] (inflating only its blobs), runs it with the draw module
//! ([`crate::draw::PreparedDraw`], the ambiguity mask on unless [`DrawOptions::ambiguity`] is off) and, for each render
//! target and the depth-stencil target, gives a [`TargetReplay`]: the bytes before, the recorded bytes after (when the
//! capture has them), the replayed bytes, and the [`crate::compare::compare`] of replayed against recorded under the
//! tolerance the [`ToleranceSpec`] resolves to for the target's format, with the draw's ambiguity mask, so that a
//! difference at a pixel whose coverage depends on rounding at a triangle edge is counted as ambiguous, not as a
//! difference. Every pixel of the written surface is compared (a pixel the draw did not reach must come out as it
//! went in, on both sides). [`replay_captured`] does the same for a draw already read. Both are a [`ReplaySession`]
//! ([`session`]) run to its end: the one path every replay takes, the viewer's step by step.
//!
//! With [`ReplayOptions::perceptual`] each compared render target also gets its LDR-FLIP error
//! ([`TargetReplay::perceptual`], [`crate::compare::flip`]): how visible the difference of the two pictures is to
//! someone flipping between them, a figure the tolerance's pass or fail does not give.
//!
//! A target without a recorded after has no comparison (`report` is `None`) and does not decide whether the draw
//! matches. [`DrawReplay::matches`] is true when every compared target matches (ambiguous differences allowed).
//!
//! A recorded `ResolveSubresource` (capture format 1.2) is replayed by [`resolve`]: its recorded samples resolved
//! again ([`resolve_samples`], the box average) and compared with the recorded destination ([`replay_resolve`]).
//!
//! A recorded `Dispatch` (capture format 1.3) is replayed by [`dispatch`]: the compute program run again from the
//! recorded views ([`replay_dispatch`]) and each view's window compared with the recorded one (typed views texel by
//! texel under the tolerance, raw and structured views word by word, counters exactly).
//!
//! The result is serializable for the CLI's `--json` and the browser: targets by name (`"rt0"`, `"depth"`), format,
//! size and report; the raw bytes, the ambiguity mask and the per-pixel comparison are left out of the JSON (they are
//! megabytes) and reached through the fields and [`TargetReplay::png`].

pub mod dispatch;
pub mod edit;
pub mod explain;
pub mod resolve;
pub mod session;

pub use dispatch::{DispatchReplay, UavReplay, UavReport, replay_dispatch};
pub use explain::{Explainer, Explanation, explain};
pub use resolve::{ResolveReplay, ResolvedSurfaces, replay_resolve, resolve_samples};
pub use session::{ReplaySession, perceptual, plane_tolerance};

use crate::api::limits::RENDER_TARGET_SLOTS;
use crate::capture::{Capture, CapturedDraw, TargetSlot};
use crate::compare::flip::{FlipMap, PerceptualError};
use crate::compare::{
    CompareOptions, Comparison, Image, PixelClass, PreviewOptions, TargetReport, Tolerance, ToleranceSpec, encode_png,
    pixel_index, preview_rgba8,
};
use crate::draw::{DrawOptions, DrawStats, ProgressCallback, ShaderCache};
use crate::format::Format;
use crate::{Error, Result};
use serde::{Serialize, Serializer};
use std::io::{Read, Seek};
use std::sync::Arc;

/// How a draw is replayed and compared.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayOptions {
    /// The tolerance, resolved per target format (the empty spec: each format's defaults, see
    /// [`crate::compare::tolerance`]).
    pub tolerance: ToleranceSpec,
    /// How the draw treats what a well-formed draw does not do, and whether the ambiguity mask is computed.
    pub draw: DrawOptions,
    /// Also compare a depth-stencil target's depth and stencil planes each alone ([`TargetReplay::plane`]), as
    /// the viewer shows them.
    pub planes: bool,
    /// Also score how visible each render target's difference is: the LDR-FLIP error ([`crate::compare::flip`])
    /// of the replayed picture against the recorded one, both as displayed ([`TargetReplay::perceptual`],
    /// [`Picture::Perceptual`]; `iridia replay --flip`). Off by default: it costs a few filter passes a pixel.
    pub perceptual: bool,
}

impl ReplayOptions {
    /// Bitwise comparison of every channel (`--exact`), default draw options.
    pub fn exact() -> ReplayOptions {
        ReplayOptions {
            tolerance: ToleranceSpec::exact(),
            draw: DrawOptions::default(),
            planes: false,
            perceptual: false,
        }
    }
}

/// Serializes a target slot by its name: `rt0` to `rt7`, or `depth`.
pub fn serialize_slot<S: Serializer>(slot: &TargetSlot, serializer: S) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_str(slot)
}

/// The target a name gives: `rt0` to `rt7` (also `0` to `7`), or `depth` (also `ds`, `depth-stencil`).
pub fn parse_target(name: &str) -> Result<TargetSlot> {
    let text = name.trim().to_ascii_lowercase();
    if matches!(text.as_str(), "depth" | "ds" | "depth-stencil" | "depthstencil") {
        return Ok(TargetSlot::DepthStencil);
    }
    let digits = text.strip_prefix("rt").unwrap_or(&text);
    match digits.parse::<u32>() {
        Ok(slot) if (slot as usize) < RENDER_TARGET_SLOTS => Ok(TargetSlot::RenderTarget(slot)),
        _ => Err(Error::new(
            "target",
            format!("'{name}' is not a target: rt0 to rt7, or depth"),
        )),
    }
}

/// Which channels of a target a comparison looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plane {
    /// Every channel the tolerance compares.
    All,
    /// Only a depth-stencil target's depth.
    Depth,
    /// Only a depth-stencil target's stencil.
    Stencil,
}

/// Which picture of a target [`TargetReplay::png`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    /// The contents before the draw (a preview in the format's default mapping).
    Before,
    /// The contents the GPU left after it.
    Recorded,
    /// The replayed contents after it.
    Replayed,
    /// The difference mask (colours in [`crate::compare::render`]).
    Difference,
    /// The error heatmap on the default scale.
    Heatmap,
    /// The LDR-FLIP error map through the magma colour map ([`FlipMap::to_rgba8`]: near-black where nothing
    /// shows, pale yellow where the difference is most visible); only with [`ReplayOptions::perceptual`].
    Perceptual,
}

/// One target of a replayed draw.
#[derive(Clone, Debug, Serialize)]
pub struct TargetReplay {
    /// Which target (`"rt0"`, `"depth"` in JSON).
    #[serde(serialize_with = "serialize_slot")]
    pub slot: TargetSlot,
    /// The view's format: the format of every byte buffer here.
    pub format: Format,
    /// Width of the written surface, in texels.
    pub width: u32,
    /// Height of the written surface, in texels, times its samples: a multisampled surface's sample planes are
    /// stacked, sample 0's on top (the capture format's layout, docs/capture-format.md section 5), and every image
    /// here is of the whole stack.
    pub height: u32,
    /// Samples per texel (1 without multisampling); each plane is `height / samples` rows.
    pub samples: u32,
    /// For a multisampled target, each sample plane compared alone, sample 0's first (the whole stack is
    /// [`TargetReplay::report`]); empty for one sample or when nothing was recorded.
    pub sample_reports: Vec<TargetReport>,
    /// The surface before the draw: texels rows packed, top row first (depth-stencil in D3D's layout).
    #[serde(skip)]
    pub before: Arc<[u8]>,
    /// The surface after the draw as the GPU left it, same layout; `None` when the capture does not record it.
    #[serde(skip)]
    pub recorded: Option<Arc<[u8]>>,
    /// The surface after the replayed draw, same layout.
    #[serde(skip)]
    pub replayed: Arc<[u8]>,
    /// Whether the capture records the contents after the draw.
    pub recorded_after: bool,
    /// The comparison of replayed against recorded (the report part); `None` when nothing was recorded.
    pub report: Option<TargetReport>,
    /// The whole comparison, with each pixel's class and error for the mask and heatmap.
    #[serde(skip)]
    pub comparison: Option<Comparison>,
    /// With [`ReplayOptions::planes`], a depth-stencil target's depth and (if the format has one) stencil plane
    /// each compared alone; empty otherwise.
    #[serde(skip)]
    pub planes: Vec<(Plane, Comparison)>,
    /// For a multisampled render target of a resolvable format (19.2.2), its surfaces resolved by
    /// [`resolve_samples`] (the box average `ResolveSubresource` gives the standard patterns, 19.2.4) and compared
    /// under the target's tolerance, a pixel ambiguous when any of its samples is; `None` otherwise.
    pub resolved: Option<ResolvedSurfaces>,
    /// With [`ReplayOptions::perceptual`], for a render target whose after was recorded: the LDR-FLIP error
    /// ([`crate::compare::flip`], default viewing condition) of the replayed surface against the recorded one,
    /// both as the pictures show them ([`preview_rgba8`] in the format's default mapping, a multisampled target's
    /// whole stack of sample planes), pooled to its mean, percentiles and largest error. `None` for a
    /// depth-stencil target, when nothing was recorded, without the option, or when the surface is larger than
    /// FLIP takes ([`crate::compare::flip::MAX_PIXELS`], [`crate::compare::flip::MAX_SIDE`]).
    pub perceptual: Option<PerceptualError>,
    /// The per-pixel FLIP errors behind [`TargetReplay::perceptual`] (`width` x `height`), for
    /// [`Picture::Perceptual`]; `None` when that is.
    #[serde(skip)]
    pub flip_map: Option<FlipMap>,
}

impl TargetReplay {
    /// The replayed surface as an image.
    pub fn replayed_image(&self) -> Result<Image<'_>> {
        Image::new(self.format, self.width, self.height, &self.replayed)
    }

    /// The recorded surface as an image, if recorded.
    pub fn recorded_image(&self) -> Result<Option<Image<'_>>> {
        self.recorded
            .as_deref()
            .map(|bytes| Image::new(self.format, self.width, self.height, bytes))
            .transpose()
    }

    /// The surface before the draw as an image.
    pub fn before_image(&self) -> Result<Image<'_>> {
        Image::new(self.format, self.width, self.height, &self.before)
    }

    /// Whether the target matches (ambiguous differences allowed); `None` when nothing was recorded.
    pub fn matches(&self) -> Option<bool> {
        self.report.as_ref().map(|r| r.matches)
    }

    /// The bytes of texel (`x`, `y`) of `bytes` (a surface of this target), if inside.
    pub fn texel<'b>(&self, bytes: &'b [u8], x: u32, y: u32) -> Option<&'b [u8]> {
        Image::new(self.format, self.width, self.height, bytes)
            .ok()?
            .texel(x, y)
    }

    /// The comparison of `plane` alone (for the whole texel, [`TargetReplay::comparison`]); `None` when nothing was
    /// recorded or the replay was not asked to compare planes apart ([`ReplayOptions::planes`]).
    pub fn plane(&self, plane: Plane) -> Option<&Comparison> {
        match plane {
            Plane::All => self.comparison.as_ref(),
            _ => self.planes.iter().find(|(p, _)| *p == plane).map(|(_, c)| c),
        }
    }

    /// A PNG of `picture` (RGBA8); `None` for the recorded contents, the mask and the heatmap when nothing was
    /// recorded, and for the FLIP map when it was not computed ([`TargetReplay::perceptual`]).
    pub fn png(&self, picture: Picture) -> Result<Option<Vec<u8>>> {
        let preview = |image: Image<'_>| preview_rgba8(&image, &PreviewOptions::for_format(self.format));
        let rgba = match picture {
            Picture::Before => Some(preview(self.before_image()?)?),
            Picture::Replayed => Some(preview(self.replayed_image()?)?),
            Picture::Recorded => match self.recorded_image()? {
                Some(image) => Some(preview(image)?),
                None => None,
            },
            Picture::Difference => self.comparison.as_ref().map(Comparison::difference_mask_rgba8),
            Picture::Heatmap => self
                .comparison
                .as_ref()
                .map(|c| c.heatmap_rgba8(c.default_heatmap_scale())),
            Picture::Perceptual => self.flip_map.as_ref().map(FlipMap::to_rgba8),
        };
        rgba.map(|rgba| encode_png(self.width, self.height, &rgba)).transpose()
    }
}

/// A replayed draw: what it did and each target it writes, compared.
#[derive(Clone, Debug, Serialize)]
pub struct DrawReplay {
    /// Its position in the capture, from 0.
    pub index: usize,
    /// What to call it: its marker name, else its API call ([`CapturedDraw::label`]).
    pub label: String,
    /// Its marker or debug name.
    pub name: Option<String>,
    /// The API call it came from.
    pub api_call: Option<String>,
    /// Width of the pixel grid (the targets' size), in pixels.
    pub width: u32,
    /// Height of the pixel grid, in pixels.
    pub height: u32,
    /// What the replayed draw did.
    pub stats: DrawStats,
    /// Pixels whose coverage depends on rounding at a triangle edge (the ambiguity mask's count).
    pub ambiguous_mask_pixels: u64,
    /// Per pixel (`width * height`, row by row; with multisampled targets one such plane per sample, stacked as their
    /// sample planes are): whether its coverage depends on rounding (see [`crate::draw`]); empty when the draw
    /// options turn the mask off.
    #[serde(skip)]
    pub ambiguous: Vec<bool>,
    /// The render targets by slot, then the depth-stencil target.
    pub targets: Vec<TargetReplay>,
    /// The pixel stage's unordered access views (capture format 1.4), by slot, compared as a dispatch's are.
    pub uavs: Vec<UavReplay>,
    /// The stream-output buffers (capture format 1.4), by slot, compared byte for byte.
    pub stream_output: Vec<StreamOutputReplay>,
}

/// A stream-output buffer of a replayed draw: the whole buffer after the draw, recorded and replayed, compared word
/// by word, exactly (the words of a vertex are of no known type).
#[derive(Clone, Debug, Serialize)]
pub struct StreamOutputReplay {
    /// The slot, `so#`.
    pub slot: u32,
    /// The buffer's size in bytes.
    pub bytes: u64,
    /// Whether the capture records the buffer after the draw.
    pub recorded_after: bool,
    /// The buffer before the draw.
    #[serde(skip)]
    pub before: Arc<[u8]>,
    /// The buffer after it as the GPU left it; `None` when not recorded.
    #[serde(skip)]
    pub recorded: Option<Arc<[u8]>>,
    /// The buffer after the replayed draw.
    #[serde(skip)]
    pub replayed: Arc<[u8]>,
    /// The comparison (4-byte words as a raw view's elements); `None` when nothing was recorded.
    pub report: Option<UavReport>,
}

impl StreamOutputReplay {
    /// `so0`, `so1` ...
    pub fn name(&self) -> String {
        format!("so{}", self.slot)
    }

    /// Whether the buffer matches; `None` when nothing was recorded.
    pub fn matches(&self) -> Option<bool> {
        self.report.as_ref().map(|r| r.matches)
    }
}

impl DrawReplay {
    /// Whether anything was compared: a target, view or stream-output buffer whose after the capture records.
    pub fn compared(&self) -> bool {
        self.targets.iter().any(|t| t.report.is_some())
            || self.uavs.iter().any(|u| u.report.is_some())
            || self.stream_output.iter().any(|s| s.report.is_some())
    }

    /// Whether every compared target (ambiguous differences allowed), view and stream-output buffer matches; true
    /// when none was compared.
    pub fn matches(&self) -> bool {
        self.targets.iter().all(|t| t.matches() != Some(false))
            && self.uavs.iter().all(|u| u.matches() != Some(false))
            && self.stream_output.iter().all(|s| s.matches() != Some(false))
    }

    /// The target `slot`, if the draw writes it.
    pub fn target(&self, slot: TargetSlot) -> Option<&TargetReplay> {
        self.targets.iter().find(|t| t.slot == slot)
    }

    /// Whether pixel (`x`, `y`) is in the ambiguity mask; with multisampled targets `y` is a row of the stacked
    /// sample planes (sample `s` of pixel row `r` is row `r + s * height`).
    pub fn is_ambiguous(&self, x: u32, y: u32) -> bool {
        let pixels = (self.width as usize).saturating_mul(self.height as usize);
        let planes = u32::try_from(self.ambiguous.len().checked_div(pixels).unwrap_or(1))
            .unwrap_or(1)
            .max(1);
        pixel_index(self.width, self.height.saturating_mul(planes), x, y)
            .and_then(|i| self.ambiguous.get(i))
            .copied()
            .unwrap_or(false)
    }
}

/// Replays draw `index` of `capture` and compares every target it writes (see the module documentation).
/// `progress` is called as the draw goes (see [`crate::draw::progress`]) and may cancel it. Errors name the draw
/// and the item at fault.
pub fn replay_draw<R: Read + Seek>(
    capture: &mut Capture<R>,
    index: usize,
    cache: &mut ShaderCache,
    options: &ReplayOptions,
    progress: Option<ProgressCallback<'_>>,
) -> Result<DrawReplay> {
    let draw = Arc::new(capture.draw(index)?);
    ReplaySession::start(draw, cache, options)?.finish(progress)
}

/// Replays a draw already read from a capture (see [`replay_draw`]): a [`ReplaySession`] run to its end.
pub fn replay_captured(
    draw: &CapturedDraw,
    cache: &mut ShaderCache,
    options: &ReplayOptions,
    progress: Option<ProgressCallback<'_>>,
) -> Result<DrawReplay> {
    ReplaySession::start(Arc::new(draw.clone()), cache, options)?.finish(progress)
}

/// The class the comparison of a whole target ([`crate::compare::compare`]) gives a texel whose recorded bytes are
/// `recorded` and replayed bytes `replayed` (one texel of `format` each), under `tolerance` (without a position
/// deviation, which looks at neighbours), the texel in the ambiguity mask when `ambiguous`.
pub fn texel_class(
    format: Format,
    tolerance: Tolerance,
    recorded: &[u8],
    replayed: &[u8],
    ambiguous: bool,
) -> Result<Option<PixelClass>> {
    if tolerance.position > 0 {
        return Err(Error::new(
            "compare",
            "a texel alone cannot be compared under a position deviation (it looks at the neighbours)",
        ));
    }
    let reference = Image::new(format, 1, 1, recorded)?;
    let result = Image::new(format, 1, 1, replayed)?;
    let mask = [ambiguous];
    let options = CompareOptions {
        ambiguous: Some(&mask),
        ..CompareOptions::new(tolerance)
    };
    Ok(crate::compare::compare(&reference, &result, &options)?.class_at(0, 0))
}

/// Whether a depth format has a stencil plane.
pub(crate) fn has_stencil(format: Format) -> bool {
    format.info().kind == crate::format::NumericKind::DepthStencil
}

#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;
