//! The data the viewer exchanges with the library, the reference for both sides: `www/src/protocol.ts` re-exports
//! the TypeScript declarations that ts-rs renders from these types (`www/src/protocol-types.generated.ts`; the test
//! in `types_ts.rs` fails when that file and these types drift, and `IRIDIA_UPDATE_PROTOCOL=1 cargo test --lib
//! viewer_api` rewrites it). Serialized with serde: snake_case fields, internally tagged unions, `Option` as
//! `null`, integers as JavaScript numbers, image bytes as a byte buffer (a `Uint8Array` in the browser).

use serde::{Deserialize, Serialize};

use crate::Error;
pub use crate::error::ErrorKind;

/// `ErrorInfo`: what failed, where and why, as [`crate::Error`] says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorInfo {
    /// What sort of failure it is (what the page matches on).
    pub kind: ErrorKind,
    /// The kind of thing that failed.
    pub what: String,
    /// Where: a byte offset, a manifest path (`draws[3].vs`), an instruction (`ps instruction 12`); left out when
    /// the error names no place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub at: Option<String>,
    /// Why, in a sentence; left out when empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub detail: Option<String>,
}

impl From<&Error> for ErrorInfo {
    fn from(error: &Error) -> ErrorInfo {
        let text = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        ErrorInfo {
            kind: error.kind,
            what: error.what.clone(),
            at: text(&error.at),
            detail: text(&error.detail),
        }
    }
}

/// `TargetId`: render-target slot 0–7, or the depth or stencil plane of the depth-stencil view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TargetId {
    /// Render target slot 0.
    Rt0,
    /// Render target slot 1.
    Rt1,
    /// Render target slot 2.
    Rt2,
    /// Render target slot 3.
    Rt3,
    /// Render target slot 4.
    Rt4,
    /// Render target slot 5.
    Rt5,
    /// Render target slot 6.
    Rt6,
    /// Render target slot 7.
    Rt7,
    /// The depth plane of the depth-stencil view.
    Depth,
    /// The stencil plane of the depth-stencil view.
    Stencil,
}

impl TargetId {
    /// Every target, in the order the viewer lists them.
    pub const ALL: [TargetId; 10] = [
        TargetId::Rt0,
        TargetId::Rt1,
        TargetId::Rt2,
        TargetId::Rt3,
        TargetId::Rt4,
        TargetId::Rt5,
        TargetId::Rt6,
        TargetId::Rt7,
        TargetId::Depth,
        TargetId::Stencil,
    ];

    /// The render target of slot `slot` (0 to 7).
    pub fn render_target(slot: u32) -> Option<TargetId> {
        TargetId::ALL
            .get(usize::try_from(slot).ok()?)
            .copied()
            .filter(|t| t.slot().is_some())
    }

    /// The render target slot, for `rt0` to `rt7`.
    pub fn slot(self) -> Option<u32> {
        match self {
            TargetId::Rt0 => Some(0),
            TargetId::Rt1 => Some(1),
            TargetId::Rt2 => Some(2),
            TargetId::Rt3 => Some(3),
            TargetId::Rt4 => Some(4),
            TargetId::Rt5 => Some(5),
            TargetId::Rt6 => Some(6),
            TargetId::Rt7 => Some(7),
            TargetId::Depth | TargetId::Stencil => None,
        }
    }

    /// Its name in the protocol: `rt0` .. `rt7`, `depth`, `stencil`.
    pub fn name(self) -> &'static str {
        match self {
            TargetId::Rt0 => "rt0",
            TargetId::Rt1 => "rt1",
            TargetId::Rt2 => "rt2",
            TargetId::Rt3 => "rt3",
            TargetId::Rt4 => "rt4",
            TargetId::Rt5 => "rt5",
            TargetId::Rt6 => "rt6",
            TargetId::Rt7 => "rt7",
            TargetId::Depth => "depth",
            TargetId::Stencil => "stencil",
        }
    }

    /// The target `name` names, or an error listing the names.
    pub fn parse(name: &str) -> crate::Result<TargetId> {
        TargetId::ALL.iter().copied().find(|t| t.name() == name).ok_or_else(|| {
            Error::new(
                "request",
                format!("{name:?} is not a target (rt0 to rt7, depth or stencil)"),
            )
        })
    }
}

/// `Stage`: the two program stages a capture holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The vertex program.
    Vs,
    /// The pixel program.
    Ps,
    /// A dispatch's compute program.
    Cs,
}

