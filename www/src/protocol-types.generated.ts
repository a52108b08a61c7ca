// Generated from src/viewer_api/types.rs by ts-rs (the test in src/viewer_api/types_ts.rs): do not edit.
// `IRIDIA_UPDATE_PROTOCOL=1 cargo test --lib viewer_api` rewrites it; www/src/protocol.ts re-exports these types.

/**
 * What sort of failure an [`Error`] is: what the CLI and the viewer match on (never the `what` text).
 */
export type ErrorKind = "invalid" | "unsupported" | "request" | "budget" | "cancelled" | "not_replayed";

/**
 * `ErrorInfo`: what failed, where and why, as [`crate::Error`] says it.
 */
export type ErrorInfo = {
/**
 * What sort of failure it is (what the page matches on).
 */
kind: ErrorKind,
/**
 * The kind of thing that failed.
 */
what: string,
/**
 * Where: a byte offset, a manifest path (`draws[3].vs`), an instruction (`ps instruction 12`); left out when
 * the error names no place.
 */
at?: string,
/**
 * Why, in a sentence; left out when empty.
 */
detail?: string, };

/**
 * `TargetId`: render-target slot 0–7, or the depth or stencil plane of the depth-stencil view.
 */
export type TargetId = "rt0" | "rt1" | "rt2" | "rt3" | "rt4" | "rt5" | "rt6" | "rt7" | "depth" | "stencil";

/**
 * `Stage`: the two program stages a capture holds.
 */
export type Stage = "vs" | "ps" | "cs";

/**
 * `CaptureSummary` without the worker's `capture` number: what opening learns from the directory and manifest.
 */
export type CaptureSummary = {
/**
 * The manifest's format version, "major.minor".
 */
format_version: string,
/**
 * The program that wrote the capture.
 */
generator: string | null,
/**
 * The application captured.
 */
application: string | null,
/**
 * How many draws.
 */
draw_count: number,
/**
 * The archive's size in bytes.
 */
size_bytes: number,
/**
 * The limits each draw is replayed under (the defaults until `set_limits`).
 */
limits: Limits,
/**
 * The variants each draw is replayed under (none, the spec's rules, until `set_variants`), by name.
 */
variants: Array<string>,
/**
 * Every variant the engine knows, in the order explanations list them.
 */
available_variants: Array<VariantInfo>,
/**
 * Draws of the frame the recorder could not record (format 1.1), in the frame's order.
 */
unrecorded_draws: Array<UnrecordedDrawInfo>,
/**
 * The frame's resolves (format 1.2), in the frame's order, each resolved again when the capture was opened.
 */
resolves: Array<ResolveInfo>,
/**
 * The frame's dispatches (format 1.3), in the frame's order, each run again when the capture was opened.
 */
dispatches: Array<DispatchInfo>,
/**
 * The frame's outline (format 1.5 events; before 1.5 its draws, resolves and dispatches only), in pre-order:
 * the rows the viewer's event list shows (`capture::outline`).
 */
outline: Array<OutlineRowInfo>,
/**
 * Whether the frame has markers (any group or point marker in `outline`).
 */
has_markers: boolean,
/**
 * Why the capture's events are not used, if they did not check out (the outline then has none of them).
 */
events_problem: string | null, };

/**
 * `OutlineRowKind`: what a row of the frame's outline is.
 */
export type OutlineRowKind = "group" | "draw" | "resolve" | "dispatch" | "marker" | "call";

/**
 * `OutlineRowInfo`: one row of the frame's outline.
 */
export type OutlineRowInfo = {
/**
 * How many groups it is in.
 */
depth: number,
/**
 * What it is.
 */
kind: OutlineRowKind,
/**
 * The draw's, resolve's or dispatch's index in its list; for a group, the index of the first row after it;
 * else 0.
 */
index: number,
/**
 * A call's event kind (`clear_render_target_view`, `copy_resource`, …), else `null`.
 */
call: string | null,
/**
 * The marker's or call's text (empty for draws, resolves and dispatches, which their lists name).
 */
text: string, };

