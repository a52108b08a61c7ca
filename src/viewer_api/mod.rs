//! What the viewer asks of the library, answered in the shapes of `www/src/protocol.ts` ([`types`]): a capture opened
//! from its bytes, its draws listed, a draw replayed a step at a time and compared with what the GPU wrote, its
//! targets rendered for display, texels read, differing pixels found, pixels inspected, programs traced and
//! listed. The wasm-bindgen layer (`src/wasm.rs`) is a thin shell over [`ViewerCapture`]; everything here is plain
//! Rust, so `cargo test` covers it natively.
//!
//! - **Opening** reads the ZIP directory and the manifest only ([`crate::capture::Capture::open`]). Listing the
//!   draws inflates each distinct program blob once (small; for the shader model and instruction count); a draw's
//!   buffers, textures and targets are inflated when that draw is replayed or its images are asked for.
//! - **Replay** goes through the library's one replay path, [`crate::replay::ReplaySession`], stepped so that the
//!   worker can report progress and see a cancel between steps: [`ViewerCapture::replay_step`] starts the session
//!   on its first call (the draw read and prepared) and then resumes it for about `budget` units of work per call
//!   (which draws exactly what a whole run draws); when it is finished the session has compared every target and
//!   is kept; [`ViewerCapture::replay_abandon`] drops an unfinished one.
//! - **Comparison** is the session's: each target under the format's default tolerance with the draw's ambiguity
//!   mask, over the whole target, the same numbers `iridia` reports. A depth-stencil target is two targets here,
//!   `depth` and `stencil`, each the session's comparison of its own plane ([`crate::replay::Plane`]). What this
//!   module adds is the viewer's: display images, the depth and stencil split, the protocol's shapes.
//! - **Dispatches** are listed at open and replayed when asked ([`ViewerCapture::replay_dispatch`]); their views
//!   are shown and their elements inspected as the `dispatch` module's documentation says.
//! - **Pixels** are inspected by the library ([`crate::inspect::inspect_replayed`]) on the session's prepared draw,
//!   so a click prepares nothing again.
//! - **Memory.** The full results (replayed targets, per-pixel classes, the prepared draw for pixel history) of the
//!   last [`KEPT_REPLAYS`] replayed draws are kept; older ones keep only their comparison's numbers, and a request
//!   for their images says to replay them again (a `replay_step` on such a draw replays it anew).
//!
//! Every failure is a [`crate::Error`]; nothing here panics on data.

mod dispatch;
mod display;
mod edit;
mod explain;
mod inspect;
mod texels;
pub mod types;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod types_ts;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Cursor;
use std::sync::Arc;

use crate::capture::ranged::{ArchiveSource, RangeReader, RangeSource};
use crate::capture::{BlobId, Capture, CapturedDraw, DrawSummary, ShaderStage, TargetSlot, api_call_text};
use crate::compare::{Comparison, Image, PixelClass, Tolerance, ToleranceSpec};
use crate::draw::ShaderCache;
use crate::error::ErrorKind;
use crate::format::{Format, NumericKind};
use crate::replay::{Plane, ReplayOptions, ReplaySession, has_stencil, plane_tolerance, replay_resolve};
use crate::{Error, Result};

use types::{
    CaptureSummary, ChannelStats, CompareResult, ComponentKind, DispatchInfo, DrawInfo, DrawStatus, ErrorInfo, Limits,
    PixelBounds, PixelCoord, ProgramInfo, ReplaySummary, ResolveInfo, Stage, StepProgress, TargetComparison, TargetId,
    TargetInfo, UnrecordedDrawInfo,
};

/// How many replayed draws keep their full results (targets, per-pixel classes, prepared draw).
pub const KEPT_REPLAYS: usize = 4;

/// How many read draws (their state and recorded targets) are kept for showing recorded images.
const KEPT_DRAWS: usize = 4;

/// The `what` of the error a request for a draw's replayed data gets before the draw is replayed (or after its
/// full result was dropped).
pub const NOT_REPLAYED_WHAT: &str = "not_replayed";

/// One target of a draw as the viewer sees it: its recorded images and, once replayed, the replay's.
#[derive(Clone, Debug)]
struct ViewTarget {
    /// Which target.
    id: TargetId,
    /// The view's format (a depth-stencil format for both `depth` and `stencil`).
    format: Format,
    /// Width in texels.
    width: u32,
    /// Height in texels: a multisampled target's sample planes stacked, sample 0's on top.
    height: u32,
    /// Samples a pixel (1 without multisampling).
    samples: u32,
    /// The target before the draw.
    before: Arc<[u8]>,
    /// What the GPU left, if recorded.
    recorded: Option<Arc<[u8]>>,
}

impl ViewTarget {
    /// The tolerance this target is compared with: the format's defaults, only its own channel for `depth` and
    /// `stencil` (the replay's [`plane_tolerance`]).
    fn tolerance(&self) -> Tolerance {
        plane_tolerance(Tolerance::for_format(self.format), plane_of(self.id))
    }

    /// `bytes` as an image of this target.
    fn image<'a>(&self, bytes: &'a [u8]) -> Result<Image<'a>> {
        Image::new(self.format, self.width, self.height, bytes)
    }
}

/// The targets of a read draw: render targets by slot, then depth and (for formats with stencil) stencil.
fn view_targets(draw: &CapturedDraw) -> Vec<ViewTarget> {
    let mut targets = Vec::new();
    for recorded in &draw.targets {
        for id in target_ids(recorded.target, recorded.format) {
            targets.push(ViewTarget {
                id,
                format: recorded.format,
                width: recorded.width,
                // a multisampled target shows its sample planes stacked, sample 0's on top
                height: recorded.height.saturating_mul(recorded.resource.sample_count.max(1)),
                samples: recorded.resource.sample_count.max(1),
                before: recorded.before.clone(),
                recorded: recorded.after.clone(),
            });
        }
    }
    targets
}

