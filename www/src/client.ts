// The page's side of the protocol: sends requests to the worker, matches answers to them by id, delivers progress,
// and cancels through an AbortSignal.

import {
  type ErrorInfo,
  type FromWorker,
  type Progress,
  type RequestKind,
  type RequestOf,
  type ResultOf,
  type ToWorker,
  BackendError,
  PROTOCOL_VERSION,
} from "./protocol";

/** The worker as the client sees it: a place to send messages, and where its messages and failures arrive. */
export interface Endpoint {
  send(message: ToWorker, transfer: Transferable[]): void;
  /** Calls `onMessage` with each message from the worker and `onFailure` if the worker itself fails. */
  listen(onMessage: (message: FromWorker) => void, onFailure: (error: ErrorInfo) => void): void;
  /** Ends the worker (it is being replaced). */
  close?(): void;
}

/** A dedicated module worker as an Endpoint. */
export function workerEndpoint(worker: Worker): Endpoint {
  return {
    send: (message, transfer) => worker.postMessage(message, transfer),
    listen: (onMessage, onFailure) => {
      worker.addEventListener("message", (event: MessageEvent<FromWorker>) => onMessage(event.data));
      worker.addEventListener("error", (event: ErrorEvent) => {
        event.preventDefault();
        onFailure({ kind: "invalid", what: "worker", detail: event.message || "the worker failed to start or crashed" });
      });
      worker.addEventListener("messageerror", () => onFailure({ kind: "invalid", what: "worker", detail: "a message could not be read" }));
    },
    close: () => worker.terminate(),
  };
}

/** What the worker said when it loaded its backend. */
export interface ReadyInfo {
  backend: "wasm" | "mock";
  version: string;
}

/** Options of one request. */
export interface RequestOptions {
  onProgress?: (progress: Progress) => void;
  /** Aborting it cancels the request; the promise then rejects with the cancellation error. */
  signal?: AbortSignal;
  /** Buffers to transfer to the worker rather than copy (e.g. a capture's bytes). */
  transfer?: Transferable[];
}

interface Pending {
  resolve: (result: ResultOf<RequestKind>) => void;
  reject: (error: BackendError) => void;
  onProgress: ((progress: Progress) => void) | undefined;
}

/** Whether an error is the one a cancelled request ends with. */
export function isCancelled(error: unknown): boolean {
  return error instanceof BackendError && error.info.kind === "cancelled";
}

/**
 * Talks to the worker. When the engine in it crashes (a `crashed` message), every waiting request fails with the
 * crash, the crash listeners hear of it, and `restart` puts a new worker in its place.
 */
export class BackendClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: ErrorInfo | null = null;
  private readonly faultListeners: ((error: ErrorInfo) => void)[] = [];
  private readonly crashListeners: ((error: ErrorInfo) => void)[] = [];
  /** Counts the workers connected, so that a replaced one's late messages are ignored. */
  private connection = 0;
  private endpoint: Endpoint;
  /** Resolves when the backend has loaded; rejects with why it could not. Replaced by `restart`. */
  ready!: Promise<ReadyInfo>;

  constructor(endpoint: Endpoint) {
    this.endpoint = endpoint;
    this.connect(endpoint);
  }

  /** Replaces the worker (after a crash): ends the old one, fails what still waits for it, and starts over. */
  restart(endpoint: Endpoint): void {
    this.endpoint.close?.();
    const gone: ErrorInfo = this.failure ?? { kind: "invalid", what: "worker", detail: "the worker was replaced" };
    for (const pending of this.pending.values()) pending.reject(new BackendError(gone));
    this.pending.clear();
    this.failure = null;
    this.endpoint = endpoint;
    this.connect(endpoint);
  }

  /** Calls `listener` when the engine crashes (its open captures are gone; see `restart`). */
  onCrash(listener: (error: ErrorInfo) => void): void {
    this.crashListeners.push(listener);
  }

  /** Listens to a worker: its ready message, progress, answers, faults and failure. */
  private connect(endpoint: Endpoint): void {
    const connection = ++this.connection;
    const current = (): boolean => connection === this.connection;
    let resolveReady: (info: ReadyInfo) => void = () => undefined;
    let rejectReady: (error: BackendError) => void = () => undefined;
    this.ready = new Promise<ReadyInfo>((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    // a rejection nobody awaits yet must not surface as an unhandled one
    this.ready.catch(() => undefined);
    endpoint.listen(
      (message) => {
        if (!current()) return;
        switch (message.type) {
          case "ready":
            if (message.error !== null) rejectReady(new BackendError(message.error));
            else if (message.protocol !== PROTOCOL_VERSION)
              rejectReady(
                new BackendError({
                  kind: "invalid",
                  what: "worker",
                  detail: `the worker speaks protocol ${message.protocol}, the page ${PROTOCOL_VERSION}`,
                }),
              );
            else resolveReady({ backend: message.backend, version: message.version });
            break;
          case "progress": {
            const pending = this.pending.get(message.id);
            pending?.onProgress?.({ stage: message.stage, done: message.done, total: message.total });
            break;
          }
          case "response": {
            const pending = this.pending.get(message.id);
            if (pending === undefined) break;
            this.pending.delete(message.id);
            if (message.ok) pending.resolve(message.result);
            else pending.reject(new BackendError(message.error));
            break;
          }
          case "fault":
            for (const listener of this.faultListeners) listener(message.error);
            break;
          case "crashed":
            this.failure = message.error;
            for (const pending of this.pending.values()) pending.reject(new BackendError(message.error));
            this.pending.clear();
            for (const listener of this.crashListeners) listener(message.error);
            break;
        }
      },
      (error) => {
        if (!current()) return;
        this.failure = error;
        rejectReady(new BackendError(error));
        for (const pending of this.pending.values()) pending.reject(new BackendError(error));
        this.pending.clear();
        for (const listener of this.faultListeners) listener(error);
      },
    );
  }

  /** Calls `listener` with errors that belong to no request (a crashed worker, an uncaught exception in it). */
  onFault(listener: (error: ErrorInfo) => void): void {
    this.faultListeners.push(listener);
  }

  /** Sends a request and resolves with its result, or rejects with a BackendError. */
  request<K extends RequestKind>(request: RequestOf<K>, options: RequestOptions = {}): Promise<ResultOf<K>> {
    if (this.failure !== null) return Promise.reject(new BackendError(this.failure));
    const signal = options.signal;
    if (signal?.aborted === true)
      return Promise.reject(new BackendError({ kind: "cancelled", what: "cancelled", detail: "the request was cancelled" }));
    const id = this.nextId++;
    return new Promise<ResultOf<K>>((resolve, reject) => {
      const onAbort = (): void => this.endpoint.send({ type: "cancel", id }, []);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        // the worker answers id with the result of this request's kind: the protocol ties the two together
        resolve: (result) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(result as ResultOf<K>);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
        onProgress: options.onProgress,
      });
      this.endpoint.send({ type: "request", id, request }, options.transfer ?? []);
    });
  }
}