impl Stage {
    /// The stage `name` (`vs` or `ps`) names.
    pub fn parse(name: &str) -> crate::Result<Stage> {
        match name {
            "vs" => Ok(Stage::Vs),
            "ps" => Ok(Stage::Ps),
            "cs" => Ok(Stage::Cs),
            _ => Err(Error::new("request", format!("{name:?} is not a stage (vs, ps or cs)"))),
        }
    }
}

/// `CaptureSummary` without the worker's `capture` number: what opening learns from the directory and manifest.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CaptureSummary {
    /// The manifest's format version, "major.minor".
    pub format_version: String,
    /// The program that wrote the capture.
    pub generator: Option<String>,
    /// The application captured.
    pub application: Option<String>,
    /// How many draws.
    pub draw_count: usize,
    /// The archive's size in bytes.
    pub size_bytes: u64,
    /// The limits each draw is replayed under (the defaults until `set_limits`).
    pub limits: Limits,
    /// The variants each draw is replayed under (none, the spec's rules, until `set_variants`), by name.
    pub variants: Vec<String>,
    /// Every variant the engine knows, in the order explanations list them.
    pub available_variants: Vec<VariantInfo>,
    /// Draws of the frame the recorder could not record (format 1.1), in the frame's order.
    pub unrecorded_draws: Vec<UnrecordedDrawInfo>,
    /// The frame's resolves (format 1.2), in the frame's order, each resolved again when the capture was opened.
    pub resolves: Vec<ResolveInfo>,
    /// The frame's dispatches (format 1.3), in the frame's order, each run again when the capture was opened.
    pub dispatches: Vec<DispatchInfo>,
    /// The frame's outline (format 1.5 events; before 1.5 its draws, resolves and dispatches only), in pre-order:
    /// the rows the viewer's event list shows (`capture::outline`).
    pub outline: Vec<OutlineRowInfo>,
    /// Whether the frame has markers (any group or point marker in `outline`).
    pub has_markers: bool,
    /// Why the capture's events are not used, if they did not check out (the outline then has none of them).
    pub events_problem: Option<String>,
}

/// `OutlineRowKind`: what a row of the frame's outline is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum OutlineRowKind {
    /// A marker region: the rows after it up to `end` are inside it.
    Group,
    /// Draw `index`.
    Draw,
    /// Resolve `index`.
    Resolve,
    /// Dispatch `index`.
    Dispatch,
    /// A point marker.
    Marker,
    /// A clear, copy, update or other call (its kind in `call`).
    Call,
}

/// `OutlineRowInfo`: one row of the frame's outline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OutlineRowInfo {
    /// How many groups it is in.
    pub depth: u32,
    /// What it is.
    pub kind: OutlineRowKind,
    /// The draw's, resolve's or dispatch's index in its list; for a group, the index of the first row after it;
    /// else 0.
    pub index: usize,
    /// A call's event kind (`clear_render_target_view`, `copy_resource`, …), else `null`.
    pub call: Option<String>,
    /// The marker's or call's text (empty for draws, resolves and dispatches, which their lists name).
    pub text: String,
}

/// `DispatchInfo`: a `Dispatch` of the frame, listed where it came, with its result.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DispatchInfo {
    /// Its position in the capture's dispatches.
    pub index: usize,
    /// How many draws came before it: it is listed before draw `before_draw`.
    pub before_draw: usize,
    /// Its call and views (`Dispatch(8, 8, 1) [u0 R32_UINT buffer]`).
    pub label: String,
    /// The dispatch run again from its recorded views, each view compared with the recorded one (`compared_pixels`
    /// and `differing_pixels` count elements or texels over every view; `not_replayed` when nothing after was
    /// recorded, `error` when it cannot run, e.g. past the work limit).
    pub status: DrawStatus,
    /// Elements of its views whose value depends on the order the threads ran in (18.6.6), and views whose counter
    /// unordered threads used: a difference there may be the GPU's order, not an error.
    pub order_dependent: u64,
}

