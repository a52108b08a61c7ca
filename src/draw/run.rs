//! Running a draw: [`PreparedDraw`] checks a [`DrawState`] once and builds what every stage needs; [`PreparedDraw::run`]
//! draws it (vertices, primitives in order, quads of pixels, the output merger) and [`PreparedDraw::pixel_history`]
//! (in `history.rs`) replays one pixel through the same code.

use crate::api::draw::DrawState;
use crate::api::enums::{CullMode, FillMode};
use crate::api::limits::{RENDER_TARGET_SLOTS, VIEWPORT_SLOTS};
use crate::api::viewport::{Scissor, Viewport};
use crate::format::{Format, Texel};
use crate::input_assembler::{
    InputAssembler, Options as AssemblerOptions, OutOfBounds, Primitive, PrimitiveKind, VertexInputs,
};
use crate::output_merger::{
    DepthOutput as MergerDepth, DepthStencilOutcome, DepthStencilTarget, OutputMerger, OutputMergerState, RenderTarget,
    Targets,
};
use crate::raster::{
    Cull, DepthFormat, Lane, LineMode, Quad, QuadPosition, Rasterizer, RasterizerState, SamplePattern, Stripes,
    Triangle, TriangleFate,
};
use crate::shader::{
    DEFAULT_BUDGET, DepthOutput, LANES, Machine, OutputRegister, PullLocation, PullModel, Trace, Unbound,
};
use crate::{Error, Result};
use std::sync::Arc;

use super::ambiguity;
use super::arrays::{ArrayIndices, SliceSet};
use super::bindings::StageResources;
use super::fragment::{Fragment, FragmentOutcome, ProgramRecord, SampleRecord};
use super::geometry::GeometryStage;
use super::link::{Interpolation, Linkage, Location, PixelSource};
use super::output::{DrawOutput, DrawStats, TargetImage, depth_stencil_place, render_target_place};
use super::program::{Program, ShaderCache};
use super::progress::{Progress, ProgressCallback, Reporter};
use super::stream_output::{StreamOutputBuffers, StreamOutputPlan, StreamRecords};
use super::tessellation::TessellationStage;
use super::vertex::{MAX_KEPT_WORDS, ShadedVertices, shade_instance};
use crate::shader::uav::{UnorderedAccessView, contents, uav_views};

/// The largest render target side D3D11 allows (`D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION`), the implicit scissor of a
/// draw without targets (16.11).
const MAX_SIDE: u32 = 16384;

/// How a draw treats what a well-formed draw does not do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawOptions {
    /// What a program reading an empty slot it declares does (default: an error naming the slot).
    pub unbound: Unbound,
    /// What a vertex read outside its buffer does (default: an error naming the binding).
    pub out_of_bounds: OutOfBounds,
    /// Instructions one batch of a program may execute before the draw fails (a loop that never ends).
    pub instruction_budget: u64,
    /// Whether to compute the ambiguity mask.
    pub ambiguity: bool,
    /// At most this many threads draw an instance's pixels at once, each a band of the target's rows, when a call
    /// runs the draw to its end (0: as many as the machine runs at once; 1: the calling thread alone; the browser
    /// build always uses one). Every pixel's fragments still meet the output merger in the draw's order, so the
    /// results are the same bytes whatever the count.
    pub threads: u32,
    /// When texture views decode a subresource whole rather than texel by texel (the same words either way).
    pub texture_decoding: crate::shader::texture::TextureDecoding,
    /// The most units of work (as [`super::progress`] counts them) the draw may do before it fails with a budget
    /// error ([`super::progress::DEFAULT_WORK_LIMIT`]).
    pub work_limit: u64,
    /// Implementation choices to replay under instead of the spec's rules ([`super::variants`]; none by default).
    pub variants: super::Variants,
}

impl Default for DrawOptions {
    fn default() -> Self {
        Self {
            unbound: Unbound::Error,
            out_of_bounds: OutOfBounds::Error,
            instruction_budget: DEFAULT_BUDGET,
            ambiguity: true,
            threads: 0,
            texture_decoding: crate::shader::texture::TextureDecoding::Adaptive,
            work_limit: super::progress::DEFAULT_WORK_LIMIT,
            variants: super::Variants::NONE,
        }
    }
}

/// The draw a [`PreparedDraw`] runs: borrowed, or shared (so that the prepared draw can outlive its caller's borrow,
/// as a draw run part by part across calls from the browser must).
#[derive(Clone, Debug)]
pub(super) enum StateRef<'s> {
    /// Borrowed from the caller.
    Borrowed(&'s DrawState),
    /// Shared with the caller.
    Shared(Arc<DrawState>),
}

impl std::ops::Deref for StateRef<'_> {
    type Target = DrawState;

    fn deref(&self) -> &DrawState {
        match self {
            StateRef::Borrowed(state) => state,
            StateRef::Shared(state) => state,
        }
    }
}

/// A draw checked and ready to run: its programs, linkage, input assembly, resources, rasterizer and output-merger
/// state, and (once shaded) its vertices.
pub struct PreparedDraw<'s> {
    /// The draw.
    pub(super) state: StateRef<'s>,
    /// How it treats what a well-formed draw does not do.
    pub(super) options: DrawOptions,
    /// The vertex program.
    pub(super) vertex: Arc<Program>,
    /// The pixel program, if one is bound.
    pub(super) pixel: Option<Arc<Program>>,
    /// The last stage's outputs kept (the geometry program's if one is bound, else the vertex program's) and the
    /// pixel inputs filled.
    pub(super) linkage: Linkage,
    /// The geometry stage, if a geometry program is bound, with its resources.
    pub(super) geometry: Option<(GeometryStage, StageResources)>,
    /// The tessellation stages, if hull and domain programs are bound, with the hull's and the domain's resources.
    pub(super) tessellation: Option<(TessellationStage, StageResources, StageResources)>,
    /// Stream output, if the draw has a declaration.
    pub(super) stream_output: Option<StreamOutputPlan>,
    /// The input assembly.
    pub(super) ia: InputAssembler,
    /// The vertex stage's resources.
    pub(super) vs: StageResources,
    /// The pixel stage's resources.
    pub(super) ps: StageResources,
    /// The rasterizer (viewport and scissor 0).
    pub(super) rasterizer: Rasterizer,
    /// With a geometry program writing `SV_ViewportArrayIndex`, a rasterizer per viewport and scissor slot (15.8.1,
    /// [`super::arrays`]); empty otherwise.
    pub(super) viewport_rasterizers: Vec<Rasterizer>,
    /// The output merger's state.
    pub(super) om_state: OutputMergerState,
    /// The viewport (index 0).
    pub(super) viewport: Viewport,
    /// The pixel grid: the targets' size, or the viewport's extent without targets.
    pub(super) size: [u32; 2],
    /// The components of `o0`..`o7` the pixel program declares.
    pub(super) declared: [u8; RENDER_TARGET_SLOTS],
    /// How the pixel program writes depth, if it does.
    pub(super) depth_output: Option<DepthOutput>,
    /// Whether the depth-stencil test runs before the pixel program (16.12.1).
    pub(super) early: bool,
    /// The render targets' view formats by slot, and the depth-stencil view's.
    pub(super) formats: ([Option<Format>; RENDER_TARGET_SLOTS], Option<Format>),
    /// The targets with their contents before the draw, built once (taken by the first run).
    targets: Option<Targets>,
    /// Shaded vertices by instance, kept when they fit [`MAX_KEPT_WORDS`] together.
    pub(super) cache: Vec<Option<Arc<ShadedVertices>>>,
    /// Triangles per instance.
    pub(super) primitives_per_instance: u64,
    /// The targets' sample positions (3.5.3; one sample at the centre without multisampled targets).
    pub(super) pattern: SamplePattern,
    /// Whether the pixel program runs once per covered sample (3.5.4): it asks to and the targets have more than one.
    pub(super) sample_frequency: bool,
    /// With a ForcedSampleCount (3.5.6), every sample of the targets (the coverage a pixel the rasterizer's pattern
    /// covers anywhere gives the output merger); `None` when the targets' own pattern rasterizes.
    pub(super) forced_output: Option<u32>,
}

/// The rasterizer's sample pattern under ForcedSampleCount `forced` (3.5.6, target-independent rasterization), or
/// `None` when it is 0 (the targets' pattern rasterizes). The spec leaves undefined what the runtime does not refuse
/// at state creation; Iridia refuses each such draw with an error naming the rule: a count other than 1, 4, 8 or
/// 16, more than one sample with multisampled render targets, a bound depth-stencil view, a program that writes
/// depth or runs per sample.
fn forced_pattern(
    state: &DrawState,
    targets: u32,
    depth_bound: bool,
    per_sample: bool,
    depth_written: bool,
) -> Result<Option<SamplePattern>> {
    let forced = state.rasterizer.forced_sample_count;
    if forced == 0 {
        return Ok(None);
    }
    let refuse = |why: &str| {
        Err(state.error(
            "rasterizer",
            format!("ForcedSampleCount {forced} {why} (3.5.6: undefined rendering)"),
        ))
    };
    if !matches!(forced, 1 | 4 | 8 | 16) {
        return refuse("is not 0, 1, 4, 8 or 16");
    }
    if forced > 1 && targets > 1 {
        return refuse("needs single-sampled render targets");
    }
    if depth_bound {
        return refuse("with a depth-stencil view bound");
    }
    if per_sample {
        return refuse("with a pixel program that runs per sample");
    }
    if depth_written {
        return refuse("with a pixel program that writes depth");
    }
    if forced == 1 {
        return Ok(Some(SamplePattern::default()));
    }
    SamplePattern::new(forced, crate::api::multisample::STANDARD_MULTISAMPLE_PATTERN).map(Some)
}

/// The rasterizer state of `state`'s rasterizer description.
fn rasterizer_state(state: &DrawState) -> RasterizerState {
    let desc = &state.rasterizer;
    RasterizerState {
        cull: match desc.cull_mode {
            CullMode::None => Cull::None,
            CullMode::Front => Cull::Front,
            CullMode::Back => Cull::Back,
        },
        front_counter_clockwise: desc.front_counter_clockwise,
        depth_clip: desc.depth_clip_enable,
        depth_bias: desc.depth_bias,
        depth_bias_clamp: desc.depth_bias_clamp,
        slope_scaled_depth_bias: desc.slope_scaled_depth_bias,
        scissor_enable: desc.scissor_enable,
    }
}

/// The unit of the constant depth bias for a depth buffer of `format` (15.10): UNORM of its bits, or float. Without
/// a depth buffer 15.10 takes the UNORM formula with no format to read r from; 24 bits are used (the bias then moves
/// only `SV_Position.z`).
fn depth_format(format: Option<Format>) -> DepthFormat {
    match format {
        Some(Format::D16Unorm) => DepthFormat::Unorm { bits: 16 },
        Some(Format::D32Float | Format::D32FloatS8X24Uint) => DepthFormat::Float,
        _ => DepthFormat::Unorm { bits: 24 },
    }
}

/// The targets `state` binds, with their contents before the draw.
fn build_targets(state: &DrawState) -> Result<Targets> {
    let mut targets = Targets::default();
    for (slot, view) in state.render_targets.iter().enumerate() {
        let Some(view) = view else { continue };
        let what = format!("render target {slot}");
        let texture = view
            .texture()
            .ok_or_else(|| state.error("output merger", format!("{what} is a buffer view, which is not drawn")))?;
        let target =
            RenderTarget::from_view(texture, &view.desc).map_err(|e| e.within(format!("{} {what}", state.label)))?;
        let place = targets.render_targets.get_mut(slot).ok_or_else(|| {
            state.error(
                "output merger",
                format!("{what} is past the {RENDER_TARGET_SLOTS} slots"),
            )
        })?;
        *place = Some(target);
    }
    if let Some(view) = &state.depth_stencil_view {
        let texture = view
            .texture()
            .ok_or_else(|| state.error("output merger", "the depth-stencil view sees a buffer"))?;
        let target = DepthStencilTarget::from_view(texture, &view.desc)
            .map_err(|e| e.within(format!("{} depth-stencil view", state.label)))?;
        targets.depth_stencil = Some(target);
    }
    Ok(targets)
}