/// The viewer's targets of a capture's target slot: a render target, or depth and (for formats with stencil)
/// stencil.
fn target_ids(slot: TargetSlot, format: Format) -> Vec<TargetId> {
    match slot {
        TargetSlot::RenderTarget(slot) => TargetId::render_target(slot).into_iter().collect(),
        TargetSlot::DepthStencil if has_stencil(format) => vec![TargetId::Depth, TargetId::Stencil],
        TargetSlot::DepthStencil => vec![TargetId::Depth],
    }
}

/// The plane of the replay's comparisons a viewer target shows.
fn plane_of(id: TargetId) -> Plane {
    match id {
        TargetId::Depth => Plane::Depth,
        TargetId::Stencil => Plane::Stencil,
        _ => Plane::All,
    }
}

/// The capture's target slot a viewer target is a plane of.
fn slot_of(id: TargetId) -> TargetSlot {
    id.slot().map_or(TargetSlot::DepthStencil, TargetSlot::RenderTarget)
}

/// How the viewer replays: format tolerances, default draw options under the viewer's work limit and variants,
/// depth and stencil compared apart. (The perceptual error is the viewer's own: [`Replayed::perceptual`].)
fn replay_options(limits: Limits, variants: crate::draw::Variants) -> ReplayOptions {
    let mut options = ReplayOptions {
        planes: true,
        ..ReplayOptions::default()
    };
    options.draw.work_limit = limits.max_work;
    options.draw.variants = variants;
    options
}

/// A replayed target as the viewer reads it: its target, replayed bytes and comparison (`None` when nothing was
/// recorded).
type ReplayedTarget<'a> = (&'a ViewTarget, &'a Arc<[u8]>, Option<&'a Comparison>);

/// A draw replayed: the finished replay session (its targets, comparisons and the prepared draw for pixel history)
/// and the viewer's targets of it.
struct Replayed {
    /// The finished session.
    session: ReplaySession,
    /// The targets as [`view_targets`] lists them.
    targets: Vec<ViewTarget>,
    /// The numbers kept when the rest is dropped.
    summary: Summary,
    /// The render targets' perceptual error maps (LDR-FLIP) made so far: when the draw's comparison is first asked
    /// for, for targets of at most [`PERCEPTUAL_AT_COMPARE`] pixels, and when first shown for larger ones (never in a
    /// replay step, whose progress the page measures).
    perceptual: Vec<(TargetId, crate::compare::flip::FlipMap)>,
}

/// The most pixels a render target has for its perceptual error to be computed with the draw's comparison.
const PERCEPTUAL_AT_COMPARE: u64 = 1 << 20;

impl Replayed {
    /// The perceptual error map of render target `id` (made now if it was not), or `None` when it has none (nothing
    /// recorded, not a render target, past FLIP's size limits); its figures go into the draw's comparison.
    fn perceptual(&mut self, id: TargetId) -> Result<Option<&crate::compare::flip::FlipMap>> {
        if !self.perceptual.iter().any(|(t, _)| *t == id) {
            let Some(map) = perceptual_map(&self.targets, &self.session, id)? else {
                return Ok(None);
            };
            let figures = crate::compare::flip::PerceptualError::of(&map);
            if let Some(comparison) = self.summary.comparison.targets.iter_mut().find(|c| c.target == id) {
                comparison.perceptual = Some(figures.into());
            }
            self.perceptual.push((id, map));
        }
        Ok(self.perceptual.iter().find(|(t, _)| *t == id).map(|(_, map)| map))
    }
}

/// The perceptual error map of render target `id` of a finished replay: its replayed picture against the recorded
/// one ([`crate::replay::perceptual`]); `None` for depth and stencil and when nothing was recorded.
fn perceptual_map(
    targets: &[ViewTarget],
    session: &ReplaySession,
    id: TargetId,
) -> Result<Option<crate::compare::flip::FlipMap>> {
    let Some(target) = targets.iter().find(|t| t.id == id).filter(|t| t.id.slot().is_some()) else {
        return Ok(None);
    };
    let (Some(recorded), Some(replay)) = (&target.recorded, session.replay().and_then(|r| r.target(slot_of(id))))
    else {
        return Ok(None);
    };
    crate::replay::perceptual(&target.image(recorded)?, &target.image(&replay.replayed)?)
}

impl ViewTarget {
    /// Whether the resolved view applies: a multisampled render target of a resolvable format (19.2.2).
    fn resolvable(&self) -> bool {
        self.samples > 1
            && TargetId::slot(self.id).is_some()
            && crate::api::multisample::resolvable(self.format).is_ok()
    }

    /// `bytes` (this target's stacked sample planes) resolved to one plane.
    fn resolve(&self, bytes: &[u8]) -> Result<Vec<u8>> {
        let rows = self.height.checked_div(self.samples).unwrap_or(0);
        crate::replay::resolve_samples(self.format, self.width, rows, self.samples, bytes)
    }

    /// The target resolved: one sample a pixel, its before and recorded images resolved.
    fn resolved(&self) -> Result<ViewTarget> {
        let recorded = match &self.recorded {
            Some(bytes) => Some(Arc::from(self.resolve(bytes)?)),
            None => None,
        };
        Ok(self.one_plane(Arc::from(self.resolve(&self.before)?), recorded))
    }