/// `DispatchView`: one view of a replayed dispatch, as the target view shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DispatchView {
    /// The slot, `u#`.
    pub slot: u32,
    /// `typed`, `raw` or `structured`.
    pub access: String,
    /// The format each image pixel is read in (a raw or structured view's words as `R32_UINT`).
    pub format: String,
    /// The image's width.
    pub width: u32,
    /// The image's height.
    pub height: u32,
    /// How the window is laid out in the image, for a person (a buffer's elements or words 64 a row).
    pub layout: String,
    /// Whether the capture records the window after the dispatch.
    pub recorded: bool,
    /// What `compared` and `differing` count: `texel` or `element`.
    pub unit: String,
    /// Texels or elements compared.
    pub compared: u64,
    /// Texels or elements that differ.
    pub differing: u64,
    /// Whether the view matches; null when nothing was recorded.
    pub matches: Option<bool>,
    /// Elements whose replayed value depends on the threads' order (18.6.6).
    pub order_dependent: u64,
    /// Whether threads the spec does not order shared the view's hidden counter.
    pub counter_unordered: bool,
    /// The hidden counter after the dispatch as the GPU left it, when recorded.
    pub recorded_counter: Option<u32>,
    /// The hidden counter after the replay (append and counter views).
    pub replayed_counter: Option<u32>,
}

/// `DispatchResult`: a dispatch replayed on request, its status and its views.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DispatchResult {
    /// The list's entry, with the replay's status.
    pub dispatch: DispatchInfo,
    /// Thread groups in X, Y and Z.
    pub groups: [u32; 3],
    /// Threads run.
    pub threads: u64,
    /// Its recorded views, by slot.
    pub views: Vec<DispatchView>,
}

/// `ProgramEditResult`: what became of a program edited in the viewer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProgramEditResult {
    /// Whether the listing assembled and is now the draw's program (its next replay runs it).
    pub accepted: bool,
    /// The listing's line the assembler stopped at (from 1), when it did not assemble.
    pub line: Option<u32>,
    /// Why it did not assemble.
    pub error: Option<String>,
    /// The draw's status with its recorded programs (from before its first edit), when it was replayed then.
    pub original: Option<DrawStatus>,
}

/// `DispatchThread`: a thread of a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DispatchThread {
    /// `SV_GroupID`.
    pub group: [u32; 3],
    /// `SV_GroupThreadID`.
    pub thread_in_group: [u32; 3],
    /// `SV_DispatchThreadID`.
    pub thread: [u32; 3],
}

/// `ElementWriteInfo`: one write that reached an inspected element, in the replay's order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ElementWriteInfo {
    /// The thread that wrote.
    pub thread: DispatchThread,
    /// The instruction (the `DisassemblyLine.index`).
    pub instruction: u32,
    /// Its listing line.
    pub line: String,
    /// `store`, or `atomic` and the operation.
    pub operation: String,
    /// The element before the write.
    pub before: TexelValue,
    /// The element after it.
    pub after: TexelValue,
}

/// `WriterTraceInfo`: a writer's trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WriterTraceInfo {
    /// The thread.
    pub thread: DispatchThread,
    /// What it executed.
    pub trace: ProgramTrace,
}

/// `DispatchElement`: one element of a dispatch's view: its values and the threads that wrote it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DispatchElement {
    /// The dispatch.
    pub dispatch: usize,
    /// The view's slot.
    pub slot: u32,
    /// The column clicked in the view's image.
    pub x: u32,
    /// The row clicked.
    pub y: u32,
    /// The element as the program addresses it, for a person (`texel (3, 1)`, `structure 2, byte offset 4`, `the
    /// hidden counter`).
    pub element: String,
    /// Whether this is the view's hidden counter (its writes every `imm_atomic_alloc` and `imm_atomic_consume`)
    /// rather than an element.
    pub counter: bool,
    /// Where it starts in the view's window, in bytes.
    pub byte_offset: u64,
    /// The format its values are read in.
    pub format: String,
    /// Before the dispatch.
    pub before: TexelValue,
    /// As the GPU left it, when recorded.
    pub recorded: Option<TexelValue>,
    /// As the replay left it.
    pub replayed: TexelValue,
    /// Whether recorded and replayed bytes are equal; null when nothing was recorded.
    pub matches: Option<bool>,
    /// Whether the replayed value depends on the threads' order (18.6.6).
    pub order_dependent: bool,
    /// Whether unordered threads shared the view's counter.
    pub counter_unordered: bool,
    /// The writes that reached it, in order (at most 256).
    pub writes: Vec<ElementWriteInfo>,
    /// Writes past those kept.
    pub writes_not_kept: u64,
    /// Distinct writer threads.
    pub writers: usize,
    /// The first 16 writers' traces.
    pub traces: Vec<WriterTraceInfo>,
    /// Writers not traced.
    pub writers_not_traced: usize,
}