/// A viewport that was never set: all zeros (15.6).
const NEVER_SET_VIEWPORT: Viewport = Viewport {
    x: 0.,
    y: 0.,
    width: 0.,
    height: 0.,
    min_depth: 0.,
    max_depth: 0.,
};

/// The pixel grid of a draw without targets: the viewport's extent, within the implicit scissor of 16.11.
fn viewport_extent(viewport: &Viewport) -> [u32; 2] {
    let side = |end: f32| end.ceil().clamp(0., MAX_SIDE as f32) as u32;
    [side(viewport.x + viewport.width), side(viewport.y + viewport.height)]
}

/// The (mip, slice) each render target view writes, by slot, and the depth-stencil view's.
pub(super) type ViewPlaces = ([Option<(u32, u32)>; RENDER_TARGET_SLOTS], Option<(u32, u32)>);

/// A primitive of the draw as the pixel stage reads it.
pub(super) struct PrimitiveContext<'v> {
    /// `SV_PrimitiveID`.
    pub id: u32,
    /// Point, line or triangle.
    pub kind: PrimitiveKind,
    /// The vertex slots, provoking vertex first (a line's start, end, end; a point's one vertex three times).
    pub slots: [usize; 3],
    /// The render-target array and viewport indices its leading vertex carries (15.15, 15.8.1).
    pub indices: ArrayIndices,
    /// The instance's shaded vertices.
    pub vertices: &'v ShadedVertices,
}

/// The values of lane `lane` of `quad` (of `triangle`) at the point `offset` (1/256 pixel) from its centre: the
/// quad's own at the centre, else the primitive's plane there (extrapolated where it does not cover the point).
fn offset_lane(triangle: &Triangle, quad: &Quad, lane: usize, offset: [i64; 2]) -> Lane {
    let centre = quad.lanes.get(lane).copied().unwrap_or_default();
    if offset == [0, 0] {
        return centre;
    }
    let (x, y) = quad.pixel(lane);
    triangle
        .lane_at(quad.part, i64::from(x), i64::from(y), offset)
        .unwrap_or(centre)
}

/// The pull model (16.5) of one pixel-program batch: batch lane `4 * q + i` is lane `i` of the quad of `jobs[q]`, a
/// quad of `triangle` (its coverage after clip distances is what the centroid sees, as for `centroid` inputs). An
/// attribute is evaluated at the asked location from the triangle's plane, as the rasterizer evaluates it at a
/// sample (3.5.4), under its declared interpolation with the location modifier ignored.
struct BatchPull<'d, 's, 't, 'j, 'c> {
    draw: &'d PreparedDraw<'s>,
    triangle: &'t Triangle,
    jobs: &'j [(usize, &'j QuadJob, u8)],
    sample_mask: u32,
    context: &'c PrimitiveContext<'c>,
}

impl PullModel for BatchPull<'_, '_, '_, '_, '_> {
    fn evaluate(&self, lane: usize, register: u32, component: u8, at: PullLocation) -> Option<u32> {
        let input = self
            .draw
            .linkage
            .inputs
            .iter()
            .find(|i| i.register == register && i.component == component)?;
        let PixelSource::Varying { .. } = input.source else {
            return None;
        };
        let (q, i) = (lane / 4, lane % 4);
        let (_, job, _) = self.jobs.get(q)?;
        let quad = &job.quad;
        let values = match at {
            // 16.5.3: the offset is in 1/16 pixel, the plane's point in 1/256
            PullLocation::Snapped(offset) => {
                offset_lane(self.triangle, quad, i, offset.map(|v| i64::from(v).saturating_mul(16)))
            }
            // 16.5.2: an index past the pattern is undefined; Iridia evaluates at the centre (offset_256's rule)
            PullLocation::Sample(sample) => self.draw.sample_lane(self.triangle, quad, i, sample),
            PullLocation::Centroid => match self.draw.centroid_sample(job.coverage_of(i), self.sample_mask) {
                Some(sample) => self.draw.sample_lane(self.triangle, quad, i, sample),
                None => quad.lanes.get(i).copied().unwrap_or_default(),
            },
        };
        Some(
            self.draw
                .input_word(input.source, &values, quad.front_facing, self.context, 0),
        )
    }
}

/// A quad waiting for the pixel program, with the samples still covered.
#[derive(Clone, Copy, Debug)]
pub(super) struct QuadJob {
    /// The quad as the rasterizer gave it.
    pub quad: Quad,
    /// Each lane's samples the primitive covers after clip distances (what `SV_Coverage` and the centroid see).
    pub coverage: [u32; 4],
    /// Each lane's samples still covered after clip distances and the early depth-stencil test.
    pub samples: [u32; 4],
}

impl QuadJob {
    /// The quad's job before clip distances and early tests: its rasterized coverage.
    pub fn new(quad: Quad) -> QuadJob {
        QuadJob {
            quad,
            coverage: quad.samples,
            samples: quad.samples,
        }
    }

    /// Lane `lane`'s coverage after clip distances.
    fn coverage_of(&self, lane: usize) -> u32 {
        self.coverage.get(lane).copied().unwrap_or(0)
    }

    /// Lane `lane`'s samples still covered.
    fn samples_of(&self, lane: usize) -> u32 {
        self.samples.get(lane).copied().unwrap_or(0)
    }

    /// Sets lane `lane`'s coverage after clip distances (and its samples still covered).
    fn set_coverage(&mut self, lane: usize, mask: u32) {
        if let Some(c) = self.coverage.get_mut(lane) {
            *c = mask;
        }
        self.set_samples(lane, mask);
    }

    /// Sets lane `lane`'s samples still covered.
    fn set_samples(&mut self, lane: usize, mask: u32) {
        if let Some(s) = self.samples.get_mut(lane) {
            *s = mask;
        }
    }
}

/// One invocation's results on their way to the output merger.
#[derive(Clone, Copy)]
struct Invocation<'a> {
    /// The quad's place in the batch.
    q: usize,
    /// The lane.
    lane: usize,
    /// The quad.
    quad: &'a Quad,
    /// The samples it covers (all the pixel's surviving ones at pixel frequency, its own at sample frequency).
    rasterized: u32,
    /// `o0`..`o7`.
    outputs: &'a [Texel; RENDER_TARGET_SLOTS],
    /// `oDepth`'s word, if written.
    depth: Option<u32>,
    /// `oMask`, if written.
    mask: Option<u32>,
}

/// The bit of sample `sample` (0 past 31).
fn bit(sample: u32) -> u32 {
    1u32.checked_shl(sample).unwrap_or(0)
}

/// The samples set in `mask`, lowest first.
fn samples_of(mask: u32) -> impl Iterator<Item = u32> {
    (0u32..32).filter(move |&s| mask >> s & 1 == 1)
}

/// The fragment's record of sample `sample`, added when it has none.
fn sample_entry(fragment: &mut Fragment, sample: u32) -> Option<&mut SampleRecord> {
    if !fragment.samples.iter().any(|r| r.sample == sample) {
        fragment.samples.push(SampleRecord {
            sample,
            ..SampleRecord::default()
        });
    }
    fragment.samples.iter_mut().find(|r| r.sample == sample)
}

/// What a depth-stencil outcome makes of a sample.
fn tested_outcome(outcome: DepthStencilOutcome) -> FragmentOutcome {
    match outcome {
        DepthStencilOutcome::Passed => FragmentOutcome::Written,
        DepthStencilOutcome::StencilFailed => FragmentOutcome::StencilFailed,
        DepthStencilOutcome::DepthFailed => FragmentOutcome::DepthFailed,
    }
}

/// Sets a fragment's outcome to a failure, unless a sample of it was already written.
fn set_outcome(fragment: &mut Fragment, outcome: FragmentOutcome) {
    if fragment.written_samples == 0 {
        fragment.outcome = outcome;
    }
}

/// A draw being run part by part ([`PreparedDraw::start`], [`PreparedDraw::resume`], [`PreparedDraw::finish`]): the
/// targets so far, what the draw has done, and where it is.
pub struct DrawRun {
    /// The output merger with the targets as drawn so far.
    om: OutputMerger,
    /// The ambiguity mask so far (empty when not asked for).
    ambiguous: Vec<bool>,
    /// What the draw has done so far.
    stats: DrawStats,
    /// The vertex stage's machine.
    vertex_machine: Machine,
    /// The pixel stage's machine.
    pixel_machine: Machine,
    /// Where the draw is, as its progress callback sees it.
    progress: Progress,
    /// Work counted so far.
    work_done: u64,
    /// The instance being drawn.
    instance: u32,
    /// Where in the instance.
    place: Place,
    /// The stream-output buffers, with a declaration.
    stream_output: Option<StreamOutputBuffers>,
    /// The pixel program's unordered access views, as the run has written them.
    uavs: Vec<Option<UnorderedAccessView>>,
    /// The array slices of views of more than one that the output merger does not hold now (15.15).
    slices: Option<SliceSet>,
}

impl DrawRun {
    /// How far the draw has got.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// Whether the draw is finished.
    pub fn is_finished(&self) -> bool {
        matches!(self.place, Place::Done)
    }
}

/// Where a [`DrawRun`] is within its instance.
#[allow(clippy::large_enum_variant)] // one per draw run; boxing the triangle would allocate for each
enum Place {
    /// Shading the instance's vertices: those shaded so far, and the fetch's scratch space.
    Vertices {
        /// The vertices shaded so far.
        shaded: ShadedVertices,
        /// Scratch space for the input assembler's fetch.
        inputs: VertexInputs,
    },
    /// Drawing the instance's triangles.
    Primitives {
        /// The instance's vertices.
        shaded: Arc<ShadedVertices>,
        /// How many of the instance's primitives have been taken (the next one's place in the instance's order).
        next: usize,
        /// The triangle whose quads are being shaded, if one is.
        current: Option<UnderWay>,
    },
    /// Every instance is drawn.
    Done,
}

impl Place {
    /// The vertices an instance begins with, already shaded (from the prepared draw's cache): all or none.
    fn cached_vertices(&self) -> u64 {
        match self {
            Place::Primitives { shaded, .. } => shaded.len() as u64,
            Place::Vertices { .. } | Place::Done => 0,
        }
    }
}

/// What one instance's place in the vertex cache costs beside its vertices, in 32-bit words: the slot, the shared
/// allocation's counts and the vertices' own vector (about 64 bytes).
const INSTANCE_SLOT_WORDS: u64 = 16;

/// Rows of the target per thread at least, for [`PreparedDraw::draw_in_bands`] to use several by default.
const MIN_BAND_ROWS: u32 = 64;
/// Rows per stripe of a band (by default; bands asked for by count take stripes of 2): short enough that a draw
/// covering part of the target still gives every band its share.
const STRIPE_ROWS: u32 = 16;
/// The most bands (threads) one instance is drawn in.
const MAX_BANDS: u32 = 64;

/// What one band's thread works on.
struct BandJob<'a> {
    /// Its place among the bands, from the top.
    band: usize,
    /// Its rows (counted from `top`).
    stripes: Stripes,
    /// The first row of the rows the bands share out ([`PreparedDraw::rows_reached`]).
    top: u32,
    /// The output merger of its rows.
    om: &'a mut OutputMerger,
    /// The ambiguity mask, for band 0.
    ambiguous: Option<&'a mut Vec<bool>>,
    /// The instance's vertices.
    shaded: &'a ShadedVertices,
    /// Set when the draw is cancelled.
    cancel: &'a std::sync::atomic::AtomicBool,
    /// Where it reports.
    sender: std::sync::mpsc::Sender<BandReport>,
}

/// A band's news for the thread that reports progress.
enum BandReport {
    /// So many of the instance's primitives taken and so much work done since the last report.
    Progress {
        /// The band.
        band: usize,
        /// Primitives taken so far.
        primitives: u64,
        /// Work since its last report.
        work: u64,
    },
    /// The band's thread is done.
    Finished,
}