/**
 * `UnrecordedDrawInfo`: a draw of the frame that is not in the capture, listed where it came and why.
 */
export type UnrecordedDrawInfo = {
/**
 * How many recorded draws came before it: it is listed before draw `before_draw`.
 */
before_draw: number,
/**
 * Its name or call, with its targets (`DrawIndexed(36, 0, 0) [rt0 R8G8B8A8_UNORM 1280x720 4x]`).
 */
label: string,
/**
 * Why it was not recorded.
 */
reason: string, };

/**
 * `ResolveInfo`: a `ResolveSubresource` of the frame, listed where it came, with its result.
 */
export type ResolveInfo = {
/**
 * Its position in the capture's resolves.
 */
index: number,
/**
 * How many draws came before it: it is listed before draw `before_draw`.
 */
before_draw: number,
/**
 * Its call and what it resolves (`ResolveSubresource(dst, 0, src, 0, R8G8B8A8_UNORM) [R8G8B8A8_UNORM 64x64 4x]`).
 */
label: string,
/**
 * The resolve again from the recorded samples against the recorded destination, at the format's default
 * tolerance (`not_replayed` when no destination after was recorded, `error` when it cannot be read).
 */
status: DrawStatus, };

/**
 * `DispatchInfo`: a `Dispatch` of the frame, listed where it came, with its result.
 */
export type DispatchInfo = {
/**
 * Its position in the capture's dispatches.
 */
index: number,
/**
 * How many draws came before it: it is listed before draw `before_draw`.
 */
before_draw: number,
/**
 * Its call and views (`Dispatch(8, 8, 1) [u0 R32_UINT buffer]`).
 */
label: string,
/**
 * The dispatch run again from its recorded views, each view compared with the recorded one (`compared_pixels`
 * and `differing_pixels` count elements or texels over every view; `not_replayed` when nothing after was
 * recorded, `error` when it cannot run, e.g. past the work limit).
 */
status: DrawStatus,
/**
 * Elements of its views whose value depends on the order the threads ran in (18.6.6), and views whose counter
 * unordered threads used: a difference there may be the GPU's order, not an error.
 */
order_dependent: number, };

/**
 * `DispatchView`: one view of a replayed dispatch, as the target view shows it.
 */
export type DispatchView = {
/**
 * The slot, `u#`.
 */
slot: number,
/**
 * `typed`, `raw` or `structured`.
 */
access: string,
/**
 * The format each image pixel is read in (a raw or structured view's words as `R32_UINT`).
 */
format: string,
/**
 * The image's width.
 */
width: number,
/**
 * The image's height.
 */
height: number,
/**
 * How the window is laid out in the image, for a person (a buffer's elements or words 64 a row).
 */
layout: string,
/**
 * Whether the capture records the window after the dispatch.
 */
recorded: boolean,
/**
 * What `compared` and `differing` count: `texel` or `element`.
 */
unit: string,
/**
 * Texels or elements compared.
 */
compared: number,
/**
 * Texels or elements that differ.
 */
differing: number,
/**
 * Whether the view matches; null when nothing was recorded.
 */
matches: boolean | null,
/**
 * Elements whose replayed value depends on the threads' order (18.6.6).
 */
order_dependent: number,
/**
 * Whether threads the spec does not order shared the view's hidden counter.
 */
counter_unordered: boolean,
/**
 * The hidden counter after the dispatch as the GPU left it, when recorded.
 */
recorded_counter: number | null,
/**
 * The hidden counter after the replay (append and counter views).
 */
replayed_counter: number | null, };

/**
 * `DispatchResult`: a dispatch replayed on request, its status and its views.
 */
export type DispatchResult = {
/**
 * The list's entry, with the replay's status.
 */
dispatch: DispatchInfo,
/**
 * Thread groups in X, Y and Z.
 */
groups: [number, number, number],
/**
 * Threads run.
 */
threads: number,
/**
 * Its recorded views, by slot.
 */
views: Array<DispatchView>, };

