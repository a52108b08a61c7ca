// The mock backend stands in for the wasm module in the browser tests, so its answers must agree with each other
// the way the real ones will: the comparison's counts with the per-pixel verdicts, the rendered images with the
// display options, the fragment histories with the texels.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobContext } from "../../www/src/backend";
import { createMockBackend } from "../../www/src/mock-backend";
import type { DisplayOptions } from "../../www/src/protocol";

const job: JobContext = {
  cancelled: false,
  checkCancelled: () => undefined,
  progress: () => undefined,
  pause: async () => undefined,
};

const DISPLAY: DisplayOptions = { channels: { r: true, g: true, b: true, a: false }, range: null, highlight_non_finite: true };

async function opened(): Promise<{ backend: ReturnType<typeof createMockBackend>; capture: number }> {
  const backend = createMockBackend({ replayStepMs: 0 });
  const bytes = new TextEncoder().encode("IRIDIA-MOCK").buffer;
  const summary = await backend.handlers.open_capture({ kind: "open_capture", bytes, name: "m" }, job);
  return { backend, capture: summary.capture };
}

test("each target's differing count is the number of pixels whose verdict is differs", async () => {
  const { backend, capture } = await opened();
  const { handlers } = backend;
  for (const draw of [1, 2]) {
    await handlers.replay({ kind: "replay", capture, draw }, job);
    const comparison = await handlers.compare({ kind: "compare", capture, draw }, job);
    for (const target of comparison.targets) {
      const info = (await handlers.list_draws({ kind: "list_draws", capture }, job))[draw]?.targets.find((t) => t.target === target.target);
      assert.ok(info !== undefined);
      let differs = 0;
      let ambiguous = 0;
      for (let y = 0; y < info.height; y++)
        for (let x = 0; x < info.width; x++) {
          const readout = await handlers.read_texels({ kind: "read_texels", capture, draw, target: target.target, x, y }, job);
          if (readout.verdict === "differs") differs++;
          if (readout.verdict === "ambiguous") ambiguous++;
        }
      assert.equal(target.differing_pixels, differs, `draw ${draw} ${target.target}`);
      assert.equal(target.ambiguous_pixels, ambiguous, `draw ${draw} ${target.target}`);
      assert.equal(target.compared_pixels, info.width * info.height);
    }
  }
});

test("next difference walks the differing pixels in row order and wraps", async () => {
  const { backend, capture } = await opened();
  const { handlers } = backend;
  await handlers.replay({ kind: "replay", capture, draw: 1 }, job);
  const comparison = await handlers.compare({ kind: "compare", capture, draw: 1 }, job);
  const first = comparison.targets[0]?.first_difference;
  assert.ok(first !== null && first !== undefined);
  // starting from the last pixel, the search wraps to the first difference (or an earlier ambiguous pixel)
  const found = await handlers.find_difference(
    { kind: "find_difference", capture, draw: 1, target: "rt0", x: 63, y: 39, backwards: false },
    job,
  );
  assert.ok(found !== null);
  assert.ok(found.y * 64 + found.x <= first.y * 64 + first.x);
  const back = await handlers.find_difference(
    { kind: "find_difference", capture, draw: 1, target: "rt0", x: found.x, y: found.y, backwards: true },
    job,
  );
  assert.ok(back !== null && back.y * 64 + back.x > found.y * 64 + found.x, "going back from the first wraps to the end");
});

test("a rendered image has four bytes per pixel and shows NaN in magenta", async () => {
  const { backend, capture } = await opened();
  const { handlers } = backend;
  await handlers.replay({ kind: "replay", capture, draw: 2 }, job);
  const image = await handlers.render_target(
    { kind: "render_target", capture, draw: 2, target: "rt0", image: "recorded", display: DISPLAY, resolved: false },
    job,
  );
  assert.equal(image.rgba.length, image.width * image.height * 4);
  assert.ok(image.non_finite_texels > 0);
  // the HDR draw's recorded target has NaN at (30, 20)
  const texel = await handlers.read_texels({ kind: "read_texels", capture, draw: 2, target: "rt0", x: 30, y: 20 }, job);
  assert.ok(Number.isNaN(texel.recorded?.channels[0]?.value ?? 0));
  const at = (20 * image.width + 30) * 4;
  assert.deepEqual(Array.from(image.rgba.subarray(at, at + 4)), [255, 0, 255, 255]);
  const plain = await handlers.render_target(
    { kind: "render_target", capture, draw: 2, target: "rt0", image: "recorded", display: { ...DISPLAY, highlight_non_finite: false }, resolved: false },
    job,
  );
  assert.notDeepEqual(Array.from(plain.rgba.subarray(at, at + 4)), [255, 0, 255, 255]);
});

test("showing one channel gives grey levels of that channel", async () => {
  const { backend, capture } = await opened();
  const { handlers } = backend;
  const display = { ...DISPLAY, channels: { r: false, g: true, b: false, a: false } };
  const image = await handlers.render_target({ kind: "render_target", capture, draw: 0, target: "rt0", image: "recorded", display, resolved: false }, job);
  for (let i = 0; i < image.rgba.length; i += 4) {
    assert.equal(image.rgba[i], image.rgba[i + 1]);
    assert.equal(image.rgba[i + 1], image.rgba[i + 2]);
  }
});

test("the fragments of a pixel end in the value the texel readout shows", async () => {
  const { backend, capture } = await opened();
  const { handlers } = backend;
  await handlers.replay({ kind: "replay", capture, draw: 1 }, job);
  // (30, 30) is covered by both triangles of the Terrain draw
  const history = await handlers.inspect_pixel({ kind: "inspect_pixel", capture, draw: 1, target: "rt0", x: 30, y: 30, sample: 0 }, job);
  assert.equal(history.fragments.length, 2);
  const written = history.fragments.filter((fragment) => fragment.outcome === "written");
  const last = written[written.length - 1];
  assert.ok(last !== undefined);
  const readout = await handlers.read_texels({ kind: "read_texels", capture, draw: 1, target: "rt0", x: 30, y: 30 }, job);
  assert.equal(last.blend[0]?.stored.hex, readout.recorded?.hex);
  const trace = await handlers.trace_pixel({ kind: "trace_pixel", capture, draw: 1, x: 30, y: 30, fragment: last.order }, job);
  const lines = new Set(trace.disassembly.lines.map((line) => line.index));
  assert.ok(trace.steps.every((step) => lines.has(step.line)), "every step names a line of the disassembly");
});
