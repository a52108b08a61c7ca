//! Inspecting one pixel of a replayed draw: its recorded, replayed and difference values, its history, and a
//! one-line verdict that says why the two differ.
//!
//! [`inspect_pixel`] replays draw N of a capture ([`crate::replay`]) and inspects pixel (x, y) of one target;
//! [`inspect_replayed`] inspects a draw already replayed (what the viewer does after a replay: only the pixel's
//! history is computed). A [`PixelInspection`] holds:
//!
//! - the texel before the draw, as recorded after it and as replayed, each as bytes and channels (raw bits and value),
//!   and per channel the difference: both bits and values, ULPs in the format, absolute error, whether within the
//!   tolerance ([`values`]); the pixel's compare class and whether it is in the draw's ambiguity mask;
//! - the pixel's history ([`crate::draw::PixelHistory`]): every fragment with its triangle's three vertices (inputs
//!   and every output), the interpolated inputs, the program's outputs, discard, the depth and stencil tests, the
//!   blend inputs and the written value, and the pixel program's trace; with the listing text of every instruction
//!   of the pixel program (`pixel_program.lines[i]` is instruction `i`, the index a trace step names), from
//!   [`crate::dxbc::disasm`];
//! - the nearest edges ([`edge`]) of the triangles whose coverage of the pixel depends on rounding;
//! - the [`Verdict`], in one line ([`Verdict::text`]).
//!
//! # The verdict
//!
//! The procedure looks at the texels before, recorded and replayed, the compare class, the fragments that wrote the
//! target in the replay (a render target write, or a depth or stencil change), and the edges. In order, the first
//! that applies:
//!
//! 1. No recorded after: **not recorded**.
//! 2. Equal bits: **matches**.
//! 3. Class match (within tolerance): **within tolerance**, naming the largest difference; class shifted:
//!    **shifted**.
//! 4. The GPU changed the pixel and the replay did not:
//!    - no fragment reached it: **edge coverage** (the GPU covered it) when a triangle's coverage of the pixel depends
//!      on rounding at one of its edges (the ambiguity rule, [`crate::draw::ambiguity`]), else **no fragment**;
//!    - the last fragment failed the depth test: **depth test** (it failed in the replay);
//!    - it was discarded, removed by a clip distance, left uncovered or failed the stencil test: **rejected**.
//! 5. The replay changed the pixel and the GPU did not: **edge coverage** (the replay covers it) when a writing
//!    fragment's coverage depends on rounding; else **depth test** when the last writer passed a depth test (the
//!    GPU's failed, or its fragment did not reach the test); else **replay only**.
//! 6. Otherwise (both wrote, or wrote other values): **edge coverage** when another triangle than the one that wrote
//!    last could have written last (a triangle with no fragment here whose coverage depends on rounding, or an
//!    ambiguous writer among several); else for the depth-stencil target **depth value** or **stencil value**; for a
//!    render target **blending** when the last write blended (saying whether it blended over an earlier fragment of
//!    the same draw, whose own value may differ, or over the contents before the draw), else **program output**,
//!    naming the channel with the most ULPs and the others.
//!
//! The verdict says what the data shows, not why the GPU did what it did: "the program's output differs by 2 ULP in
//! red" is the written value's difference, which the program's arithmetic, its inputs or its texture reads may
//! cause; the history shows the replay's side of each.

pub mod dispatch;
pub mod edge;
mod report;
mod text;
pub mod values;
pub mod verdict;

#[cfg(test)]
mod tests;

pub use dispatch::{
    ElementAddress, ElementInspection, ElementWrite, WriterTrace, inspect_dispatch_element, inspect_element,
};
pub use edge::EdgeProximity;
pub use report::{PixelInspection, ProgramListing};
pub use values::{ChannelDifference, ChannelValue, TexelValue};
pub use verdict::{CoverageCase, Verdict};

use crate::capture::{Capture, CapturedDraw, TargetSlot};
use crate::compare::{Image, PixelClass, Tolerance};
use crate::draw::{HistoryOptions, PixelHistory, PreparedDraw, ShaderCache};
use crate::error::ErrorKind;
use crate::format::{Format, decode_depth_stencil};
use crate::replay::{DrawReplay, Plane, ReplayOptions, ReplaySession, TargetReplay, plane_tolerance, texel_class};
use crate::{Error, Result};
use std::io::{Read, Seek};
use std::sync::Arc;