/// `ResolveInfo`: a `ResolveSubresource` of the frame, listed where it came, with its result.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ResolveInfo {
    /// Its position in the capture's resolves.
    pub index: usize,
    /// How many draws came before it: it is listed before draw `before_draw`.
    pub before_draw: usize,
    /// Its call and what it resolves (`ResolveSubresource(dst, 0, src, 0, R8G8B8A8_UNORM) [R8G8B8A8_UNORM 64x64 4x]`).
    pub label: String,
    /// The resolve again from the recorded samples against the recorded destination, at the format's default
    /// tolerance (`not_replayed` when no destination after was recorded, `error` when it cannot be read).
    pub status: DrawStatus,
}

/// `UnrecordedDrawInfo`: a draw of the frame that is not in the capture, listed where it came and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UnrecordedDrawInfo {
    /// How many recorded draws came before it: it is listed before draw `before_draw`.
    pub before_draw: usize,
    /// Its name or call, with its targets (`DrawIndexed(36, 0, 0) [rt0 R8G8B8A8_UNORM 1280x720 4x]`).
    pub label: String,
    /// Why it was not recorded.
    pub reason: String,
}

/// `ProgramInfo`: one program a draw binds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProgramInfo {
    /// Its stage.
    pub stage: Stage,
    /// Its shader model, e.g. `ps_5_0`.
    pub model: String,
    /// Lowercase hex SHA-256 of its DXBC bytes.
    pub sha256: String,
    /// Instructions it executes (declarations not counted).
    pub instruction_count: usize,
}

/// `ComponentKind`: what a target's channels hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ComponentKind {
    /// Unsigned normalized (sRGB included).
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Floating point.
    Float,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// Depth.
    Depth,
    /// Stencil.
    Stencil,
}

/// `TargetInfo`: one output image of a draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TargetInfo {
    /// Which.
    pub target: TargetId,
    /// The view's DXGI format without its prefix.
    pub format: String,
    /// What its channels hold.
    pub kind: ComponentKind,
    /// How many channels (1 for depth and stencil).
    pub channels: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels: of a multisampled target, its sample planes stacked, sample 0's on top (each `height /
    /// samples` rows).
    pub height: u32,
    /// Samples a pixel (1 without multisampling).
    pub samples: u32,
}

/// `DrawStatus`: how a draw stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum DrawStatus {
    /// Not replayed yet.
    NotReplayed,
    /// Replayed, and every compared pixel of every target matches.
    Matches {
        /// Pixels compared, over the targets.
        compared_pixels: u64,
    },
    /// Replayed, and some pixels differ.
    Differs {
        /// Pixels that differ beyond what the spec allows, over the targets.
        differing_pixels: u64,
        /// Pixels that differ where the spec allows more than one result.
        ambiguous_pixels: u64,
        /// Pixels compared, over the targets.
        compared_pixels: u64,
    },
    /// The draw could not be read or replayed.
    Error {
        /// Why.
        error: ErrorInfo,
    },
}

/// `DrawInfo`: one draw, as the event browser lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DrawInfo {
    /// Its place in the capture.
    pub index: usize,
    /// Its marker or debug name, or its call.
    pub name: String,
    /// The call it came from.
    pub api_call: Option<String>,
    /// The vertex program.
    pub vs: Option<ProgramInfo>,
    /// The pixel program.
    pub ps: Option<ProgramInfo>,
    /// Its output images.
    pub targets: Vec<TargetInfo>,
    /// How it stands.
    pub status: DrawStatus,
}

/// `Progress & { finished }`: what one step of a replay reached.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StepProgress {
    /// What is being counted: "vertices", "primitives", or "primitive N of M, rows" (the rows of the one under way,
    /// for a draw of a few primitives).
    pub stage: String,
    /// How many are done.
    pub done: u64,
    /// How many there are.
    pub total: u64,
    /// Whether the replay is finished (its result kept; `replay_finish` gives its summary).
    pub finished: bool,
}

/// `ReplaySummary`: what replaying a draw produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReplaySummary {
    /// The draw.
    pub draw: usize,
    /// Primitives drawn, over the instances.
    pub primitives: u64,
    /// Fragments: covered pixels the rasterizer produced.
    pub fragments: u64,
    /// Fragments whose pixel program ran to completion (not discarded).
    pub shaded_fragments: u64,
    /// The comparison's verdict.
    pub status: DrawStatus,
}

/// `ChannelStats`: the difference replayed − recorded in one channel over the compared pixels.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChannelStats {
    /// "r", "g", "b", "a", "depth" or "stencil".
    pub channel: String,
    /// The largest absolute difference.
    pub max_abs_difference: f64,
    /// The mean absolute difference.
    pub mean_abs_difference: f64,
    /// The largest difference in ULPs of the format.
    pub max_ulps: Option<u64>,
}