    /// The target's sample 0 alone (the top plane of its stacked images), as one sample a pixel.
    fn first_sample(&self) -> ViewTarget {
        let plane = |bytes: &Arc<[u8]>| -> Arc<[u8]> {
            let length = bytes
                .len()
                .checked_div(usize::try_from(self.samples).unwrap_or(1))
                .unwrap_or(0);
            Arc::from(bytes.get(..length).unwrap_or_default())
        };
        self.one_plane(plane(&self.before), self.recorded.as_ref().map(plane))
    }

    /// The target as one plane of one sample a pixel with these images (its resolve's).
    fn one_plane(&self, before: Arc<[u8]>, recorded: Option<Arc<[u8]>>) -> ViewTarget {
        ViewTarget {
            id: self.id,
            format: self.format,
            width: self.width,
            height: self.height.checked_div(self.samples).unwrap_or(0),
            samples: 1,
            before,
            recorded,
        }
    }
}

impl Replayed {
    /// Target `id`: the viewer's target, its replayed bytes, and its comparison (none when nothing was recorded).
    fn target(&self, id: TargetId) -> Option<ReplayedTarget<'_>> {
        let target = self.targets.iter().find(|t| t.id == id)?;
        let replay = self.session.replay()?.target(slot_of(id))?;
        Some((target, &replay.replayed, replay.plane(plane_of(id))))
    }

    /// The draw as read from the capture.
    fn draw(&self) -> &Arc<CapturedDraw> {
        self.session.draw()
    }
}

/// The numbers of a replayed draw's result.
#[derive(Clone, Debug)]
struct Summary {
    /// What the replay did.
    replay: ReplaySummary,
    /// How it compares.
    comparison: CompareResult,
}

/// What is known of a draw's replay.
enum Outcome {
    /// Replayed, everything kept.
    Full(Box<Replayed>),
    /// Replayed, only the numbers kept.
    Summarized(Summary),
    /// Reading or replaying it failed.
    Failed(Error),
}

/// A replay under way.
struct Running {
    /// The draw's index.
    index: usize,
    /// The replay.
    session: ReplaySession,
}

/// How many explanations the viewer keeps (each holds its best set's per-pixel comparison).
const KEPT_EXPLANATIONS: usize = 4;

/// An explanation under way (`explain.rs` runs it).
struct Explaining {
    /// The draw.
    index: usize,
    /// The runs.
    explainer: crate::replay::Explainer,
    /// The explained target's comparison under the spec's rules (the first run's).
    baseline: Option<Comparison>,
}

/// A finished explanation: what the viewer shows, and the explained target's comparisons that tell which pixels the
/// best set explains.
struct Explained {
    /// The result.
    result: types::ExplainResult,
    /// The explained target's comparison under the spec's rules.
    baseline: Option<Comparison>,
    /// The explained target's comparison under the best set (`None` when no set does better).
    best: Option<Comparison>,
}

/// A capture opened for the viewer.
pub struct ViewerCapture {
    /// The capture.
    capture: Capture<ArchiveSource>,
    /// Programs parsed for listing and replay, shared by every draw.
    shaders: ShaderCache,
    /// What is known of each program blob (for the draw list).
    programs: HashMap<BlobId, std::result::Result<ProgramInfo, Error>>,
    /// Draws read for their recorded images, newest last.
    read: VecDeque<(usize, Arc<CapturedDraw>)>,
    /// Each replayed (or failed) draw.
    outcomes: BTreeMap<usize, Outcome>,
    /// The draws whose full result is kept, oldest first.
    kept: VecDeque<usize>,
    /// The replay under way.
    running: Option<Running>,
    /// The frame's resolves, resolved again at open (each is small beside a draw: one average per texel).
    resolves: Vec<ResolveInfo>,
    /// The frame's dispatches as the list shows them: not replayed until [`ViewerCapture::replay_dispatch`].
    dispatches: Vec<DispatchInfo>,
    /// The frame's outline as the event list shows it, built once at open.
    outline: Vec<types::OutlineRowInfo>,
    /// The last replayed dispatches, with their views' bytes.
    kept_dispatches: VecDeque<(usize, crate::replay::DispatchReplay)>,
    /// What each draw may cost.
    limits: Limits,
    /// The implementation choices every replay runs under (none: the spec's rules).
    variants: crate::draw::Variants,
    /// The explanation under way.
    explaining: Option<Explaining>,
    /// Finished explanations, by draw.
    explanations: BTreeMap<usize, Explained>,
    /// Programs edited in the viewer, by draw and stage, put in place of the recorded ones ([`edit`]).
    edits: BTreeMap<(usize, crate::replay::edit::EditStage), Arc<[u8]>>,
    /// Each edited draw's status with its recorded programs, from before its first edit.
    originals: BTreeMap<usize, DrawStatus>,
    /// The replays with the recorded programs of the last edited draws (when they were kept), to tell what an edit
    /// changed ([`edit::MAX_ORIGINAL_REPLAYS`]).
    original_replays: VecDeque<(usize, crate::replay::DrawReplay)>,
}

impl std::fmt::Debug for ViewerCapture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViewerCapture")
            .field("capture", &self.capture)
            .field("replayed", &self.outcomes.len())
            .finish_non_exhaustive()
    }
}

/// An outline row as the protocol carries it.
fn outline_row_info(row: &crate::capture::outline::OutlineRow) -> types::OutlineRowInfo {
    use crate::capture::outline::OutlineKind;
    use types::OutlineRowKind as Kind;
    let (kind, index, call) = match &row.kind {
        OutlineKind::Group { end } => (Kind::Group, *end, None),
        OutlineKind::Draw(n) => (Kind::Draw, *n, None),
        OutlineKind::Resolve(n) => (Kind::Resolve, *n, None),
        OutlineKind::Dispatch(n) => (Kind::Dispatch, *n, None),
        OutlineKind::Marker => (Kind::Marker, 0, None),
        OutlineKind::Call(call) => (Kind::Call, 0, Some(call.clone())),
    };
    types::OutlineRowInfo {
        depth: row.depth,
        kind,
        index,
        call,
        text: row.text.clone(),
    }
}