/// A triangle part of whose quads have been shaded.
struct UnderWay {
    /// The primitive.
    primitive: Primitive,
    /// Its place in the instance's order.
    ordinal: usize,
    /// Its setup.
    triangle: Triangle,
    /// Where the walk of its quads ([`Triangle::quads`]) goes on: past those shaded.
    next_quad: QuadPosition,
}

/// Where the lanes of a batch go after the program: the draw's output merger (every covered lane), or a pixel
/// history's one-pixel output merger (one lane, with its record).
pub(super) struct Sink<'a> {
    /// The output merger.
    pub om: &'a mut OutputMerger,
    /// The pixel the output merger's (0, 0) is (history), or (0, 0) (the draw's own).
    pub origin: (u32, u32),
    /// A band's stripes of rows, which its output merger holds stacked (`None`: every row).
    pub stripes: Option<Stripes>,
    /// History: the only lane (quad 0, this lane) that reaches the output merger, and its record.
    pub probe: Option<(usize, &'a mut Fragment)>,
    /// History: trace the probe's lane.
    pub trace: bool,
    /// The pixel program's unordered access views.
    pub uavs: &'a [Option<UnorderedAccessView>],
}

impl Sink<'_> {
    /// Whether lane `lane` of quad `quad` of the batch reaches the output merger.
    fn reaches(&self, quad: usize, lane: usize) -> bool {
        match &self.probe {
            Some((probe, _)) => quad == 0 && lane == *probe,
            None => true,
        }
    }

    /// The record of lane `lane` of quad `quad`, when it is the probe.
    fn record(&mut self, quad: usize, lane: usize) -> Option<&mut Fragment> {
        match &mut self.probe {
            Some((probe, record)) if quad == 0 && lane == *probe => Some(record),
            _ => None,
        }
    }

    /// The output merger's coordinates of pixel (`x`, `y`).
    fn at(&self, (x, y): (u32, u32)) -> (u32, u32) {
        let y = y.saturating_sub(self.origin.1);
        let y = match &self.stripes {
            Some(stripes) => stripes.local_row(y),
            None => y,
        };
        (x.saturating_sub(self.origin.0), y)
    }
}

/// The words `o0`..`o7` of lane `lane`.
fn outputs_of(machine: &Machine, lane: usize) -> [Texel; RENDER_TARGET_SLOTS] {
    let mut outputs = [[0u32; 4]; RENDER_TARGET_SLOTS];
    for (register, out) in (0u32..).zip(outputs.iter_mut()) {
        *out = machine.output(lane, register);
    }
    outputs
}

impl<'s> PreparedDraw<'s> {
    /// Checks `state` and builds every stage's working data: the programs (from `cache`), their linkage, the input
    /// assembly, the bound resources, the targets, the rasterizer and the output merger's state. Every error names
    /// the draw and the binding or program at fault.
    pub fn new(state: &'s DrawState, cache: &mut ShaderCache, options: DrawOptions) -> Result<PreparedDraw<'s>> {
        PreparedDraw::prepare(StateRef::Borrowed(state), cache, options)
    }

    /// [`PreparedDraw::new`] for a draw the prepared draw shares, so that it borrows nothing (a draw kept between
    /// calls, run part by part with [`PreparedDraw::resume`]).
    pub fn shared(
        state: Arc<DrawState>,
        cache: &mut ShaderCache,
        options: DrawOptions,
    ) -> Result<PreparedDraw<'static>> {
        PreparedDraw::prepare(StateRef::Shared(state), cache, options)
    }

    /// Replays the draw from now on under `variants` ([`super::variants`]) instead of the ones it was prepared with.
    /// The stages the variants change are set up again; the shaded vertices are kept unless the programs' texture
    /// filtering or arithmetic changes (the vertex program runs under them too), so that a draw run again under
    /// rasterizer and output-merger variants shades its vertices once.
    pub fn set_variants(&mut self, variants: super::Variants) {
        let (old, new) = (self.options.variants, variants);
        if new.filtering() != old.filtering() || new.arithmetic() != old.arithmetic() {
            self.vs.set_variants(new);
            self.ps.set_variants(new);
            if let Some((_, resources)) = self.geometry.as_mut() {
                resources.set_variants(new);
            }
            self.cache.iter_mut().for_each(|slot| *slot = None);
        }
        self.options.variants = variants;
        let unsnapped = variants.contains(super::Variant::UnsnappedInterpolation);
        self.rasterizer = self.rasterizer.with_unsnapped_interpolation(unsnapped);
        for rasterizer in &mut self.viewport_rasterizers {
            *rasterizer = rasterizer.with_unsnapped_interpolation(unsnapped);
        }
    }

    /// The variants the draw is replayed under.
    pub fn variants(&self) -> super::Variants {
        self.options.variants
    }

    /// The draw's output merger over `targets` (the whole targets, or a pixel's for its history), blending as the
    /// variants say; errors name the draw (`label`).
    pub(super) fn output_merger(&self, targets: crate::output_merger::Targets, label: &str) -> Result<OutputMerger> {
        Ok(OutputMerger::new(&self.om_state, targets)
            .map_err(|e| e.within(label))?
            .with_fixed_point_blend(self.options.variants.contains(super::Variant::FixedPointBlend8)))
    }

    /// [`PreparedDraw::new`] for either kind of [`StateRef`].
    fn prepare(held: StateRef<'s>, cache: &mut ShaderCache, options: DrawOptions) -> Result<PreparedDraw<'s>> {
        let state: &DrawState = &held;
        let label = state.label.as_str();
        state.check_limits()?;
        let vertex = cache.program(&state.vertex_shader, &format!("{label} vs"))?;
        let pixel = match &state.pixel_shader {
            Some(bytes) => Some(cache.program(bytes, &format!("{label} ps"))?),
            None => None,
        };
        if vertex.executable.stage() != crate::shader::Stage::Vertex {
            return Err(state.error("vs", format!("{} is not a vertex program", vertex.executable.name())));
        }
        if let Some(pixel) = &pixel
            && pixel.executable.stage() != crate::shader::Stage::Pixel
        {
            return Err(state.error("ps", format!("{} is not a pixel program", pixel.executable.name())));
        }
        let geometry_program = match &state.geometry_shader {
            Some(bytes) => Some(cache.program(bytes, &format!("{label} gs"))?),
            None => None,
        };
        if let Some(geometry) = &geometry_program
            && geometry.executable.stage() != crate::shader::Stage::Geometry
        {
            return Err(state.error(
                "gs",
                format!("{} is not a geometry program", geometry.executable.name()),
            ));
        }
        let hull_program = match &state.hull_shader {
            Some(bytes) => Some(cache.program(bytes, &format!("{label} hs"))?),
            None => None,
        };
        let domain_program = match &state.domain_shader {
            Some(bytes) => Some(cache.program(bytes, &format!("{label} ds"))?),
            None => None,
        };
        let tessellation_stage = match (hull_program, &domain_program) {
            (Some(hull), Some(domain)) => {
                if hull.executable.stage() != crate::shader::Stage::Hull {
                    return Err(state.error("hs", format!("{} is not a hull program", hull.executable.name())));
                }
                if domain.executable.stage() != crate::shader::Stage::Domain {
                    return Err(state.error("ds", format!("{} is not a domain program", domain.executable.name())));
                }
                Some(TessellationStage::new(&vertex, hull, domain.clone(), label)?)
            }
            (None, None) => None,
            _ => {
                return Err(state.error(
                    "hs",
                    "a hull program without a domain program, or a domain program without a hull program: the \
                         behaviour is undefined (11.8.1), so Iridia does not draw it",
                ));
            }
        };
        // the program whose outputs the geometry program (or the rasterizer) reads
        let before_geometry = domain_program.as_deref().unwrap_or(&vertex);
        let last = geometry_program.as_deref().unwrap_or(before_geometry);
        let mut linkage = Linkage::new(last, pixel.as_deref(), label)?;
        let stream_output = match &state.stream_output {
            Some(so) => Some(StreamOutputPlan::new(so, last, label)?),
            None => None,
        };
        // without a geometry program, the vertices keep what stream output writes too
        if state.geometry_shader.is_none()
            && let Some(plan) = &stream_output
        {
            for source in plan.sources() {
                if !linkage.varyings.contains(&source) {
                    linkage.varyings.push(source);
                }
            }
        }
        let geometry = match geometry_program {
            Some(program) => {
                let stage = GeometryStage::new(before_geometry, program, label)?;
                let mut resources = StageResources::new(
                    &stage.program.executable,
                    &state.gs,
                    options.unbound,
                    &format!("{label} gs"),
                )?;
                resources.set_texture_decoding(options.texture_decoding);
                resources.set_variants(options.variants);
                Some((stage, resources))
            }
            None => None,
        };
        let ia = InputAssembler::new(
            state,
            &vertex.inputs(),
            AssemblerOptions {
                out_of_bounds: options.out_of_bounds,
                points_and_lines: true,
                ..AssemblerOptions::default()
            },
        )?;
        let patches = ia.topology().control_points().is_some();
        if tessellation_stage.is_some() && !patches {
            return Err(state.error(
                "topology",
                format!(
                    "{} with hull and domain programs: they draw only patch lists (otherwise undefined, 11.8.1)",
                    state.topology
                ),
            ));
        }
        // 11.8.1: without tessellation, patches go to a geometry program (11.8.1.1) or, with none, to stream output
        // (11.8.1.2); patches reaching the rasterizer are undefined (11.8.1.3), refused
        let rasterized_stream = stream_output.as_ref().map_or(Some(0), |plan| plan.rasterized);
        if patches && tessellation_stage.is_none() && geometry.is_none() && rasterized_stream.is_some() {
            return Err(state.error(
                "topology",
                format!(
                    "{} with neither hull and domain programs nor a geometry program: the patches reach the \
                     rasterizer, which is undefined (11.8.1.3); only stream output with no rasterized stream takes them",
                    state.topology
                ),
            ));
        }
        let tessellation = match tessellation_stage {
            Some(stage) => {
                stage.check_patches(&ia, label)?;
                let mut hs = StageResources::new(
                    &stage.hull.executable,
                    &state.hs,
                    options.unbound,
                    &format!("{label} hs"),
                )?;
                let mut ds = StageResources::new(
                    &stage.domain.executable,
                    &state.ds,
                    options.unbound,
                    &format!("{label} ds"),
                )?;
                for resources in [&mut hs, &mut ds] {
                    resources.set_texture_decoding(options.texture_decoding);
                    resources.set_variants(options.variants);
                }
                Some((stage, hs, ds))
            }
            None => None,
        };
        let mut vs = StageResources::new(&vertex.executable, &state.vs, options.unbound, &format!("{label} vs"))?;
        let mut ps = match &pixel {
            Some(pixel) => StageResources::new(&pixel.executable, &state.ps, options.unbound, &format!("{label} ps"))?,
            None => StageResources::default(),
        };
        vs.set_texture_decoding(options.texture_decoding);
        ps.set_texture_decoding(options.texture_decoding);
        vs.set_variants(options.variants);
        ps.set_variants(options.variants);
        let mut declared = [0u8; RENDER_TARGET_SLOTS];
        if let Some(pixel) = &pixel {
            for output in pixel.executable.outputs() {
                match output.register {
                    OutputRegister::O(register) => {
                        if let Some(mask) = usize::try_from(register).ok().and_then(|r| declared.get_mut(r)) {
                            *mask |= output.mask;
                        }
                    }
                    OutputRegister::StencilRef => {
                        return Err(state.error(
                            "ps",
                            "the pixel program writes SV_StencilRef, which is not supported (the stencil reference is \
                             the state's)",
                        ));
                    }
                    _ => {}
                }
            }
        }
        let targets = build_targets(state)?;
        let om_state = OutputMergerState {
            depth_stencil: state.depth_stencil,
            stencil_ref: state.stencil_ref,
            blend: state.blend,
            blend_factor: state.blend_factor,
            sample_mask: state.sample_mask,
        };
        // the output merger checks the targets' sizes and the blend state; this one is only a check
        let checked = OutputMerger::new(&om_state, targets).map_err(|e| e.within(label))?;
        let samples = checked.sample_count();
        let targets = checked.into_targets();
        // sampleinfo and samplepos of the rasterizer (22.4.x) see the targets' count and pattern
        vs.set_rasterizer(samples, state.sample_quality);
        ps.set_rasterizer(samples, state.sample_quality);
        // 19.2.4: the targets' quality level picks their sample positions, unless a ForcedSampleCount picks the
        // rasterizer's (3.5.6)
        let forced = forced_pattern(
            state,
            samples,
            targets.depth_stencil.is_some(),
            linkage.sample_frequency,
            pixel.as_ref().and_then(|p| p.executable.depth_output()).is_some(),
        )?;
        let forced_output = forced.map(|_| crate::raster::full_mask(samples));
        let pattern = match forced {
            Some(pattern) => pattern,
            None if samples > 1 => SamplePattern::new(samples, state.sample_quality)
                .map_err(|e| e.within(format!("{label} output merger")))?,
            None => SamplePattern::default(),
        };
        let formats = (
            targets
                .render_targets
                .each_ref()
                .map(|t| t.as_ref().map(RenderTarget::format)),
            targets.depth_stencil.as_ref().map(DepthStencilTarget::format),
        );
        let viewport = state.viewports.first().copied().unwrap_or(NEVER_SET_VIEWPORT);
        let size = targets
            .render_targets
            .iter()
            .flatten()
            .map(|t| [t.width(), t.height()])
            .chain(targets.depth_stencil.as_ref().map(|d| [d.width(), d.height()]))
            .next()
            .unwrap_or_else(|| viewport_extent(&viewport));
        let desc = &state.rasterizer;
        let rasterizer_of = |slot: usize| -> Result<Rasterizer> {
            // 15.6, 15.7: a viewport never set is all zeros, a scissor rectangle never set is empty
            let viewport = state.viewports.get(slot).copied().unwrap_or(NEVER_SET_VIEWPORT);
            let scissor = state.scissor_rects.get(slot).copied().unwrap_or(Scissor::default());
            Ok(Rasterizer::new(
                viewport,
                rasterizer_state(state),
                scissor,
                size,
                depth_format(formats.1),
            )
            .map_err(|e| match slot {
                0 => e.within(format!("{label} rasterizer")),
                _ => e.within(format!("{label} rasterizer (viewport {slot})")),
            })?
            .with_pattern(pattern)
            .with_lines(
                LineMode::of(desc.multisample_enable, desc.antialiased_line_enable),
                desc.fill_mode == FillMode::Wireframe,
            )
            .with_unsnapped_interpolation(options.variants.contains(super::Variant::UnsnappedInterpolation)))
        };
        let rasterizer = rasterizer_of(0)?;
        let viewport_rasterizers = match &geometry {
            Some((stage, _)) if stage.writes_viewport_index() => {
                (0..VIEWPORT_SLOTS).map(rasterizer_of).collect::<Result<Vec<_>>>()?
            }
            _ => Vec::new(),
        };
        let early = pixel.as_ref().is_some_and(|p| p.force_early_depth_stencil);
        let linkage_samples = linkage.sample_frequency;
        let depth_output = pixel.as_ref().and_then(|p| p.executable.depth_output());
        let instances = u64::from(ia.instance_count());
        let per_instance = ia.primitive_count();
        // the cache's cost in words: the shaded vertices, and each instance's slot and allocation however few
        // vertices it has (a draw of no vertex and 2^32 - 1 instances must not make 2^32 slots)
        // (with a geometry program, what it emits is not known before it runs: the vertex program's count stands in)
        let total_words = (ia.vertex_count() as u64)
            .saturating_mul(instances)
            .saturating_mul(ShadedVertices::words_per_vertex(&linkage) as u64)
            .saturating_add(instances.saturating_mul(INSTANCE_SLOT_WORDS));
        let cache_slots = if total_words <= MAX_KEPT_WORDS as u64 {
            usize::try_from(instances).unwrap_or(0)
        } else {
            0
        };
        Ok(PreparedDraw {
            state: held.clone(),
            options,
            vertex,
            pixel,
            linkage,
            geometry,
            tessellation,
            stream_output,
            ia,
            vs,
            ps,
            rasterizer,
            viewport_rasterizers,
            om_state,
            viewport,
            size,
            declared,
            depth_output,
            early,
            formats,
            targets: Some(targets),
            cache: vec![None; cache_slots],
            primitives_per_instance: per_instance,
            pattern,
            sample_frequency: linkage_samples && samples > 1,
            forced_output,
        })
    }

    /// The rasterizer.
    pub fn rasterizer(&self) -> &Rasterizer {
        &self.rasterizer
    }

    /// Where the ambiguity mask is tested (the rasterizer's pattern) and kept (the targets' sample planes).
    pub(super) fn mask_shape(&self) -> ambiguity::MaskShape<'_> {
        let planes = match self.forced_output {
            Some(all) => all.count_ones().max(1),
            None => self.pattern.count(),
        };
        ambiguity::MaskShape {
            pattern: &self.pattern,
            size: self.size,
            planes,
            per_sample: self.forced_output.is_none(),
        }
    }