/**
 * `ProgramEditResult`: what became of a program edited in the viewer.
 */
export type ProgramEditResult = {
/**
 * Whether the listing assembled and is now the draw's program (its next replay runs it).
 */
accepted: boolean,
/**
 * The listing's line the assembler stopped at (from 1), when it did not assemble.
 */
line: number | null,
/**
 * Why it did not assemble.
 */
error: string | null,
/**
 * The draw's status with its recorded programs (from before its first edit), when it was replayed then.
 */
original: DrawStatus | null, };

/**
 * How an edit changed one of a draw's targets: the texels (samples, for a multisampled target) whose replayed
 * bytes differ between the replay with the recorded program and the replay with the edit.
 */
export type EditChange = {
/**
 * The target (`rt0` .. `rt7`, `depth`).
 */
target: string,
/**
 * Texels whose bytes the edit changed.
 */
changed_texels: number,
/**
 * Texels of the target.
 */
texels: number, };

/**
 * `DispatchThread`: a thread of a dispatch.
 */
export type DispatchThread = {
/**
 * `SV_GroupID`.
 */
group: [number, number, number],
/**
 * `SV_GroupThreadID`.
 */
thread_in_group: [number, number, number],
/**
 * `SV_DispatchThreadID`.
 */
thread: [number, number, number], };

/**
 * `ElementWriteInfo`: one write that reached an inspected element, in the replay's order.
 */
export type ElementWriteInfo = {
/**
 * The thread that wrote.
 */
thread: DispatchThread,
/**
 * The instruction (the `DisassemblyLine.index`).
 */
instruction: number,
/**
 * Its listing line.
 */
line: string,
/**
 * `store`, or `atomic` and the operation.
 */
operation: string,
/**
 * The element before the write.
 */
before: TexelValue,
/**
 * The element after it.
 */
after: TexelValue, };

/**
 * `WriterTraceInfo`: a writer's trace.
 */
export type WriterTraceInfo = {
/**
 * The thread.
 */
thread: DispatchThread,
/**
 * What it executed.
 */
trace: ProgramTrace, };

/**
 * `DispatchElement`: one element of a dispatch's view: its values and the threads that wrote it.
 */
export type DispatchElement = {
/**
 * The dispatch.
 */
dispatch: number,
/**
 * The view's slot.
 */
slot: number,
/**
 * The column clicked in the view's image.
 */
x: number,
/**
 * The row clicked.
 */
y: number,
/**
 * The element as the program addresses it, for a person (`texel (3, 1)`, `structure 2, byte offset 4`, `the
 * hidden counter`).
 */
element: string,
/**
 * Whether this is the view's hidden counter (its writes every `imm_atomic_alloc` and `imm_atomic_consume`)
 * rather than an element.
 */
counter: boolean,
/**
 * Where it starts in the view's window, in bytes.
 */
byte_offset: number,
/**
 * The format its values are read in.
 */
format: string,
/**
 * Before the dispatch.
 */
before: TexelValue,
/**
 * As the GPU left it, when recorded.
 */
recorded: TexelValue | null,
/**
 * As the replay left it.
 */
replayed: TexelValue,
/**
 * Whether recorded and replayed bytes are equal; null when nothing was recorded.
 */
matches: boolean | null,
/**
 * Whether the replayed value depends on the threads' order (18.6.6).
 */
order_dependent: boolean,
/**
 * Whether unordered threads shared the view's counter.
 */
counter_unordered: boolean,
/**
 * The writes that reached it, in order (at most 256).
 */
writes: Array<ElementWriteInfo>,
/**
 * Writes past those kept.
 */
writes_not_kept: number,
/**
 * Distinct writer threads.
 */
writers: number,
/**
 * The first 16 writers' traces.
 */
traces: Array<WriterTraceInfo>,
/**
 * Writers not traced.
 */
writers_not_traced: number, };

/**
 * `ProgramInfo`: one program a draw binds.
 */