/// `PixelCoord`: a pixel, in texels from the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PixelCoord {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

/// `PixelBounds`: a rectangle of pixels, `x0 <= x < x1`, `y0 <= y < y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PixelBounds {
    /// The first column.
    pub x0: u32,
    /// The first row.
    pub y0: u32,
    /// One past the last column.
    pub x1: u32,
    /// One past the last row.
    pub y1: u32,
}

/// `TargetComparison`: one target's replayed image against the recorded one.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TargetComparison {
    /// Which target.
    pub target: TargetId,
    /// Pixels compared (0 when nothing was recorded after the draw).
    pub compared_pixels: u64,
    /// Pixels that differ beyond what the spec allows.
    pub differing_pixels: u64,
    /// Pixels that differ where coverage depends on rounding.
    pub ambiguous_pixels: u64,
    /// Per channel statistics.
    pub channels: Vec<ChannelStats>,
    /// The first differing pixel in row order.
    pub first_difference: Option<PixelCoord>,
    /// For a multisampled target, the differing (not ambiguous) pixels of each sample plane, sample 0's first;
    /// empty for one sample a pixel.
    pub sample_differing_pixels: Vec<u64>,
    /// For a multisampled colour target of a resolvable format, the differing pixels of the resolved images (each
    /// resolved by the box average `ResolveSubresource` gives the standard patterns, 19.2.4); else `None`.
    pub resolved_differing_pixels: Option<u64>,
    /// How visible the difference is: the LDR-FLIP error's figures ([`crate::compare::flip`]) for a render target
    /// with a recorded after; `None` otherwise (depth and stencil, nothing recorded, past FLIP's size limit).
    pub perceptual: Option<PerceptualFigures>,
    /// The draw's bounding box on this target: the pixels the replayed primitives cover (in the target and the
    /// scissor; before clip distances, the depth-stencil test or anything else that keeps a pixel unwritten), grown to
    /// take in every pixel whose value the recording changed from the value before the draw (where the GPU drew
    /// outside them; of a multisampled target, any sample's); `None` when the draw covers and changed none.
    pub bounds: Option<PixelBounds>,
}

/// `PerceptualFigures`: a target's LDR-FLIP error map pooled: its mean, median, 95th and 99th percentiles and
/// largest value, each from 0 (invisible) to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PerceptualFigures {
    /// The mean error.
    pub mean: f32,
    /// The median.
    pub p50: f32,
    /// The 95th percentile.
    pub p95: f32,
    /// The 99th percentile.
    pub p99: f32,
    /// The largest error.
    pub max: f32,
}

impl From<crate::compare::flip::PerceptualError> for PerceptualFigures {
    fn from(e: crate::compare::flip::PerceptualError) -> Self {
        PerceptualFigures {
            mean: e.mean,
            p50: e.p50,
            p95: e.p95,
            p99: e.p99,
            max: e.max,
        }
    }
}

/// `CompareResult`: a replayed draw's comparison, target by target.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CompareResult {
    /// The draw.
    pub draw: usize,
    /// Per target.
    pub targets: Vec<TargetComparison>,
    /// The verdict over the targets.
    pub status: DrawStatus,
}

/// `ImageKind`: which image of a target to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ImageKind {
    /// The replay's result.
    Replayed,
    /// What the GPU wrote.
    Recorded,
    /// The target before the draw.
    Before,
    /// The difference mask.
    Difference,
    /// The error heatmap.
    Heatmap,
    /// The perceptual error map: LDR-FLIP of the replayed picture against the recorded one
    /// ([`crate::compare::flip`]), through the magma colour map (render targets only).
    Perceptual,
}

impl ImageKind {
    /// The kind `name` names.
    pub fn parse(name: &str) -> crate::Result<ImageKind> {
        match name {
            "replayed" => Ok(ImageKind::Replayed),
            "recorded" => Ok(ImageKind::Recorded),
            "before" => Ok(ImageKind::Before),
            "difference" => Ok(ImageKind::Difference),
            "heatmap" => Ok(ImageKind::Heatmap),
            "perceptual" => Ok(ImageKind::Perceptual),
            _ => Err(Error::new(
                "request",
                format!("{name:?} is not an image (replayed, recorded, before, difference or heatmap)"),
            )),
        }
    }
}

