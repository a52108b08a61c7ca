// The message protocol between the viewer page and the worker that hosts Iridia's wasm module.
//
// Every data shape the backend answers with is a Rust type of src/viewer_api/types.rs, whose TypeScript declaration
// ts-rs renders into protocol-types.generated.ts (a Rust test fails when that file and the Rust types drift:
// `IRIDIA_UPDATE_PROTOCOL=1 cargo test --lib viewer_api` rewrites it); this file re-exports them and declares by
// hand only what has no Rust twin: the requests, the envelope, and the lists and guards the page needs at run time.
// How the shapes cross: field names are snake_case; a union with a `kind` (or `state`) member is an internally
// tagged enum; `T | null` is an `Option<T>` (serialized as null by serde-wasm-bindgen's
// `Serializer::json_compatible()`; wasm-backend.ts also accepts undefined) and `?:` one that may be left out;
// `Uint8Array` is a `Vec<u8>` sent as bytes; numbers are JavaScript numbers (u64 counts included: none reaches 2^53).
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

import type {
  BlendResult,
  CaptureSummary as ManifestSummary,
  ChannelDifference,
  ChannelStats,
  ChannelValue,
  CompareResult,
  ComponentKind,
  DepthResult,
  Disassembly,
  DisassemblyLine,
  DisplayOptions,
  Limits,
  DrawInfo,
  DrawStatus,
  ExplainResult,
  ExplainRow,
  ErrorInfo,
  ErrorKind,
  FragmentOutcome,
  FragmentRecord,
  ImageKind,
  PixelCoord,
  PixelBounds,
  PixelHistory,
  PixelVerdictKind,
  ProgramInfo,
  ProgramTrace,
  RegisterValue,
  RenderedImage,
  ReplaySummary,
  ResolveInfo,
  DispatchInfo,
  DispatchElement,
  DispatchResult,
  ProgramEditResult,
  EditChange,
  DispatchThread,
  DispatchView,
  ElementWriteInfo,
  WriterTraceInfo,
  ShownChannels,
  Stage,
  SampleResult,
  StencilResult,
  StepProgress,
  TargetComparison,
  TargetId,
  TargetInfo,
  TexelReadout,
  TexelValue,
  TraceStep,
  UnrecordedDrawInfo,
  OutlineRowInfo,
  OutlineRowKind,
  ValueRange,
  VariantInfo,
  VertexRecord,
} from "./protocol-types.generated";

export type {
  BlendResult,
  ChannelDifference,
  ChannelStats,
  ChannelValue,
  CompareResult,
  ComponentKind,
  DepthResult,
  Disassembly,
  DisassemblyLine,
  DisplayOptions,
  Limits,
  DrawInfo,
  DrawStatus,
  ExplainResult,
  ExplainRow,
  ErrorInfo,
  ErrorKind,
  FragmentOutcome,
  FragmentRecord,
  ImageKind,
  ManifestSummary,
  PixelCoord,
  PixelBounds,
  PixelHistory,
  PixelVerdictKind,
  ProgramInfo,
  ProgramTrace,
  RegisterValue,
  RenderedImage,
  ReplaySummary,
  ResolveInfo,
  DispatchInfo,
  DispatchElement,
  DispatchResult,
  ProgramEditResult,
  EditChange,
  DispatchThread,
  DispatchView,
  ElementWriteInfo,
  WriterTraceInfo,
  ShownChannels,
  Stage,
  SampleResult,
  StencilResult,
  StepProgress,
  TargetComparison,
  TargetId,
  TargetInfo,
  TexelReadout,
  TexelValue,
  TraceStep,
  UnrecordedDrawInfo,
  OutlineRowInfo,
  OutlineRowKind,
  ValueRange,
  VariantInfo,
  VertexRecord,
};

/** The version of this protocol; the worker states it in `ready`, the page refuses a worker with another one. */
export const PROTOCOL_VERSION = 1;

/** The longest a long request may go without a progress message, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 200;

// ---------------------------------------------------------------------------------------------------------------
// Identifiers, and the lists of the generated unions the page offers

/** A capture opened in the worker, as `open_capture` numbered it; valid until `close_capture`. */
export type CaptureId = number;