export type ProgramInfo = {
/**
 * Its stage.
 */
stage: Stage,
/**
 * Its shader model, e.g. `ps_5_0`.
 */
model: string,
/**
 * Lowercase hex SHA-256 of its DXBC bytes.
 */
sha256: string,
/**
 * Instructions it executes (declarations not counted).
 */
instruction_count: number, };

/**
 * `ComponentKind`: what a target's channels hold.
 */
export type ComponentKind = "unorm" | "snorm" | "float" | "uint" | "sint" | "depth" | "stencil";

/**
 * `TargetInfo`: one output image of a draw.
 */
export type TargetInfo = {
/**
 * Which.
 */
target: TargetId,
/**
 * The view's DXGI format without its prefix.
 */
format: string,
/**
 * What its channels hold.
 */
kind: ComponentKind,
/**
 * How many channels (1 for depth and stencil).
 */
channels: number,
/**
 * Width in texels.
 */
width: number,
/**
 * Height in texels: of a multisampled target, its sample planes stacked, sample 0's on top (each `height /
 * samples` rows).
 */
height: number,
/**
 * Samples a pixel (1 without multisampling).
 */
samples: number, };

/**
 * `DrawStatus`: how a draw stands.
 */
export type DrawStatus = { "state": "not_replayed" } | { "state": "matches",
/**
 * Pixels compared, over the targets.
 */
compared_pixels: number, } | { "state": "differs",
/**
 * Pixels that differ beyond what the spec allows, over the targets.
 */
differing_pixels: number,
/**
 * Pixels that differ where the spec allows more than one result.
 */
ambiguous_pixels: number,
/**
 * Pixels compared, over the targets.
 */
compared_pixels: number, } | { "state": "error",
/**
 * Why.
 */
error: ErrorInfo, };

/**
 * `DrawInfo`: one draw, as the event browser lists it.
 */
export type DrawInfo = {
/**
 * Its place in the capture.
 */
index: number,
/**
 * Its marker or debug name, or its call.
 */
name: string,
/**
 * The call it came from.
 */
api_call: string | null,
/**
 * The vertex program.
 */
vs: ProgramInfo | null,
/**
 * The pixel program.
 */
ps: ProgramInfo | null,
/**
 * Its output images.
 */
targets: Array<TargetInfo>,
/**
 * How it stands.
 */
status: DrawStatus, };

/**
 * `Progress & { finished }`: what one step of a replay reached.
 */
export type StepProgress = {
/**
 * What is being counted: "vertices", "primitives", or "primitive N of M, rows" (the rows of the one under way,
 * for a draw of a few primitives).
 */
stage: string,
/**
 * How many are done.
 */
done: number,
/**
 * How many there are.
 */
total: number,
/**
 * Whether the replay is finished (its result kept; `replay_finish` gives its summary).
 */
finished: boolean, };

/**
 * `ReplaySummary`: what replaying a draw produced.
 */
export type ReplaySummary = {
/**
 * The draw.
 */
draw: number,
/**
 * Primitives drawn, over the instances.
 */
primitives: number,
/**
 * Fragments: covered pixels the rasterizer produced.
 */
fragments: number,
/**
 * Fragments whose pixel program ran to completion (not discarded).
 */
shaded_fragments: number,
/**
 * The comparison's verdict.
 */
status: DrawStatus, };

/**
 * `ChannelStats`: the difference replayed − recorded in one channel over the compared pixels.
 */
export type ChannelStats = {
/**
 * "r", "g", "b", "a", "depth" or "stencil".
 */
channel: string,
/**
 * The largest absolute difference.
 */
max_abs_difference: number,
/**
 * The mean absolute difference.
 */
mean_abs_difference: number,
/**
 * The largest difference in ULPs of the format.
 */
max_ulps: number | null, };

/**
 * `PixelCoord`: a pixel, in texels from the top-left corner.
 */
export type PixelCoord = {
/**
 * Column.
 */
x: number,
/**
 * Row.
 */
y: number, };

/**
 * `PixelBounds`: a rectangle of pixels, `x0 <= x < x1`, `y0 <= y < y1`.
 */
