//! The one replay path: a [`ReplaySession`] runs a captured draw part by part and, when it is done, compares every
//! target it writes with what the GPU left. `iridia replay`, `iridia inspect`, the benchmark and the viewer all
//! replay through it; [`super::replay_captured`] is a session run to its end in one call.
//!
//! A session is started ([`ReplaySession::start`]: the draw prepared once, nothing drawn), resumed with a budget of
//! work ([`ReplaySession::resume`], counted as [`crate::draw::progress`] counts it, so that a caller can report
//! progress and see a cancel between steps), and finished: the last resume compares the targets and keeps the
//! [`DrawReplay`]. Cancelling is dropping the session. The prepared draw stays with the session after the replay
//! for pixel history ([`ReplaySession::prepared_mut`]), so inspecting a pixel prepares nothing again.

use std::sync::Arc;

use crate::capture::{CapturedDraw, RecordedUav, TargetSlot, UavAccessKind, UavLayout};
use crate::compare::flip::{self, FlipMap, FlipOptions, PerceptualError};
use crate::compare::{CompareOptions, Comparison, Image, PreviewOptions, Tolerance, compare, preview_rgba8};
use crate::draw::{
    DrawOutput, DrawRun, HistoryOptions, PixelHistory, PixelOutcome, PreparedDraw, Progress, ProgressCallback,
    ShaderCache, TargetImage,
};
use crate::error::ErrorKind;
use crate::{Error, Result};

use super::{DrawReplay, Plane, ReplayOptions, StreamOutputReplay, TargetReplay};

/// Where a session is.
enum Phase {
    /// Prepared, nothing drawn yet ([`ReplaySession::prepare`]): the first resume starts the draw.
    Prepared,
    /// Drawing.
    Running(Box<DrawRun>),
    /// Drawn and compared.
    Finished(Box<DrawReplay>),
    /// A resume failed (or the draw was cancelled): nothing more can be done with it.
    Failed,
}

/// A captured draw being replayed (see the module documentation).
pub struct ReplaySession {
    /// The draw as read from the capture.
    draw: Arc<CapturedDraw>,
    /// How it is replayed and compared.
    options: ReplayOptions,
    /// The draw, prepared once: its programs, linkage, resources and (once shaded) vertices.
    prepared: PreparedDraw<'static>,
    /// Where it is.
    phase: Phase,
    /// How far the draw had got at the end of the last resume.
    progress: Progress,
}

impl std::fmt::Debug for ReplaySession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplaySession")
            .field("draw", &self.draw.index)
            .field("finished", &self.is_finished())
            .finish_non_exhaustive()
    }
}

impl ReplaySession {
    /// Prepares `draw` (programs from `cache`) and begins its replay from the recorded contents before it; nothing
    /// is drawn yet. Errors name the draw and the binding or program at fault.
    pub fn start(draw: Arc<CapturedDraw>, cache: &mut ShaderCache, options: &ReplayOptions) -> Result<ReplaySession> {
        let mut session = ReplaySession::prepare(draw, cache, options)?;
        session.begin()?;
        Ok(session)
    }

    /// Starts the draw of a session only prepared: its targets made from their contents before it.
    fn begin(&mut self) -> Result<()> {
        let run = self.prepared.start()?;
        self.progress = run.progress();
        self.phase = Phase::Running(Box::new(run));
        Ok(())
    }

    /// Prepares `draw` as [`ReplaySession::start`] does but begins nothing: no target is copied until the first
    /// [`ReplaySession::resume`]. What a pixel's inspection without the whole replay starts from
    /// ([`ReplaySession::pixel_outcome`]).
    pub fn prepare(draw: Arc<CapturedDraw>, cache: &mut ShaderCache, options: &ReplayOptions) -> Result<ReplaySession> {
        let state = Arc::new(draw.state.clone());
        let prepared = PreparedDraw::shared(state, cache, options.draw)?;
        Ok(ReplaySession {
            draw,
            options: options.clone(),
            prepared,
            progress: Progress::default(),
            phase: Phase::Prepared,
        })
    }

