// The page–worker protocol end to end, without a browser: the page's client and the worker's host joined by a
// message channel that clones (and transfers) messages as postMessage does, answering from the mock backend or from
// backends made to fail.

import assert from "node:assert/strict";
import { test } from "node:test";
import { type Backend, type Handlers, createHost } from "../../www/src/backend";
import { BackendClient, type Endpoint, isCancelled } from "../../www/src/client";
import { createMockBackend } from "../../www/src/mock-backend";
import {
  BackendError,
  type ErrorInfo,
  type FromWorker,
  type Progress,
  type ToWorker,
  toErrorInfo,
} from "../../www/src/protocol";

/** A client and host joined as a page and its worker would be; `sent` counts the messages each way. */
function connect(backend: Promise<Backend>): { client: BackendClient; toWorker: ToWorker[]; fromWorker: FromWorker[] } {
  const { endpoint, toWorker, fromWorker } = workerFor(backend);
  return { client: new BackendClient(endpoint), toWorker, fromWorker };
}

/** A host serving `backend` behind an endpoint, as a worker would be. */
function workerFor(backend: Promise<Backend>): { endpoint: Endpoint; toWorker: ToWorker[]; fromWorker: FromWorker[] } {
  const toWorker: ToWorker[] = [];
  const fromWorker: FromWorker[] = [];
  let deliver: (message: FromWorker) => void = () => undefined;
  const host = createHost(backend, (message, transfer) => {
    const copy = structuredClone(message, { transfer });
    fromWorker.push(copy);
    setTimeout(() => deliver(copy), 0);
  });
  const endpoint: Endpoint = {
    send: (message, transfer) => {
      const copy = structuredClone(message, { transfer });
      toWorker.push(copy);
      setTimeout(() => host(copy), 0);
    },
    listen: (onMessage) => {
      deliver = onMessage;
    },
  };
  return { endpoint, toWorker, fromWorker };
}

function captureBytes(text = "IRIDIA-MOCK test"): ArrayBuffer {
  return new TextEncoder().encode(text).buffer;
}

async function rejection(promise: Promise<unknown>): Promise<ErrorInfo> {
  try {
    await promise;
  } catch (error: unknown) {
    assert.ok(error instanceof BackendError, `expected a BackendError, got ${String(error)}`);
    return error.info;
  }
  assert.fail("the request succeeded");
}

test("the worker says it is ready with its backend and protocol version", async () => {
  const { client } = connect(Promise.resolve(createMockBackend()));
  assert.deepEqual(await client.ready, { backend: "mock", version: "mock" });
});

test("opening transfers the bytes, and a capture's draws can be replayed and compared", async () => {
  const { client } = connect(Promise.resolve(createMockBackend({ replayStepMs: 1 })));
  const bytes = captureBytes();
  const summary = await client.request({ kind: "open_capture", bytes, name: "t" }, { transfer: [bytes] });
  // transferred, not copied: the page's buffer is detached
  assert.equal(bytes.byteLength, 0);
  assert.equal(summary.size_bytes, "IRIDIA-MOCK test".length);
  const draws = await client.request({ kind: "list_draws", capture: summary.capture });
  assert.equal(draws.length, summary.draw_count);
  assert.ok(draws.every((draw) => draw.status.state === "not_replayed"));
  const progress: Progress[] = [];
  const replay = await client.request(
    { kind: "replay", capture: summary.capture, draw: 1 },
    { onProgress: (step) => progress.push(step) },
  );
  assert.ok(progress.length > 0, "a replay reports progress");
  const last = progress[progress.length - 1];
  assert.ok(last !== undefined && last.done === last.total, "the last progress message says the work is done");
  const comparison = await client.request({ kind: "compare", capture: summary.capture, draw: 1 });
  assert.deepEqual(comparison.status, replay.status);
  const listed = await client.request({ kind: "list_draws", capture: summary.capture });
  assert.deepEqual(listed[1]?.status, replay.status, "the list shows the replayed draw's status");
});

test("a file that is not a ZIP archive is refused with where and why", async () => {
  const { client } = connect(Promise.resolve(createMockBackend()));
  const error = await rejection(client.request({ kind: "open_capture", bytes: captureBytes("hello"), name: "x" }));
  assert.equal(error.kind, "invalid");
  assert.equal(error.what, "capture");
  assert.equal(error.at, "byte 0");
  assert.match(error.detail ?? "", /not a capture/);
});