/// What an inspection replays, compares and traces.
#[derive(Clone, Debug, PartialEq)]
pub struct InspectOptions {
    /// The replay's tolerance and draw options ([`inspect_replayed`] takes the replay's own).
    pub replay: ReplayOptions,
    /// Trace the pixel program in every fragment.
    pub trace_pixel: bool,
    /// Trace the vertex program for one vertex: (fragment index, corner 0..3 of its triangle).
    pub trace_vertex: Option<(usize, usize)>,
    /// Which channels of the target decide the pixel's class (a depth-stencil target's depth or stencil alone, as
    /// the viewer shows them; the replay must have compared planes, [`ReplayOptions::planes`]).
    pub plane: Plane,
    /// Which sample of a multisampled target (0 for one sample a pixel): its texels, class and verdict, from the
    /// history as the sample saw it ([`PixelHistory::for_sample`]).
    pub sample: u32,
}

impl Default for InspectOptions {
    /// Format tolerances, the pixel program traced, no vertex trace.
    fn default() -> Self {
        InspectOptions {
            replay: ReplayOptions::default(),
            trace_pixel: true,
            trace_vertex: None,
            plane: Plane::All,
            sample: 0,
        }
    }
}

/// Inspects pixel (`x`, `y`) of `target` of draw `index` of `capture` (see the module documentation).
///
/// Nothing but the pixel is drawn: the pixel's history ([`PreparedDraw::pixel_outcome`]: the vertex program for
/// the draw's vertices, then only the primitives whose bounds hold the pixel, its quad and its output merger) gives
/// the replayed texel and the pixel's ambiguity flags, and the texel is compared alone, which is what the whole
/// replay's comparison gives at that pixel. A tolerance with a position deviation compares a pixel with its
/// neighbours: then the draw is replayed whole first ([`inspect_replayed`]).
pub fn inspect_pixel<R: Read + Seek>(
    capture: &mut Capture<R>,
    index: usize,
    x: u32,
    y: u32,
    target: TargetSlot,
    cache: &mut ShaderCache,
    options: &InspectOptions,
) -> Result<PixelInspection> {
    let draw = Arc::new(capture.draw(index)?);
    let local = draw
        .targets
        .iter()
        .all(|t| options.replay.tolerance.resolve(t.format).position == 0);
    if local {
        return inspect_local(draw, x, y, target, cache, options);
    }
    let mut session = ReplaySession::start(draw, cache, &options.replay)?;
    session.run_to_end(None)?;
    inspect_replayed(&mut session, x, y, target, options)
}

/// [`inspect_pixel`] from the pixel's history alone.
fn inspect_local(
    draw: Arc<CapturedDraw>,
    x: u32,
    y: u32,
    target: TargetSlot,
    cache: &mut ShaderCache,
    options: &InspectOptions,
) -> Result<PixelInspection> {
    let index = draw.index;
    let at = format!("draw {index} {target} pixel ({x}, {y})");
    let recorded_target = draw
        .targets
        .iter()
        .find(|t| t.target == target)
        .ok_or_else(|| not_written(index, target, draw.targets.iter().map(|t| t.target)))?;
    let format = recorded_target.format;
    let samples = recorded_target.resource.sample_count.max(1);
    let (row, stacked_height) = sample_row(
        index,
        target,
        recorded_target.width,
        recorded_target.height,
        samples,
        x,
        y,
        options.sample,
    )?;
    let image = |bytes: &[u8]| -> Result<Vec<u8>> {
        Image::new(format, recorded_target.width, stacked_height, bytes)?
            .texel(x, row)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| values::outside(x, row, recorded_target.width, stacked_height))
    };
    let before = image(&recorded_target.before).map_err(|e| e.at(at.clone()))?;
    let recorded = recorded_target.after.as_deref().map(image).transpose()?;
    let recorded_depth = draw
        .targets
        .iter()
        .find(|t| t.target == TargetSlot::DepthStencil)
        .and_then(|t| {
            let height = t.height.saturating_mul(t.resource.sample_count.max(1));
            let bytes = Image::new(t.format, t.width, height, t.after.as_deref()?)
                .ok()?
                .texel(x, row)?
                .to_vec();
            decode_depth_stencil(t.format, &bytes).ok().map(|d| d.depth)
        });
    let label = draw.label();
    let mut session = ReplaySession::prepare(Arc::clone(&draw), cache, &options.replay)?;
    let (history, outcome) = session
        .pixel_outcome(x, y, history_options(options))
        .map_err(|e| e.within(at.as_str()))?;
    let sample = options.sample;
    let replayed = match target {
        TargetSlot::RenderTarget(slot) => usize::try_from(slot)
            .ok()
            .and_then(|s| outcome.targets.render_targets.get(s))
            .and_then(Option::as_ref)
            .map(|t| (t.format(), t.sample_bytes(0, 0, sample).map(<[u8]>::to_vec))),
        TargetSlot::DepthStencil => outcome
            .targets
            .depth_stencil
            .as_ref()
            .map(|t| (t.format(), t.sample_bytes(0, 0, sample).map(<[u8]>::to_vec))),
    };
    let replayed = match replayed {
        Some((replayed_format, bytes)) if replayed_format == format => bytes?,
        _ => {
            return Err(Error::new(
                "replay",
                "the draw gave no contents for this target in the capture's format",
            )
            .at(format!("draw {index} {target}")));
        }
    };
    let tolerance = plane_tolerance(options.replay.tolerance.resolve(format), options.plane);
    let in_mask = outcome
        .ambiguous
        .get(usize::try_from(sample).unwrap_or(usize::MAX))
        .copied()
        .unwrap_or(false);
    let compared_plane = options.plane == Plane::All || options.replay.planes;
    let class = match &recorded {
        Some(recorded) if compared_plane => texel_class(format, tolerance, recorded, &replayed, in_mask)?,
        _ => None,
    };
    let evidence = PixelEvidence {
        x,
        y,
        target,
        format,
        tolerance: &tolerance,
        before: &before,
        recorded: recorded.as_deref(),
        replayed: &replayed,
        class,
        in_mask,
        recorded_depth,
    };
    assemble(
        session.prepared_mut(),
        index,
        label,
        samples,
        &evidence,
        history,
        options,
    )
}

