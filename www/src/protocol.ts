// The message protocol between the viewer page and the worker that hosts Iridia's wasm module.
//
// Every data shape the viewer exchanges with the backend is declared here and nowhere else, so that the Rust side
// (src/wasm.rs) can mirror it with serde:
// - field names are snake_case, as serde writes Rust fields by default;
// - a union with a `kind` (or `state`) member is an internally tagged enum:
//   `#[serde(tag = "kind", rename_all = "snake_case")]`;
// - a string union is a unit-variant enum with `#[serde(rename_all = "snake_case")]`;
// - `T | null` is `Option<T>` (serialized as null, e.g. with serde-wasm-bindgen's `Serializer::json_compatible()`;
//   wasm-backend.ts also accepts undefined); `?:` members may be omitted (`skip_serializing_if`);
// - `Uint8Array` is a `Vec<u8>` sent as bytes (`serde_bytes`, which serde-wasm-bindgen turns into a Uint8Array);
// - numbers are JavaScript numbers: u32/i32/f32/f64 fit; a 64-bit value that may exceed 2^53 is sent as a string.
// Float values may be NaN or ±Infinity (serde-wasm-bindgen keeps them; JSON could not), and every value that a
// person reads also comes as `text`, formatted by the backend the way the format defines it.
//
// Only results (and DisplayOptions, which render_target passes on) cross into Rust as serde values; requests are
// unpacked by wasm-backend.ts into plain arguments of the module's functions, which that file lists.
//
// Envelope: the page sends `ToWorker` messages and receives `FromWorker` messages. Each request carries an `id`
// chosen by the page; the worker answers it with exactly one `response` (ok or error), possibly preceded by
// `progress` messages with the same id. A `cancel` for a running id makes it end soon with an error of kind
// "cancelled"; a cancel for an id that has finished is ignored.

/** The version of this protocol; the worker states it in `ready`, the page refuses a worker with another one. */
export const PROTOCOL_VERSION = 1;

/** The longest a long request may go without a progress message, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 200;

// ---------------------------------------------------------------------------------------------------------------
// Identifiers

/** A capture opened in the worker, as `open_capture` numbered it; valid until `close_capture`. */
export type CaptureId = number;

/** A draw: its position in the capture's manifest, from 0, in submission order. */
export type DrawIndex = number;

/** The render-target slots a draw can write, the depth plane and the stencil plane of its depth-stencil view. */
export const TARGET_IDS = ["rt0", "rt1", "rt2", "rt3", "rt4", "rt5", "rt6", "rt7", "depth", "stencil"] as const;

/** One of a draw's output images: render-target slot 0–7, depth, or stencil. */
export type TargetId = (typeof TARGET_IDS)[number];

/** Whether `value` names a target. */
export function isTargetId(value: string): value is TargetId {
  return (TARGET_IDS as readonly string[]).includes(value);
}

/** The two shader stages a draw's programs can run in (the capture format has only these). */
export type Stage = "vs" | "ps";

// ---------------------------------------------------------------------------------------------------------------
// Errors

/** What sort of failure an error is (`crate::error::ErrorKind`): what the viewer matches on, never `what`. */
export type ErrorKind = "invalid" | "unsupported" | "request" | "budget" | "cancelled" | "not_replayed";

