// Iridia's wasm module as a Backend: the only place that knows the module's exported names (worker.ts loads it).
//
// It expects wasm-bindgen `--target web`
// output in www/pkg/iridia.js (scripts/build-wasm.sh) with the exports below. Values cross as protocol.ts shapes
// serialized with serde-wasm-bindgen's `Serializer::json_compatible()` (None as null, maps as objects), image bytes
// as `serde_bytes` (a Uint8Array); the worker still turns undefined into null and a plain array of bytes into a
// Uint8Array, so a module that misses those settings works too. Every failure is thrown as a serialized ErrorInfo
// (`Err(JsValue)` of `crate::Error { kind, what, at, detail }`).
//
//   default(): Promise                     wasm-bindgen's init (fetches iridia_bg.wasm beside the script)
//   version(): string                      the crate's version (exists)
//   open_capture_ranged(length: number, read: (offset: number, length: number) => Uint8Array, name: string): Capture
//                                          reads the ZIP directory and manifest only, by position (a File, HTTP byte
//                                          ranges or a buffer the worker holds): `read` gives exactly the bytes asked
//                                          for or throws; fails on a bad archive
//   crash_for_test(): never                panics (a trap), for the tests of the page's recovery
//   class Capture {
//     summary(): ManifestSummary              (CaptureSummary without the worker's capture number)
//     draws(): DrawInfo[]
//     replay_step(draw: number, budget: number): StepProgress (Progress & { finished: boolean })
//                                          starts the draw's replay (inflating only its blobs) or goes on with it,
//                                          doing at most `budget` units of work (say, primitives); the worker calls
//                                          it in a loop so that it can report progress and see a cancel between calls
//     replay_finish(draw: number): ReplaySummary
//                                          after `finished`: records the result, which the requests below then use
//     replay_abandon(draw: number): void   drops an unfinished replay (the page cancelled it)
//     set_variants(list: string): string[] the variants later replays run under (comma-separated names)
//     explain_step(draw: number): StepProgress
//                                          explains the draw one set of variants a call (the worker loops, as for replays)
//     explain_finish(draw: number): ExplainResult
//     explain_abandon(draw: number): void  drops an unfinished explanation
//     compare(draw: number): CompareResult
//     render_target(draw: number, target: TargetId, image: ImageKind, display: DisplayOptions, resolved: boolean): RenderedImage
//     thumbnail(draw: number, max_width: number, max_height: number): RenderedImage
//     read_texels(draw: number, target: TargetId, x: number, y: number): TexelReadout
//     find_difference(draw: number, target: TargetId, x: number, y: number, backwards: boolean): PixelCoord | null
//     inspect_pixel(draw: number, target: TargetId, x: number, y: number, sample: number): PixelHistory
//     trace_pixel(draw: number, x: number, y: number, fragment: number): ProgramTrace
//     trace_vertex(draw: number, vertex_id: number, instance_id: number): ProgramTrace
//     disassemble(draw: number, stage: Stage): Disassembly
//     program_listing(draw: number, stage: string): string
//                                          the draw's program (edited, if it is) as a listing
//     set_program_edit(draw: number, stage: string, listing: string): ProgramEditResult
//                                          assembles an edited listing; if it assembles, the draw's next replays run it
//     edit_changes(draw: number): EditChange[]   per target, the texels the draw's edit changed
//     clear_program_edit(draw: number, stage: string): void   drops an edit ("" every stage's)
//     replay_dispatch(dispatch: number): DispatchResult
//                                          replays a dispatch of the frame (bounded by the library's dispatch work limit)
//     render_dispatch_view(dispatch: number, slot: number, image: ImageKind, display: DisplayOptions): RenderedImage
//     inspect_dispatch_element(dispatch: number, slot: number, x: number, y: number): DispatchElement
//     inspect_dispatch_counter(dispatch: number, slot: number): DispatchElement
//     free(): void                         (wasm-bindgen's)
//   }

import type { Backend, Handlers, JobContext } from "./backend";
import {
  BackendError,
  type CompareResult,
  type Disassembly,
  type DispatchElement,
  type DispatchResult,
  type ProgramEditResult,
  type EditChange,
  type DrawInfo,
  type ManifestSummary,
  type PixelCoord,
  type PixelHistory,
  type ProgramTrace,
  type RenderedImage,
  type ReplaySummary,
  type StepProgress,
  type TexelReadout,
  type ErrorInfo,
  type ExplainResult,
  type Limits,
  toErrorInfo,
} from "./protocol";