/// The error for a target the draw does not write.
fn not_written(index: usize, target: TargetSlot, written: impl Iterator<Item = TargetSlot>) -> Error {
    let names: Vec<String> = written.map(|t| t.to_string()).collect();
    Error::of_kind(
        ErrorKind::Request,
        "inspect",
        format!("the draw does not write {target}; it writes {}", names.join(", ")),
    )
    .at(format!("draw {index}"))
}

/// The row of sample `sample` of pixel (`x`, `y`) in a target of `plane_height` rows a sample plane whose
/// `samples` planes are stacked, and the stack's height; an error when there is no such sample or pixel.
#[allow(clippy::too_many_arguments)] // the target's shape and the pixel asked for, each a plain number
fn sample_row(
    index: usize,
    target: TargetSlot,
    width: u32,
    plane_height: u32,
    samples: u32,
    x: u32,
    y: u32,
    sample: u32,
) -> Result<(u32, u32)> {
    if sample >= samples || y >= plane_height {
        return Err(Error::of_kind(
            ErrorKind::Request,
            "inspect",
            format!(
                "{target} is {width}x{plane_height} with {samples} sample(s) a pixel: no sample {sample} of pixel ({x}, {y})"
            ),
        )
        .at(format!("draw {index}")));
    }
    Ok((
        sample.saturating_mul(plane_height).saturating_add(y),
        plane_height.saturating_mul(samples),
    ))
}

/// What to trace in the history an inspection takes.
fn history_options(options: &InspectOptions) -> HistoryOptions {
    HistoryOptions {
        trace_pixel: options.trace_pixel,
        trace_vertex: options.trace_vertex,
    }
}

/// The bytes of texel (`x`, `y`) of `bytes`, a surface of `target`.
fn texel_at<'b>(target: &TargetReplay, bytes: &'b [u8], x: u32, y: u32) -> Result<&'b [u8]> {
    target
        .texel(bytes, x, y)
        .ok_or_else(|| values::outside(x, y, target.width, target.height))
}

/// The depth of texel (`x`, `y`) of the replay's depth-stencil target as the GPU left it, when recorded.
fn recorded_depth(replay: &DrawReplay, x: u32, y: u32) -> Option<f32> {
    let target = replay.target(TargetSlot::DepthStencil)?;
    let bytes = target.texel(target.recorded.as_deref()?, x, y)?;
    decode_depth_stencil(target.format, bytes).ok().map(|d| d.depth)
}

/// Whether the history's value of `target` after the draw is `replayed` (the full replay's texel).
fn history_agrees(history: &PixelHistory, target: TargetSlot, format: Format, replayed: &[u8]) -> bool {
    match target {
        TargetSlot::RenderTarget(slot) => usize::try_from(slot)
            .ok()
            .and_then(|s| history.after.render_targets.get(s).copied().flatten())
            .is_some_and(|t| t.bytes.get(..usize::from(t.len)) == Some(replayed)),
        TargetSlot::DepthStencil => decode_depth_stencil(format, replayed).is_ok_and(|d| {
            history.after.depth.map(f32::to_bits) == Some(d.depth.to_bits()) && history.after.stencil == d.stencil
        }),
    }
}

