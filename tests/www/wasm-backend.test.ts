// The binding to the wasm module's exports (wasm-backend.ts), against a stand-in module with the exports the
// viewer expects: it checks the exports, passes the module's errors through, drives a replay in steps and abandons
// it on cancel, and evens out what serde-wasm-bindgen may send differently (undefined for None, arrays for bytes).

import assert from "node:assert/strict";
import { test } from "node:test";
import { type JobContext, cancelledError } from "../../www/src/backend";
import { BackendError, type ErrorInfo, type Progress } from "../../www/src/protocol";
import { loadWasmBackend, nextBudget, normalized } from "../../www/src/wasm-backend";

/** A stand-in for the module's Capture class; records what the worker asked. */
class FakeCapture {
  readonly calls: string[] = [];
  private done = 0;
  constructor(readonly totalWork: number) {}
  summary(): object {
    return { format_version: "1.0", generator: undefined, application: "game", draw_count: 1, size_bytes: 4 };
  }
  draws(): object[] {
    return [{ index: 0, name: "d", api_call: undefined, vs: undefined, ps: undefined, targets: [], status: { state: "not_replayed" } }];
  }
  replay_step(draw: number, budget: number): object {
    this.calls.push(`step ${draw} ${budget}`);
    this.done = Math.min(this.totalWork, this.done + budget);
    return { stage: "primitives", done: this.done, total: this.totalWork, finished: this.done === this.totalWork };
  }
  replay_finish(draw: number): object {
    this.calls.push(`finish ${draw}`);
    return { draw, primitives: this.totalWork, fragments: 0, shaded_fragments: 0, status: { state: "matches", compared_pixels: 1 } };
  }
  replay_abandon(draw: number): void {
    this.calls.push(`abandon ${draw}`);
  }
  render_target(): object {
    return { width: 1, height: 1, rgba: [10, 20, 30, 255], value_range: { min: 0, max: 1 }, non_finite_texels: 0 };
  }
  find_difference(): undefined {
    return undefined;
  }
  compare(): never {
    const error: ErrorInfo = { kind: "not_replayed", what: "compare", at: "draw 0", detail: "not replayed" };
    throw error;
  }
  free(): void {
    this.calls.push("free");
  }
}

function fakeModule(capture: FakeCapture): Record<string, unknown> {
  return {
    default: async () => undefined,
    version: () => "9.9.9",
    open_capture_ranged: (length: number, read: (offset: number, length: number) => Uint8Array, name: string) => {
      const bytes = read(0, Math.min(length, 4));
      if (bytes[0] !== 0x50) {
        const error: ErrorInfo = { kind: "invalid", what: "capture", at: "byte 0", detail: `${name} is not a ZIP archive` };
        throw error;
      }
      return capture;
    },
  };
}