/** Names the module must export for the viewer to work. */
const REQUIRED_EXPORTS = ["default", "version", "open_capture_ranged"] as const;

/**
 * A loaded module's health: `crash` says why it can no longer be used, set by its first trap (a Rust panic, an
 * allocation failure, a stack overflow), after which its memory is not trustworthy.
 */
interface Engine {
  crash: ErrorInfo | null;
}

/** Whether a thrown value is the engine's crash rather than an error it reported. */
function isTrap(thrown: unknown): boolean {
  return thrown instanceof WebAssembly.RuntimeError || (thrown instanceof RangeError && /call stack/i.test(thrown.message));
}

/** Reads `length` bytes at `offset` of a capture, or throws: what `open_capture_ranged` calls. */
type ReadAt = (offset: number, length: number) => Uint8Array;

/** The part of a worker's FileReaderSync the reader uses (the page's DOM typings do not describe it). */
interface FileReaderSyncLike {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** Reads a buffer the worker holds by position (views of it, which the module copies from). */
export function bufferReader(buffer: ArrayBuffer): ReadAt {
  return (offset, length) => new Uint8Array(buffer, offset, length);
}

/** Reads a Blob or File by position, synchronously: FileReaderSync, which dedicated workers have. */
export function blobReader(blob: Blob): ReadAt {
  const constructor = (globalThis as { FileReaderSync?: new () => FileReaderSyncLike }).FileReaderSync;
  if (constructor === undefined)
    throw new BackendError({ kind: "invalid", what: "worker", detail: "this worker cannot read files by position (it has no FileReaderSync)" });
  const reader = new constructor();
  return (offset, length) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, offset + length)));
}

/**
 * Reads a capture at a URL by position with synchronous HTTP range requests (allowed in workers), each checked: the
 * answer must be 206 with the range asked for, of a file of the length the capture was opened with.
 */
export function rangeRequestReader(url: string, fileLength: number): ReadAt {
  return (offset, length) => {
    const last = offset + length - 1;
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.setRequestHeader("Range", `bytes=${offset}-${last}`);
    request.responseType = "arraybuffer";
    request.send();
    const range = request.getResponseHeader("content-range");
    if (request.status !== 206 || range !== `bytes ${offset}-${last}/${fileLength}`)
      throw new Error(
        `asked ${url} for bytes ${offset}-${last} of ${fileLength}, it answered HTTP ${request.status}${range === null ? "" : ` (${range})`}: the file changed or the server does not serve byte ranges`,
      );
    return new Uint8Array(request.response as ArrayBuffer);
  };
}

/** Calls a method of a wasm-bindgen object by name, failing with a clear error when the module lacks it. */
function call(engine: Engine, target: object, name: string, ...args: unknown[]): unknown {
  const method: unknown = (target as Record<string, unknown>)[name];
  if (typeof method !== "function")
    throw new BackendError({
      kind: "invalid",
      what: "wasm",
      detail: `the wasm module has no ${name}(): its viewer API does not match this page (see www/src/worker.ts)`,
    });
  if (engine.crash !== null) throw new BackendError(engine.crash);
  let result: unknown;
  try {
    result = (method as (...parameters: unknown[]) => unknown).apply(target, args);
  } catch (thrown: unknown) {
    // the module throws serialized ErrorInfo values; a trap (a Rust panic) arrives as a RuntimeError
    if (isTrap(thrown)) {
      engine.crash = {
        kind: "invalid",
        what: "wasm",
        at: `${name}()`,
        detail: `the replay engine crashed (${String(thrown)}): a bug in Iridia, which the browser console's log describes`,
      };
      throw new BackendError(engine.crash);
    }
    throw new BackendError(toErrorInfo(thrown, "wasm"));
  }
  return normalized(result);
}

/**
 * A value from the module as the protocol's shapes have it: undefined members become null (serde-wasm-bindgen
 * writes None as undefined unless told otherwise) and an image's bytes a Uint8Array. Typed arrays and wasm-bindgen
 * objects are left as they are.
 */
