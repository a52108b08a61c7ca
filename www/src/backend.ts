// The worker's side of the protocol, independent of what answers the requests: a `Backend` (the wasm module, or the
// mock) handles each request; `createHost` runs requests as jobs, forwards their progress at a bounded rate, answers
// each exactly once, turns every failure into an ErrorInfo, and stops a job when the page cancels it.

import {
  type ErrorInfo,
  type FromWorker,
  type Progress,
  type Request,
  type RequestKind,
  type RequestOf,
  type ResultOf,
  type ToWorker,
  BackendError,
  PROTOCOL_VERSION,
  toErrorInfo,
} from "./protocol";

/** What a backend gets for the request it is running: progress reporting and cancellation. */
export interface JobContext {
  /** Whether the page has cancelled this request. */
  readonly cancelled: boolean;
  /** Throws the cancellation error when the page has cancelled this request. */
  checkCancelled(): void;
  /** Reports progress; the host forwards it at most every `minIntervalMs` (and always the last before an answer). */
  progress(progress: Progress): void;
  /** Lets the worker's event loop run (so that a cancel message can arrive), then checks for cancellation. */
  pause(): Promise<void>;
}

/** A handler for every request kind; a backend is one of these. */
export type Handlers = { [K in RequestKind]: (request: RequestOf<K>, job: JobContext) => Promise<ResultOf<K>> };

/** What answers the protocol's requests: the wasm module or the mock. */
export interface Backend {
  readonly kind: "wasm" | "mock";
  /** The library's version (or the mock's name). */
  readonly version: string;
  readonly handlers: Handlers;
  /** Why the engine can no longer be used (it crashed), or null while it can. */
  crashed(): ErrorInfo | null;
}

/** Runs one request on the handler for its kind. */
export function dispatch(handlers: Handlers, request: Request, job: JobContext): Promise<ResultOf<RequestKind>> {
  switch (request.kind) {
    case "open_capture":
      return handlers.open_capture(request, job);
    case "set_limits":
      return handlers.set_limits(request, job);
    case "set_variants":
      return handlers.set_variants(request, job);
    case "explain":
      return handlers.explain(request, job);
    case "close_capture":
      return handlers.close_capture(request, job);
    case "list_draws":
      return handlers.list_draws(request, job);
    case "replay":
      return handlers.replay(request, job);
    case "compare":
      return handlers.compare(request, job);
    case "render_target":
      return handlers.render_target(request, job);
    case "thumbnail":
      return handlers.thumbnail(request, job);
    case "read_texels":
      return handlers.read_texels(request, job);
    case "find_difference":
      return handlers.find_difference(request, job);
    case "inspect_pixel":
      return handlers.inspect_pixel(request, job);
    case "trace_pixel":
      return handlers.trace_pixel(request, job);
    case "trace_vertex":
      return handlers.trace_vertex(request, job);
    case "disassemble":
      return handlers.disassemble(request, job);
    case "program_listing":
      return handlers.program_listing(request, job);
    case "edit_program":
      return handlers.edit_program(request, job);
    case "edit_changes":
      return handlers.edit_changes(request, job);
    case "clear_program_edit":
      return handlers.clear_program_edit(request, job);
    case "replay_dispatch":
      return handlers.replay_dispatch(request, job);
    case "render_dispatch_view":
      return handlers.render_dispatch_view(request, job);
    case "inspect_dispatch_element":
      return handlers.inspect_dispatch_element(request, job);
    case "inspect_dispatch_counter":
      return handlers.inspect_dispatch_counter(request, job);
    case "crash_for_test":
      return handlers.crash_for_test(request, job);
  }
}

/** The error a cancelled job ends with. */
export function cancelledError(): BackendError {
  return new BackendError({ kind: "cancelled", what: "cancelled", detail: "the request was cancelled" });
}

/** Sends a message to the page, transferring the listed buffers. */
export type PostToPage = (message: FromWorker, transfer: Transferable[]) => void;