export type PixelBounds = {
/**
 * The first column.
 */
x0: number,
/**
 * The first row.
 */
y0: number,
/**
 * One past the last column.
 */
x1: number,
/**
 * One past the last row.
 */
y1: number, };

/**
 * `TargetComparison`: one target's replayed image against the recorded one.
 */
export type TargetComparison = {
/**
 * Which target.
 */
target: TargetId,
/**
 * Pixels compared (0 when nothing was recorded after the draw).
 */
compared_pixels: number,
/**
 * Pixels that differ beyond what the spec allows.
 */
differing_pixels: number,
/**
 * Pixels that differ where coverage depends on rounding.
 */
ambiguous_pixels: number,
/**
 * Per channel statistics.
 */
channels: Array<ChannelStats>,
/**
 * The first differing pixel in row order.
 */
first_difference: PixelCoord | null,
/**
 * For a multisampled target, the differing (not ambiguous) pixels of each sample plane, sample 0's first;
 * empty for one sample a pixel.
 */
sample_differing_pixels: Array<number>,
/**
 * For a multisampled colour target of a resolvable format, the differing pixels of the resolved images (each
 * resolved by the box average `ResolveSubresource` gives the standard patterns, 19.2.4); else `None`.
 */
resolved_differing_pixels: number | null,
/**
 * How visible the difference is: the LDR-FLIP error's figures ([`crate::compare::flip`]) for a render target
 * with a recorded after; `None` otherwise (depth and stencil, nothing recorded, past FLIP's size limit).
 */
perceptual: PerceptualFigures | null,
/**
 * The draw's bounding box on this target: the pixels the replayed primitives cover (in the target and the
 * scissor; before clip distances, the depth-stencil test or anything else that keeps a pixel unwritten), grown to
 * take in every pixel whose value the recording changed from the value before the draw (where the GPU drew
 * outside them; of a multisampled target, any sample's); `None` when the draw covers and changed none.
 */
bounds: PixelBounds | null, };

/**
 * `PerceptualFigures`: a target's LDR-FLIP error map pooled: its mean, median, 95th and 99th percentiles and
 * largest value, each from 0 (invisible) to 1.
 */
export type PerceptualFigures = {
/**
 * The mean error.
 */
mean: number,
/**
 * The median.
 */
p50: number,
/**
 * The 95th percentile.
 */
p95: number,
/**
 * The 99th percentile.
 */
p99: number,
/**
 * The largest error.
 */
max: number, };

/**
 * `CompareResult`: a replayed draw's comparison, target by target.
 */
export type CompareResult = {
/**
 * The draw.
 */
draw: number,
/**
 * Per target.
 */
targets: Array<TargetComparison>,
/**
 * The verdict over the targets.
 */
status: DrawStatus, };

/**
 * `ImageKind`: which image of a target to render.
 */
export type ImageKind = "replayed" | "recorded" | "before" | "difference" | "heatmap" | "perceptual";

/**
 * The channels a display shows.
 */
export type ShownChannels = {
/**
 * Red.
 */
r: boolean,
/**
 * Green.
 */
g: boolean,
/**
 * Blue.
 */
b: boolean,
/**
 * Alpha.
 */
a: boolean, };

/**
 * A value range.
 */
export type ValueRange = {
/**
 * The value shown black.
 */
min: number,
/**
 * The value shown white.
 */
max: number, };

/**
 * `DisplayOptions`: how to turn a target's values into display colours.
 */
export type DisplayOptions = {
/**
 * The channels shown; one alone shows as grey.
 */
channels: ShownChannels,
/**
 * The range mapped to black..white for float, depth and integer targets; `None` takes the image's range.
 */
range: ValueRange | null,
/**
 * Paint NaN magenta and infinities cyan.
 */
highlight_non_finite: boolean, };

/**
 * `Limits`: what one draw may cost in the viewer (the library's budget, as `iridia replay --max-memory` and
 * `--max-work` set it); past either, the draw fails with an error of kind `budget` naming the limit.
 */
