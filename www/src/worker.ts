// The viewer's Web Worker: hosts Iridia's wasm module (or, with `?mock` in its URL, the mock backend) and answers
// the page's requests (protocol.ts) through backend.ts's host.
//
// This file is the only place that knows the wasm module's exported names. It expects wasm-bindgen `--target web`
// output in www/pkg/iridia.js (scripts/build-wasm.sh) with these exports; every value crossing is a protocol.ts shape
// serialized with serde-wasm-bindgen, and every failure is thrown as a serialized ErrorInfo
// (`Err(JsValue)` of `crate::Error { what, at, detail }`):
//
//   default(): Promise                     wasm-bindgen's init (fetches iridia_bg.wasm beside the script)
//   version(): string                      the crate's version (exists)
//   open_capture(bytes: Uint8Array, name: string): Capture
//                                          reads the ZIP directory and manifest only; fails on a bad archive
//   class Capture {
//     summary(): Omit<CaptureSummary, "capture">
//     draws(): DrawInfo[]
//     begin_replay(draw: number): Replay   starts a replay; inflates only that draw's blobs
//     compare(draw: number): CompareResult
//     render_target(draw: number, target: TargetId, image: ImageKind, display: DisplayOptions): RenderedImage
//     read_texels(draw: number, target: TargetId, x: number, y: number): TexelReadout
//     find_difference(draw: number, target: TargetId, x: number, y: number, backwards: boolean): PixelCoord | null
//     inspect_pixel(draw: number, target: TargetId, x: number, y: number): PixelHistory
//     trace_pixel(draw: number, x: number, y: number, fragment: number): ProgramTrace
//     trace_vertex(draw: number, vertex_id: number, instance_id: number): ProgramTrace
//     disassemble(draw: number, stage: Stage): Disassembly
//     free(): void                         (wasm-bindgen's)
//   }
//   class Replay {                         a replay in steps, so that the worker can report progress and cancel
//     step(budget: number): Progress & { finished: boolean }
//                                          does at most `budget` units of work (primitives, say) and says how far
//     finish(): ReplaySummary              after `finished`; records the result in the Capture
//     free(): void
//   }

import { type Backend, type Handlers, type JobContext, createHost } from "./backend";
import { createMockBackend } from "./mock-backend";
import {
  BackendError,
  type CaptureSummary,
  type CompareResult,
  type Disassembly,
  type DrawInfo,
  type FromWorker,
  type PixelCoord,
  type PixelHistory,
  type ProgramTrace,
  type Progress,
  type RenderedImage,
  type ReplaySummary,
  type TexelReadout,
  type ToWorker,
  toErrorInfo,
} from "./protocol";

/** What the worker uses of its global scope (the page's DOM typings do not describe a worker's). */
interface WorkerScope {
  readonly location: { readonly href: string };
  postMessage(message: FromWorker, transfer: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ToWorker>) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
  addEventListener(type: "unhandledrejection", listener: (event: PromiseRejectionEvent) => void): void;
}

/** Where the wasm-bindgen glue is, relative to this script (www/dist/worker.js → www/pkg/iridia.js). */
const MODULE_PATH = "../pkg/iridia.js";

/** Names the module must export for the viewer to work. */
const REQUIRED_EXPORTS = ["default", "version", "open_capture"] as const;

/** Calls a method of a wasm-bindgen object by name, failing with a clear error when the module lacks it. */
function call(target: object, name: string, ...args: unknown[]): unknown {
  const method: unknown = (target as Record<string, unknown>)[name];
  if (typeof method !== "function")
    throw new BackendError({
      what: "wasm",
      detail: `the wasm module has no ${name}(): its viewer API does not match this page (see www/src/worker.ts)`,
    });
  return (method as (...parameters: unknown[]) => unknown).apply(target, args);
}

/** A wasm-bindgen object returned by the module, whose methods return protocol shapes. */
function asObject(value: unknown, what: string): object {
  if (typeof value !== "object" || value === null)
    throw new BackendError({ what: "wasm", detail: `${what} returned ${String(value)}, not an object` });
  return value;
}

/** The replay budget (units of work per step) starts here and adapts so that each step takes about STEP_MS. */
const INITIAL_BUDGET = 16;
const STEP_MS = 50;