test("a truncated ZIP archive is refused as corrupt", async () => {
  const { client } = connect(Promise.resolve(createMockBackend()));
  const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]).buffer;
  const error = await rejection(client.request({ kind: "open_capture", bytes, name: "x" }));
  assert.match(error.detail ?? "", /corrupt/);
});

test("aborting a replay cancels it in the worker", async () => {
  const { client, toWorker } = connect(Promise.resolve(createMockBackend({ replayStepMs: 20 })));
  const summary = await client.request({ kind: "open_capture", bytes: captureBytes(), name: "t" });
  const abort = new AbortController();
  const replay = client.request(
    { kind: "replay", capture: summary.capture, draw: 1 },
    { signal: abort.signal, onProgress: () => abort.abort() },
  );
  const error = await rejection(replay);
  assert.equal(error.kind, "cancelled");
  assert.ok(toWorker.some((message) => message.type === "cancel"), "the page sent a cancel message");
  // the draw was not marked replayed
  const draws = await client.request({ kind: "list_draws", capture: summary.capture });
  assert.equal(draws[1]?.status.state, "not_replayed");
});

test("an already aborted signal never reaches the worker", async () => {
  const { client, toWorker } = connect(Promise.resolve(createMockBackend()));
  const abort = new AbortController();
  abort.abort();
  const sent = toWorker.length;
  const error = client.request({ kind: "list_draws", capture: 1 }, { signal: abort.signal });
  await assert.rejects(error, (thrown: unknown) => isCancelled(thrown));
  assert.equal(toWorker.length, sent);
});

test("a replay that fails reports the backend's error and the draw's error status", async () => {
  const { client } = connect(Promise.resolve(createMockBackend({ replayStepMs: 1 })));
  const summary = await client.request({ kind: "open_capture", bytes: captureBytes(), name: "t" });
  const error = await rejection(client.request({ kind: "replay", capture: summary.capture, draw: 4 }));
  assert.equal(error.kind, "unsupported");
  const draws = await client.request({ kind: "list_draws", capture: summary.capture });
  assert.deepEqual(draws[4]?.status, { state: "error", error });
  // the capture stays usable: another draw replays
  const other = await client.request({ kind: "replay", capture: summary.capture, draw: 0 });
  assert.equal(other.status.state, "matches");
});

test("requests for things that do not exist fail with a request error, not a crash", async () => {
  const { client } = connect(Promise.resolve(createMockBackend({ replayStepMs: 1 })));
  assert.equal((await rejection(client.request({ kind: "list_draws", capture: 99 }))).kind, "request");
  const summary = await client.request({ kind: "open_capture", bytes: captureBytes(), name: "t" });
  const capture = summary.capture;
  assert.equal((await rejection(client.request({ kind: "replay", capture, draw: 999 }))).at, "draw 999");
  await client.request({ kind: "replay", capture, draw: 1 });
  const outside = await rejection(client.request({ kind: "read_texels", capture, draw: 1, target: "rt0", x: 64, y: 0 }));
  assert.equal(outside.at, "pixel (64, 0)");
  const noTarget = await rejection(client.request({ kind: "read_texels", capture, draw: 1, target: "rt5", x: 0, y: 0 }));
  assert.match(noTarget.detail ?? "", /no target rt5/);
  const unreplayed = await rejection(client.request({ kind: "compare", capture, draw: 2 }));
  assert.equal(unreplayed.kind, "not_replayed");
});

test("a handler that throws anything is answered with an error, and the host keeps serving", async () => {
  const mock = createMockBackend();
  const handlers: Handlers = {
    ...mock.handlers,
    list_draws: () => {
      throw new TypeError("boom");
    },
    compare: () => Promise.reject("a string"),
  };
  const { client } = connect(Promise.resolve({ kind: "mock", version: "broken", handlers, crashed: () => null }));
  const thrown = await rejection(client.request({ kind: "list_draws", capture: 1 }));
  assert.deepEqual(thrown, { kind: "invalid", what: "internal", detail: "boom" });
  const rejected = await rejection(client.request({ kind: "compare", capture: 1, draw: 0 }));
  assert.deepEqual(rejected, { kind: "invalid", what: "internal", detail: "a string" });
  const summary = await client.request({ kind: "open_capture", bytes: captureBytes(), name: "t" });
  assert.equal(summary.draw_count, 6);
});