export type Limits = {
/**
 * The most bytes one draw's blobs may inflate to ([`crate::capture::DEFAULT_DRAW_MEMORY`]).
 */
max_memory: number,
/**
 * The most units of work one draw may do, a lane running one instruction being one
 * ([`crate::draw::DEFAULT_WORK_LIMIT`]).
 */
max_work: number, };

/**
 * `RenderedImage`: a target's image as 8-bit RGBA for display.
 */
export type RenderedImage = {
/**
 * Width in pixels.
 */
width: number,
/**
 * Height in pixels.
 */
height: number,
/**
 * width × height × 4 bytes, rows from the top.
 */
rgba: Uint8Array,
/**
 * The finite range of the shown channels.
 */
value_range: ValueRange,
/**
 * Texels holding NaN or an infinity in a shown channel.
 */
non_finite_texels: number, };

/**
 * `ChannelValue`: one channel of a texel.
 */
export type ChannelValue = {
/**
 * "r", "g", "b", "a", "depth" or "stencil".
 */
channel: string,
/**
 * The value the format's conversion gives.
 */
value: number,
/**
 * The channel's stored bits.
 */
bits: number,
/**
 * The value for a person.
 */
text: string, };

/**
 * `TexelValue`: a texel of one image.
 */
export type TexelValue = {
/**
 * Its channels.
 */
channels: Array<ChannelValue>,
/**
 * Its bytes as stored, lowercase hex.
 */
hex: string, };

/**
 * `ChannelDifference`: replayed − recorded in one channel.
 */
export type ChannelDifference = {
/**
 * The channel.
 */
channel: string,
/**
 * The difference.
 */
difference: number,
/**
 * The distance in ULPs, when it means something.
 */
ulps: number | null,
/**
 * For a person.
 */
text: string, };

/**
 * `PixelVerdictKind`: how a pixel compares.
 */
export type PixelVerdictKind = "matches" | "differs" | "ambiguous" | "not_covered" | "not_replayed" | "not_recorded";

/**
 * `TexelReadout`: a texel of a target in each image.
 */
export type TexelReadout = {
/**
 * Which target.
 */
target: TargetId,
/**
 * Column.
 */
x: number,
/**
 * Row.
 */
y: number,
/**
 * The target's format.
 */
format: string,
/**
 * What the GPU wrote; `None` when the capture does not record the target after the draw.
 */
recorded: TexelValue | null,
/**
 * The replay's value, when replayed.
 */
replayed: TexelValue | null,
/**
 * Before the draw.
 */
before: TexelValue,
/**
 * Replayed − recorded per channel (empty when not replayed or nothing was recorded).
 */
difference: Array<ChannelDifference>,
/**
 * The verdict.
 */
verdict: PixelVerdictKind, };

/**
 * `RegisterValue`: a named register value.
 */
export type RegisterValue = {
/**
 * The register with its components, e.g. `v1.xy`.
 */
register: string,
/**
 * The semantic, for signature registers.
 */
semantic: string | null,
/**
 * Each component's bits read as a float.
 */
values: Array<number>,
/**
 * Each component's bits.
 */
bits: Array<number>,
/**
 * The components for a person.
 */
text: string, };

/**
 * `VertexRecord`: a vertex of a fragment's primitive.
 */
export type VertexRecord = {
/**
 * `SV_VertexID`.
 */
vertex_id: number,
/**
 * `SV_InstanceID`.
 */
instance_id: number,
/**
 * The vertex program's inputs.
 */
inputs: Array<RegisterValue>,
/**
 * The vertex program's outputs.
 */
outputs: Array<RegisterValue>,
/**
 * After perspective division and the viewport: x, y in pixels, z in 0..1.
 */
window_position: [number, number, number], };

/**
 * `DepthResult`: the depth test for a fragment.
 */