export function normalized(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(normalized);
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype && !(value instanceof Map)) return value;
  const entries = value instanceof Map ? Array.from(value.entries()) : Object.entries(value);
  const out: Record<string, unknown> = {};
  for (const [key, member] of entries) {
    out[String(key)] = key === "rgba" && Array.isArray(member) ? Uint8Array.from(member as number[]) : normalized(member);
  }
  return out;
}

/** A wasm-bindgen object returned by the module, whose methods return protocol shapes. */
function asObject(value: unknown, what: string): object {
  if (typeof value !== "object" || value === null)
    throw new BackendError({ kind: "invalid", what: "wasm", detail: `${what} returned ${String(value)}, not an object` });
  return value;
}

/**
 * The replay's budget per step, in the library's units of work (a lane running one instruction; a primitive set up):
 * it starts at MIN_BUDGET and follows the rate the last step measured, so that each step takes about STEP_MS, by at
 * most a factor of 4 a step. It never drops below MIN_BUDGET (about a millisecond of work), so that a step's fixed
 * cost (the pause between steps, the progress message) stays small beside its work even when a busy machine makes
 * steps slow (a step's time includes the time the worker waited for a core).
 */
const MIN_BUDGET = 1 << 15;
const MAX_BUDGET = 1 << 26;
const STEP_MS = 50;

/** The budget after a step of `budget` units took `took` milliseconds (see MIN_BUDGET). */
export function nextBudget(budget: number, took: number): number {
  const wanted = (budget * STEP_MS) / Math.max(took, 0.5);
  const bounded = Math.min(budget * 4, Math.max(budget / 4, wanted));
  return Math.round(Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, bounded)));
}

/**
 * Loads the wasm module with `load` (the worker's dynamic import of `url`), initializes it, checks its exports and
 * wraps it as a Backend.
 */