/** A draw: its position in the capture's manifest, from 0, in submission order. */
export type DrawIndex = number;

/** A program stage the viewer's editor edits. */
export type EditStage = "vs" | "ps";

/** The render-target slots a draw can write, the depth plane and the stencil plane of its depth-stencil view. */
export const TARGET_IDS: readonly TargetId[] = Object.keys({
  rt0: true,
  rt1: true,
  rt2: true,
  rt3: true,
  rt4: true,
  rt5: true,
  rt6: true,
  rt7: true,
  depth: true,
  stencil: true,
} satisfies Record<TargetId, true>) as TargetId[];

/** Whether `value` names a target. */
export function isTargetId(value: string): value is TargetId {
  return (TARGET_IDS as readonly string[]).includes(value);
}

/** Every image kind, in the order the viewer offers them. */
export const IMAGE_KINDS: readonly ImageKind[] = Object.keys({
  replayed: true,
  recorded: true,
  before: true,
  difference: true,
  heatmap: true,
  perceptual: true,
} satisfies Record<ImageKind, true>) as ImageKind[];

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

/** What `open_capture` learns from the archive's directory and manifest, with the number the worker gave it. */
export interface CaptureSummary extends ManifestSummary {
  capture: CaptureId;
}

/** Progress of a long request: `done` of `total` units of `stage` (e.g. "vertices", "primitives"). */
export type Progress = Omit<StepProgress, "finished">;

// ---------------------------------------------------------------------------------------------------------------
// Requests and their results

/**
 * Where a capture's bytes are: in a buffer (transferred to the worker and copied into the module), in a Blob or File
 * (read by position in the worker: only what is needed, never copied whole), or at a URL whose server answers byte
 * ranges (read by synchronous range requests in the worker) with its length in bytes.
 */
export type CaptureData = { bytes: ArrayBuffer } | { blob: Blob } | { url: string; length: number };

/** What the page can ask the worker. */
export type Request =
  /** Opens a capture. Reads the directory and manifest only. */
  | ({ kind: "open_capture"; name: string } & CaptureData)
  /** Sets the limits (memory, work) later replays of the capture run under; answers with them. */
  | { kind: "set_limits"; capture: CaptureId; limits: Limits }
  /** Sets the variants later replays run under, by name (empty: the spec's rules); drops every replay made under others. */
  | { kind: "set_variants"; capture: CaptureId; variants: string[] }
  /** Replays a draw under every set of variants and names the set that reproduces its recorded target. Long: sends progress, cancellable. */
  | { kind: "explain"; capture: CaptureId; draw: DrawIndex }
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
      /** A multisampled colour target's samples resolved (the box average) to one image. */
      resolved: boolean;
    }
  /** A thumbnail of a draw's main target as recorded (rt0, else depth), at most `max_width` × `max_height` (each at most 256); needs no replay. */
  | { kind: "thumbnail"; capture: CaptureId; draw: DrawIndex; max_width: number; max_height: number }
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
  | { kind: "inspect_pixel"; capture: CaptureId; draw: DrawIndex; target: TargetId; x: number; y: number; sample: number }
  /** The pixel program's trace for one fragment of a pixel (`fragment` is `FragmentRecord.order`). */
  | { kind: "trace_pixel"; capture: CaptureId; draw: DrawIndex; x: number; y: number; fragment: number }
  /** The vertex program's trace for one vertex. */
  | { kind: "trace_vertex"; capture: CaptureId; draw: DrawIndex; vertex_id: number; instance_id: number }
  /** A program's disassembly. */
  | { kind: "disassemble"; capture: CaptureId; draw: DrawIndex; stage: Stage }
  /** A draw's program (edited, if it is) as a listing to edit. */
  | { kind: "program_listing"; capture: CaptureId; draw: DrawIndex; stage: EditStage }
  /** Assembles an edited listing and, if it assembles, makes it the draw's program for its next replays. */
  | { kind: "edit_program"; capture: CaptureId; draw: DrawIndex; stage: EditStage; listing: string }
  /** What a draw's edit changed from its replay with the recorded programs: per target, the changed texels. */
  | { kind: "edit_changes"; capture: CaptureId; draw: DrawIndex }
  /** Drops a draw's edit of a stage (every stage's when null): its next replay runs the recorded program. */
  | { kind: "clear_program_edit"; capture: CaptureId; draw: DrawIndex; stage: EditStage | null }
  /** Replays a dispatch of the frame (its list status then says how its views compare); answers with its views. */
  | { kind: "replay_dispatch"; capture: CaptureId; dispatch: number }
  /** Renders one image (replayed, recorded, before, difference) of view u`slot` of a replayed dispatch. */
  | { kind: "render_dispatch_view"; capture: CaptureId; dispatch: number; slot: number; image: ImageKind; display: DisplayOptions }
  /** The element at (x, y) of view u`slot`'s image of a replayed dispatch: its values and the threads that wrote it. */
  | { kind: "inspect_dispatch_element"; capture: CaptureId; dispatch: number; slot: number; x: number; y: number }
  /** The hidden counter of an append or counter view u`slot` of a replayed dispatch: the threads that took or gave back slots. */
  | { kind: "inspect_dispatch_counter"; capture: CaptureId; dispatch: number; slot: number }
  /**
   * Makes the engine crash (a trap of the wasm module; the mock's imitation), so that tests can see the page recover.
   * The page itself never sends it.
   */
  | { kind: "crash_for_test" };