export type DepthResult = {
/**
 * The comparison, e.g. "LESS".
 */
func: string,
/**
 * The fragment's depth after clamping and conversion to the buffer's precision.
 */
fragment_depth: number,
/**
 * The depth stored before.
 */
stored_depth: number,
/**
 * Whether it passed.
 */
passed: boolean,
/**
 * Whether depth was written.
 */
written: boolean, };

/**
 * `StencilResult`: the stencil test for a fragment.
 */
export type StencilResult = {
/**
 * The comparison.
 */
func: string,
/**
 * The reference value.
 */
reference: number,
/**
 * The value stored before.
 */
stored: number,
/**
 * The read mask.
 */
read_mask: number,
/**
 * Whether it passed.
 */
passed: boolean,
/**
 * The value after the operation.
 */
result: number, };

/**
 * `SampleResult`: what the output merger did with one sample of a fragment (3.5.1).
 */
export type SampleResult = {
/**
 * The sample's index.
 */
sample: number,
/**
 * The depth test at the sample.
 */
depth: DepthResult | null,
/**
 * The stencil test at the sample.
 */
stencil: StencilResult | null,
/**
 * What was stored at the sample, per render target written.
 */
stored: Array<TexelValue>,
/**
 * What became of the sample.
 */
outcome: FragmentOutcome, };

/**
 * `BlendResult`: the output merger at one render target.
 */
export type BlendResult = {
/**
 * Which target.
 */
target: TargetId,
/**
 * Whether blending (or a logic operation) was on.
 */
enabled: boolean,
/**
 * The program's output, as floats.
 */
source: Array<number>,
/**
 * The target's value before.
 */
destination: Array<number>,
/**
 * The equation, e.g. `SRC_ALPHA * src + INV_SRC_ALPHA * dest`.
 */
equation: string,
/**
 * The blended value before the format's conversion.
 */
result: Array<number>,
/**
 * What was stored.
 */
stored: TexelValue, };

/**
 * `FragmentOutcome`: what became of a fragment.
 */
export type FragmentOutcome = "written" | "discarded" | "depth_failed" | "stencil_failed" | "sample_masked" | "clipped";

/**
 * `FragmentRecord`: one fragment that reached the pixel.
 */
export type FragmentRecord = {
/**
 * Its place among the pixel's fragments, from 0.
 */
order: number,
/**
 * `SV_PrimitiveID`.
 */
primitive_id: number,
/**
 * `SV_InstanceID`.
 */
instance_id: number,
/**
 * Whether its triangle faces front.
 */
front_facing: boolean,
/**
 * Its triangle's vertices, provoking vertex first.
 */
vertices: Array<VertexRecord>,
/**
 * Perspective-correct weights of the vertices at the pixel centre.
 */
barycentrics: Array<number>,
/**
 * The pixel program's inputs.
 */
pixel_inputs: Array<RegisterValue>,
/**
 * The pixel program's outputs (empty when it discarded or did not run).
 */
pixel_outputs: Array<RegisterValue>,
/**
 * Whether the program discarded it.
 */
discarded: boolean,
/**
 * The depth test.
 */
depth: DepthResult | null,
/**
 * The stencil test.
 */
stencil: StencilResult | null,
/**
 * The output merger per render target written.
 */
blend: Array<BlendResult>,
/**
 * What became of it (of the inspected sample, for a multisampled target).
 */
outcome: FragmentOutcome,
/**
 * The samples its primitive covers at the pixel (bit `s` is sample `s`).
 */
covered_samples: number,
/**
 * The samples written: with one invocation a pixel, every one its one shading fed.
 */
written_samples: number,
/**
 * Per sample that reached the depth-stencil tests or the targets, what the output merger did; empty with one
 * sample a pixel (the fields above say it).
 */
samples: Array<SampleResult>, };

/**
 * `PixelHistory`: why a pixel has its value.
 */