/// The error for a draw index past the capture's draws.
fn no_draw(index: usize, count: usize) -> Error {
    Error::of_kind(
        ErrorKind::Request,
        "request",
        format!("there is no draw {index}; the capture has {count}"),
    )
}

pub(crate) use crate::text::hex;

/// Primitives a draw has at most for a replay step to report the rows of the one under way rather than the count.
const FEW_PRIMITIVES: u64 = 64;

impl ViewerCapture {
    /// Opens the capture whose archive is `bytes`: reads its directory and manifest, inflating no blob.
    pub fn open(bytes: impl Into<Arc<[u8]>>) -> Result<ViewerCapture> {
        Self::from_source(ArchiveSource::InMemory(Cursor::new(bytes.into())))
    }

    /// Opens the capture whose archive `source` reads by position (a browser's `File`, a link read by HTTP range
    /// requests): reads the directory and manifest, and later each draw's own blobs, never the whole archive.
    pub fn open_ranged(source: Box<dyn RangeSource>) -> Result<ViewerCapture> {
        Self::from_source(ArchiveSource::Ranged(RangeReader::new(source)))
    }

    fn from_source(source: ArchiveSource) -> Result<ViewerCapture> {
        let mut capture = Capture::from_reader(source)?;
        let resolves = (0..capture.resolves().len())
            .map(|index| resolve_info(&mut capture, index))
            .collect();
        let dispatches = (0..capture.dispatches().len())
            .map(|index| dispatch_info(&capture, index))
            .collect();
        let outline = capture.outline().rows.iter().map(outline_row_info).collect();
        Ok(ViewerCapture {
            resolves,
            dispatches,
            outline,
            kept_dispatches: VecDeque::new(),
            capture,
            shaders: ShaderCache::new(),
            programs: HashMap::new(),
            read: VecDeque::new(),
            outcomes: BTreeMap::new(),
            kept: VecDeque::new(),
            running: None,
            limits: Limits::default(),
            variants: crate::draw::Variants::NONE,
            explaining: None,
            explanations: BTreeMap::new(),
            edits: BTreeMap::new(),
            originals: BTreeMap::new(),
            original_replays: VecDeque::new(),
        })
    }

    /// Sets the limits later replays run under (a replay under way keeps its own); returns them.
    pub fn set_limits(&mut self, limits: Limits) -> Limits {
        self.capture.set_draw_memory_limit(limits.max_memory);
        self.limits = limits;
        limits
    }

    /// What the directory and manifest say of the capture.
    pub fn summary(&self) -> CaptureSummary {
        let manifest = self.capture.manifest();
        CaptureSummary {
            format_version: manifest.version.clone(),
            generator: manifest.generator.clone(),
            application: manifest.application.clone(),
            draw_count: self.capture.draw_count(),
            size_bytes: self.capture.archive_len(),
            limits: self.limits,
            variants: self.variant_names(),
            available_variants: crate::draw::Variant::ALL
                .into_iter()
                .map(types::VariantInfo::of)
                .collect(),
            unrecorded_draws: self.capture.unrecorded_draws().iter().map(unrecorded_info).collect(),
            resolves: self.resolves.clone(),
            dispatches: self.dispatches.clone(),
            outline: self.outline.clone(),
            has_markers: self
                .outline
                .iter()
                .any(|row| matches!(row.kind, types::OutlineRowKind::Group | types::OutlineRowKind::Marker)),
            events_problem: self.capture.events_problem().map(ToString::to_string),
        }
    }

    /// Every draw with its programs, targets and status.
    pub fn draws(&mut self) -> Vec<DrawInfo> {
        let summaries: Vec<DrawSummary> = self.capture.draws();
        summaries.iter().map(|summary| self.draw_info(summary)).collect()
    }

    /// One draw as the list shows it.
    fn draw_info(&mut self, summary: &DrawSummary) -> DrawInfo {
        let mut vs = None;
        let mut ps = None;
        let mut program_problem = None;
        for program in &summary.programs {
            match self.program_info(program.blob.sha256, program.stage) {
                Ok(info) if program.stage == ShaderStage::Vertex => vs = Some(info),
                Ok(info) => ps = Some(info),
                Err(error) => program_problem = Some(error),
            }
        }
        let api_call = summary.api_call.clone().or_else(|| Some(api_call_text(summary.call)));
        let name = summary.label();
        let targets = summary
            .targets
            .iter()
            .flat_map(|target| {
                target_ids(target.target, target.format).into_iter().map(|id| {
                    let samples = target.resource.sample_count.max(1);
                    target_info(id, target.format, target.width, (target.height, samples))
                })
            })
            .collect();
        let status = match (&summary.problem, program_problem) {
            (Some(problem), _) => DrawStatus::Error {
                error: ErrorInfo::from(problem),
            },
            (None, Some(problem)) if !self.outcomes.contains_key(&summary.index) => DrawStatus::Error {
                error: ErrorInfo::from(&problem),
            },
            _ => self.status(summary.index),
        };
        DrawInfo {
            index: summary.index,
            name,
            api_call,
            vs,
            ps,
            targets,
            status,
        }
    }