/** The `kind` of a request. */
export type RequestKind = Request["kind"];

/** The request of a given kind. */
export type RequestOf<K extends RequestKind> = Extract<Request, { kind: K }>;

/** The result each request kind answers with. */
export interface ResultMap {
  open_capture: CaptureSummary;
  set_limits: Limits;
  set_variants: string[];
  explain: ExplainResult;
  close_capture: null;
  list_draws: DrawInfo[];
  replay: ReplaySummary;
  compare: CompareResult;
  render_target: RenderedImage;
  thumbnail: RenderedImage;
  read_texels: TexelReadout;
  find_difference: PixelCoord | null;
  inspect_pixel: PixelHistory;
  trace_pixel: ProgramTrace;
  trace_vertex: ProgramTrace;
  disassemble: Disassembly;
  program_listing: string;
  edit_program: ProgramEditResult;
  edit_changes: EditChange[];
  clear_program_edit: null;
  replay_dispatch: DispatchResult;
  render_dispatch_view: RenderedImage;
  inspect_dispatch_element: DispatchElement;
  inspect_dispatch_counter: DispatchElement;
  crash_for_test: null;
}

/** The result of a request of kind K. */
export type ResultOf<K extends RequestKind> = ResultMap[K];

// ---------------------------------------------------------------------------------------------------------------
// Envelope

/** Messages from the page to the worker. */
export type ToWorker = { type: "request"; id: number; request: Request } | { type: "cancel"; id: number };

/** Messages from the worker to the page. */
export type FromWorker =
  /** Sent once when the worker has loaded its backend (or failed to: then `error` says why). */
  | { type: "ready"; protocol: number; backend: "wasm" | "mock"; version: string; error: ErrorInfo | null }
  | ({ type: "progress"; id: number } & Progress)
  | { type: "response"; id: number; ok: true; result: ResultOf<RequestKind> }
  | { type: "response"; id: number; ok: false; error: ErrorInfo }
  /** An error that belongs to no request (an uncaught exception in the worker). */
  | { type: "fault"; error: ErrorInfo }
  /**
   * The engine crashed (the wasm module trapped: a bug, its memory no longer trustworthy): every open capture is
   * gone and every later request fails. The page replaces the worker. Sent once, after the failed request's answer.
   */
  | { type: "crashed"; error: ErrorInfo };

/** A readable one-line form of an error: "what at at: detail". */
export function formatError(error: ErrorInfo): string {
  let text = error.what;
  if (error.at !== undefined && error.at !== "") text += ` at ${error.at}`;
  if (error.detail !== undefined && error.detail !== "") text += `: ${error.detail}`;
  return text;
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