/// The channels a display shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ShownChannels {
    /// Red.
    pub r: bool,
    /// Green.
    pub g: bool,
    /// Blue.
    pub b: bool,
    /// Alpha.
    pub a: bool,
}

/// A value range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ValueRange {
    /// The value shown black.
    pub min: f64,
    /// The value shown white.
    pub max: f64,
}

/// `Limits`: what one draw may cost in the viewer (the library's budget, as `iridia replay --max-memory` and
/// `--max-work` set it); past either, the draw fails with an error of kind `budget` naming the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Limits {
    /// The most bytes one draw's blobs may inflate to ([`crate::capture::DEFAULT_DRAW_MEMORY`]).
    pub max_memory: u64,
    /// The most units of work one draw may do, a lane running one instruction being one
    /// ([`crate::draw::DEFAULT_WORK_LIMIT`]).
    pub max_work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_memory: crate::capture::DEFAULT_DRAW_MEMORY,
            max_work: crate::draw::DEFAULT_WORK_LIMIT,
        }
    }
}

/// `DisplayOptions`: how to turn a target's values into display colours.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DisplayOptions {
    /// The channels shown; one alone shows as grey.
    pub channels: ShownChannels,
    /// The range mapped to black..white for float, depth and integer targets; `None` takes the image's range.
    pub range: Option<ValueRange>,
    /// Paint NaN magenta and infinities cyan.
    pub highlight_non_finite: bool,
}

impl Default for DisplayOptions {
    fn default() -> Self {
        DisplayOptions {
            channels: ShownChannels {
                r: true,
                g: true,
                b: true,
                a: false,
            },
            range: None,
            highlight_non_finite: true,
        }
    }
}

/// `RenderedImage`: a target's image as 8-bit RGBA for display.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RenderedImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// width × height × 4 bytes, rows from the top.
    #[serde(with = "serde_bytes_compat")]
    #[cfg_attr(test, ts(type = "Uint8Array"))]
    pub rgba: Vec<u8>,
    /// The finite range of the shown channels.
    pub value_range: ValueRange,
    /// Texels holding NaN or an infinity in a shown channel.
    pub non_finite_texels: u64,
}

/// Serializes a byte vector as bytes (serde's `serialize_bytes`), which serde-wasm-bindgen turns into a
/// `Uint8Array` rather than an array of numbers.
mod serde_bytes_compat {
    use serde::Serializer;

    /// `bytes` as one byte buffer.
    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(bytes)
    }
}

/// `ChannelValue`: one channel of a texel.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChannelValue {
    /// "r", "g", "b", "a", "depth" or "stencil".
    pub channel: String,
    /// The value the format's conversion gives.
    pub value: f64,
    /// The channel's stored bits.
    pub bits: u32,
    /// The value for a person.
    pub text: String,
}

/// `TexelValue`: a texel of one image.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TexelValue {
    /// Its channels.
    pub channels: Vec<ChannelValue>,
    /// Its bytes as stored, lowercase hex.
    pub hex: String,
}

/// `ChannelDifference`: replayed − recorded in one channel.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChannelDifference {
    /// The channel.
    pub channel: String,
    /// The difference.
    pub difference: f64,
    /// The distance in ULPs, when it means something.
    pub ulps: Option<u64>,
    /// For a person.
    pub text: String,
}

/// `PixelVerdictKind`: how a pixel compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PixelVerdictKind {
    /// The replayed value is the recorded one (within tolerance).
    Matches,
    /// It is not.
    Differs,
    /// It is not, but the pixel's coverage depends on rounding.
    Ambiguous,
    /// No fragment of the draw reached it, and it matches.
    NotCovered,
    /// The draw has not been replayed.
    NotReplayed,
    /// The capture does not record the target after the draw: nothing to compare with.
    NotRecorded,
}

/// `TexelReadout`: a texel of a target in each image.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TexelReadout {
    /// Which target.
    pub target: TargetId,
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// The target's format.
    pub format: String,
    /// What the GPU wrote; `None` when the capture does not record the target after the draw.
    pub recorded: Option<TexelValue>,
    /// The replay's value, when replayed.
    pub replayed: Option<TexelValue>,
    /// Before the draw.
    pub before: TexelValue,
    /// Replayed − recorded per channel (empty when not replayed or nothing was recorded).
    pub difference: Vec<ChannelDifference>,
    /// The verdict.
    pub verdict: PixelVerdictKind,
}