/// The texels and comparison of one pixel of one target that a verdict is drawn from (see the module
/// documentation), as a replay or the viewer holds them.
struct PixelEvidence<'a> {
    /// The pixel's column.
    pub x: u32,
    /// The pixel's row (0 at the top).
    pub y: u32,
    /// The target.
    pub target: TargetSlot,
    /// The target's format.
    pub format: Format,
    /// The tolerance the pixel is compared under.
    pub tolerance: &'a Tolerance,
    /// The texel before the draw.
    pub before: &'a [u8],
    /// The texel the GPU left, if recorded.
    pub recorded: Option<&'a [u8]>,
    /// The replayed texel.
    pub replayed: &'a [u8],
    /// The pixel's compare class; `None` when nothing was recorded.
    pub class: Option<PixelClass>,
    /// Whether the pixel is in the draw's ambiguity mask.
    pub in_mask: bool,
    /// The depth the GPU left at the pixel, when the draw's depth-stencil target is recorded.
    pub recorded_depth: Option<f32>,
}

/// What [`judge`] finds: the channel differences, the edges it looked at, and the verdict.
struct Judged {
    /// Per channel, recorded against replayed; empty when nothing was recorded.
    pub difference: Vec<ChannelDifference>,
    /// The nearest ambiguous edge of each fragment's triangle (by fragment).
    pub fragment_edges: Vec<Option<EdgeProximity>>,
    /// Triangles without a fragment at the pixel whose coverage of it depends on rounding (looked for when the
    /// pixel is in the ambiguity mask and differs).
    pub neighbour_edges: Vec<EdgeProximity>,
    /// The verdict.
    pub verdict: Verdict,
}

/// The verdict on sample `sample` of one pixel of `prepared` (the draw replayed), whose history there is `history`:
/// the channel differences ([`values`]), the nearest edges ([`edge`]) of every fragment's triangle, and the decision
/// procedure of the module documentation over the history as the sample saw it ([`PixelHistory::for_sample`]).
/// [`inspect_replayed`] (the command line's and the viewer's inspection) decides through it.
fn judge(
    prepared: &mut PreparedDraw<'_>,
    history: &PixelHistory,
    sample: u32,
    e: &PixelEvidence<'_>,
) -> Result<Judged> {
    let (x, y) = (e.x, e.y);
    let fragment_edges: Vec<Option<EdgeProximity>> = history
        .fragments
        .iter()
        .map(|f| {
            let triangle = edge::triangle_of(prepared.rasterizer(), &f.vertices);
            edge::nearest_edge(&triangle, prepared.rasterizer(), x, y, f.primitive_index).filter(|e| e.ambiguous)
        })
        .collect();
    let differs = e.recorded.is_some_and(|r| r != e.replayed);
    let neighbour_edges = if e.in_mask && differs {
        let skip: Vec<u64> = history.fragments.iter().map(|f| f.primitive_index).collect();
        edge::ambiguous_neighbours(prepared, x, y, &skip)?
    } else {
        Vec::new()
    };
    let difference = match e.recorded {
        Some(recorded) => values::channel_differences(e.format, e.tolerance, recorded, e.replayed)?,
        None => Vec::new(),
    };
    let seen = history.for_sample(sample);
    let seen_edges: Vec<Option<EdgeProximity>> = history
        .fragments
        .iter()
        .zip(&fragment_edges)
        .filter(|(f, _)| history.samples <= 1 || f.covers_sample(sample))
        .map(|(_, edge)| *edge)
        .collect();
    let verdict = verdict::decide(&verdict::Evidence {
        target: e.target,
        before: e.before,
        recorded: e.recorded,
        replayed: e.replayed,
        class: e.class,
        channels: &difference,
        fragments: &seen.fragments,
        fragment_edges: &seen_edges,
        neighbours: &neighbour_edges,
        recorded_depth: e.recorded_depth,
    });
    Ok(Judged {
        difference,
        fragment_edges,
        neighbour_edges,
        verdict,
    })
}