    /// The linkage of the vertex program's outputs to the pixel program's inputs.
    pub fn linkage(&self) -> &Linkage {
        &self.linkage
    }

    /// The input assembly.
    pub fn input_assembler(&self) -> &InputAssembler {
        &self.ia
    }

    /// Viewport 0, which the draw uses unless its geometry program selects another per primitive (15.8.1).
    pub fn viewport(&self) -> &Viewport {
        &self.viewport
    }

    /// The vertex program.
    pub fn vertex_program(&self) -> &Arc<Program> {
        &self.vertex
    }

    /// The pixel program, if one is bound.
    pub fn pixel_program(&self) -> Option<&Arc<Program>> {
        self.pixel.as_ref()
    }

    /// The pixel grid's width and height.
    pub fn size(&self) -> [u32; 2] {
        self.size
    }

    /// The label of the draw, for errors.
    pub(super) fn label(&self) -> &str {
        &self.state.label
    }

    /// The targets with their contents before the draw.
    pub(super) fn fresh_targets(&mut self) -> Result<Targets> {
        match self.targets.take() {
            Some(targets) => Ok(targets),
            None => build_targets(&self.state),
        }
    }

    /// The shaded vertices of `instance`: from the cache, or shaded now (and cached when the draw's vertices fit).
    pub(super) fn vertices(
        &mut self,
        instance: u32,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
    ) -> Result<Arc<ShadedVertices>> {
        let slot = usize::try_from(instance).ok();
        if let Some(shaded) = slot.and_then(|s| self.cache.get(s)).and_then(Option::as_ref) {
            return Ok(shaded.clone());
        }
        let what = format!("{} vs", self.state.label);
        let bindings = self.vs.bindings();
        let shaded = shade_instance(
            &self.ia,
            &self.vertex.executable,
            &bindings,
            self.vertex_linkage(),
            instance,
            machine,
            reporter,
            &what,
        )?;
        let shaded = Arc::new(self.after_vertex_stage(shaded, machine, reporter)?);
        if let Some(place) = slot.and_then(|s| self.cache.get_mut(s)) {
            *place = Some(shaded.clone());
        }
        Ok(shaded)
    }

    /// What the vertex program's vertices keep: the geometry program's inputs when one is bound, else what the
    /// rasterizer and the pixel program read.
    pub(super) fn vertex_linkage(&self) -> &Linkage {
        match &self.tessellation {
            Some((stage, _, _)) => &stage.vertex_linkage,
            None => self.geometry_input_linkage(),
        }
    }

    /// What the vertices reaching the geometry stage keep (the vertex program's, or the domain program's with
    /// tessellation): the geometry program's inputs when one is bound, else what the rasterizer and the pixel
    /// program read.
    fn geometry_input_linkage(&self) -> &Linkage {
        match &self.geometry {
            Some((stage, _)) => &stage.vertex_linkage,
            None => &self.linkage,
        }
    }

    /// An instance's vertices after the stages between the vertex program and the rasterizer: tessellation, then
    /// the geometry program (or stream output from the last program).
    pub(super) fn after_vertex_stage(
        &self,
        shaded: ShadedVertices,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
    ) -> Result<ShadedVertices> {
        let shaded = self.tessellation_of(shaded, machine, reporter)?;
        self.geometry_of(shaded, machine, reporter)
    }

    /// An instance's vertices after the tessellation stages: the domain program's vertices with the tessellator's
    /// primitives, or `shaded` itself without them.
    fn tessellation_of(
        &self,
        shaded: ShadedVertices,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
    ) -> Result<ShadedVertices> {
        let Some((stage, hs, ds)) = &self.tessellation else {
            return Ok(shaded);
        };
        stage.run(
            &self.ia,
            &shaded,
            &hs.bindings(),
            &ds.bindings(),
            self.geometry_input_linkage(),
            machine,
            reporter,
            &self.state.label,
        )
    }

    /// An instance's vertices after the geometry stage: the vertices and primitives its program emits, or
    /// `shaded` itself without one.
    fn geometry_of(
        &self,
        shaded: ShadedVertices,
        machine: &mut Machine,
        reporter: &mut Reporter<'_>,
    ) -> Result<ShadedVertices> {
        let Some((stage, resources)) = &self.geometry else {
            return Ok(self.vertex_stream_output(shaded));
        };
        let what = format!("{} gs", self.state.label);
        let bindings = resources.bindings();
        stage.run(
            &self.ia,
            &shaded,
            &bindings,
            &self.linkage,
            self.stream_output.as_ref(),
            machine,
            reporter,
            &what,
        )
    }

    /// Stream output from the vertex program (no geometry program): the input assembler's primitives, each
    /// vertex's words from the kept outputs (a patch's control points in order, 11.8.1.2); with no stream
    /// rasterized, nothing reaches the rasterizer.
    fn vertex_stream_output(&self, mut shaded: ShadedVertices) -> ShadedVertices {
        let Some(plan) = &self.stream_output else {
            return shaded;
        };
        let mut records = StreamRecords::default();
        let mut push = |vertices: &[u32]| {
            let count = u8::try_from(vertices.len()).unwrap_or(u8::MAX);
            records.push(plan, 0, count, |v, register, component| {
                let place = self.linkage.varyings.iter().position(|k| *k == (register, component));
                vertices
                    .get(v)
                    .and_then(|slot| place.and_then(|p| shaded.varyings(*slot as usize).get(p)))
                    .copied()
                    .unwrap_or(0)
            });
        };
        if shaded.generated_primitives().is_none() && self.ia.topology().control_points().is_some() {
            let mut walk = self.ia.primitives();
            while let Some(patch) = walk.next_for_geometry() {
                push(patch.vertices.get(..patch.count).unwrap_or(&[]));
            }
        } else {
            for primitive in self.primitives_of(&shaded) {
                let count = match primitive.kind {
                    PrimitiveKind::Point => 1,
                    PrimitiveKind::Line => 2,
                    PrimitiveKind::Triangle => 3,
                };
                push(primitive.vertices.get(..count).unwrap_or(&[]));
            }
        }
        shaded.set_stream_records(records);
        if plan.rasterized != Some(0) {
            shaded.set_primitives(Vec::new());
        }
        shaded
    }

    /// The primitives of an instance's vertices: those a geometry program made, or the input assembler's.
    pub(super) fn primitives_of<'a>(&'a self, shaded: &'a ShadedVertices) -> Box<dyn Iterator<Item = Primitive> + 'a> {
        match shaded.generated_primitives() {
            Some(primitives) => Box::new(primitives.iter().copied()),
            None => Box::new(self.ia.primitives()),
        }
    }

    /// A machine with the draw's instruction budget.
    pub(super) fn machine(&self) -> Machine {
        let mut machine = Machine::new();
        machine.set_budget(self.options.instruction_budget);
        machine
    }