    /// What the list says of program blob `blob` of stage `stage`: parsed once.
    fn program_info(&mut self, blob: BlobId, stage: ShaderStage) -> Result<ProgramInfo> {
        if let Some(known) = self.programs.get(&blob) {
            return known.clone().map(|info| ProgramInfo {
                stage: stage_of(stage),
                ..info
            });
        }
        let info = self
            .capture
            .blob(&blob)
            .and_then(|bytes| self.shaders.program(&bytes, &format!("program {}", blob.short())))
            .map(|program| program_info_of(&program, stage_of(stage)));
        self.programs.insert(blob, info.clone());
        info
    }

    /// The status of draw `index`.
    fn status(&self, index: usize) -> DrawStatus {
        match self.outcomes.get(&index) {
            None => DrawStatus::NotReplayed,
            Some(Outcome::Full(replayed)) => replayed.summary.comparison.status.clone(),
            Some(Outcome::Summarized(summary)) => summary.comparison.status.clone(),
            Some(Outcome::Failed(error)) => DrawStatus::Error {
                error: ErrorInfo::from(error),
            },
        }
    }

    /// Draw `index` read from the capture (kept for the next requests).
    fn read_draw(&mut self, index: usize) -> Result<Arc<CapturedDraw>> {
        if let Some(Outcome::Full(replayed)) = self.outcomes.get(&index) {
            return Ok(replayed.draw().clone());
        }
        if let Some(running) = self.running.as_ref().filter(|r| r.index == index) {
            return Ok(running.session.draw().clone());
        }
        if let Some((_, draw)) = self.read.iter().find(|(i, _)| *i == index) {
            return Ok(draw.clone());
        }
        let count = self.capture.draw_count();
        if index >= count {
            return Err(no_draw(index, count));
        }
        let read = Arc::new(self.capture.draw(index)?);
        let draw = self.with_edits(index, read)?;
        self.read.push_back((index, draw.clone()));
        while self.read.len() > KEPT_DRAWS {
            self.read.pop_front();
        }
        Ok(draw)
    }

    /// Goes on with replaying draw `index` for about `budget` units of work (see [`crate::draw::progress`]): the
    /// first call reads and prepares the draw, each call then resumes it; a replay of another draw under way is
    /// dropped. When the draw finishes, its targets are compared and the result kept. A draw already replayed (with
    /// its full result kept) is finished at once; one whose full result was dropped is replayed again. A draw that
    /// cannot be read or replayed fails, and its status says why from then on.
    pub fn replay_step(&mut self, index: usize, budget: u64) -> Result<StepProgress> {
        if let Some(Outcome::Full(replayed)) = self.outcomes.get(&index) {
            let total = replayed.summary.replay.primitives;
            return Ok(StepProgress {
                stage: "primitives".to_owned(),
                done: total,
                total,
                finished: true,
            });
        }
        if self.running.as_ref().is_some_and(|r| r.index != index) {
            self.running = None;
        }
        let result = self.step(index, budget);
        if let Err(error) = &result {
            self.running = None;
            // a bad request (no such draw) is not the draw's failure
            if index < self.capture.draw_count() {
                self.outcomes.insert(index, Outcome::Failed(error.clone()));
            }
        }
        result
    }

    /// [`ViewerCapture::replay_step`]'s work. A draw of at most [`FEW_PRIMITIVES`] primitives reports the rows of
    /// the one under way.
    fn step(&mut self, index: usize, budget: u64) -> Result<StepProgress> {
        let mut running = match self.running.take() {
            Some(running) => running,
            None => {
                let draw = self.read_draw(index)?;
                let session =
                    ReplaySession::start(draw, &mut self.shaders, &replay_options(self.limits, self.variants))?;
                Running { index, session }
            }
        };
        let finished = running.session.resume(budget, None)?;
        let progress = running.session.progress();
        let step = if progress.vertices_done < progress.vertices_total && progress.primitives_done == 0 {
            StepProgress {
                stage: "vertices".to_owned(),
                done: progress.vertices_done,
                total: progress.vertices_total,
                finished,
            }
        } else if progress.primitive_rows > 0 && progress.primitives_total <= FEW_PRIMITIVES {
            // a few large primitives: the rows of the one under way, so that the bar moves within it
            StepProgress {
                stage: format!(
                    "primitive {} of {}, rows",
                    progress.primitives_done.saturating_add(1),
                    progress.primitives_total
                ),
                done: progress.primitive_rows_done,
                total: progress.primitive_rows,
                finished,
            }
        } else {
            StepProgress {
                stage: "primitives".to_owned(),
                done: progress.primitives_done,
                total: progress.primitives_total,
                finished,
            }
        };
        if finished {
            let replayed = replayed(running.session)?;
            self.keep(running.index, replayed);
        } else {
            self.running = Some(running);
        }
        Ok(step)
    }

    /// Keeps a replayed draw's full result, dropping the oldest beyond [`KEPT_REPLAYS`] to their numbers.
    fn keep(&mut self, index: usize, replayed: Replayed) {
        self.kept.retain(|&i| i != index);
        self.kept.push_back(index);
        self.outcomes.insert(index, Outcome::Full(Box::new(replayed)));
        while self.kept.len() > KEPT_REPLAYS {
            let Some(oldest) = self.kept.pop_front() else { break };
            if let Some(Outcome::Full(replayed)) = self.outcomes.remove(&oldest) {
                self.outcomes.insert(oldest, Outcome::Summarized(replayed.summary));
            }
        }
    }

    /// The summary of draw `index`'s finished replay.
    pub fn replay_finish(&mut self, index: usize) -> Result<ReplaySummary> {
        match self.outcomes.get(&index) {
            Some(Outcome::Full(replayed)) => Ok(replayed.summary.replay.clone()),
            Some(Outcome::Summarized(summary)) => Ok(summary.replay.clone()),
            Some(Outcome::Failed(error)) => Err(error.clone()),
            None => Err(Error::of_kind(
                ErrorKind::NotReplayed,
                NOT_REPLAYED_WHAT,
                "the draw's replay has not finished",
            )
            .at(format!("draw {index}"))),
        }
    }