/// Inspects pixel (`x`, `y`) of `target` of the draw `session` has replayed (under the session's tolerance; of the
/// plane [`InspectOptions::plane`] names): the pixel's history is computed from the session's prepared draw, nothing
/// else is prepared or drawn again.
pub fn inspect_replayed(
    session: &mut ReplaySession,
    x: u32,
    y: u32,
    target: TargetSlot,
    options: &InspectOptions,
) -> Result<PixelInspection> {
    let index = session.draw().index;
    let at = format!("draw {index} {target} pixel ({x}, {y})");
    let replay = session.replay().ok_or_else(|| {
        Error::of_kind(
            ErrorKind::NotReplayed,
            format!("draw {index}"),
            "the draw's replay has not finished",
        )
    })?;
    let target_replay = replay
        .target(target)
        .ok_or_else(|| not_written(index, target, replay.targets.iter().map(|t| t.slot)))?;
    let format = target_replay.format;
    // a multisampled target's sample planes are stacked: sample s of pixel (x, y) is row y + s * plane height
    let samples = target_replay.samples.max(1);
    let plane_height = target_replay.height.checked_div(samples).unwrap_or(0);
    let (row, _) = sample_row(
        index,
        target,
        target_replay.width,
        plane_height,
        samples,
        x,
        y,
        options.sample,
    )?;
    let before = texel_at(target_replay, &target_replay.before, x, row)
        .map_err(|e| e.at(at.clone()))?
        .to_vec();
    let replayed = texel_at(target_replay, &target_replay.replayed, x, row)?.to_vec();
    let recorded = match &target_replay.recorded {
        Some(bytes) => Some(texel_at(target_replay, bytes, x, row)?.to_vec()),
        None => None,
    };
    let whole = target_replay
        .report
        .as_ref()
        .map_or_else(|| session.options().tolerance.resolve(format), |r| r.tolerance);
    let tolerance = plane_tolerance(whole, options.plane);
    let class = target_replay.plane(options.plane).and_then(|c| c.class_at(x, row));
    let in_mask = replay.is_ambiguous(x, row);
    let recorded_depth = recorded_depth(replay, x, row);
    let label = replay.label.clone();
    let prepared = session.prepared_mut();
    let history = prepared
        .pixel_history(x, y, history_options(options))
        .map_err(|e| e.within(at.as_str()))?;
    let evidence = PixelEvidence {
        x,
        y,
        target,
        format,
        tolerance: &tolerance,
        before: &before,
        recorded: recorded.as_deref(),
        replayed: &replayed,
        class,
        in_mask,
        recorded_depth,
    };
    assemble(prepared, index, label, samples, &evidence, history, options)
}

/// The inspection of draw `index` (called `label`; its targets of `samples` samples) at the pixel `evidence` holds,
/// whose history is `history`: the verdict ([`judge`]) and the report.
fn assemble(
    prepared: &mut PreparedDraw<'_>,
    index: usize,
    label: String,
    samples: u32,
    evidence: &PixelEvidence<'_>,
    history: PixelHistory,
    options: &InspectOptions,
) -> Result<PixelInspection> {
    let &PixelEvidence {
        x,
        y,
        target,
        format,
        tolerance,
        before,
        recorded,
        replayed,
        class,
        in_mask,
        ..
    } = evidence;
    let at = format!("draw {index} {target} pixel ({x}, {y})");
    let sample = options.sample;
    let judged = judge(prepared, &history, sample, evidence).map_err(|e| e.within(at.as_str()))?;
    let Judged {
        difference,
        fragment_edges,
        neighbour_edges,
        verdict,
    } = judged;
    let pixel_program = prepared
        .pixel_program()
        .map(|program| ProgramListing::of(&program.shader.program));
    let vertex_program = options
        .trace_vertex
        .map(|_| ProgramListing::of(&prepared.vertex_program().shader.program));
    Ok(PixelInspection {
        draw: index,
        label,
        x,
        y,
        target,
        format,
        tolerance: *tolerance,
        before: values::texel_value(format, before)?,
        recorded: recorded.map(|r| values::texel_value(format, r)).transpose()?,
        replayed: values::texel_value(format, replayed)?,
        difference,
        class,
        ambiguous: in_mask,
        verdict_text: verdict.text(),
        verdict,
        fragment_edges,
        neighbour_edges,
        history_agrees: history_agrees(&history.for_sample(sample), target, format, replayed),
        sample,
        samples,
        history,
        pixel_program,
        vertex_program,
    })
}

/// A program trace as `iridia inspect` prints it, without a listing (for tests of where it shows a gap).
#[cfg(test)]
pub(crate) fn text_of_trace_for_tests(trace: &crate::draw::ProgramTrace) -> String {
    let mut out = String::new();
    text::trace(&mut out, trace, None);
    out
}