/// `RegisterValue`: a named register value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RegisterValue {
    /// The register with its components, e.g. `v1.xy`.
    pub register: String,
    /// The semantic, for signature registers.
    pub semantic: Option<String>,
    /// Each component's bits read as a float.
    pub values: Vec<f64>,
    /// Each component's bits.
    pub bits: Vec<u32>,
    /// The components for a person.
    pub text: String,
}

/// `VertexRecord`: a vertex of a fragment's primitive.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct VertexRecord {
    /// `SV_VertexID`.
    pub vertex_id: u32,
    /// `SV_InstanceID`.
    pub instance_id: u32,
    /// The vertex program's inputs.
    pub inputs: Vec<RegisterValue>,
    /// The vertex program's outputs.
    pub outputs: Vec<RegisterValue>,
    /// After perspective division and the viewport: x, y in pixels, z in 0..1.
    pub window_position: [f64; 3],
}

/// `DepthResult`: the depth test for a fragment.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DepthResult {
    /// The comparison, e.g. "LESS".
    pub func: String,
    /// The fragment's depth after clamping and conversion to the buffer's precision.
    pub fragment_depth: f64,
    /// The depth stored before.
    pub stored_depth: f64,
    /// Whether it passed.
    pub passed: bool,
    /// Whether depth was written.
    pub written: bool,
}

/// `StencilResult`: the stencil test for a fragment.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StencilResult {
    /// The comparison.
    pub func: String,
    /// The reference value.
    pub reference: u32,
    /// The value stored before.
    pub stored: u32,
    /// The read mask.
    pub read_mask: u32,
    /// Whether it passed.
    pub passed: bool,
    /// The value after the operation.
    pub result: u32,
}

/// `BlendResult`: the output merger at one render target.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BlendResult {
    /// Which target.
    pub target: TargetId,
    /// Whether blending (or a logic operation) was on.
    pub enabled: bool,
    /// The program's output, as floats.
    pub source: Vec<f64>,
    /// The target's value before.
    pub destination: Vec<f64>,
    /// The equation, e.g. `SRC_ALPHA * src + INV_SRC_ALPHA * dest`.
    pub equation: String,
    /// The blended value before the format's conversion.
    pub result: Vec<f64>,
    /// What was stored.
    pub stored: TexelValue,
}

/// `FragmentOutcome`: what became of a fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FragmentOutcome {
    /// It reached the targets.
    Written,
    /// The pixel program discarded it.
    Discarded,
    /// The depth test failed.
    DepthFailed,
    /// The stencil test failed.
    StencilFailed,
    /// The sample mask, `oMask` or alpha-to-coverage left its sample uncovered.
    SampleMasked,
    /// A clip distance below 0 removed it.
    Clipped,
}

/// `SampleResult`: what the output merger did with one sample of a fragment (3.5.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SampleResult {
    /// The sample's index.
    pub sample: u32,
    /// The depth test at the sample.
    pub depth: Option<DepthResult>,
    /// The stencil test at the sample.
    pub stencil: Option<StencilResult>,
    /// What was stored at the sample, per render target written.
    pub stored: Vec<TexelValue>,
    /// What became of the sample.
    pub outcome: FragmentOutcome,
}

/// `FragmentRecord`: one fragment that reached the pixel.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FragmentRecord {
    /// Its place among the pixel's fragments, from 0.
    pub order: usize,
    /// `SV_PrimitiveID`.
    pub primitive_id: u32,
    /// `SV_InstanceID`.
    pub instance_id: u32,
    /// Whether its triangle faces front.
    pub front_facing: bool,
    /// Its triangle's vertices, provoking vertex first.
    pub vertices: Vec<VertexRecord>,
    /// Perspective-correct weights of the vertices at the pixel centre.
    pub barycentrics: Vec<f64>,
    /// The pixel program's inputs.
    pub pixel_inputs: Vec<RegisterValue>,
    /// The pixel program's outputs (empty when it discarded or did not run).
    pub pixel_outputs: Vec<RegisterValue>,
    /// Whether the program discarded it.
    pub discarded: bool,
    /// The depth test.
    pub depth: Option<DepthResult>,
    /// The stencil test.
    pub stencil: Option<StencilResult>,
    /// The output merger per render target written.
    pub blend: Vec<BlendResult>,
    /// What became of it (of the inspected sample, for a multisampled target).
    pub outcome: FragmentOutcome,
    /// The samples its primitive covers at the pixel (bit `s` is sample `s`).
    pub covered_samples: u32,
    /// The samples written: with one invocation a pixel, every one its one shading fed.
    pub written_samples: u32,
    /// Per sample that reached the depth-stencil tests or the targets, what the output merger did; empty with one
    /// sample a pixel (the fields above say it).
    pub samples: Vec<SampleResult>,
}