    /// Drops draw `index`'s unfinished replay, if it is the one under way.
    pub fn replay_abandon(&mut self, index: usize) {
        if self.running.as_ref().is_some_and(|r| r.index == index) {
            self.running = None;
        }
    }

    /// How draw `index`'s replayed targets compare with the recorded ones; the first time, the perceptual error of
    /// each render target of at most [`PERCEPTUAL_AT_COMPARE`] pixels is computed (a larger one's when its map is
    /// shown).
    pub fn compare(&mut self, index: usize) -> Result<CompareResult> {
        if let Some(Outcome::Full(replayed)) = self.outcomes.get_mut(&index) {
            let small: Vec<TargetId> = replayed
                .targets
                .iter()
                .filter(|t| u64::from(t.width).saturating_mul(u64::from(t.height)) <= PERCEPTUAL_AT_COMPARE)
                .map(|t| t.id)
                .collect();
            for id in small {
                replayed.perceptual(id)?;
            }
        }
        match self.outcomes.get(&index) {
            Some(Outcome::Full(replayed)) => Ok(replayed.summary.comparison.clone()),
            Some(Outcome::Summarized(summary)) => Ok(summary.comparison.clone()),
            Some(Outcome::Failed(error)) => Err(error.clone()),
            None => Err(not_replayed(index)),
        }
    }

    /// Draw `index`'s full replay result, or the error saying it must be replayed (again).
    fn replayed(&self, index: usize) -> Result<&Replayed> {
        match self.outcomes.get(&index) {
            Some(Outcome::Full(replayed)) => Ok(replayed),
            Some(Outcome::Failed(error)) => Err(error.clone()),
            Some(Outcome::Summarized(_)) => Err(Error::of_kind(
                ErrorKind::NotReplayed,
                NOT_REPLAYED_WHAT,
                format!("only the last {KEPT_REPLAYS} replayed draws keep their images; replay the draw again"),
            )
            .at(format!("draw {index}"))),
            None => Err(not_replayed(index)),
        }
    }

    /// Draw `index`'s full replay result, mutable (pixel history runs on its prepared draw).
    fn replayed_mut(&mut self, index: usize) -> Result<&mut Replayed> {
        self.replayed(index)?;
        match self.outcomes.get_mut(&index) {
            Some(Outcome::Full(replayed)) => Ok(replayed),
            _ => Err(not_replayed(index)),
        }
    }

    /// Target `id` of draw `index` as read from the capture (no replay needed).
    fn recorded_target(&mut self, index: usize, id: TargetId) -> Result<ViewTarget> {
        let draw = self.read_draw(index)?;
        view_targets(&draw)
            .into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| no_target(index, id))
    }

    /// The next differing (or ambiguous) pixel of target `id` after (`x`, `y`) in row order, wrapping around
    /// (before it, going backwards, with `backwards`); `None` when no pixel differs.
    pub fn find_difference(
        &self,
        index: usize,
        id: TargetId,
        x: u32,
        y: u32,
        backwards: bool,
    ) -> Result<Option<PixelCoord>> {
        let replayed = self.replayed(index)?;
        let (target, _, comparison) = replayed.target(id).ok_or_else(|| no_target(index, id))?;
        let Some(comparison) = comparison else {
            return Ok(None);
        };
        let classes = comparison.classes();
        let count = classes.len();
        if count == 0 || target.width == 0 {
            return Ok(None);
        }
        let width = target.width as usize;
        let start = (y as usize)
            .saturating_mul(width)
            .saturating_add(x as usize)
            .min(count.saturating_sub(1));
        // every pixel once, the start pixel last
        let order: Box<dyn Iterator<Item = usize>> = if backwards {
            Box::new((0..start).rev().chain((start..count).rev()))
        } else {
            Box::new((start.saturating_add(1)..count).chain(0..=start))
        };
        for at in order {
            if matches!(classes.get(at), Some(PixelClass::Differs | PixelClass::Ambiguous)) {
                let (px, py) = (at.checked_rem(width).unwrap_or(0), at.checked_div(width).unwrap_or(0));
                return Ok(Some(PixelCoord {
                    x: u32::try_from(px).unwrap_or(0),
                    y: u32::try_from(py).unwrap_or(0),
                }));
            }
        }
        Ok(None)
    }
}

/// The error for a request about a draw not replayed.
fn not_replayed(index: usize) -> Error {
    Error::of_kind(
        ErrorKind::NotReplayed,
        NOT_REPLAYED_WHAT,
        "the draw has not been replayed",
    )
    .at(format!("draw {index}"))
}

/// The error for a target a draw does not write.
fn no_target(index: usize, id: TargetId) -> Error {
    Error::of_kind(
        ErrorKind::Request,
        "request",
        format!("draw {index} has no target {}", id.name()),
    )
}

/// The protocol's stage of a capture's.
fn stage_of(stage: ShaderStage) -> Stage {
    match stage {
        ShaderStage::Vertex => Stage::Vs,
        ShaderStage::Pixel => Stage::Ps,
    }
}