test("a backend that fails to load is reported by ready and by every request", async () => {
  const failure: ErrorInfo = { kind: "invalid", what: "wasm", at: "../pkg/iridia.js", detail: "no such module" };
  const { client } = connect(Promise.reject(new BackendError(failure)));
  const ready = await rejection(client.ready);
  assert.deepEqual(ready, failure);
  assert.deepEqual(await rejection(client.request({ kind: "list_draws", capture: 1 })), failure);
});

test("a worker that dies rejects the requests waiting for it", async () => {
  let fail: (error: ErrorInfo) => void = () => undefined;
  const endpoint: Endpoint = {
    send: () => undefined,
    listen: (_onMessage, onFailure) => {
      fail = onFailure;
    },
  };
  const client = new BackendClient(endpoint);
  const waiting = client.request({ kind: "list_draws", capture: 1 });
  const crashed: ErrorInfo = { kind: "invalid", what: "worker", detail: "crashed" };
  fail(crashed);
  assert.deepEqual(await rejection(waiting), crashed);
  assert.deepEqual(await rejection(client.request({ kind: "list_draws", capture: 1 })), crashed);
});

test("progress is forwarded at most once per interval, and the last one always", async () => {
  let now = 0;
  const posted: FromWorker[] = [];
  const handlers: Handlers = {
    ...createMockBackend().handlers,
    list_draws: async (_request, job) => {
      // twelve reports 10 ms apart (at 0 to 110 ms): with a 100 ms interval those at 0 and 100 ms are sent at once,
      // the one at 110 ms is held back and sent before the answer; those between are dropped
      for (let done = 0; done <= 11; done++) {
        now = done * 10;
        job.progress({ stage: "s", done, total: 11 });
      }
      return [];
    },
  };
  const host = createHost(
    Promise.resolve({ kind: "mock", version: "t", handlers, crashed: () => null }),
    (message) => posted.push(message),
    { minProgressIntervalMs: 100, now: () => now },
  );
  host({ type: "request", id: 7, request: { kind: "list_draws", capture: 1 } });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const progress = posted.filter((message) => message.type === "progress").map((message) => ("done" in message ? message.done : -1));
  assert.deepEqual(progress, [0, 10, 11]);
  assert.equal(posted[posted.length - 1]?.type, "response");
});

test("toErrorInfo keeps a thrown error's kind, and gives one to an error without a valid kind", () => {
  assert.deepEqual(toErrorInfo({ kind: "budget", what: "draw", at: null, detail: "too many steps" }), {
    kind: "budget",
    what: "draw",
    detail: "too many steps",
  });
  assert.deepEqual(toErrorInfo({ what: "capture", detail: "old module" }), { kind: "invalid", what: "capture", detail: "old module" });
  assert.deepEqual(toErrorInfo({ kind: "sideways", what: "x" }, "ignored", "request"), { kind: "request", what: "x" });
  assert.deepEqual(toErrorInfo(new Error("boom"), "page", "request"), { kind: "request", what: "page", detail: "boom" });
});

test("a crash fails what waits, is reported once, and a restarted worker serves again", async () => {
  const mock = createMockBackend();
  const { client, fromWorker } = connect(Promise.resolve(mock));
  const crashes: ErrorInfo[] = [];
  client.onCrash((error) => crashes.push(error));
  const summary = await client.request({ kind: "open_capture", bytes: captureBytes(), name: "t" });
  const crash = await rejection(client.request({ kind: "crash_for_test" }));
  assert.match(crash.detail ?? "", /crashed/);
  // the host follows the failed answer with one `crashed` message; the client hears it and fails later requests
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(crashes, [crash]);
  assert.equal(fromWorker.filter((message) => message.type === "crashed").length, 1);
  assert.deepEqual(await rejection(client.request({ kind: "list_draws", capture: summary.capture })), crash);
  // a new worker in its place: ready again, and it opens captures
  const replacement = workerFor(Promise.resolve(createMockBackend()));
  client.restart(replacement.endpoint);
  assert.deepEqual(await client.ready, { backend: "mock", version: "mock" });
  const reopened = await client.request({ kind: "open_capture", bytes: captureBytes(), name: "t" });
  assert.equal(reopened.draw_count, summary.draw_count);
  assert.equal(replacement.toWorker.length, 1);
});