/// `PixelHistory`: why a pixel has its value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PixelHistory {
    /// The target asked about.
    pub target: TargetId,
    /// Column.
    pub x: u32,
    /// Row (in the sample's plane).
    pub y: u32,
    /// The sample the verdict is about (0 with one sample a pixel).
    pub sample: u32,
    /// Samples a pixel of the target.
    pub samples: u32,
    /// The verdict.
    pub verdict: PixelVerdictKind,
    /// The verdict's reason, one line: [`crate::inspect::Verdict::text`] of the library's decision procedure.
    pub verdict_text: String,
    /// When the draw was explained ([`ExplainResult`]) and the pixel differs under the viewer's variants but matches
    /// under the best set: one line naming that set.
    pub explained_by: Option<String>,
    /// Every fragment, in order.
    pub fragments: Vec<FragmentRecord>,
}

/// `VariantInfo`: an implementation choice a draw can be replayed under ([`crate::draw::variants`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct VariantInfo {
    /// Its name (`unsnapped-interpolation`).
    pub name: String,
    /// What it does, in a sentence.
    pub description: String,
    /// The pipeline stage it changes.
    pub stage: String,
}

impl VariantInfo {
    /// A variant as the viewer lists it.
    pub fn of(variant: crate::draw::Variant) -> VariantInfo {
        VariantInfo {
            name: variant.name().to_owned(),
            description: variant.description().to_owned(),
            stage: variant.stage().to_owned(),
        }
    }
}

/// `ExplainRow`: a draw replayed under one variant alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExplainRow {
    /// The variant.
    pub variant: VariantInfo,
    /// Pixels of the explained target outside the tolerance under it.
    pub differing_pixels: u64,
    /// The largest error under it, in ULPs.
    pub max_ulp: u64,
}

/// `ExplainResult`: a draw replayed under each variant and every combination, against its recorded target
/// ([`crate::replay::explain`], as `iridia explain` prints it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExplainResult {
    /// The draw.
    pub draw: usize,
    /// The explained target (the compared one with the most differing pixels).
    pub target: TargetId,
    /// Pixels outside the tolerance under the spec's rules.
    pub baseline_differing_pixels: u64,
    /// The largest error under the spec's rules, in ULPs.
    pub baseline_max_ulp: u64,
    /// Each variant alone.
    pub rows: Vec<ExplainRow>,
    /// The set that leaves the fewest differing pixels (empty: none does better).
    pub best: Vec<String>,
    /// Pixels outside the tolerance under it.
    pub best_differing_pixels: u64,
    /// The largest error under it, in ULPs.
    pub best_max_ulp: u64,
    /// One line: what reproduces the recorded target, or how many pixels stay unexplained.
    pub verdict: String,
}

/// `DisassemblyLine`: one instruction of a listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DisassemblyLine {
    /// Its place in the program, declarations counted.
    pub index: usize,
    /// Its opcode token's offset in DWORDs.
    pub offset_dwords: u32,
    /// Nesting depth.
    pub indent: usize,
    /// The text.
    pub text: String,
    /// Whether it is a declaration.
    pub declaration: bool,
}

/// `Disassembly`: a program's listing.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Disassembly {
    /// The program.
    pub program: ProgramInfo,
    /// Its instructions.
    pub lines: Vec<DisassemblyLine>,
}

/// `TraceStep`: one executed instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TraceStep {
    /// Its place in execution order.
    pub step: usize,
    /// The `DisassemblyLine.index` executed.
    pub line: u32,
    /// The operands it read, with their values.
    pub reads: Vec<RegisterValue>,
    /// The registers it wrote, with their values after.
    pub writes: Vec<RegisterValue>,
}

/// `ProgramTrace`: a program run for one invocation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProgramTrace {
    /// The listing.
    pub disassembly: Disassembly,
    /// The executed instructions.
    pub steps: Vec<TraceStep>,
    /// Steps not kept past the trace limit (a long loop's middle iterations), if any.
    pub omitted: Option<OmittedSteps>,
}

/// `OmittedSteps`: where a trace's kept steps leave a gap, and how many steps it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OmittedSteps {
    /// How many of `ProgramTrace.steps` come before the gap (the first executed); the rest are the last.
    pub after: usize,
    /// Steps executed in the gap and not kept.
    pub count: u64,
}