/// What the list says of a parsed program.
fn program_info_of(program: &crate::draw::Program, stage: Stage) -> ProgramInfo {
    let code = &program.shader.program;
    let prefix = match code.kind {
        crate::dxbc::program::ProgramKind::Pixel => "ps",
        crate::dxbc::program::ProgramKind::Vertex => "vs",
        crate::dxbc::program::ProgramKind::Geometry => "gs",
        crate::dxbc::program::ProgramKind::Hull => "hs",
        crate::dxbc::program::ProgramKind::Domain => "ds",
        crate::dxbc::program::ProgramKind::Compute => "cs",
    };
    ProgramInfo {
        stage,
        model: format!("{prefix}_{}_{}", code.major, code.minor),
        sha256: hex(&program.hash),
        instruction_count: code.instructions.iter().filter(|i| i.declaration.is_none()).count(),
    }
}

/// What the list says of one target.
/// The protocol's description of target `id` of a `width` x `height` surface of `samples` samples a pixel (its
/// planes stacked).
fn target_info(id: TargetId, format: Format, width: u32, (height, samples): (u32, u32)) -> TargetInfo {
    let info = format.info();
    let (kind, channels) = match id {
        TargetId::Depth => (ComponentKind::Depth, 1),
        TargetId::Stencil => (ComponentKind::Stencil, 1),
        _ => {
            let kind = match info.kind {
                NumericKind::Snorm => ComponentKind::Snorm,
                NumericKind::Uint => ComponentKind::Uint,
                NumericKind::Sint => ComponentKind::Sint,
                NumericKind::Float | NumericKind::SharedExp => ComponentKind::Float,
                _ => ComponentKind::Unorm,
            };
            (kind, info.channels.count_ones())
        }
    };
    TargetInfo {
        target: id,
        format: format.to_string(),
        kind,
        channels,
        width,
        height: height.saturating_mul(samples),
        samples,
    }
}

/// A finished replay's result for the viewer: the session with its targets as the viewer shows them, and the
/// numbers.
fn replayed(session: ReplaySession) -> Result<Replayed> {
    let draw = session.draw().clone();
    let index = draw.index;
    let replay = session.replay().ok_or_else(|| not_replayed(index))?;
    let targets = view_targets(&draw);
    let mut comparisons = Vec::with_capacity(targets.len());
    for target in &targets {
        let replayed = replay.target(slot_of(target.id)).ok_or_else(|| {
            Error::new(
                format!("draw {index}"),
                format!("the replay wrote no {}", target.id.name()),
            )
        })?;
        let mut comparison = target_comparison(target, replayed.plane(plane_of(target.id)));
        let covered = replay
            .stats
            .covered_bounds
            .map(|[x0, y0, x1, y1]| PixelBounds { x0, y0, x1, y1 });
        let changed = changed_bounds(
            &replayed.before,
            &replayed.replayed,
            replayed.recorded.as_deref(),
            replayed.width,
            replayed.height,
            replayed.samples,
        );
        comparison.bounds = union_bounds(covered, changed);
        comparison.resolved_differing_pixels = replayed
            .resolved
            .as_ref()
            .and_then(|r| r.report.as_ref())
            .map(|r| r.differing_pixels);
        comparisons.push(comparison);
    }
    let status = status_of(&comparisons);
    let stats = &replay.stats;
    let fragments = [
        stats.written,
        stats.depth_failed,
        stats.stencil_failed,
        stats.coverage_failed,
        stats.discarded,
        stats.clip_distance_removed,
    ]
    .iter()
    .fold(0u64, |sum, &n| sum.saturating_add(n));
    let summary = Summary {
        replay: ReplaySummary {
            draw: index,
            primitives: stats.triangles,
            fragments,
            shaded_fragments: stats.shaded.saturating_sub(stats.discarded),
            status: status.clone(),
        },
        comparison: CompareResult {
            draw: index,
            targets: comparisons,
            status,
        },
    };
    Ok(Replayed {
        session,
        targets,
        summary,
        perceptual: Vec::new(),
    })
}

/// The protocol's comparison of one target.
fn target_comparison(target: &ViewTarget, comparison: Option<&Comparison>) -> TargetComparison {
    let Some(comparison) = comparison else {
        return TargetComparison {
            target: target.id,
            compared_pixels: 0,
            differing_pixels: 0,
            ambiguous_pixels: 0,
            channels: Vec::new(),
            first_difference: None,
            sample_differing_pixels: Vec::new(),
            resolved_differing_pixels: None,
            perceptual: None,
            bounds: None,
        };
    };
    let report = &comparison.report;
    TargetComparison {
        target: target.id,
        compared_pixels: report.compared_pixels,
        differing_pixels: report.differing_pixels,
        ambiguous_pixels: report.ambiguous_pixels,
        channels: report
            .channels
            .iter()
            .map(|c| ChannelStats {
                channel: c.channel.to_lowercase(),
                max_abs_difference: c.max_abs_error,
                mean_abs_difference: c.mean_abs_error,
                max_ulps: Some(c.max_ulp_error),
            })
            .collect(),
        first_difference: report.first_differences.first().map(|d| PixelCoord { x: d.x, y: d.y }),
        sample_differing_pixels: sample_differing(comparison, target.samples),
        resolved_differing_pixels: None,
        perceptual: None,
        bounds: None,
    }
}

/// The smallest box holding both boxes (either may be `None`).
fn union_bounds(a: Option<PixelBounds>, b: Option<PixelBounds>) -> Option<PixelBounds> {
    match (a, b) {
        (Some(a), Some(b)) => Some(PixelBounds {
            x0: a.x0.min(b.x0),
            y0: a.y0.min(b.y0),
            x1: a.x1.max(b.x1),
            y1: a.y1.max(b.y1),
        }),
        (a, b) => a.or(b),
    }
}