    /// Runs the draw: every instance's vertices, every triangle in order, every quad of pixels, the output merger.
    /// `progress` is called as [`super::progress`] describes and may cancel the draw.
    pub fn run(&mut self, progress: Option<ProgressCallback<'_>>) -> Result<DrawOutput> {
        let mut run = self.start()?;
        self.resume(&mut run, u64::MAX, progress)?;
        self.finish(run)
    }

    /// Begins running the draw part by part: the targets as they were before it, nothing drawn yet. Each
    /// [`PreparedDraw::resume`] goes on with it; [`PreparedDraw::finish`] gives the output. [`PreparedDraw::run`]
    /// is these three calls, so a draw run part by part draws exactly what it draws.
    pub fn start(&mut self) -> Result<DrawRun> {
        let label = self.state.label.clone();
        let instances = self.ia.instance_count();
        let progress = Progress {
            primitives_total: self.primitives_per_instance.saturating_mul(u64::from(instances)),
            vertices_total: (self.ia.vertex_count() as u64).saturating_mul(u64::from(instances)),
            ..Progress::default()
        };
        let targets = self.fresh_targets()?;
        let mut om = self.output_merger(targets, &label)?;
        om.set_depth_range(self.viewport.min_depth, self.viewport.max_depth);
        let [width, height] = self.size;
        let with_targets = self.formats.0.iter().any(Option::is_some) || self.formats.1.is_some();
        let ambiguous = if self.options.ambiguity && with_targets {
            // one plane of flags per sample, as the targets stack their sample planes
            let samples = usize::try_from(self.mask_shape().planes).unwrap_or(1);
            vec![false; (width as usize).saturating_mul(height as usize).saturating_mul(samples)]
        } else {
            Vec::new()
        };
        let place = if instances == 0 {
            Place::Done
        } else {
            self.instance_place(0)?
        };
        let mut progress = progress;
        progress.vertices_done = place.cached_vertices();
        let mut stream_output = self.state.stream_output.as_ref().map(StreamOutputBuffers::new);
        let uavs = self.pixel_uavs()?;
        // which of what the pixel program writes depends on the order of its invocations (5.3.9 orders none)
        uavs.iter().flatten().for_each(UnorderedAccessView::track_order);
        let slices = match &self.geometry {
            Some((stage, _)) if stage.writes_render_target_index() => SliceSet::new(&self.state)?,
            _ => None,
        };
        self.write_stream_output(&mut stream_output, &place);
        Ok(DrawRun {
            om,
            ambiguous,
            stats: DrawStats::default(),
            vertex_machine: self.machine(),
            pixel_machine: self.machine(),
            progress,
            work_done: 0,
            instance: 0,
            place,
            stream_output,
            uavs,
            slices,
        })
    }

    /// Writes what the instance at `place` sends to stream output, once its vertices are shaded (the draw's run
    /// reaches each instance's primitives once).
    fn write_stream_output(&self, buffers: &mut Option<StreamOutputBuffers>, place: &Place) {
        if let (
            Some(buffers),
            Some(plan),
            Place::Primitives {
                shaded,
                next: 0,
                current: None,
            },
        ) = (buffers.as_mut(), &self.stream_output, place)
            && let Some(records) = shaded.stream_records()
        {
            buffers.write(plan, records);
        }
    }

    /// The pixel program's unordered access views, each holding its window of the resource as bound.
    pub(super) fn pixel_uavs(&self) -> Result<Vec<Option<UnorderedAccessView>>> {
        uav_views(&self.state.uavs).map_err(|e| e.within(self.state.label.as_str()))
    }

    /// Where instance `instance` begins: its vertices from the cache, or to be shaded.
    fn instance_place(&self, instance: u32) -> Result<Place> {
        let cached = usize::try_from(instance)
            .ok()
            .and_then(|s| self.cache.get(s))
            .and_then(Option::as_ref);
        Ok(match cached {
            Some(shaded) => Place::Primitives {
                shaded: shaded.clone(),
                next: 0,
                current: None,
            },
            None => Place::Vertices {
                shaded: super::vertex::begin_instance(
                    &self.ia,
                    self.vertex_linkage(),
                    &format!("{} vs", self.state.label),
                )?,
                inputs: VertexInputs::default(),
            },
        })
    }

    /// Goes on with `run` (begun by [`PreparedDraw::start`] on this draw) for about `budget` units of work (counted
    /// as [`super::progress`] counts them): it stops at the first place it can after doing that much — after a
    /// batch of vertices, a triangle set up, or a batch of a triangle's quads — and always does at least one of
    /// these. Returns whether the draw is finished. `progress` is called at the start and the end of the call and
    /// as [`super::progress`] describes in between, and may cancel the draw (then `run` must not be resumed).
    pub fn resume(&mut self, run: &mut DrawRun, budget: u64, progress: Option<ProgressCallback<'_>>) -> Result<bool> {
        let label = self.state.label.clone();
        let mut reporter =
            Reporter::resumed(progress, &label, run.progress, run.work_done).with_limit(self.options.work_limit);
        reporter.report()?;
        let limit = run.work_done.saturating_add(budget);
        let result = self.advance(run, &mut reporter, limit);
        run.progress = reporter.progress;
        run.work_done = reporter.work_done;
        result?;
        reporter.report()?;
        Ok(matches!(run.place, Place::Done))
    }

    /// Does the work of [`PreparedDraw::resume`] until the reporter has counted `limit` units or the draw is done.
    fn advance(&mut self, run: &mut DrawRun, reporter: &mut Reporter<'_>, limit: u64) -> Result<()> {
        let instances = self.ia.instance_count();
        let mut first = true;
        while first || reporter.work_done < limit {
            first = false;
            match &mut run.place {
                Place::Done => return Ok(()),
                Place::Vertices { shaded, inputs } => {
                    let what = format!("{} vs", self.state.label);
                    let bindings = self.vs.bindings();
                    let complete = super::vertex::shade_next_batch(
                        &self.ia,
                        &self.vertex.executable,
                        &bindings,
                        self.vertex_linkage(),
                        run.instance,
                        shaded,
                        inputs,
                        &mut run.vertex_machine,
                        reporter,
                        &what,
                    )?;
                    if complete {
                        let vertices = std::mem::take(shaded);
                        let shaded = Arc::new(self.after_vertex_stage(vertices, &mut run.vertex_machine, reporter)?);
                        if let Some(place) = usize::try_from(run.instance).ok().and_then(|s| self.cache.get_mut(s)) {
                            *place = Some(shaded.clone());
                        }
                        run.place = Place::Primitives {
                            shaded,
                            next: 0,
                            current: None,
                        };
                        self.write_stream_output(&mut run.stream_output, &run.place);
                    }
                }
                Place::Primitives { .. } => {
                    let bands = self.band_count(run, limit);
                    let done = if bands > 1 {
                        self.draw_in_bands(run, reporter, bands)?;
                        true
                    } else {
                        self.draw_primitives(run, reporter, limit)?
                    };
                    if done {
                        run.instance = run.instance.saturating_add(1);
                        run.place = if run.instance < instances {
                            self.instance_place(run.instance)?
                        } else {
                            Place::Done
                        };
                        self.write_stream_output(&mut run.stream_output, &run.place);
                        // vertices taken from the cache count as shaded now
                        reporter.progress.vertices_done = reporter
                            .progress
                            .vertices_done
                            .saturating_add(run.place.cached_vertices());
                    }
                }
            }
        }
        Ok(())
    }

    /// Draws the triangles of `run`'s instance from where it is, until the reporter has counted `limit` units (after
    /// at least one triangle set up or batch of quads) or the instance is done; returns whether it is.
    fn draw_primitives(&self, run: &mut DrawRun, reporter: &mut Reporter<'_>, limit: u64) -> Result<bool> {
        let DrawRun {
            om,
            ambiguous,
            stats,
            pixel_machine,
            place,
            uavs,
            slices,
            ..
        } = run;
        let Place::Primitives { shaded, next, current } = place else {
            return Ok(true);
        };
        if current.is_none() && *next == 0 {
            stats.vertices_shaded = stats.vertices_shaded.saturating_add(shaded.len() as u64);
        }
        // one walk of the primitives per call (the iterator borrows the draw, so it cannot be kept between calls)
        let mut primitives = self.primitives_of(shaded).skip(*next);
        let mut first = true;
        loop {
            if !first && reporter.work_done >= limit {
                return Ok(false);
            }
            first = false;
            let Some(under_way) = current.as_mut() else {
                let Some(primitive) = primitives.next() else {
                    return Ok(true);
                };
                let ordinal = *next;
                *next = next.saturating_add(1);
                stats.triangles = stats.triangles.saturating_add(1);
                let context = self.context(primitive, ordinal, shaded);
                let triangle = context.as_ref().and_then(|context| self.setup(context, stats));
                match (triangle, context) {
                    (Some(triangle), Some(context)) => {
                        self.select_for(om, slices.as_mut(), context.indices);
                        if !ambiguous.is_empty() {
                            let rasterizer = self.rasterizer_for(context.indices.viewport);
                            ambiguity::mark(&triangle, rasterizer, self.mask_shape(), ambiguous);
                        }
                        let (_, rows) = triangle.rows_through(None);
                        reporter.progress.primitive_rows_done = 0;
                        reporter.progress.primitive_rows = rows;
                        *current = Some(UnderWay {
                            primitive,
                            ordinal,
                            triangle,
                            next_quad: QuadPosition::default(),
                        });
                    }
                    _ => {
                        // a triangle that draws nothing is done as soon as it is set up
                        reporter.progress.primitives_done = reporter.progress.primitives_done.saturating_add(1);
                        reporter.work(1)?;
                    }
                }
                continue;
            };
            let Some(context) = self.context(under_way.primitive, under_way.ordinal, shaded) else {
                *current = None;
                continue;
            };
            let mut sink = Sink {
                om,
                origin: (0, 0),
                stripes: None,
                probe: None,
                trace: false,
                uavs,
            };
            // the quads in batches of LANES / 4, as a draw run at once makes them, so that a run part by part
            // shades the very same batches
            let mut quads = under_way.triangle.quads().resume(under_way.next_quad);
            let mut batch: Vec<QuadJob> = Vec::with_capacity(LANES / 4);
            let mut finished = false;
            loop {
                let taken = self.shade_next_batch(
                    &mut quads,
                    &mut batch,
                    &under_way.triangle,
                    &context,
                    &mut sink,
                    pixel_machine,
                    stats,
                    reporter,
                )?;
                under_way.next_quad = quads.position();
                if taken < LANES / 4 {
                    finished = true;
                    break;
                }
                if reporter.work_done >= limit {
                    break;
                }
            }
            if finished {
                *current = None;
                reporter.progress.primitive_rows_done = 0;
                reporter.progress.primitive_rows = 0;
                reporter.progress.primitives_done = reporter.progress.primitives_done.saturating_add(1);
                reporter.work(1)?;
            }
        }
    }

    /// Takes the next batch of up to `LANES / 4` of `quads` (a primitive's, in walk order) into `batch` and shades
    /// it into `sink`, the progress's rows set to where the batch ends; how many quads it took (fewer than
    /// `LANES / 4`: the primitive is done). The one batching of a run part by part, at once and in bands.
    #[allow(clippy::too_many_arguments)] // the primitive, its quads and the run's scratch
    fn shade_next_batch(
        &self,
        quads: &mut impl Iterator<Item = Quad>,
        batch: &mut Vec<QuadJob>,
        triangle: &Triangle,
        context: &PrimitiveContext<'_>,
        sink: &mut Sink<'_>,
        machine: &mut Machine,
        stats: &mut DrawStats,
        reporter: &mut Reporter<'_>,
    ) -> Result<usize> {
        batch.clear();
        batch.extend(quads.take(LANES / 4).map(QuadJob::new));
        for job in batch.iter() {
            stats.cover_quad(&job.quad);
        }
        if !batch.is_empty() {
            let (done, rows) = triangle.rows_through(batch.last().map(|job| &job.quad));
            reporter.progress.primitive_rows_done = done;
            reporter.progress.primitive_rows = rows;
            self.shade_quads(batch, triangle, context, sink, machine, stats, reporter)?;
        }
        Ok(batch.len())
    }