/** Loads the wasm module and wraps it as a Backend. */
async function loadWasmBackend(): Promise<Backend> {
  const url = new URL(MODULE_PATH, import.meta.url).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (thrown: unknown) {
    throw new BackendError({
      what: "wasm",
      at: url,
      detail: `the wasm module could not be loaded (${toErrorInfo(thrown).detail ?? "unknown error"}); build it with scripts/build-wasm.sh`,
    });
  }
  await call(module, "default");
  const version = String(call(module, "version"));
  const missing = REQUIRED_EXPORTS.filter((name) => typeof module[name] !== "function");
  if (missing.length > 0)
    throw new BackendError({
      what: "wasm",
      at: url,
      detail: `iridia ${version} does not export ${missing.join(", ")}: this build has no viewer API yet`,
    });

  const captures = new Map<number, object>();
  let nextCapture = 1;
  const capture = (id: number): object => {
    const found = captures.get(id);
    if (found === undefined) throw new BackendError({ what: "request", detail: `no open capture ${id}` });
    return found;
  };

  const handlers: Handlers = {
    open_capture: async (request, job) => {
      job.progress({ stage: "reading the archive", done: 0, total: 1 });
      const opened = asObject(call(module, "open_capture", new Uint8Array(request.bytes), request.name), "open_capture");
      const id = nextCapture++;
      captures.set(id, opened);
      const summary = call(opened, "summary") as Omit<CaptureSummary, "capture">;
      return { ...summary, capture: id };
    },
    close_capture: async (request) => {
      const found = captures.get(request.capture);
      captures.delete(request.capture);
      if (found !== undefined) call(found, "free");
      return null;
    },
    list_draws: async (request) => call(capture(request.capture), "draws") as DrawInfo[],
    replay: async (request, job: JobContext) => {
      const replay = asObject(call(capture(request.capture), "begin_replay", request.draw), "begin_replay");
      try {
        let budget = INITIAL_BUDGET;
        for (;;) {
          const started = performance.now();
          const progress = call(replay, "step", budget) as Progress & { finished: boolean };
          const took = performance.now() - started;
          job.progress({ stage: progress.stage, done: progress.done, total: progress.total });
          if (progress.finished) break;
          // keep each step near STEP_MS: well inside the protocol's progress interval, and cancellable in time
          if (took < STEP_MS / 2) budget = Math.min(budget * 2, 1 << 20);
          else if (took > STEP_MS * 2) budget = Math.max(1, Math.floor(budget / 2));
          await job.pause();
        }
        return call(replay, "finish") as ReplaySummary;
      } finally {
        call(replay, "free");
      }
    },
    compare: async (request) => call(capture(request.capture), "compare", request.draw) as CompareResult,
    render_target: async (request) =>
      call(
        capture(request.capture),
        "render_target",
        request.draw,
        request.target,
        request.image,
        request.display,
      ) as RenderedImage,
    read_texels: async (request) =>
      call(capture(request.capture), "read_texels", request.draw, request.target, request.x, request.y) as TexelReadout,
    find_difference: async (request) =>
      (call(
        capture(request.capture),
        "find_difference",
        request.draw,
        request.target,
        request.x,
        request.y,
        request.backwards,
      ) ?? null) as PixelCoord | null,
    inspect_pixel: async (request) =>
      call(capture(request.capture), "inspect_pixel", request.draw, request.target, request.x, request.y) as PixelHistory,
    trace_pixel: async (request) =>
      call(capture(request.capture), "trace_pixel", request.draw, request.x, request.y, request.fragment) as ProgramTrace,
    trace_vertex: async (request) =>
      call(
        capture(request.capture),
        "trace_vertex",
        request.draw,
        request.vertex_id,
        request.instance_id,
      ) as ProgramTrace,
    disassemble: async (request) =>
      call(capture(request.capture), "disassemble", request.draw, request.stage) as Disassembly,
  };
  return { kind: "wasm", version, handlers };
}

const scope = self as unknown as WorkerScope;
const post = (message: FromWorker, transfer: Transferable[]): void => scope.postMessage(message, transfer);
const useMock = new URL(scope.location.href).searchParams.has("mock");
const backend: Promise<Backend> = useMock ? Promise.resolve(createMockBackend()) : loadWasmBackend();
const handle = createHost(backend, post);

scope.addEventListener("message", (event) => {
  try {
    handle(event.data);
  } catch (thrown: unknown) {
    post({ type: "fault", error: toErrorInfo(thrown, "worker") }, []);
  }
});
scope.addEventListener("error", (event) => {
  event.preventDefault();
  post({ type: "fault", error: { what: "worker", detail: event.message } }, []);
});
scope.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  post({ type: "fault", error: toErrorInfo(event.reason, "worker") }, []);
});