/// The box of the pixels whose value in `replayed` or `recorded` differs from `before` (images of `width` ×
/// `height` texels, a multisampled target's `samples` planes stacked and folded onto one plane), or `None`.
fn changed_bounds(
    before: &[u8],
    replayed: &[u8],
    recorded: Option<&[u8]>,
    width: u32,
    height: u32,
    samples: u32,
) -> Option<PixelBounds> {
    let texels = u64::from(width).saturating_mul(u64::from(height));
    let size = usize::try_from(u64::try_from(before.len()).ok()?.checked_div(texels)?).ok()?;
    if size == 0 || replayed.len() != before.len() || recorded.is_some_and(|r| r.len() != before.len()) {
        return None;
    }
    let plane_rows = height.checked_div(samples.max(1)).unwrap_or(height).max(1);
    let mut bounds: Option<PixelBounds> = None;
    let rows = before.chunks_exact(size).zip(replayed.chunks_exact(size)).enumerate();
    for (i, (b, r)) in rows {
        let changed = b != r
            || recorded.is_some_and(|rec| {
                let at = i.saturating_mul(size);
                rec.get(at..at.saturating_add(size)).is_some_and(|t| t != b)
            });
        if !changed {
            continue;
        }
        let i = u64::try_from(i).unwrap_or(u64::MAX);
        let x = u32::try_from(i.checked_rem(u64::from(width)).unwrap_or(0)).unwrap_or(0);
        let y = u32::try_from(i.checked_div(u64::from(width)).unwrap_or(0))
            .unwrap_or(0)
            .checked_rem(plane_rows)
            .unwrap_or(0);
        let pixel = PixelBounds {
            x0: x,
            y0: y,
            x1: x.saturating_add(1),
            y1: y.saturating_add(1),
        };
        bounds = union_bounds(bounds, Some(pixel));
    }
    bounds
}

/// The differing pixels of each of the `samples` planes stacked in `comparison` (empty for one sample).
fn sample_differing(comparison: &Comparison, samples: u32) -> Vec<u64> {
    if samples <= 1 {
        return Vec::new();
    }
    let width = usize::try_from(comparison.report.width).unwrap_or(usize::MAX);
    let plane_rows = usize::try_from(comparison.report.height.checked_div(samples).unwrap_or(0)).unwrap_or(0);
    let plane = width.saturating_mul(plane_rows).max(1);
    let mut counts = vec![0u64; usize::try_from(samples).unwrap_or(0)];
    for (i, class) in comparison.classes().iter().enumerate() {
        if *class == PixelClass::Differs
            && let Some(count) = counts.get_mut(i.checked_div(plane).unwrap_or(0))
        {
            *count = count.saturating_add(1);
        }
    }
    counts
}

/// A draw's status from its targets' comparisons: the sums over the targets.
fn status_of(comparisons: &[TargetComparison]) -> DrawStatus {
    let sum = |f: fn(&TargetComparison) -> u64| comparisons.iter().map(f).fold(0u64, u64::saturating_add);
    let compared = sum(|c| c.compared_pixels);
    let differing = sum(|c| c.differing_pixels);
    let ambiguous = sum(|c| c.ambiguous_pixels);
    if differing == 0 && ambiguous == 0 {
        DrawStatus::Matches {
            compared_pixels: compared,
        }
    } else {
        DrawStatus::Differs {
            differing_pixels: differing,
            ambiguous_pixels: ambiguous,
            compared_pixels: compared,
        }
    }
}

/// Resolve `index` of `capture` as the draw list shows it: resolved again from its samples and compared with the
/// recorded destination at the format's default tolerance.
fn resolve_info(capture: &mut Capture<ArchiveSource>, index: usize) -> ResolveInfo {
    let entry = capture.resolves().get(index);
    let before_draw = entry.map_or(0, |r| usize::try_from(r.before_draw).unwrap_or(usize::MAX));
    let label = entry.map(crate::capture::ResolveEntry::label).unwrap_or_default();
    let replayed = capture
        .resolve(index)
        .and_then(|resolve| replay_resolve(&resolve, &ToleranceSpec::default()));
    let status = match replayed {
        Err(error) => DrawStatus::Error {
            error: ErrorInfo::from(&error),
        },
        Ok(replay) => match &replay.report {
            None => DrawStatus::NotReplayed,
            Some(report) if report.matches => DrawStatus::Matches {
                compared_pixels: report.compared_pixels,
            },
            Some(report) => DrawStatus::Differs {
                differing_pixels: report.differing_pixels,
                ambiguous_pixels: report.ambiguous_pixels,
                compared_pixels: report.compared_pixels,
            },
        },
    };
    ResolveInfo {
        index,
        before_draw,
        label,
        status,
    }
}

/// Dispatch `index` of `capture` as the draw list shows it before it is replayed ([`ViewerCapture::replay_dispatch`]
/// replays it on request).
fn dispatch_info(capture: &Capture<ArchiveSource>, index: usize) -> DispatchInfo {
    let entry = capture.dispatches().get(index);
    DispatchInfo {
        index,
        before_draw: entry.map_or(0, |d| usize::try_from(d.before_draw).unwrap_or(usize::MAX)),
        label: entry.map(crate::capture::DispatchEntry::label).unwrap_or_default(),
        status: match capture.dispatch_problem(index) {
            Some(error) => DrawStatus::Error {
                error: ErrorInfo::from(error),
            },
            None => DrawStatus::NotReplayed,
        },
        order_dependent: 0,
    }
}

/// An unrecorded draw as the draw list shows it: its name or call and its targets, and why.
fn unrecorded_info(draw: &crate::capture::UnrecordedDrawEntry) -> UnrecordedDrawInfo {
    UnrecordedDrawInfo {
        before_draw: usize::try_from(draw.before_draw).unwrap_or(usize::MAX),
        label: draw.label(),
        reason: draw.reason.clone(),
    }
}