    /// How many bands of rows the current instance is drawn in at once, each by a thread of its own: 1 (this
    /// thread, step by step) unless the call runs the instance from its first primitive to its end and the options
    /// allow several threads; by default as many as the machine runs at once, [`MIN_BAND_ROWS`] of the target's
    /// rows a thread at least, or as many as the options ask, 2 rows a thread at least.
    fn band_count(&self, run: &DrawRun, limit: u64) -> u32 {
        // a pixel program writing unordered access views draws on one thread, its writes in the order it runs them
        // as does a draw selecting array slices or viewports per primitive (the bands hold one slice's rows)
        if cfg!(target_arch = "wasm32")
            || !self.state.uavs.is_empty()
            || run.slices.is_some()
            || !self.viewport_rasterizers.is_empty()
            || limit != u64::MAX
            || !matches!(
                run.place,
                Place::Primitives {
                    next: 0,
                    current: None,
                    ..
                }
            )
        {
            return 1;
        }
        // as many as the machine runs, in bands of MIN_BAND_ROWS at least; or as many as asked, of 2 rows at least
        let (threads, least) = match self.options.threads {
            0 => (
                std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(1)),
                MIN_BAND_ROWS,
            ),
            n => (n, 2),
        };
        threads
            .min(self.size[1].checked_div(least).unwrap_or(1))
            .clamp(1, MAX_BANDS)
    }

    /// Draws the current instance's primitives (from its first) in `bands` bands of the target's rows at once, a
    /// thread each (`std::thread::scope`): band `b` holds stripes `b`, `b + bands`, ... of [`STRIPE_ROWS`] rows
    /// ([`Stripes`]), so that a draw over part of the target shares its work out; each thread walks every
    /// primitive, sets it up and shades the quads in its stripes into a copy of those rows of the targets
    /// ([`OutputMerger::rows`]), written back when all are done. A quad lies in one stripe (stripes meet at even
    /// rows), and each band takes the primitives in the draw's order, so every pixel sees the fragments the
    /// one-thread run gives it, in the same order. This thread
    /// reports progress (the least primitive count of the bands) and passes a cancel on.
    fn draw_in_bands(&self, run: &mut DrawRun, reporter: &mut Reporter<'_>, bands: u32) -> Result<()> {
        let label = self.label().to_owned();
        let Place::Primitives { shaded, .. } = &run.place else {
            return Ok(());
        };
        let shaded = Arc::clone(shaded);
        run.stats.vertices_shaded = run.stats.vertices_shaded.saturating_add(shaded.len() as u64);
        let rows = if self.options.threads == 0 { STRIPE_ROWS } else { 2 };
        // only the rows the instance's primitives can reach are copied to the bands and back, from a row where the
        // stripes begin again with band 0
        let period = rows.saturating_mul(bands).max(1);
        let (first, end) = self.rows_reached(&shaded);
        let top = first.checked_div(period).unwrap_or(0).saturating_mul(period);
        let stripes: Vec<Stripes> = (0..bands).map(|band| Stripes { band, bands, rows }).collect();
        let ranges: Vec<Vec<(u32, u32)>> = stripes
            .iter()
            .map(|s| {
                s.ranges(end.saturating_sub(top))
                    .into_iter()
                    .map(|(a, b)| (a.saturating_add(top), b.saturating_add(top)))
                    .collect()
            })
            .collect();
        let mut parts = Vec::with_capacity(ranges.len());
        for band in &ranges {
            parts.push(run.om.rows(band).map_err(|e| e.within(label.as_str()))?);
        }
        let mut ambiguous = std::mem::take(&mut run.ambiguous);
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let start = reporter.progress.primitives_done;
        let (sender, receiver) = std::sync::mpsc::channel::<BandReport>();
        let mut cancelled = None;
        let outcomes: Vec<Result<DrawStats>> = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(ranges.len());
            let mut mask = Some(&mut ambiguous);
            for (band, (&stripes, om)) in stripes.iter().zip(parts.iter_mut()).enumerate() {
                let job = BandJob {
                    band,
                    stripes,
                    top,
                    om,
                    ambiguous: mask.take(),
                    shaded: &shaded,
                    cancel: &cancel,
                    sender: sender.clone(),
                };
                handles.push(scope.spawn(move || self.draw_band(job)));
            }
            drop(sender);
            let mut done = vec![0u64; handles.len()];
            let mut finished = 0;
            while finished < handles.len() {
                match receiver.recv_timeout(std::time::Duration::from_millis(100)) {
                    Ok(BandReport::Progress { band, primitives, work }) => {
                        if let Some(d) = done.get_mut(band) {
                            *d = primitives;
                        }
                        reporter.progress.primitives_done =
                            start.saturating_add(done.iter().copied().min().unwrap_or(0));
                        if let Err(e) = reporter.work(work) {
                            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                            cancelled.get_or_insert(e);
                        }
                    }
                    Ok(BandReport::Finished) => finished = finished.saturating_add(1),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(e) = reporter.report() {
                            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                            cancelled.get_or_insert(e);
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            handles
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|_| Err(Error::new(label.as_str(), "a thread drawing a band of rows failed")))
                })
                .collect()
        });
        run.ambiguous = ambiguous;
        if let Some(e) = cancelled {
            return Err(e);
        }
        // a band's own error rather than another band's stop on it
        let mut stats = Vec::with_capacity(outcomes.len());
        let mut failure: Option<Error> = None;
        for outcome in outcomes {
            match outcome {
                Ok(band) => stats.push(band),
                Err(e) => {
                    let stopped = e.kind == crate::error::ErrorKind::Cancelled;
                    if failure
                        .as_ref()
                        .is_none_or(|f| f.kind == crate::error::ErrorKind::Cancelled && !stopped)
                    {
                        failure = Some(e);
                    }
                }
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        for (band, done) in stats.iter().enumerate() {
            run.stats.add_band(done, band == 0);
        }
        for (band, part) in ranges.iter().zip(&parts) {
            run.om.put_rows(part, band).map_err(|e| e.within(label.as_str()))?;
        }
        reporter.progress.primitives_done = start.saturating_add(self.primitives_per_instance);
        reporter.work(1)?;
        Ok(())
    }

    /// The rows `first..end` of the targets the pixels of the current instance's primitives (whose vertices are
    /// `shaded`) can lie in: the rows of their screen bounds, two pixels more each way (a point's square or a
    /// line's width reach under 1.3 pixels past their vertices), within the rows the rasterizer may write; every row
    /// when a vertex is not in front of the eye or not finite (then the screen position does not bound the
    /// primitive).
    fn rows_reached(&self, shaded: &ShadedVertices) -> (u32, u32) {
        let height = self.size[1];
        let allowed = self.rasterizer.allowed();
        let clamp = |row: i64| u32::try_from(row.clamp(0, i64::from(height))).unwrap_or(0);
        let (allowed_first, allowed_end) = (clamp(allowed.top), clamp(allowed.bottom));
        let mut low = f32::INFINITY;
        let mut high = f32::NEG_INFINITY;
        for (ordinal, primitive) in self.primitives_of(shaded).enumerate() {
            let Some(context) = self.context(primitive, ordinal, shaded) else {
                continue;
            };
            for slot in context.slots {
                let Some(position) = shaded.position(slot) else {
                    return (allowed_first, allowed_end);
                };
                if !(position[3] > 0. && position.iter().all(|c| c.is_finite())) {
                    return (allowed_first, allowed_end);
                }
                let y = self.viewport.to_screen(position)[1];
                low = low.min(y);
                high = high.max(y);
            }
        }
        if low > high {
            return (allowed_first, allowed_first);
        }
        // float to i64 saturates; the clamp keeps the rows inside the allowed ones
        let first = clamp((low.floor() as i64).saturating_sub(2)).max(allowed_first);
        let end = clamp((high.ceil() as i64).saturating_add(3)).min(allowed_end);
        (first.min(end), end)
    }

    /// One band's share of [`PreparedDraw::draw_in_bands`]: every primitive of the instance set up (and marked in
    /// the ambiguity mask, by band 0), its quads in the band shaded into the band's output merger. What it did.
    fn draw_band(&self, job: BandJob<'_>) -> Result<DrawStats> {
        let BandJob {
            band,
            stripes,
            top,
            om,
            mut ambiguous,
            shaded,
            cancel,
            sender,
        } = job;
        let label = self.label().to_owned();
        let mut stats = DrawStats::default();
        let mut machine = self.machine();
        let mut reporter = Reporter::new(None, &label);
        let mut sink = Sink {
            om,
            origin: (0, top),
            stripes: Some(stripes),
            probe: None,
            trace: false,
            uavs: &[],
        };
        let mut batch: Vec<QuadJob> = Vec::with_capacity(LANES / 4);
        let mut reported = 0u64;
        let mut primitives = 0u64;
        let result = (|| {
            for (ordinal, primitive) in self.primitives_of(shaded).enumerate() {
                if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(Error::of_kind(
                        crate::error::ErrorKind::Cancelled,
                        label.as_str(),
                        "cancelled",
                    ));
                }
                primitives = primitives.saturating_add(1);
                stats.triangles = stats.triangles.saturating_add(1);
                let Some(context) = self.context(primitive, ordinal, shaded) else {
                    continue;
                };
                let Some(triangle) = self.setup(&context, &mut stats) else {
                    continue;
                };
                if let Some(mask) = ambiguous.as_deref_mut()
                    && !mask.is_empty()
                {
                    ambiguity::mark(&triangle, &self.rasterizer, self.mask_shape(), mask);
                }
                let mut quads = triangle.quads().within(stripes);
                loop {
                    let taken = self.shade_next_batch(
                        &mut quads,
                        &mut batch,
                        &triangle,
                        &context,
                        &mut sink,
                        &mut machine,
                        &mut stats,
                        &mut reporter,
                    )?;
                    if reporter.work_done.saturating_sub(reported) >= super::progress::WORK_PER_REPORT {
                        let work = reporter.work_done.saturating_sub(reported);
                        reported = reporter.work_done;
                        let _ = sender.send(BandReport::Progress { band, primitives, work });
                    }
                    if taken < LANES / 4 {
                        break;
                    }
                }
            }
            Ok(())
        })();
        let _ = sender.send(BandReport::Progress {
            band,
            primitives,
            work: reporter.work_done.saturating_sub(reported),
        });
        if result.is_err() {
            // the other bands stop too: the draw fails
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let _ = sender.send(BandReport::Finished);
        result.map(|()| stats)
    }

    /// The output of a finished run (one [`PreparedDraw::resume`] returned `true` for): the targets after the draw,
    /// what it did, and its ambiguity mask.
    pub fn finish(&self, run: DrawRun) -> Result<DrawOutput> {
        let label = self.state.label.clone();
        if !matches!(run.place, Place::Done) {
            return Err(Error::new(label.as_str(), "the draw is not finished"));
        }
        let [width, height] = self.size;
        let (images, depth_stencil) =
            SliceSet::images(run.slices, run.om.into_targets()).map_err(|e| e.within(label.as_str()))?;
        let render_targets: Vec<Option<TargetImage>> = self
            .state
            .render_targets
            .iter()
            .zip(images)
            .map(|(_, image)| image)
            .collect();
        Ok(DrawOutput {
            label,
            width,
            height,
            render_targets,
            depth_stencil,
            stats: run.stats,
            ambiguous: run.ambiguous,
            stream_output: run.stream_output,
            uavs: run.uavs.iter().map(|v| v.as_ref().map(contents)).collect(),
            uav_order: run
                .uavs
                .iter()
                .map(|v| v.as_ref().and_then(UnorderedAccessView::order_dependence))
                .collect(),
        })
    }

    /// The triangle `primitive`, the instance's primitive `ordinal` (in its order), or `None` when a vertex slot has
    /// no shaded vertex (which the input assembler never makes).
    pub(super) fn context<'v>(
        &self,
        primitive: Primitive,
        ordinal: usize,
        vertices: &'v ShadedVertices,
    ) -> Option<PrimitiveContext<'v>> {
        let slots = primitive.vertices.map(|s| s as usize);
        slots.iter().all(|&s| s < vertices.len()).then_some(PrimitiveContext {
            id: primitive.id,
            kind: primitive.kind,
            slots,
            indices: vertices.array_indices(ordinal),
            vertices,
        })
    }

    /// The rasterizer of the viewport and scissor slot viewport index `index` selects (15.8.1): slot 0's unless the
    /// geometry program writes the index.
    pub(super) fn rasterizer_for(&self, index: u32) -> &Rasterizer {
        self.viewport_rasterizers
            .get(super::arrays::viewport_slot(index))
            .unwrap_or(&self.rasterizer)
    }

    /// Has `om` write where a primitive of `indices` goes: every view's array slice it selects (15.15), and its
    /// viewport's depth range (17.10) when the viewport is selected per primitive.
    pub(super) fn select_for(&self, om: &mut OutputMerger, slices: Option<&mut SliceSet>, indices: ArrayIndices) {
        if let Some(slices) = slices {
            slices.select(om, indices.render_target);
        }
        if !self.viewport_rasterizers.is_empty() {
            let viewport = self.rasterizer_for(indices.viewport).viewport();
            om.set_depth_range(viewport.min_depth, viewport.max_depth);
        }
    }

    /// The cull-distance test (15.4.2) and NaN clip distances (15.4.1), then the rasterizer's setup; `None` when the
    /// triangle draws nothing, counted in `stats`.
    pub(super) fn setup(&self, context: &PrimitiveContext<'_>, stats: &mut DrawStats) -> Option<Triangle> {
        let vertices = context.vertices;
        let [a, b, c] = context.slots;
        let culled_by_distance = (0..self.linkage.cull_distances.len()).any(|k| {
            // a NaN counts as out (15.4.2): `!(d >= 0)`
            [a, b, c].iter().all(|&v| {
                let d = vertices.cull_distances(v).get(k).copied().unwrap_or(0.);
                d.is_nan() || d < 0.
            })
        });
        let nan_clip = [a, b, c]
            .iter()
            .any(|&v| vertices.clip_distances(v).iter().any(|d| d.is_nan()));
        if culled_by_distance || nan_clip {
            stats.distance_culled = stats.distance_culled.saturating_add(1);
            return None;
        }
        let positions = [a, b, c].map(|v| vertices.position(v).unwrap_or_default());
        let triangle = self
            .rasterizer_for(context.indices.viewport)
            .primitive(context.kind, positions);
        let count = match triangle.fate() {
            TriangleFate::Rasterized => &mut stats.rasterized,
            TriangleFate::ClippedAway => &mut stats.clipped_away,
            TriangleFate::NotANumber => &mut stats.not_a_number,
            TriangleFate::Infinite => &mut stats.infinite,
            TriangleFate::ZeroArea => &mut stats.zero_area,
            TriangleFate::Culled => &mut stats.culled,
        };
        *count = count.saturating_add(1);
        (triangle.fate() == TriangleFate::Rasterized).then_some(triangle)
    }

    /// The word a pixel input component reads at a lane.
    pub(super) fn input_word(
        &self,
        source: PixelSource,
        lane: &Lane,
        front: bool,
        context: &PrimitiveContext<'_>,
        sample: u32,
    ) -> u32 {
        match source {
            PixelSource::Varying { varying, mode } => {
                let words = context
                    .slots
                    .map(|s| context.vertices.varyings(s).get(varying).copied().unwrap_or(0));
                match mode {
                    Interpolation::Flat => words[0],
                    Interpolation::Perspective => Lane::blend(lane.perspective, words.map(f32::from_bits)).to_bits(),
                    Interpolation::ScreenLinear => Lane::blend(lane.linear, words.map(f32::from_bits)).to_bits(),
                }
            }
            PixelSource::Position(k) => lane.position.get(k).copied().unwrap_or(0.).to_bits(),
            PixelSource::FrontFace => {
                if front {
                    u32::MAX
                } else {
                    0
                }
            }
            PixelSource::PrimitiveId => context.id,
            PixelSource::SampleIndex => sample,
            PixelSource::Zero => 0,
        }
    }

    /// The clip distances (15.4.1) at a lane: the vertices' distances blended perspective-correct (a distance is
    /// linear in clip space, so this is the plane's value at the lane's point).
    pub(super) fn clip_distances_at(&self, lane: &Lane, context: &PrimitiveContext<'_>) -> Vec<f32> {
        (0..self.linkage.clip_distances.len())
            .map(|k| {
                let d = context
                    .slots
                    .map(|s| context.vertices.clip_distances(s).get(k).copied().unwrap_or(0.));
                Lane::blend(lane.perspective, d)
            })
            .collect()
    }

    /// The values of lane `lane` of `quad` (of `triangle`) at sample `sample`'s position: the quad's own (the
    /// centre's) when the sample is at the centre, as with one sample a pixel, else the plane's there (3.5.4).
    fn sample_lane(&self, triangle: &Triangle, quad: &Quad, lane: usize, sample: u32) -> Lane {
        offset_lane(triangle, quad, lane, self.pattern.offset_256(sample))
    }

    /// The sample whose position a centroid input is evaluated at for a lane covering `coverage` under the
    /// SampleMask bits `sample_mask` (3.5.5), or `None` for the centre: (1) the centre when every sample is covered;
    /// (2) else the first covered sample (lowest index) in the SampleMask, or, when the SampleMask leaves none (the
    /// lane then writes nothing; 3.5.5 does not say), the first covered sample; (3) for a helper, the first sample of
    /// the SampleMask when it is a proper subset of the samples, else the centre.
    fn centroid_sample(&self, coverage: u32, sample_mask: u32) -> Option<u32> {
        let full = self.pattern.full_mask();
        if coverage == full {
            return None;
        }
        if coverage != 0 {
            let masked = coverage & sample_mask;
            let pick = if masked != 0 { masked } else { coverage };
            return Some(pick.trailing_zeros());
        }
        let mask = sample_mask & full;
        (mask != full && mask != 0).then_some(mask.trailing_zeros())
    }

    /// Shades a batch of quads of `triangle` and hands their covered samples to `sink`: clip distances per sample,
    /// the early depth-stencil test per sample (16.12.1), the pixel program once per pixel with a covered sample (or,
    /// at sample frequency, once per covered sample in the SampleMask: 3.5.4), then per invocation the coverage, and
    /// per covered sample the late depth-stencil test and the write, lanes in order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shade_quads(
        &self,
        batch: &mut [QuadJob],
        triangle: &Triangle,
        context: &PrimitiveContext<'_>,
        sink: &mut Sink<'_>,
        machine: &mut Machine,
        stats: &mut DrawStats,
        reporter: &mut Reporter<'_>,
    ) -> Result<()> {
        let label = self.label();
        let sample_mask = sink.om.sample_mask_bits();
        // clip distances (15.4.1): a covered sample whose interpolated distance is below 0 (or NaN) is not rasterized
        if !self.linkage.clip_distances.is_empty() {
            for (q, job) in batch.iter_mut().enumerate() {
                for lane in 0..4 {
                    let mask = job.coverage_of(lane);
                    if mask == 0 {
                        continue;
                    }
                    let mut kept = mask;
                    let mut first: Option<Vec<f32>> = None;
                    for sample in samples_of(mask) {
                        let values = self.sample_lane(triangle, &job.quad, lane, sample);
                        let distances = self.clip_distances_at(&values, context);
                        if distances.iter().any(|d| d.is_nan() || *d < 0.) {
                            kept &= !bit(sample);
                        }
                        first.get_or_insert(distances);
                    }
                    let removed = kept == 0;
                    if let Some(record) = sink.record(q, lane) {
                        record.clip_distances = first.unwrap_or_default();
                        record.clip_distance_removed = removed;
                        if removed {
                            record.outcome = FragmentOutcome::ClipDistance;
                        }
                    }
                    job.set_coverage(lane, kept);
                    if removed && sink.reaches(q, lane) {
                        stats.clip_distance_removed = stats.clip_distance_removed.saturating_add(1);
                    }
                }
            }
        }
        // 16.12.1: the tests (and writes) before the program, per sample; a lane none of whose samples passes is not
        // invoked but as a helper
        if self.early && self.pixel.is_some() && self.forced_output.is_none() {
            for (q, job) in batch.iter_mut().enumerate() {
                for lane in 0..4 {
                    let rasterized = job.samples_of(lane);
                    if rasterized == 0 || !sink.reaches(q, lane) {
                        continue;
                    }
                    let at = sink.at(job.quad.pixel(lane));
                    let in_mask = rasterized & sample_mask;
                    let mut kept = 0u32;
                    let mut failure = None;
                    for sample in samples_of(in_mask) {
                        let depth = self.sample_lane(triangle, &job.quad, lane, sample).position[2];
                        let recording = sink.record(q, lane).is_some();
                        let mut record = crate::output_merger::DepthStencilRecord::default();
                        let outcome = sink
                            .om
                            .depth_stencil_sample(
                                at.0,
                                at.1,
                                sample,
                                depth,
                                job.quad.front_facing,
                                recording.then_some(&mut record),
                            )
                            .map_err(|e| e.within(format!("{label} output merger")))?;
                        if outcome.passed() {
                            kept |= bit(sample);
                        } else {
                            failure = failure.or(Some(outcome));
                        }
                        if let Some(fragment) = sink.record(q, lane) {
                            fragment.early_depth_stencil.get_or_insert(record);
                            if let Some(entry) = sample_entry(fragment, sample) {
                                entry.depth = depth;
                                entry.depth_stencil = Some(record);
                                entry.outcome = tested_outcome(outcome);
                            }
                        }
                    }
                    if let Some(fragment) = sink.record(q, lane) {
                        fragment.early_sample_mask_covered = Some(in_mask != 0);
                    }
                    job.set_samples(lane, kept);
                    if kept == 0 {
                        let (count, outcome) = match failure {
                            None => (&mut stats.coverage_failed, FragmentOutcome::CoverageFailed),
                            Some(DepthStencilOutcome::StencilFailed) => {
                                (&mut stats.stencil_failed, FragmentOutcome::StencilFailed)
                            }
                            Some(_) => (&mut stats.depth_failed, FragmentOutcome::DepthFailed),
                        };
                        *count = count.saturating_add(1);
                        if let Some(fragment) = sink.record(q, lane) {
                            fragment.outcome = outcome;
                        }
                    }
                }
            }
        }
        let Some(pixel) = &self.pixel else {
            // no pixel program: the rasterized depth goes through the tests, and nothing is written to the targets
            for (q, job) in batch.iter().enumerate() {
                for lane in 0..4 {
                    let rasterized = job.samples_of(lane);
                    if rasterized == 0 || !sink.reaches(q, lane) {
                        continue;
                    }
                    let outputs = [[0u32; 4]; RENDER_TARGET_SLOTS];
                    let invocation = Invocation {
                        q,
                        lane,
                        quad: &job.quad,
                        rasterized,
                        outputs: &outputs,
                        depth: None,
                        mask: None,
                    };
                    self.merge(sink, triangle, &invocation, stats)?;
                }
            }
            return Ok(());
        };
        let exe = &pixel.executable;
        let passes: Vec<Option<u32>> = if self.sample_frequency {
            (0..self.pattern.count()).map(Some).collect()
        } else {
            vec![None]
        };
        let centroid = self.linkage.inputs.iter().any(|i| i.location == Location::Centroid);
        // the SampleMask is of the output samples: under a ForcedSampleCount neither the centroid nor the input
        // coverage sees it (3.5.6)
        let centroid_mask = if self.forced_output.is_some() {
            u32::MAX
        } else {
            sample_mask
        };
        for pass in passes {
            // the lanes' samples this pass runs for: every surviving sample, or sample s if it survives and is in
            // the SampleMask (3.5.4)
            let pass_samples = |job: &QuadJob, lane: usize| -> u32 {
                let samples = job.samples_of(lane);
                match pass {
                    None => samples,
                    Some(s) => samples & sample_mask & bit(s),
                }
            };
            let jobs: Vec<(usize, &QuadJob, u8)> = batch
                .iter()
                .enumerate()
                .map(|(q, job)| {
                    let lanes = (0..4).fold(0u8, |m, i| m | u8::from(pass_samples(job, i) != 0) << i);
                    (q, job, lanes)
                })
                .filter(|(_, _, lanes)| *lanes != 0)
                .collect();
            if jobs.is_empty() {
                continue;
            }
            let covered: Vec<u8> = jobs.iter().map(|(_, _, lanes)| *lanes).collect();
            machine
                .start_quads(exe, &covered)
                .map_err(|e| e.within(format!("{label} ps")))?;
            if !sink.uavs.is_empty() {
                machine.number_invocations();
            }
            let sample = pass.unwrap_or(0);
            for (slot, (_, job, _)) in jobs.iter().enumerate() {
                for (i, centre) in job.quad.lanes.iter().enumerate() {
                    let lane = slot.saturating_mul(4).saturating_add(i);
                    let coverage = job.coverage_of(i);
                    let at_centroid = centroid.then(|| match self.centroid_sample(coverage, centroid_mask) {
                        Some(s) => self.sample_lane(triangle, &job.quad, i, s),
                        None => *centre,
                    });
                    let at_sample = pass.map(|s| self.sample_lane(triangle, &job.quad, i, s));
                    for input in &self.linkage.inputs {
                        let values = match input.location {
                            Location::Centre => centre,
                            Location::Centroid => at_centroid.as_ref().unwrap_or(centre),
                            // at pixel frequency (one sample a pixel) sample 0 is the centre
                            Location::Sample => at_sample.as_ref().unwrap_or(centre),
                        };
                        let word = self.input_word(input.source, values, job.quad.front_facing, context, sample);
                        if let Some(slot) = machine
                            .input_mut(input.register, usize::from(input.component))
                            .and_then(|rows| rows.get_mut(lane))
                        {
                            *slot = word;
                        }
                    }
                    if self.linkage.coverage_input {
                        // 16.3.2: the primitive's coverage ANDed with the SampleMask, not the depth/stencil tests;
                        // under a ForcedSampleCount the coverage of the rasterizer's pattern alone (3.5.6)
                        machine.set_input_coverage(lane, coverage & centroid_mask);
                    }
                    if self.linkage.primitive_id_input {
                        machine.set_primitive_id(lane, context.id);
                    }
                }
            }
            // a history runs one quad, so its probe is in quad 0; its first invocation is the one recorded
            let probe_invoked = jobs
                .first()
                .is_some_and(|(q, _, lanes)| sink.probe.as_ref().is_some_and(|(p, _)| *q == 0 && lanes >> p & 1 == 1));
            let mut trace = None;
            if let Some((probe, fragment)) = sink.probe.as_mut()
                && probe_invoked
                && fragment.program.is_none()
            {
                let lane = *probe;
                fragment.inputs = self
                    .linkage
                    .inputs
                    .iter()
                    .map(|input| super::fragment::InputRecord {
                        register: input.register,
                        component: input.component,
                        semantic: input.semantic.clone(),
                        source: super::fragment::InputSource::of(input.source, &self.linkage),
                        word: machine
                            .input_mut(input.register, usize::from(input.component))
                            .and_then(|rows| rows.get(lane))
                            .copied()
                            .unwrap_or(0),
                    })
                    .collect();
                if sink.trace {
                    trace = Some(Trace::lane(lane));
                }
            }
            let pull = BatchPull {
                draw: self,
                triangle,
                jobs: &jobs,
                sample_mask: centroid_mask,
                context,
            };
            let mut bindings = self.ps.bindings();
            bindings.pull_model = Some(&pull);
            bindings.uavs = sink.uavs.iter().map(Option::as_ref).collect();
            machine
                .run(exe, &bindings, trace.as_mut())
                .map_err(|e| e.within(format!("{label} ps")))?;
            // the instructions the batch executed (a loop's every iteration), for every lane
            let lanes = jobs.len().saturating_mul(4);
            let work = (lanes as u64).saturating_mul(machine.steps().max(1));
            reporter.work(work)?;
            for (slot, (q, job, covered)) in jobs.iter().enumerate() {
                let q = *q;
                for i in 0..4 {
                    let lane = slot.saturating_mul(4).saturating_add(i);
                    if covered >> i & 1 == 0 {
                        stats.helper_invocations = stats.helper_invocations.saturating_add(1);
                        continue;
                    }
                    if !sink.reaches(q, i) {
                        continue;
                    }
                    stats.shaded = stats.shaded.saturating_add(1);
                    let mut outputs = outputs_of(machine, lane);
                    let written_outputs = outputs;
                    // 3.4.4: an alpha-antialiased line's coverage multiplies o0.a before the output merger
                    if let (Some(alpha), Some(o0)) = (job.quad.line_alpha, outputs.first_mut())
                        && let (Some(&a), Some(w)) = (alpha.get(i), o0.get_mut(3))
                    {
                        *w = (f32::from_bits(*w) * a).to_bits();
                    }
                    let discarded = machine.is_discarded(lane);
                    let depth = machine.depth(lane);
                    let mask = if exe.writes_coverage_mask() {
                        machine.coverage_mask(lane)
                    } else {
                        None
                    };
                    if let Some(fragment) = sink.record(q, i)
                        && fragment.program.is_none()
                    {
                        let mut written = [0u8; RENDER_TARGET_SLOTS];
                        for (register, w) in (0u32..).zip(written.iter_mut()) {
                            *w = machine.written(lane, register);
                        }
                        fragment.program = Some(ProgramRecord {
                            outputs: written_outputs,
                            written,
                            depth: depth.map(f32::from_bits),
                            coverage_mask: mask,
                            discarded,
                            trace: trace.take().map(Into::into),
                        });
                    }
                    if discarded {
                        stats.discarded = stats.discarded.saturating_add(1);
                        if let Some(fragment) = sink.record(q, i) {
                            set_outcome(fragment, FragmentOutcome::Discarded);
                        }
                        continue;
                    }
                    let invocation = Invocation {
                        q,
                        lane: i,
                        quad: &job.quad,
                        rasterized: pass_samples(job, i),
                        outputs: &outputs,
                        depth,
                        mask,
                    };
                    self.merge(sink, triangle, &invocation, stats)?;
                }
            }
        }
        Ok(())
    }

    /// The output merger for one invocation after the program: the coverage of its samples, then per covered sample
    /// the late depth-stencil test (unless it ran early) and the write.
    fn merge(
        &self,
        sink: &mut Sink<'_>,
        triangle: &Triangle,
        invocation: &Invocation<'_>,
        stats: &mut DrawStats,
    ) -> Result<()> {
        let label = self.label();
        let Invocation {
            q,
            lane: i,
            quad,
            rasterized,
            outputs,
            depth,
            mask,
        } = *invocation;
        let at = sink.at(quad.pixel(i));
        // 3.5.6: under a ForcedSampleCount a pixel the rasterizer covers anywhere covers every output sample
        let rasterized = match self.forced_output {
            Some(all) if rasterized != 0 => all,
            Some(_) => 0,
            None => rasterized,
        };
        let recording = sink.record(q, i).is_some();
        let mut coverage_record = crate::output_merger::CoverageRecord::default();
        let [o0, ..] = outputs;
        let covered = sink
            .om
            .coverage_mask(rasterized, mask, o0, recording.then_some(&mut coverage_record));
        if let Some(fragment) = sink.record(q, i) {
            fragment.coverage = Some(coverage_record);
        }
        if covered == 0 {
            stats.coverage_failed = stats.coverage_failed.saturating_add(1);
            if let Some(fragment) = sink.record(q, i) {
                set_outcome(fragment, FragmentOutcome::CoverageFailed);
            }
            return Ok(());
        }
        let late = !self.early || self.pixel.is_none();
        let declared = if self.pixel.is_some() {
            self.declared
        } else {
            [0; RENDER_TARGET_SLOTS]
        };
        let mut any_written = false;
        let mut failure = None;
        for sample in samples_of(covered) {
            if late {
                // 16.9.2-3: the program's depth replaces the interpolated one for every sample (16.12.1: not when the
                // test ran early)
                let interpolated = self.sample_lane(triangle, quad, i, sample).position[2];
                let incoming = match (self.depth_output, depth) {
                    (Some(DepthOutput::Any), Some(z)) => MergerDepth::Written(f32::from_bits(z)),
                    (Some(DepthOutput::GreaterEqual), Some(z)) => MergerDepth::GreaterEqual(f32::from_bits(z)),
                    (Some(DepthOutput::LessEqual), Some(z)) => MergerDepth::LessEqual(f32::from_bits(z)),
                    _ => MergerDepth::Interpolated,
                };
                let z = incoming.depth(interpolated);
                let mut record = crate::output_merger::DepthStencilRecord::default();
                let outcome = sink
                    .om
                    .depth_stencil_sample(
                        at.0,
                        at.1,
                        sample,
                        z,
                        quad.front_facing,
                        recording.then_some(&mut record),
                    )
                    .map_err(|e| e.within(format!("{label} output merger")))?;
                if let Some(fragment) = sink.record(q, i) {
                    fragment.depth_stencil.get_or_insert(record);
                    if let Some(entry) = sample_entry(fragment, sample) {
                        entry.depth = z;
                        entry.depth_stencil = Some(record);
                        entry.outcome = tested_outcome(outcome);
                    }
                }
                if !outcome.passed() {
                    failure = failure.or(Some(outcome));
                    continue;
                }
            }
            let mut write_record = crate::output_merger::WriteRecord::default();
            sink.om
                .write_sample(
                    at.0,
                    at.1,
                    sample,
                    outputs,
                    &declared,
                    recording.then_some(&mut write_record),
                )
                .map_err(|e| e.within(format!("{label} output merger")))?;
            any_written = true;
            if let Some(fragment) = sink.record(q, i) {
                fragment.write.get_or_insert(write_record);
                fragment.written_samples |= bit(sample);
                if let Some(entry) = sample_entry(fragment, sample) {
                    entry.write = Some(write_record);
                    entry.outcome = FragmentOutcome::Written;
                }
            }
        }
        if any_written {
            stats.written = stats.written.saturating_add(1);
            if let Some(fragment) = sink.record(q, i) {
                fragment.outcome = FragmentOutcome::Written;
            }
        } else if let Some(outcome) = failure {
            let (count, outcome) = match outcome {
                DepthStencilOutcome::StencilFailed => (&mut stats.stencil_failed, FragmentOutcome::StencilFailed),
                _ => (&mut stats.depth_failed, FragmentOutcome::DepthFailed),
            };
            *count = count.saturating_add(1);
            if let Some(fragment) = sink.record(q, i) {
                set_outcome(fragment, outcome);
            }
        }
        Ok(())
    }

    /// The render target and depth-stencil views' places (mip, slice) and element sizes, for one-pixel targets.
    pub(super) fn view_places(&self) -> ViewPlaces {
        let mut places = [None; RENDER_TARGET_SLOTS];
        for (place, view) in places.iter_mut().zip(&self.state.render_targets) {
            *place = view
                .as_ref()
                .map(|v| render_target_place(v.desc.dimension, v.desc.mip_slice, v.desc.first_array_slice));
        }
        let depth = self
            .state
            .depth_stencil_view
            .as_ref()
            .map(|v| depth_stencil_place(v.desc.dimension, v.desc.mip_slice, v.desc.first_array_slice));
        (places, depth)
    }
}

/// Runs `state` with a fresh cache and default options: what a one-off draw needs.
pub fn run_draw(
    state: &DrawState,
    cache: &mut ShaderCache,
    progress: Option<ProgressCallback<'_>>,
) -> Result<DrawOutput> {
    PreparedDraw::new(state, cache, DrawOptions::default())?.run(progress)
}