function job(overrides: Partial<JobContext> = {}, progress: Progress[] = []): JobContext {
  return {
    cancelled: false,
    checkCancelled: () => undefined,
    progress: (step) => progress.push(step),
    pause: async () => undefined,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<ErrorInfo> {
  try {
    await promise;
  } catch (error: unknown) {
    assert.ok(error instanceof BackendError, `expected a BackendError, got ${String(error)}`);
    return error.info;
  }
  assert.fail("it succeeded");
}

const PK = new Uint8Array([0x50, 0x4b, 3, 4]).buffer;

test("a module without the viewer's exports is refused, naming what it lacks", async () => {
  // what src/wasm.rs exports today: start and version
  const today = { default: async () => undefined, version: () => "0.1.0", start: () => undefined };
  const error = await rejection(loadWasmBackend(async () => today, "/pkg/iridia.js"));
  assert.deepEqual(error, {
    kind: "invalid",
    what: "wasm",
    at: "/pkg/iridia.js",
    detail: "iridia 0.1.0 does not export open_capture_ranged: this build has no viewer API yet",
  });
});

test("a module that cannot be fetched is reported with its URL and how to build it", async () => {
  const error = await rejection(loadWasmBackend(() => Promise.reject(new TypeError("Failed to fetch")), "/pkg/iridia.js"));
  assert.equal(error.at, "/pkg/iridia.js");
  assert.match(error.detail ?? "", /Failed to fetch.*scripts\/build-wasm\.sh/);
});

test("opening numbers the capture, and None fields arrive as null", async () => {
  const backend = await loadWasmBackend(async () => fakeModule(new FakeCapture(10)), "m");
  assert.equal(backend.version, "9.9.9");
  const summary = await backend.handlers.open_capture({ kind: "open_capture", bytes: PK, name: "a" }, job());
  assert.deepEqual(summary, { format_version: "1.0", generator: null, application: "game", draw_count: 1, size_bytes: 4, capture: 1 });
  const draws = await backend.handlers.list_draws({ kind: "list_draws", capture: 1 }, job());
  assert.equal(draws[0]?.ps, null);
  assert.equal(draws[0]?.api_call, null);
});

test("the module's errors reach the page as they were thrown", async () => {
  const backend = await loadWasmBackend(async () => fakeModule(new FakeCapture(10)), "m");
  const refused = await rejection(
    backend.handlers.open_capture({ kind: "open_capture", bytes: new Uint8Array([1]).buffer, name: "x.txt" }, job()),
  );
  assert.deepEqual(refused, { kind: "invalid", what: "capture", at: "byte 0", detail: "x.txt is not a ZIP archive" });
  await backend.handlers.open_capture({ kind: "open_capture", bytes: PK, name: "a" }, job());
  assert.deepEqual(await rejection(backend.handlers.compare({ kind: "compare", capture: 1, draw: 0 }, job())), {
    kind: "not_replayed",
    what: "compare",
    at: "draw 0",
    detail: "not replayed",
  });
  assert.equal((await rejection(backend.handlers.compare({ kind: "compare", capture: 2, draw: 0 }, job()))).kind, "request");
});

test("a replay runs in steps with progress until the module says it is finished", async () => {
  const capture = new FakeCapture(200000);
  const backend = await loadWasmBackend(async () => fakeModule(capture), "m");
  await backend.handlers.open_capture({ kind: "open_capture", bytes: PK, name: "a" }, job());
  const progress: Progress[] = [];
  const summary = await backend.handlers.replay({ kind: "replay", capture: 1, draw: 0 }, job({}, progress));
  assert.equal(summary.status.state, "matches");
  // the fake's steps are instant, so the budget grows four times a step from 2^15: 2^15, 2^17, 2^19 reach 200000
  assert.deepEqual(capture.calls, ["step 0 32768", "step 0 131072", "step 0 524288", "finish 0"]);
  assert.deepEqual(progress.map((step) => step.done), [32768, 163840, 200000]);
});

test("the step budget follows the measured rate, by at most 4x a step, within its bounds", () => {
  assert.equal(nextBudget(1 << 20, 50), 1 << 20);
  assert.equal(nextBudget(1 << 20, 100), 1 << 19);
  assert.equal(nextBudget(1 << 20, 1000), 1 << 18);
  assert.equal(nextBudget(1 << 20, 0), 1 << 22);
  assert.equal(nextBudget(1 << 15, 5000), 1 << 15);
  assert.equal(nextBudget(1 << 26, 1), 1 << 26);
});

test("on a busy machine the steps keep their size: the budget does not run down to nothing", () => {
  // a worker doing 10,000 units a millisecond with half a core (the machine shared with another heavy process), a
  // step's fixed cost of 4 ms, and every fifth step held up 120 ms more waiting for a core
  const rate = 10_000 * 0.5;
  let budget = 1 << 15;
  let work = 0;
  let time = 0;
  let least = budget;
  for (let step = 0; step < 400; step++) {
    const took = budget / rate + 4 + (step % 5 === 0 ? 120 : 0);
    work += budget;
    time += took;
    least = Math.min(least, budget);
    budget = nextBudget(budget, took);
  }
  // most of the time goes to work, not to the steps' fixed costs
  assert.ok(work / time > rate * 0.5, `${Math.round(work / time)} units a millisecond of ${rate}`);
  assert.ok(least >= 1 << 15);
});

test("a cancelled replay is abandoned in the module", async () => {
  const capture = new FakeCapture(10_000_000);
  const backend = await loadWasmBackend(async () => fakeModule(capture), "m");
  await backend.handlers.open_capture({ kind: "open_capture", bytes: PK, name: "a" }, job());
  let pauses = 0;
  const cancelling = job({
    pause: async () => {
      pauses++;
      if (pauses === 2) throw cancelledError();
    },
  });
  const error = await rejection(backend.handlers.replay({ kind: "replay", capture: 1, draw: 0 }, cancelling));
  assert.equal(error.kind, "cancelled");
  assert.deepEqual(capture.calls, ["step 0 32768", "step 0 131072", "abandon 0"]);
});

test("image bytes sent as an array become a Uint8Array, and no difference is null", async () => {
  const backend = await loadWasmBackend(async () => fakeModule(new FakeCapture(1)), "m");
  await backend.handlers.open_capture({ kind: "open_capture", bytes: PK, name: "a" }, job());
  const display = { channels: { r: true, g: true, b: true, a: true }, range: null, highlight_non_finite: true };
  const image = await backend.handlers.render_target(
    { kind: "render_target", capture: 1, draw: 0, target: "rt0", image: "replayed", display, resolved: false },
    job(),
  );
  assert.ok(image.rgba instanceof Uint8Array);
  assert.deepEqual(Array.from(image.rgba), [10, 20, 30, 255]);
  const found = await backend.handlers.find_difference(
    { kind: "find_difference", capture: 1, draw: 0, target: "rt0", x: 0, y: 0, backwards: false },
    job(),
  );
  assert.equal(found, null);
});

test("normalizing keeps typed arrays and class instances, and reads maps as objects", () => {
  const bytes = new Float32Array([1, NaN]);
  const instance = new FakeCapture(1);
  const value = normalized({ a: undefined, b: [undefined, 1], bytes, instance, map: new Map([["k", undefined]]) });
  assert.deepEqual(value, { a: null, b: [null, 1], bytes, instance, map: { k: null } });
  const record = value as Record<string, unknown>;
  assert.equal(record["bytes"], bytes);
  assert.equal(record["instance"], instance);
});

test("a trap is the engine's crash: it is reported as such, and every later call fails with it", async () => {
  const crashing = new FakeCapture(10);
  const module = {
    ...fakeModule(crashing),
    crash_for_test: () => {
      throw new WebAssembly.RuntimeError("unreachable");
    },
  };
  const backend = await loadWasmBackend(async () => module, "m");
  await backend.handlers.open_capture({ kind: "open_capture", bytes: PK, name: "a" }, job());
  assert.equal(backend.crashed(), null);
  // an error the module reports is not a crash
  await rejection(backend.handlers.compare({ kind: "compare", capture: 1, draw: 0 }, job()));
  assert.equal(backend.crashed(), null);
  const crash = await rejection(backend.handlers.crash_for_test({ kind: "crash_for_test" }, job()));
  assert.equal(crash.at, "crash_for_test()");
  assert.match(crash.detail ?? "", /crashed \(RuntimeError: unreachable\)/);
  assert.deepEqual(backend.crashed(), crash);
  // the module is not called again: its memory is not trustworthy
  const calls = crashing.calls.length;
  assert.deepEqual(await rejection(backend.handlers.list_draws({ kind: "list_draws", capture: 1 }, job())), crash);
  assert.equal(crashing.calls.length, calls);
  // another backend (a new worker's) is not affected
  const fresh = await loadWasmBackend(async () => fakeModule(new FakeCapture(10)), "m");
  assert.equal(fresh.crashed(), null);
});

test("a capture the worker holds whole is read by position, in views of its buffer", async () => {
  let asked: [number, number] | null = null;
  const module = {
    ...fakeModule(new FakeCapture(1)),
    open_capture_ranged: (length: number, read: (offset: number, length: number) => Uint8Array) => {
      const part = read(2, 3);
      asked = [length, part.length];
      assert.equal(part.byteOffset, 2);
      assert.deepEqual(Array.from(part), [3, 4, 5]);
      return new FakeCapture(1);
    },
  };
  const backend = await loadWasmBackend(async () => module, "m");
  await backend.handlers.open_capture({ kind: "open_capture", bytes: new Uint8Array([1, 2, 3, 4, 5, 6]).buffer, name: "a" }, job());
  assert.deepEqual(asked, [6, 3]);
});