export async function loadWasmBackend(load: () => Promise<unknown>, url: string): Promise<Backend> {
  const engine: Engine = { crash: null };
  const invoke = (target: object, name: string, ...args: unknown[]): unknown => call(engine, target, name, ...args);
  let module: Record<string, unknown>;
  try {
    const loaded = await load();
    if (typeof loaded !== "object" || loaded === null) throw new Error("the module is not an object");
    module = loaded as Record<string, unknown>;
  } catch (thrown: unknown) {
    throw new BackendError({
      kind: "invalid",
      what: "wasm",
      at: url,
      detail: `the wasm module could not be loaded (${toErrorInfo(thrown).detail ?? "unknown error"}); build it with scripts/build-wasm.sh`,
    });
  }
  await invoke(module, "default");
  const version = String(invoke(module, "version"));
  const missing = REQUIRED_EXPORTS.filter((name) => typeof module[name] !== "function");
  if (missing.length > 0)
    throw new BackendError({
      kind: "invalid",
      what: "wasm",
      at: url,
      detail: `iridia ${version} does not export ${missing.join(", ")}: this build has no viewer API yet`,
    });

  const captures = new Map<number, object>();
  let nextCapture = 1;
  const capture = (id: number): object => {
    const found = captures.get(id);
    if (found === undefined) throw new BackendError({ kind: "request", what: "request", detail: `no open capture ${id}` });
    return found;
  };

  const handlers: Handlers = {
    open_capture: async (request, job) => {
      job.progress({ stage: "reading the archive", done: 0, total: 1 });
      // every capture is read by position, even one the worker holds whole: the module copies only what it reads
      const [length, read] =
        "bytes" in request
          ? [request.bytes.byteLength, bufferReader(request.bytes)]
          : "blob" in request
            ? [request.blob.size, blobReader(request.blob)]
            : [request.length, rangeRequestReader(request.url, request.length)];
      const opened = asObject(invoke(module, "open_capture_ranged", length, read, request.name), "open_capture");
      const id = nextCapture++;
      captures.set(id, opened);
      const summary = invoke(opened, "summary") as ManifestSummary;
      return { ...summary, capture: id };
    },
    set_limits: async (request) => invoke(capture(request.capture), "set_limits", request.limits) as Limits,
    set_variants: async (request) => invoke(capture(request.capture), "set_variants", request.variants.join(",")) as string[],
    explain: async (request, job: JobContext) => {
      const opened = capture(request.capture);
      let finished = false;
      try {
        while (!finished) {
          const progress = invoke(opened, "explain_step", request.draw) as StepProgress;
          job.progress({ stage: progress.stage, done: progress.done, total: progress.total });
          finished = progress.finished;
          if (!finished) await job.pause();
        }
        return invoke(opened, "explain_finish", request.draw) as ExplainResult;
      } finally {
        if (!finished) invoke(opened, "explain_abandon", request.draw);
      }
    },
    close_capture: async (request) => {
      const found = captures.get(request.capture);
      captures.delete(request.capture);
      if (found !== undefined) invoke(found, "free");
      return null;
    },
    list_draws: async (request) => invoke(capture(request.capture), "draws") as DrawInfo[],
    replay: async (request, job: JobContext) => {
      const opened = capture(request.capture);
      let finished = false;
      try {
        let budget = MIN_BUDGET;
        while (!finished) {
          const started = performance.now();
          const progress = invoke(opened, "replay_step", request.draw, budget) as StepProgress;
          const took = performance.now() - started;
          job.progress({ stage: progress.stage, done: progress.done, total: progress.total });
          finished = progress.finished;
          // keep each step near STEP_MS: well inside the protocol's progress interval, and cancellable in time
          budget = nextBudget(budget, took);
          if (!finished) await job.pause();
        }
        return invoke(opened, "replay_finish", request.draw) as ReplaySummary;
      } finally {
        if (!finished) invoke(opened, "replay_abandon", request.draw);
      }
    },
    compare: async (request) => invoke(capture(request.capture), "compare", request.draw) as CompareResult,
    render_target: async (request) =>
      invoke(
        capture(request.capture),
        "render_target",
        request.draw,
        request.target,
        request.image,
        request.display,
        request.resolved,
      ) as RenderedImage,
    thumbnail: async (request) =>
      invoke(capture(request.capture), "thumbnail", request.draw, request.max_width, request.max_height) as RenderedImage,
    read_texels: async (request) =>
      invoke(capture(request.capture), "read_texels", request.draw, request.target, request.x, request.y) as TexelReadout,
    find_difference: async (request) =>
      (invoke(
        capture(request.capture),
        "find_difference",
        request.draw,
        request.target,
        request.x,
        request.y,
        request.backwards,
      )) as PixelCoord | null,
    inspect_pixel: async (request) =>
      invoke(capture(request.capture), "inspect_pixel", request.draw, request.target, request.x, request.y, request.sample) as PixelHistory,
    trace_pixel: async (request) =>
      invoke(capture(request.capture), "trace_pixel", request.draw, request.x, request.y, request.fragment) as ProgramTrace,
    trace_vertex: async (request) =>
      invoke(
        capture(request.capture),
        "trace_vertex",
        request.draw,
        request.vertex_id,
        request.instance_id,
      ) as ProgramTrace,
    disassemble: async (request) =>
      invoke(capture(request.capture), "disassemble", request.draw, request.stage) as Disassembly,
    program_listing: async (request) => invoke(capture(request.capture), "program_listing", request.draw, request.stage) as string,
    edit_program: async (request) =>
      invoke(capture(request.capture), "set_program_edit", request.draw, request.stage, request.listing) as ProgramEditResult,
    edit_changes: async (request) => invoke(capture(request.capture), "edit_changes", request.draw) as EditChange[],
    clear_program_edit: async (request) => {
      invoke(capture(request.capture), "clear_program_edit", request.draw, request.stage ?? "");
      return null;
    },
    replay_dispatch: async (request) => invoke(capture(request.capture), "replay_dispatch", request.dispatch) as DispatchResult,
    render_dispatch_view: async (request) =>
      invoke(capture(request.capture), "render_dispatch_view", request.dispatch, request.slot, request.image, request.display) as RenderedImage,
    inspect_dispatch_element: async (request) =>
      invoke(capture(request.capture), "inspect_dispatch_element", request.dispatch, request.slot, request.x, request.y) as DispatchElement,
    inspect_dispatch_counter: async (request) =>
      invoke(capture(request.capture), "inspect_dispatch_counter", request.dispatch, request.slot) as DispatchElement,
    crash_for_test: async () => {
      invoke(module, "crash_for_test");
      return null;
    },
  };
  return { kind: "wasm", version, handlers, crashed: () => engine.crash };
}
