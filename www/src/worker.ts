// The viewer's Web Worker: hosts Iridia's wasm module (wasm-backend.ts, which alone knows its exports) or, with
// `?mock` in the worker's URL, the mock backend, and answers the page's requests (protocol.ts) through backend.ts's
// host. Every error is reported to the page: a request's as its answer, any other as a `fault` message.
//
// The mock is imported dynamically, and only under `?mock`: esbuild puts it in a chunk of its own
// (scripts/build-www.mjs), so the production worker neither contains nor fetches it (tests/www/bundle.test.ts).

import { type Backend, createHost } from "./backend";
import { type FromWorker, type ToWorker, toErrorInfo } from "./protocol";
import { loadWasmBackend } from "./wasm-backend";

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

const scope = self as unknown as WorkerScope;
const post = (message: FromWorker, transfer: Transferable[]): void => scope.postMessage(message, transfer);
const useMock = new URL(scope.location.href).searchParams.has("mock");
const moduleUrl = new URL(MODULE_PATH, import.meta.url).href;
const backend: Promise<Backend> = useMock
  ? import("./mock-backend").then((mock) => mock.createMockBackend())
  : loadWasmBackend(() => import(moduleUrl), moduleUrl);
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
  post({ type: "fault", error: { kind: "invalid", what: "worker", detail: event.message } }, []);
});
scope.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  post({ type: "fault", error: toErrorInfo(event.reason, "worker") }, []);
});