    /// The history of pixel (`x`, `y`) and what the whole draw leaves there ([`PreparedDraw::pixel_outcome`]: the
    /// vertex program for the draw's vertices, then only the primitives whose bounds hold the pixel), whatever the
    /// replay's phase: the same texels the whole replay gives there.
    pub fn pixel_outcome(&mut self, x: u32, y: u32, options: HistoryOptions) -> Result<(PixelHistory, PixelOutcome)> {
        self.prepared.pixel_outcome(x, y, options)
    }

    /// Goes on with the replay for about `budget` units of work (at least one step; `u64::MAX` runs it to its
    /// end). When the draw is done its targets are compared and the result kept ([`ReplaySession::replay`]).
    /// Returns whether the replay is finished. `progress` is called as [`crate::draw::progress`] says and may
    /// cancel: then the error is of kind [`ErrorKind::Cancelled`] and the session cannot go on, as after any error.
    pub fn resume(&mut self, budget: u64, progress: Option<ProgressCallback<'_>>) -> Result<bool> {
        if matches!(self.phase, Phase::Prepared) {
            self.begin()?;
        }
        let Phase::Running(run) = &mut self.phase else {
            return match self.phase {
                Phase::Finished(_) => Ok(true),
                _ => Err(self.spent()),
            };
        };
        let result = self.prepared.resume(run, budget.max(1), progress);
        self.progress = run.progress();
        let finished = match result {
            Ok(finished) => finished,
            Err(error) => {
                self.phase = Phase::Failed;
                return Err(error);
            }
        };
        if !finished {
            return Ok(false);
        }
        let Phase::Running(run) = std::mem::replace(&mut self.phase, Phase::Failed) else {
            return Err(self.spent());
        };
        let output = self.prepared.finish(*run)?;
        let replay = compared(&self.draw, &self.options, output)?;
        self.phase = Phase::Finished(Box::new(replay));
        Ok(true)
    }

    /// The error for a session that cannot go on.
    fn spent(&self) -> Error {
        Error::of_kind(
            ErrorKind::Request,
            format!("draw {}", self.draw.index),
            "the replay failed or was cancelled; start it again",
        )
    }

    /// Runs the replay to its end (see [`ReplaySession::resume`]), keeping the session (for pixel history), and
    /// gives its result.
    pub fn run_to_end(&mut self, progress: Option<ProgressCallback<'_>>) -> Result<&DrawReplay> {
        self.resume(u64::MAX, progress)?;
        match &self.phase {
            Phase::Finished(replay) => Ok(replay),
            _ => Err(self.spent()),
        }
    }

    /// Runs the replay to its end (see [`ReplaySession::resume`]) and gives its result.
    pub fn finish(mut self, progress: Option<ProgressCallback<'_>>) -> Result<DrawReplay> {
        self.resume(u64::MAX, progress)?;
        match self.phase {
            Phase::Finished(replay) => Ok(*replay),
            _ => Err(self.spent()),
        }
    }

    /// Replays the draw again from its recorded contents before it, to its end, under `variants`
    /// ([`crate::draw::variants`]) and compares it: the stages the variants change are run again, the shaded
    /// vertices reused ([`PreparedDraw::set_variants`]). The session keeps the new result.
    pub fn rerun_with(
        &mut self,
        variants: crate::draw::Variants,
        progress: Option<ProgressCallback<'_>>,
    ) -> Result<&DrawReplay> {
        self.prepared.set_variants(variants);
        self.options.draw.variants = variants;
        self.phase = Phase::Prepared;
        self.run_to_end(progress)
    }

    /// Ends the replay unfinished: the same as dropping the session, said out loud.
    pub fn cancel(self) {}