/** How the host paces progress messages. */
export interface HostOptions {
  /** The shortest interval between two progress messages of one job, in milliseconds. */
  minProgressIntervalMs: number;
  /** A clock in milliseconds (injectable for tests). */
  now: () => number;
}

const DEFAULT_HOST_OPTIONS: HostOptions = { minProgressIntervalMs: 100, now: () => performance.now() };

/** A running request. */
class Job implements JobContext {
  cancelled = false;
  private lastSent = Number.NEGATIVE_INFINITY;
  private pending: Progress | null = null;

  constructor(
    readonly id: number,
    private readonly post: PostToPage,
    private readonly options: HostOptions,
  ) {}

  checkCancelled(): void {
    if (this.cancelled) throw cancelledError();
  }

  progress(progress: Progress): void {
    const now = this.options.now();
    if (now - this.lastSent >= this.options.minProgressIntervalMs) {
      this.lastSent = now;
      this.pending = null;
      this.post({ type: "progress", id: this.id, ...progress }, []);
    } else {
      this.pending = progress;
    }
  }

  /** Sends the progress held back by the rate limit, so the page sees the final count. */
  flush(): void {
    if (this.pending !== null) {
      this.post({ type: "progress", id: this.id, ...this.pending }, []);
      this.pending = null;
    }
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.checkCancelled();
  }
}

/**
 * The buffers of a result that can be transferred rather than copied: a rendered image's pixels, when they own
 * their whole buffer.
 */
function transferables(result: unknown): Transferable[] {
  if (typeof result !== "object" || result === null) return [];
  const rgba = (result as Record<string, unknown>)["rgba"];
  if (rgba instanceof Uint8Array && rgba.byteOffset === 0 && rgba.byteLength === rgba.buffer.byteLength) {
    const buffer = rgba.buffer;
    if (buffer instanceof ArrayBuffer) return [buffer];
  }
  return [];
}

/**
 * Serves the protocol: returns the function to call with each message from the page. `backend` may fail to load;
 * then `ready` carries the error and every request is answered with it.
 */
export function createHost(
  backend: Promise<Backend>,
  post: PostToPage,
  options: Partial<HostOptions> = {},
): (message: ToWorker) => void {
  const settings: HostOptions = { ...DEFAULT_HOST_OPTIONS, ...options };
  const jobs = new Map<number, Job>();
  let loaded: Backend | null = null;
  let loadError: ErrorInfo | null = null;
  let crashReported = false;

  const ready = backend.then(
    (value) => {
      loaded = value;
      post({ type: "ready", protocol: PROTOCOL_VERSION, backend: value.kind, version: value.version, error: null }, []);
    },
    (thrown: unknown) => {
      loadError = toErrorInfo(thrown, "wasm");
      post({ type: "ready", protocol: PROTOCOL_VERSION, backend: "wasm", version: "", error: loadError }, []);
    },
  );

  async function run(id: number, request: Request): Promise<void> {
    const job = new Job(id, post, settings);
    jobs.set(id, job);
    try {
      await ready;
      if (loaded === null) throw new BackendError(loadError ?? { kind: "invalid", what: "wasm", detail: "the backend did not load" });
      job.checkCancelled();
      const result = await dispatch(loaded.handlers, request, job);
      job.checkCancelled();
      job.flush();
      post({ type: "response", id, ok: true, result }, transferables(result));
    } catch (thrown: unknown) {
      job.flush();
      post({ type: "response", id, ok: false, error: toErrorInfo(thrown) }, []);
      const crash = loaded?.crashed() ?? null;
      if (crash !== null && !crashReported) {
        crashReported = true;
        post({ type: "crashed", error: crash }, []);
      }
    } finally {
      jobs.delete(id);
    }
  }

  return (message: ToWorker): void => {
    if (message.type === "cancel") {
      const job = jobs.get(message.id);
      if (job !== undefined) job.cancelled = true;
      return;
    }
    void run(message.id, message.request);
  };
}