export type PixelHistory = {
/**
 * The target asked about.
 */
target: TargetId,
/**
 * Column.
 */
x: number,
/**
 * Row (in the sample's plane).
 */
y: number,
/**
 * The sample the verdict is about (0 with one sample a pixel).
 */
sample: number,
/**
 * Samples a pixel of the target.
 */
samples: number,
/**
 * The verdict.
 */
verdict: PixelVerdictKind,
/**
 * The verdict's reason, one line: [`crate::inspect::Verdict::text`] of the library's decision procedure.
 */
verdict_text: string,
/**
 * When the draw was explained ([`ExplainResult`]) and the pixel differs under the viewer's variants but matches
 * under the best set: one line naming that set.
 */
explained_by: string | null,
/**
 * Every fragment, in order.
 */
fragments: Array<FragmentRecord>, };

/**
 * `VariantInfo`: an implementation choice a draw can be replayed under ([`crate::draw::variants`]).
 */
export type VariantInfo = {
/**
 * Its name (`unsnapped-interpolation`).
 */
name: string,
/**
 * What it does, in a sentence.
 */
description: string,
/**
 * The pipeline stage it changes.
 */
stage: string, };

/**
 * `ExplainRow`: a draw replayed under one variant alone.
 */
export type ExplainRow = {
/**
 * The variant.
 */
variant: VariantInfo,
/**
 * Pixels of the explained target outside the tolerance under it.
 */
differing_pixels: number,
/**
 * The largest error under it, in ULPs.
 */
max_ulp: number, };

/**
 * `ExplainResult`: a draw replayed under each variant and every combination, against its recorded target
 * ([`crate::replay::explain`], as `iridia explain` prints it).
 */
export type ExplainResult = {
/**
 * The draw.
 */
draw: number,
/**
 * The explained target (the compared one with the most differing pixels).
 */
target: TargetId,
/**
 * Pixels outside the tolerance under the spec's rules.
 */
baseline_differing_pixels: number,
/**
 * The largest error under the spec's rules, in ULPs.
 */
baseline_max_ulp: number,
/**
 * Each variant alone.
 */
rows: Array<ExplainRow>,
/**
 * The set that leaves the fewest differing pixels (empty: none does better).
 */
best: Array<string>,
/**
 * Pixels outside the tolerance under it.
 */
best_differing_pixels: number,
/**
 * The largest error under it, in ULPs.
 */
best_max_ulp: number,
/**
 * One line: what reproduces the recorded target, or how many pixels stay unexplained.
 */
verdict: string, };

/**
 * `DisassemblyLine`: one instruction of a listing.
 */
export type DisassemblyLine = {
/**
 * Its place in the program, declarations counted.
 */
index: number,
/**
 * Its opcode token's offset in DWORDs.
 */
offset_dwords: number,
/**
 * Nesting depth.
 */
indent: number,
/**
 * The text.
 */
text: string,
/**
 * Whether it is a declaration.
 */
declaration: boolean, };

/**
 * `Disassembly`: a program's listing.
 */
export type Disassembly = {
/**
 * The program.
 */
program: ProgramInfo,
/**
 * Its instructions.
 */
lines: Array<DisassemblyLine>, };

/**
 * `TraceStep`: one executed instruction.
 */
export type TraceStep = {
/**
 * Its place in execution order.
 */
step: number,
/**
 * The `DisassemblyLine.index` executed.
 */
line: number,
/**
 * The operands it read, with their values.
 */
reads: Array<RegisterValue>,
/**
 * The registers it wrote, with their values after.
 */
writes: Array<RegisterValue>, };

/**
 * `OmittedSteps`: where a trace's kept steps leave a gap, and how many steps it holds.
 */
export type OmittedSteps = {
/**
 * How many of `ProgramTrace.steps` come before the gap (the first executed); the rest are the last.
 */
after: number,
/**
 * Steps executed in the gap and not kept.
 */
count: number, };

/**
 * `ProgramTrace`: a program run for one invocation.
 */
export type ProgramTrace = {
/**
 * The listing.
 */
disassembly: Disassembly,
/**
 * The executed instructions.
 */
steps: Array<TraceStep>,
/**
 * Steps not kept past the trace limit (a long loop's middle iterations), if any.
 */
omitted: OmittedSteps | null, };