    /// How far the draw had got at the end of the last resume.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// Whether the replay is finished and compared.
    pub fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Finished(_))
    }

    /// The finished replay's result.
    pub fn replay(&self) -> Option<&DrawReplay> {
        match &self.phase {
            Phase::Finished(replay) => Some(replay),
            _ => None,
        }
    }

    /// The draw as read from the capture.
    pub fn draw(&self) -> &Arc<CapturedDraw> {
        &self.draw
    }

    /// How the draw is replayed and compared.
    pub fn options(&self) -> &ReplayOptions {
        &self.options
    }

    /// The prepared draw (programs, rasterizer, viewport), for reading.
    pub fn prepared(&self) -> &PreparedDraw<'static> {
        &self.prepared
    }

    /// The prepared draw, for pixel history ([`PreparedDraw::pixel_history`]), which reuses its shaded vertices.
    pub fn prepared_mut(&mut self) -> &mut PreparedDraw<'static> {
        &mut self.prepared
    }
}

/// The replayed image of `slot` in `output`.
fn output_image(output: &DrawOutput, slot: TargetSlot) -> Option<&TargetImage> {
    match slot {
        TargetSlot::RenderTarget(s) => output
            .render_targets
            .get(usize::try_from(s).ok()?)
            .and_then(Option::as_ref),
        TargetSlot::DepthStencil => output.depth_stencil.as_ref(),
    }
}

/// The tolerance `plane` of a target of `format` is compared under: `tolerance` with only the plane's channel
/// compared (a depth-stencil format's channel 0 is depth, 1 stencil).
pub fn plane_tolerance(tolerance: Tolerance, plane: Plane) -> Tolerance {
    let keep = match plane {
        Plane::All => return tolerance,
        Plane::Depth => 0,
        Plane::Stencil => 1,
    };
    let mut tolerance = tolerance;
    for (slot, channel) in tolerance.channels.iter_mut().enumerate() {
        channel.compare = channel.compare && slot == keep;
    }
    tolerance
}