/** A failure, as the library's `crate::Error` describes it: what sort, what was wrong, where, and why. */
export interface ErrorInfo {
  kind: ErrorKind;
  /** The kind of thing that failed, e.g. "capture", "DXBC", "program". */
  what: string;
  /** Where: a byte offset, a manifest path ("draws[3].vs"), an instruction ("ps instruction 12"). */
  at?: string;
  /** Why, in a sentence. */
  detail?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Capture and draws

/** What `open_capture` learns from the archive's directory and manifest (no blob is inflated yet). */
export interface CaptureSummary {
  capture: CaptureId;
  /** The manifest's "major.minor" format version. */
  format_version: string;
  generator: string | null;
  application: string | null;
  draw_count: number;
  /** The archive's size in bytes. */
  size_bytes: number;
}

/** One shader program a draw binds. */
export interface ProgramInfo {
  stage: Stage;
  /** Shader model, e.g. "ps_5_0". */
  model: string;
  /** Lowercase hex SHA-256 of the DXBC bytes (the capture's blob name). */
  sha256: string;
  /** Instruction count, from the program itself. */
  instruction_count: number;
}

/** What kind of values a target's channels hold, which decides how they are shown. */
export type ComponentKind = "unorm" | "snorm" | "float" | "uint" | "sint" | "depth" | "stencil";

/** One output image of a draw, as the manifest describes it. */
export interface TargetInfo {
  target: TargetId;
  /** DXGI format of the view, without the DXGI_FORMAT_ prefix, e.g. "R16G16B16A16_FLOAT". */
  format: string;
  kind: ComponentKind;
  /** Channels the format has: 1 to 4 (depth and stencil have 1). */
  channels: number;
  /** Width and height of the viewed subresource, in texels. */
  width: number;
  height: number;
}

/** How a draw stands: not replayed yet, replayed and matching, differing, or failed. */
export type DrawStatus =
  | { state: "not_replayed" }
  | { state: "matches"; compared_pixels: number }
  | { state: "differs"; differing_pixels: number; ambiguous_pixels: number; compared_pixels: number }
  | { state: "error"; error: ErrorInfo };

/** One draw of the capture, as the event browser lists it. */
export interface DrawInfo {
  index: DrawIndex;
  /** Marker or debug name, or the API call when it has none. */
  name: string;
  /** The call it came from, e.g. "DrawIndexed(36, 0, 0)". */
  api_call: string | null;
  vs: ProgramInfo | null;
  ps: ProgramInfo | null;
  targets: TargetInfo[];
  status: DrawStatus;
}

/** What replaying a draw produced. */
export interface ReplaySummary {
  draw: DrawIndex;
  primitives: number;
  fragments: number;
  /** Fragments whose pixel program ran to completion (not discarded). */
  shaded_fragments: number;
  status: DrawStatus;
}

// ---------------------------------------------------------------------------------------------------------------
// Comparison

/** Per-channel statistics of the difference replayed − recorded over the compared pixels. */
export interface ChannelStats {
  /** "r", "g", "b", "a", "depth" or "stencil". */
  channel: string;
  max_abs_difference: number;
  mean_abs_difference: number;
  /** The largest difference in units in the last place of the format (null for formats without ULPs). */
  max_ulps: number | null;
}

/** How one target's replayed image compares with the recorded one. */
export interface TargetComparison {
  target: TargetId;
  /** Pixels compared (the whole image: width × height). */
  compared_pixels: number;
  /** Pixels whose replayed value is not the recorded one, beyond what the spec allows. */
  differing_pixels: number;
  /** Pixels where the spec allows more than one result and the recorded one is among them but not ours. */
  ambiguous_pixels: number;
  channels: ChannelStats[];
  /** The first differing pixel in row order, or null. */
  first_difference: PixelCoord | null;
}

/** A replayed draw's comparison, one entry per target. */
export interface CompareResult {
  draw: DrawIndex;
  targets: TargetComparison[];
  status: DrawStatus;
}

/** A pixel position, in texels from the top-left corner. */
export interface PixelCoord {
  x: number;
  y: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Display

/** Which image of a target to render: the draw's result, the GPU's, the target before the draw, or a comparison. */
export type ImageKind = "replayed" | "recorded" | "before" | "difference" | "heatmap";

/** Every image kind, in the order the viewer offers them. */
export const IMAGE_KINDS: readonly ImageKind[] = ["replayed", "recorded", "before", "difference", "heatmap"];

/** How to turn a target's values into display colours. */
export interface DisplayOptions {
  /** Which of R, G, B, A to show; a single channel is shown as grey. Alpha off shows the image opaque. */
  channels: { r: boolean; g: boolean; b: boolean; a: boolean };
  /** The value range mapped to black..white for float, depth and integer targets; null picks the image's range. */
  range: { min: number; max: number } | null;
  /** Paint NaN in magenta and ±Infinity in cyan instead of converting them. */
  highlight_non_finite: boolean;
}

/** A target's image converted to 8-bit RGBA for display. */
export interface RenderedImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, row-major from the top-left, non-premultiplied sRGB-encoded RGBA. */
  rgba: Uint8Array;
  /** The finite value range found in the shown channels (the range used when `range` was null). */
  value_range: { min: number; max: number };
  /** NaN and ±Infinity texels in the image. */
  non_finite_texels: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Texel values

/** One channel of a texel, as stored and as read. */
export interface ChannelValue {
  /** "r", "g", "b", "a", "depth" or "stencil". */
  channel: string;
  /** The value the format's conversion gives (a float for UNORM/SNORM/FLOAT/depth, an integer for UINT/SINT). */
  value: number;
  /** The stored bits of this channel, as an unsigned integer. */
  bits: number;
  /** The value for a person, as the format defines it, e.g. "0.50196 (128)" or "NaN (0x7fc00000)". */
  text: string;
}

/** A texel of one image. */
export interface TexelValue {
  channels: ChannelValue[];
  /** The texel's bytes as stored, lowercase hex. */
  hex: string;
}

/** The difference replayed − recorded in one channel. */
export interface ChannelDifference {
  channel: string;
  difference: number;
  /** Distance in units in the last place of the format, or null where that means nothing (e.g. NaN). */
  ulps: number | null;
  text: string;
}

/** A texel of a target in each of its images. */
export interface TexelReadout {
  target: TargetId;
  x: number;
  y: number;
  format: string;
  recorded: TexelValue;
  /** Null when the draw has not been replayed. */
  replayed: TexelValue | null;
  before: TexelValue;
  difference: ChannelDifference[];
  verdict: PixelVerdictKind;
}

// ---------------------------------------------------------------------------------------------------------------
// Pixel history

/** How a pixel compares: same, different, different but allowed by the spec, or untouched by the draw. */
export type PixelVerdictKind = "matches" | "differs" | "ambiguous" | "not_covered" | "not_replayed";

/** A named register value: a shader input or output, or a register an instruction wrote. */
export interface RegisterValue {
  /** Register with its components, e.g. "v1.xy", "o0", "r3.x", "oDepth". */
  register: string;
  /** The signature's semantic, e.g. "TEXCOORD0" or "SV_Target0"; null for temporaries. */
  semantic: string | null;
  /** Each component as a float (the register's bits read as f32). */
  values: number[];
  /** Each component's 32 bits, as an unsigned integer. */
  bits: number[];
  /** The components for a person, in the type the program uses them as when known. */
  text: string;
}

/** A vertex of the primitive that produced a fragment. */
export interface VertexRecord {
  /** SV_VertexID: the vertex's index in the vertex stream (after the index buffer and base vertex). */
  vertex_id: number;
  instance_id: number;
  /** The vertex program's inputs (from the input assembler) and outputs. */
  inputs: RegisterValue[];
  outputs: RegisterValue[];
  /** The position after clipping, perspective division and the viewport: x, y in pixels, z in 0..1. */
  window_position: [number, number, number];
}

/** The depth test's operands and result for a fragment. */
export interface DepthResult {
  /** Comparison function, e.g. "LESS". */
  func: string;
  /** The fragment's depth after bias and clamping. */
  fragment_depth: number;
  /** The depth stored before this fragment. */
  stored_depth: number;
  passed: boolean;
  written: boolean;
}

/** The stencil test's operands and result for a fragment. */
export interface StencilResult {
  func: string;
  reference: number;
  stored: number;
  read_mask: number;
  passed: boolean;
  /** The stencil value after the operation. */
  result: number;
}

/** The output merger's blend for one render target slot. */
export interface BlendResult {
  target: TargetId;
  enabled: boolean;
  /** The pixel program's output (source) and the target's value before (destination), as floats. */
  source: number[];
  destination: number[];
  /** E.g. "SRC_ALPHA * src + INV_SRC_ALPHA * dest". */
  equation: string;
  /** The blended value and what was stored after format conversion and the write mask. */
  result: number[];
  stored: TexelValue;
}

/** What became of a fragment. */
export type FragmentOutcome = "written" | "discarded" | "depth_failed" | "stencil_failed" | "sample_masked";

/** One fragment that reached the pixel, with everything that decided its contribution. */
export interface FragmentRecord {
  /** The fragment's position in the order the output merger saw fragments for this pixel, from 0. */
  order: number;
  primitive_id: number;
  instance_id: number;
  front_facing: boolean;
  /** The triangle's three vertices (fewer for lines and points). */
  vertices: VertexRecord[];
  /** Perspective-correct barycentric weights of the three vertices at the pixel centre. */
  barycentrics: number[];
  /** The pixel program's inputs, interpolated. */
  pixel_inputs: RegisterValue[];
  /** The pixel program's outputs; empty when it discarded. */
  pixel_outputs: RegisterValue[];
  discarded: boolean;
  depth: DepthResult | null;
  stencil: StencilResult | null;
  blend: BlendResult[];
  outcome: FragmentOutcome;
}

/** Why a pixel has the value it has: every fragment in order, and a one-line verdict. */
export interface PixelHistory {
  target: TargetId;
  x: number;
  y: number;
  verdict: PixelVerdictKind;
  /**
   * The verdict's reason for a person, one line, from the library's decision procedure (src/inspect/verdict.rs), e.g.
   * "the program's output differs by 4 ULP in red (replayed 1, recorded 0.9843137)".
   */
  verdict_text: string;
  fragments: FragmentRecord[];
}

// ---------------------------------------------------------------------------------------------------------------
// Programs

/** One line of a program's disassembly. */
export interface DisassemblyLine {
  /** Instruction index in the program, from 0; declarations also count. */
  index: number;
  /** Offset of the instruction's first token, in DWORDs from the start of the program chunk. */
  offset_dwords: number;
  /** Nesting depth, for indenting control flow. */
  indent: number;
  text: string;
  /** Whether this is a declaration (dcl_*) rather than an executed instruction. */
  declaration: boolean;
}

/** A program's disassembly. */
export interface Disassembly {
  program: ProgramInfo;
  lines: DisassemblyLine[];
}

/** One executed instruction: which line, and what it wrote. */
export interface TraceStep {
  /** Position in execution order, from 0 (loops execute a line several times). */
  step: number;
  /** The `DisassemblyLine.index` executed. */
  line: number;
  /** The operands it read, with their values. */
  reads: RegisterValue[];
  /** The registers it wrote, with their values after the write. */
  writes: RegisterValue[];
}

/** A program run for one invocation (a pixel's fragment or a vertex). */
export interface ProgramTrace {
  disassembly: Disassembly;
  steps: TraceStep[];
  /** Whether the steps were cut at the backend's limit (`steps` then holds the first ones). */
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests and their results

/** What the page can ask the worker. */
export type Request =
  /** Opens a capture from its bytes (transferred). Reads the directory and manifest only. */
  | { kind: "open_capture"; bytes: ArrayBuffer; name: string }
  /** Releases a capture and everything inflated for it. */
  | { kind: "close_capture"; capture: CaptureId }
  /** Lists the capture's draws with their current status. */
  | { kind: "list_draws"; capture: CaptureId }
  /** Replays one draw (inflating only its blobs). Long: sends progress, cancellable. */
  | { kind: "replay"; capture: CaptureId; draw: DrawIndex }
  /** Compares a replayed draw's targets with the recorded ones. */
  | { kind: "compare"; capture: CaptureId; draw: DrawIndex }
  /** Renders one image of a target for display. */
  | {
      kind: "render_target";
      capture: CaptureId;
      draw: DrawIndex;
      target: TargetId;
      image: ImageKind;
      display: DisplayOptions;
    }
  /** Reads a texel of a target in every image. */
  | { kind: "read_texels"; capture: CaptureId; draw: DrawIndex; target: TargetId; x: number; y: number }
  /** The next differing pixel after (x, y) in row order, wrapping; `backwards` searches the other way. */
  | {
      kind: "find_difference";
      capture: CaptureId;
      draw: DrawIndex;
      target: TargetId;
      x: number;
      y: number;
      backwards: boolean;
    }
  /** Every fragment that reached the pixel, in order, with a verdict. */
  | { kind: "inspect_pixel"; capture: CaptureId; draw: DrawIndex; target: TargetId; x: number; y: number }
  /** The pixel program's trace for one fragment of a pixel (`fragment` is `FragmentRecord.order`). */
  | { kind: "trace_pixel"; capture: CaptureId; draw: DrawIndex; x: number; y: number; fragment: number }
  /** The vertex program's trace for one vertex. */
  | { kind: "trace_vertex"; capture: CaptureId; draw: DrawIndex; vertex_id: number; instance_id: number }
  /** A program's disassembly. */
  | { kind: "disassemble"; capture: CaptureId; draw: DrawIndex; stage: Stage };

/** The `kind` of a request. */
export type RequestKind = Request["kind"];

/** The request of a given kind. */
export type RequestOf<K extends RequestKind> = Extract<Request, { kind: K }>;

/** The result each request kind answers with. */
export interface ResultMap {
  open_capture: CaptureSummary;
  close_capture: null;
  list_draws: DrawInfo[];
  replay: ReplaySummary;
  compare: CompareResult;
  render_target: RenderedImage;
  read_texels: TexelReadout;
  find_difference: PixelCoord | null;
  inspect_pixel: PixelHistory;
  trace_pixel: ProgramTrace;
  trace_vertex: ProgramTrace;
  disassemble: Disassembly;
}

/** The result of a request of kind K. */
export type ResultOf<K extends RequestKind> = ResultMap[K];

// ---------------------------------------------------------------------------------------------------------------
// Envelope

/** Messages from the page to the worker. */
export type ToWorker = { type: "request"; id: number; request: Request } | { type: "cancel"; id: number };

/** Progress of a long request: `done` of `total` units of `stage` (e.g. "vertices", "primitives"). */
export interface Progress {
  stage: string;
  done: number;
  total: number;
}

/** Messages from the worker to the page. */
export type FromWorker =
  /** Sent once when the worker has loaded its backend (or failed to: then `error` says why). */
  | { type: "ready"; protocol: number; backend: "wasm" | "mock"; version: string; error: ErrorInfo | null }
  | ({ type: "progress"; id: number } & Progress)
  | { type: "response"; id: number; ok: true; result: ResultOf<RequestKind> }
  | { type: "response"; id: number; ok: false; error: ErrorInfo }
  /** An error that belongs to no request (an uncaught exception in the worker). */
  | { type: "fault"; error: ErrorInfo };

/** A readable one-line form of an error: "what at at: detail". */
export function formatError(error: ErrorInfo): string {
  let text = error.what;
  if (error.at !== undefined && error.at !== "") text += ` at ${error.at}`;
  if (error.detail !== undefined && error.detail !== "") text += `: ${error.detail}`;
  return text;
}

/** Every error kind, as the library names them. */
export const ERROR_KINDS: readonly ErrorKind[] = Object.keys({
  invalid: true,
  unsupported: true,
  request: true,
  budget: true,
  cancelled: true,
  not_replayed: true,
} satisfies Record<ErrorKind, true>) as ErrorKind[];

/** Whether `value` names an error kind. */
export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === "string" && (ERROR_KINDS as readonly string[]).includes(value);
}

/**
 * Turns anything thrown into an ErrorInfo (an ErrorInfo-shaped object is kept as it is). Errors the page and the
 * worker make up themselves (a worker that failed, an exception) take `kind`, by default "invalid", the library's
 * own default kind; so does an ErrorInfo-shaped value without a kind.
 */
export function toErrorInfo(thrown: unknown, what = "internal", kind: ErrorKind = "invalid"): ErrorInfo {
  if (thrown instanceof BackendError) return thrown.info;
  if (isErrorInfo(thrown)) {
    const record = thrown as unknown as Record<string, unknown>;
    const info: ErrorInfo = { kind: isErrorKind(record["kind"]) ? record["kind"] : kind, what: thrown.what };
    if (typeof record["at"] === "string") info.at = record["at"];
    if (typeof record["detail"] === "string") info.detail = record["detail"];
    return info;
  }
  if (thrown instanceof Error) return { kind, what, detail: thrown.message };
  return { kind, what, detail: String(thrown) };
}

/**
 * Whether `value` has the shape of an ErrorInfo (`at` and `detail` may also be null, as serde writes None; `kind`
 * may be missing, and toErrorInfo then supplies it).
 */
export function isErrorInfo(value: unknown): value is ErrorInfo {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record["what"] === "string" &&
    (record["kind"] === undefined || typeof record["kind"] === "string") &&
    (record["at"] === undefined || record["at"] === null || typeof record["at"] === "string") &&
    (record["detail"] === undefined || record["detail"] === null || typeof record["detail"] === "string")
  );
}

/** A thrown ErrorInfo, so that backends can fail with the protocol's error shape. */
export class BackendError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(formatError(info));
  }
}