/// A finished draw's result: each recorded target compared with the replayed one (see [`super`]).
fn compared(draw: &CapturedDraw, options: &ReplayOptions, output: DrawOutput) -> Result<DrawReplay> {
    // the draw's ambiguity mask, one flag a pixel (a plane of them per sample with multisampled targets)
    let pixel_mask = (!output.ambiguous.is_empty()).then_some(output.ambiguous.as_slice());
    let pixels = usize::try_from(output.width)
        .unwrap_or(0)
        .saturating_mul(usize::try_from(output.height).unwrap_or(0));
    let mut targets = Vec::with_capacity(draw.targets.len());
    for recorded in &draw.targets {
        let at = format!("draw {} {}", draw.index, recorded.target);
        let image = output_image(&output, recorded.target)
            .ok_or_else(|| Error::new("replay", "the draw gave no contents for this target").at(at.clone()))?;
        if (image.format, image.width, image.height) != (recorded.format, recorded.width, recorded.height) {
            return Err(Error::new(
                "replay",
                format!(
                    "the replayed target is a {}x{} {} surface but the capture records a {}x{} {} one",
                    image.width, image.height, image.format, recorded.width, recorded.height, recorded.format
                ),
            )
            .at(at));
        }
        let replayed: Arc<[u8]> = Arc::from(image.bytes.as_slice());
        let tolerance = options.tolerance.resolve(recorded.format);
        // a multisampled surface is compared as its sample planes stacked (sample 0's on top), as the draw's
        // ambiguity mask holds them
        let samples = recorded.resource.sample_count.max(1);
        let stacked_height = recorded.height.saturating_mul(samples);
        let ambiguity = pixel_mask;
        let sample_mask = |sample: usize| {
            pixel_mask.and_then(|mask| {
                mask.get(pixels.saturating_mul(sample)..pixels.saturating_mul(sample.saturating_add(1)))
            })
        };
        let mut sample_reports = Vec::new();
        let planes = if options.planes && recorded.target == TargetSlot::DepthStencil {
            vec![Plane::Depth, Plane::Stencil]
                .into_iter()
                .filter(|&plane| plane == Plane::Depth || super::has_stencil(recorded.format))
                .collect()
        } else {
            Vec::new()
        };
        let mut comparison = None;
        let mut plane_comparisons = Vec::with_capacity(planes.len());
        let mut flip_map = None;
        if let Some(after) = &recorded.after {
            let reference = Image::new(recorded.format, recorded.width, stacked_height, after)
                .map_err(|e| e.within(at.as_str()))?;
            let result = Image::new(recorded.format, recorded.width, stacked_height, &replayed)
                .map_err(|e| e.within(at.as_str()))?;
            let under = |tolerance: Tolerance| -> Result<Comparison> {
                let compare_options = CompareOptions {
                    ambiguous: ambiguity,
                    ..CompareOptions::new(tolerance)
                };
                compare(&reference, &result, &compare_options).map_err(|e| e.within(at.as_str()))
            };
            comparison = Some(under(tolerance)?);
            if options.perceptual && matches!(recorded.target, TargetSlot::RenderTarget(_)) {
                flip_map = perceptual(&reference, &result).map_err(|e| e.within(at.as_str()))?;
            }
            for plane in planes {
                plane_comparisons.push((plane, under(plane_tolerance(tolerance, plane))?));
            }
            if samples > 1 {
                let plane_bytes = after
                    .len()
                    .checked_div(usize::try_from(samples).unwrap_or(1))
                    .unwrap_or(0);
                for sample in 0..samples as usize {
                    let plane_mask = sample_mask(sample);
                    let range =
                        plane_bytes.saturating_mul(sample)..plane_bytes.saturating_mul(sample.saturating_add(1));
                    let (Some(theirs), Some(ours)) = (after.get(range.clone()), replayed.get(range)) else {
                        continue;
                    };
                    let at_sample = format!("{at} sample {sample}");
                    let reference = Image::new(recorded.format, recorded.width, recorded.height, theirs)
                        .map_err(|e| e.within(at_sample.as_str()))?;
                    let result = Image::new(recorded.format, recorded.width, recorded.height, ours)
                        .map_err(|e| e.within(at_sample.as_str()))?;
                    let compare_options = CompareOptions {
                        ambiguous: plane_mask,
                        ..CompareOptions::new(tolerance)
                    };
                    let plane =
                        compare(&reference, &result, &compare_options).map_err(|e| e.within(at_sample.as_str()))?;
                    sample_reports.push(plane.report);
                }
            }
        }
        let resolved = resolved_target(recorded, &replayed, pixel_mask, pixels, tolerance)
            .map_err(|e| e.within(format!("draw {} {} resolved", draw.index, recorded.target).as_str()))?;
        targets.push(TargetReplay {
            slot: recorded.target,
            format: recorded.format,
            width: recorded.width,
            height: stacked_height,
            samples,
            sample_reports,
            before: recorded.before.clone(),
            recorded: recorded.after.clone(),
            replayed,
            recorded_after: recorded.after.is_some(),
            report: comparison.as_ref().map(|c| c.report.clone()),
            resolved,
            perceptual: flip_map.as_ref().map(PerceptualError::of),
            flip_map,
            comparison,
            planes: plane_comparisons,
        });
    }
    let at = format!("draw {}", draw.index);
    let uavs = super::dispatch::uav_replays(
        &at,
        &draw.uavs_after,
        &draw.state.uavs,
        &output.uavs,
        &output.uav_order,
        &options.tolerance,
    )?;
    let mut stream_output = Vec::with_capacity(draw.stream_output.len());
    for buffer in &draw.stream_output {
        let name = format!("{at} so{}", buffer.slot);
        let replayed: Arc<[u8]> = output
            .stream_output
            .as_ref()
            .and_then(|so| so.buffers.get(usize::try_from(buffer.slot).ok()?)?.as_ref())
            .map(|bytes| Arc::from(bytes.as_slice()))
            .ok_or_else(|| Error::new("replay", "the stream-output buffer was not replayed").at(name.as_str()))?;
        let bytes = u64::try_from(buffer.before.len()).unwrap_or(u64::MAX);
        let words = u32::try_from(bytes.div_ceil(4)).unwrap_or(u32::MAX);
        let recorded = RecordedUav {
            slot: buffer.slot,
            layout: UavLayout {
                access: UavAccessKind::Raw,
                format: crate::format::Format::R32Typeless,
                element_bytes: 4,
                width: words,
                height: 1,
                slices: 1,
                bytes,
            },
            bytes: buffer.after.clone(),
            counter: None,
        };
        let report = super::dispatch::compare_uav(&recorded, &replayed, None, &options.tolerance)
            .map_err(|e| e.within(name.as_str()))?;
        stream_output.push(StreamOutputReplay {
            slot: buffer.slot,
            bytes,
            recorded_after: buffer.after.is_some(),
            before: buffer.before.clone(),
            recorded: buffer.after.clone(),
            replayed,
            report,
        });
    }
    Ok(DrawReplay {
        index: draw.index,
        label: draw.label(),
        name: draw.name.clone(),
        api_call: draw.api_call.clone(),
        width: output.width,
        height: output.height,
        stats: output.stats,
        ambiguous_mask_pixels: output.ambiguous.iter().filter(|a| **a).count() as u64,
        ambiguous: output.ambiguous,
        targets,
        uavs,
        stream_output,
    })
}

/// The LDR-FLIP error map of `result` against `reference` (a render target's replayed and recorded surfaces, a
/// multisampled one's stacked sample planes), both as the pictures show them: [`preview_rgba8`] in the format's
/// default mapping, which is sRGB RGBA8 as FLIP takes it. `None` when the surface is larger than FLIP takes
/// ([`flip::MAX_SIDE`], [`flip::MAX_PIXELS`]) or the memory for it cannot be had: the figure is left out, the
/// replay goes on.
pub fn perceptual(reference: &Image<'_>, result: &Image<'_>) -> Result<Option<FlipMap>> {
    let (width, height) = (reference.width(), reference.height());
    let pixels = u64::from(width).saturating_mul(u64::from(height));
    if width == 0 || height == 0 || width > flip::MAX_SIDE || height > flip::MAX_SIDE || pixels > flip::MAX_PIXELS {
        return Ok(None);
    }
    let preview = PreviewOptions::for_format(reference.format());
    let recorded = preview_rgba8(reference, &preview)?;
    let replayed = preview_rgba8(result, &preview)?;
    match flip::flip(&recorded, &replayed, width, height, &FlipOptions::default()) {
        Ok(map) => Ok(Some(map)),
        Err(error) if error.kind == ErrorKind::Budget => Ok(None),
        Err(error) => Err(error),
    }
}

/// A multisampled render target of a resolvable format resolved and compared ([`super::TargetReplay::resolved`]);
/// `None` for other targets. `mask` is the draw's ambiguity mask (a plane of `pixels` flags per sample).
fn resolved_target(
    recorded: &crate::capture::RecordedTarget,
    replayed: &[u8],
    mask: Option<&[bool]>,
    pixels: usize,
    tolerance: Tolerance,
) -> Result<Option<super::ResolvedSurfaces>> {
    let samples = recorded.resource.sample_count.max(1);
    let colour = matches!(recorded.target, TargetSlot::RenderTarget(_));
    if samples <= 1 || !colour || crate::api::multisample::resolvable(recorded.format).is_err() {
        return Ok(None);
    }
    let (format, width, height) = (recorded.format, recorded.width, recorded.height);
    let resolve = |bytes: &[u8]| -> Result<Arc<[u8]>> {
        Ok(Arc::from(super::resolve_samples(
            format, width, height, samples, bytes,
        )?))
    };
    let before = resolve(&recorded.before)?;
    let replayed = resolve(replayed)?;
    let after = recorded.after.as_deref().map(resolve).transpose()?;
    let any_sample: Option<Vec<bool>> = mask.map(|mask| {
        (0..pixels)
            .map(|p| mask.iter().skip(p).step_by(pixels.max(1)).any(|m| *m))
            .collect()
    });
    let options = CompareOptions {
        ambiguous: any_sample.as_deref(),
        ..CompareOptions::new(tolerance)
    };
    super::ResolvedSurfaces::compared((format, width, height), before, after, replayed, &options).map(Some)
}
