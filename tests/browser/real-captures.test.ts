// The viewer on real captures (fixtures/captures/*.iridia) through Iridia's wasm module in the worker — no ?mock.
// The numbers the page must show come from the library run natively: `cargo run --example expected_differences`
// replays every draw of every fixture capture as a whole (not the viewer's stepped replay) and compares each render
// target with the format's default tolerance. Screenshots go to test-output/screenshots/real-*.png; the one of an
// inspected pixel is the README's (scripts/test-browser.sh --update-docs copies it to docs/screenshot.png).
// Measurements (progress gaps, replay times) go to test-output/measurements.json.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { REPO, startServer } from "../../scripts/serve.mjs";
import {
  clickPixel,
  closeLaunched,
  dropFile,
  largestGap,
  launch,
  type PageWatch,
  recordMeasurements,
  recordProgress,
  shot,
  stopRecording,
  waitForText,
  watchPage,
} from "./harness";

/** One render target of one draw as the native library compares it (examples/expected_differences.rs). */
interface Expected {
  capture: string;
  draw: number;
  target: string;
  compared_pixels: number;
  differing_pixels: number;
  ambiguous_pixels: number;
  first_difference: { x: number; y: number } | null;
}

const CAPTURES = readdirSync(join(REPO, "fixtures", "captures"))
  .filter((name) => name.endsWith(".iridia"))
  .sort()
  .map((name) => `fixtures/captures/${name}`);
/** The capture whose one draw has the most work (3072 lit, textured triangles into 256x256). */
const LIT_MESH = "fixtures/captures/01-lit-mesh.iridia";
/** The capture with the most draws (26) and the most bytes: the largest to replay as a whole. */
const FRAME = "fixtures/captures/04-frame.iridia";
/** The longest gap allowed between two progress updates the page shows, in milliseconds (issue 6). */
const MAX_PROGRESS_GAP_MS = 200;

let server: Awaited<ReturnType<typeof startServer>>;
let context: BrowserContext;
let expected: Expected[] = [];
const measurements: Record<string, unknown> = {};
let shareUrl = "";

/** The native comparison of render target `target` of draw `draw` of `capture`. */
function expectation(capture: string, draw: number, target = "rt0"): Expected {
  const found = expected.find((row) => row.capture === capture && row.draw === draw && row.target === target);
  assert.ok(found !== undefined, `the library compared ${target} of draw ${draw} of ${capture}`);
  return found;
}

/** The text the page shows for a target's comparison. */
function countText(row: Expected): string {
  return `${row.differing_pixels} of ${row.compared_pixels} pixels differ`;
}

/** Waits until both panes show their images (they are drawn after the count appears). */
async function imagesDrawn(page: Page): Promise<void> {
  for (const role of ["main", "side"]) await page.waitForSelector(`canvas[data-role="${role}"][data-image]:not([data-image=""])`);
}

async function open(hash: string): Promise<PageWatch> {
  const watch = await watchPage(context, `${server.url}${hash}`);
  await waitForText(watch.page, "#status-backend", /^iridia \d+\.\d+\.\d+ \(wasm\)$/);
  return watch;
}

before(async () => {
  const output = execFileSync("cargo", ["run", "--quiet", "--locked", "--example", "expected_differences", "--", ...CAPTURES], {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 1 << 24,
    stdio: ["ignore", "pipe", "inherit"],
  });
  expected = JSON.parse(output) as Expected[];
  server = await startServer({ port: 0, quiet: true, capture: null });
  context = await launch();
});

after(async () => {
  await closeLaunched();
  await server.close();
  recordMeasurements(measurements);
});

test("the library finds differences in the fixture captures to check the page against", () => {
  // without a differing draw the count checks below would only ever see zeros
  for (const capture of [LIT_MESH, FRAME]) {
    assert.ok(expected.some((row) => row.capture === capture && row.differing_pixels > 0), `${capture} has a differing draw`);
  }
});

test("a real capture dropped on the page replays in wasm and shows the count the library reports", async () => {
  const { page, assertClean } = await open("");
  await page.waitForSelector('h2:text-is("Open a capture")');
  const bytes = readFileSync(join(REPO, LIT_MESH));
  await dropFile(page, "01-lit-mesh.iridia", bytes);
  await page.waitForSelector("li.draw");
  assert.equal(await page.textContent("#capture-title"), "01-lit-mesh.iridia");
  const started = Date.now();
  await page.click('li.draw[data-index="0"]');
  const row = expectation(LIT_MESH, 0);
  const shown = await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  measurements["lit_mesh_draw_replay_ms"] = Date.now() - started;
  assert.equal(shown, countText(row));
  if (row.ambiguous_pixels > 0) assert.match((await page.textContent("#compare-summary")) ?? "", new RegExp(`· ${row.ambiguous_pixels} ambiguous`));
  // the replayed target's mask is drawn at its size
  await page.waitForSelector('canvas[data-role="main"][data-image="256x256"]');
  await shot(page, "real-01-dropped-lit-mesh");
  assertClean();
  await page.close();
});

test("every fixture capture's most differing draw shows the library's count", async () => {
  for (const capture of CAPTURES) {
    const rows = expected.filter((row) => row.capture === capture && row.target === "rt0");
    const most = rows.reduce<Expected | null>((best, row) => (best === null || row.differing_pixels > best.differing_pixels ? row : best), null);
    assert.ok(most !== null, `${capture} has a draw with a recorded RT0`);
    const { page, assertClean } = await open(`#capture=/${capture}&draw=${most.draw}`);
    const shown = await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
    assert.equal(shown, countText(most), `${capture} draw ${most.draw}`);
    await imagesDrawn(page);
    const name = capture.replace(/^.*\//, "").replace(/\.iridia$/, "");
    await shot(page, `real-02-${name}-draw-${most.draw}`);
    assertClean();
    await page.close();
  }
});

test("clicking a differing pixel shows its fragments and the pixel program's trace", async () => {
  const row = expectation(FRAME, 7);
  assert.ok(row.first_difference !== null && row.differing_pixels > 0);
  const pixel = row.first_difference;
  const { page, assertClean } = await open(`#capture=/${FRAME}&draw=7`);
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), countText(row));
  // the image is drawn (and placed) after the count appears
  await page.waitForSelector('canvas[data-role="main"][data-image="192x128"]');
  await clickPixel(page, pixel.x, pixel.y);
  await waitForText(page, "#inspector-title", new RegExp(`\\(${pixel.x}, ${pixel.y}\\) · RT0 R8G8B8A8_UNORM`));
  await page.waitForSelector('[data-testid="texel-table"]');
  assert.match((await page.textContent('[data-testid="texel-values"] h3')) ?? "", /differs|ambiguous/);
  await page.waitForSelector('[data-testid="fragments"]');
  assert.ok((await page.locator('[data-testid="fragments"] details.fragment').count()) >= 1, "at least one fragment reached the pixel");
  assert.notEqual(((await page.textContent('[data-testid="verdict"]')) ?? "").trim(), "");
  // the pixel program's trace: its disassembly with values beside the instructions this pixel executed
  await page.waitForSelector('[data-testid="pixel-trace"] .asm-line.executed');
  assert.ok((await page.locator('[data-testid="pixel-trace"] .asm-line.executed').count()) >= 3);
  assert.match((await page.textContent('[data-testid="pixel-trace"]')) ?? "", /ps_\d_\d/);
  assert.match((await page.locator('[data-testid="pixel-trace"] .asm-line.executed .asm-values').first().textContent()) ?? "", /= \(/);
  // a vertex of the fragment's triangle: the vertex program's trace
  await page.click("details.fragment[open] details.triangle summary");
  await page.click("details.fragment[open] button[data-vertex]");
  await page.waitForSelector('[data-testid="vertex-trace"] .asm-line.executed');
  assert.match((await page.textContent('[data-testid="vertex-trace"] h3')) ?? "", /Vertex program · vertex #\d+/);
  assert.match(page.url(), new RegExp(`draw=7&target=rt0&view=difference&pixel=${pixel.x},${pixel.y}`));
  await shot(page, "real-03-pixel-inspected");
  shareUrl = page.url();
  assertClean();
  await page.close();
});

test("a multisampled target shows each sample plane, its resolve and per-sample inspection", async () => {
  // 20-recorded's draw 11 draws into a 64x64 4x R8G8B8A8_UNORM target: the page stacks its 4 planes (64x256)
  const capture = "fixtures/captures/20-recorded.iridia";
  const row = expectation(capture, 11);
  const { page, assertClean } = await open(`#capture=/${capture}&draw=11`);
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), countText(row));
  await page.waitForSelector('canvas[data-role="main"][data-image="64x256"]');
  assert.match((await page.textContent('[data-testid="sample-differing"]')) ?? "", /per sample: #0 \d+, #1 \d+, #2 \d+, #3 \d+; resolved \d+/);
  const options = await page.locator("#sample-select option").allTextContents();
  assert.deepEqual(options, ["All 4 samples", "Sample 0", "Sample 1", "Sample 2", "Sample 3", "Resolved"]);
  // one plane: sample 2, and a pixel of it inspected as sample 2
  await page.selectOption("#sample-select", "2");
  await page.waitForSelector('canvas[data-role="main"][data-image="64x64"]');
  await clickPixel(page, 32, 20);
  await waitForText(page, "#inspector-title", /\(32, 20\) sample 2 · RT0 R8G8B8A8_UNORM/);
  await page.waitForSelector('[data-testid="verdict"]');
  assert.match((await page.textContent('[data-testid="verdict"]')) ?? "", /sample 2 of 4/);
  await shot(page, "real-04-multisampled-sample-2");
  // the resolve, then M steps back to every plane stacked
  await page.selectOption("#sample-select", "resolved");
  await waitForText(page, ".pane-badge", /resolved/);
  await page.waitForSelector('canvas[data-role="main"][data-image="64x64"]');
  await shot(page, "real-05-multisampled-resolved");
  // (the keys go to the page, not to the focused select)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("m");
  await page.waitForSelector('canvas[data-role="main"][data-image="64x256"]');
  assertClean();
  await page.close();
});

test("Explain names the variants that reproduce a blended draw, the inspector says which pixels they explain, and View replays under them", async () => {
  // 02's draw 1: every bit of the recorded target reproduced by interpolation over unsnapped positions and 8-bit
  // blending (tests/explain.rs checks the same natively); at (66, 28) an alpha of 0.0022 leaves the float32 blend's code
  // and adds one in 8 bits (fixtures/captures/README.md)
  const capture = "fixtures/captures/02-alpha-blend.iridia";
  const { page, assertClean } = await open(`#capture=/${capture}&draw=1`);
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  await page.waitForSelector('canvas[data-role="main"][data-image]:not([data-image=""])');
  await page.keyboard.press("e");
  const verdict = await waitForText(page, '[data-testid="explain-verdict"]', /^reproduced by: /);
  assert.match(verdict, /^reproduced by: interpolation over unsnapped positions and 8-bit fixed-point blending \(\d+ differing pixels -> 0\)$/);
  assert.equal(await page.locator('[data-testid="explain-table"] tbody tr').count(), 1 + 7 + 1);
  await shot(page, "real-07-explain");
  await page.click("#explain-close");
  await clickPixel(page, 66, 28);
  await waitForText(page, "#inspector-title", /\(66, 28\) · RT0/);
  assert.equal(
    await waitForText(page, '[data-testid="explained-by"]', /^explained by: /),
    "explained by: interpolation over unsnapped positions and 8-bit fixed-point blending (the pixel matches under unsnapped-interpolation, blend-8bit)",
  );
  // View on the best row: the draws replay under its variants, which the header and the link name
  await page.click("#explain-button");
  await page.click('[data-testid="explain-row-unsnapped-interpolation,blend-8bit"] button');
  await waitForText(page, "#capture-meta", /replayed under unsnapped-interpolation, blend-8bit/);
  await page.waitForFunction(() => location.hash.includes("variants=unsnapped-interpolation,blend-8bit"));
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  await page.waitForSelector('[data-testid="verdict"].verdict-matches');
  // replayed under the variants, the pixel is no longer one they explain: it matches as the GPU's
  assert.equal(await page.locator('[data-testid="explained-by"]').count(), 0);
  const link = page.url();
  assertClean();
  await page.close();
  // the link reopens the capture under the same variants
  const reopened = await open(link.slice(link.indexOf("#")));
  await waitForText(reopened.page, "#capture-meta", /replayed under unsnapped-interpolation, blend-8bit/);
  await reopened.page.waitForSelector('[data-testid="verdict"].verdict-matches');
  reopened.assertClean();
  await reopened.page.close();
});

test("the perceptual view shows a draw's FLIP map, and the list sorts by how visible each draw's difference is", async () => {
  // the order the library gives (iridia replay --flip: each draw's LDR-FLIP mean over rt0, computed natively)
  const report = JSON.parse(
    execFileSync("cargo", ["run", "--quiet", "--locked", "--bin", "iridia", "--", "replay", "fixtures/captures/02-alpha-blend.iridia", "--flip", "--json"], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  ) as { draws: { index: number; targets: { perceptual: { mean: number } | null }[] }[] };
  const means = report.draws.map((draw) => ({ index: draw.index, mean: draw.targets[0]?.perceptual?.mean ?? -1 }));
  const expectedOrder = [...means].sort((a, b) => b.mean - a.mean || a.index - b.index).map((draw) => String(draw.index));
  const { page, assertClean } = await open("#capture=/fixtures/captures/02-alpha-blend.iridia&draw=3");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  const mean3 = means.find((draw) => draw.index === 3)?.mean ?? 0;
  await waitForText(page, '[data-testid="perceptual"]', new RegExp(`FLIP mean ${mean3.toFixed(4)}`));
  await page.keyboard.press("6");
  await page.waitForFunction(() => location.hash.includes("view=perceptual"));
  await page.waitForSelector('canvas[data-role="main"][data-image]:not([data-image=""])');
  await shot(page, "real-08-perceptual");
  await page.click("#replay-all-button");
  await page.waitForFunction(() => document.querySelectorAll('li.draw [data-testid="draw-status"]').length === 6 && !Array.from(document.querySelectorAll('li.draw [data-testid="draw-status"]')).some((tag) => tag.textContent === "not replayed"));
  await page.waitForSelector("#progress[hidden]", { state: "attached" });
  await page.selectOption("#draw-sort", "perceptual");
  const order = await page.$$eval("li.draw", (items) => items.map((item) => item.getAttribute("data-index") ?? ""));
  assert.deepEqual(order, expectedOrder);
  assertClean();
  await page.close();
});

test("the share link opens the same draw, pixel and view of the real capture", async () => {
  assert.notEqual(shareUrl, "");
  const { page, assertClean } = await watchPage(context, shareUrl);
  const pixel = /pixel=(\d+),(\d+)/.exec(shareUrl);
  assert.ok(pixel !== null);
  await waitForText(page, "#inspector-title", new RegExp(`\\(${pixel[1]}, ${pixel[2]}\\) · RT0`));
  assert.equal(await page.getAttribute("li.draw.selected", "data-index"), "7");
  assert.equal(await page.inputValue("#target-select"), "rt0");
  assert.equal(await page.getAttribute("#view-buttons button.active", "data-view"), "difference");
  await page.waitForSelector('[data-testid="fragments"] details.fragment');
  await page.waitForSelector('[data-testid="pixel-trace"] .asm-line.executed');
  assert.equal(page.url(), shareUrl, "restoring the view leaves the link as it was");
  await shot(page, "real-04-shared-link");
  assertClean();
  await page.close();
});

test("a corrupt file shows an error while the real capture stays open and usable", async () => {
  const row = expectation(FRAME, 1);
  const { page, assertClean } = await open(`#capture=/${FRAME}&draw=1`);
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), countText(row));
  // a real capture cut short: its ZIP directory is gone
  const whole = readFileSync(join(REPO, FRAME));
  await dropFile(page, "cut.iridia", whole.subarray(0, Math.floor(whole.length / 2)));
  const message = await waitForText(page, '[data-testid="message-error"]', /cut\.iridia/);
  assert.match(message, /Could not open cut\.iridia/);
  await dropFile(page, "noise.iridia", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef]));
  await waitForText(page, '[data-testid="message-error"]:last-of-type', /noise\.iridia/);
  // the capture that was open still is, and another of its draws replays
  assert.equal(await page.textContent("#capture-title"), "04-frame.iridia");
  assert.equal(await page.getAttribute("li.draw.selected", "data-index"), "1");
  const other = expectation(FRAME, 4);
  await page.click('li.draw[data-index="4"]');
  await page.waitForFunction(() => /draw 4 RT0/.test(document.querySelector("#compare-summary")?.textContent ?? ""));
  assert.equal(await page.textContent('[data-testid="differing-count"]'), countText(other));
  await imagesDrawn(page);
  await shot(page, "real-05-corrupt-file");
  assertClean();
  await page.close();
});

/** Has the page's worker run crash_for_test (a Rust panic: a trap), as if the page had sent the request. */
async function crashEngine(page: Page): Promise<void> {
  await page.workers()[0]?.evaluate(() => {
    const request = { type: "request", id: 1e9, request: { kind: "crash_for_test" } };
    self.dispatchEvent(new MessageEvent("message", { data: request }));
  });
}

test("when the engine crashes the page restarts its worker, reopens the capture and says so", async () => {
  const row = expectation(FRAME, 1);
  const { page } = await open(`#capture=/${FRAME}&draw=1`);
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), countText(row));
  const workers = page.workers();
  assert.equal(workers.length, 1);
  await crashEngine(page);
  const message = await waitForText(page, '[data-testid="message-error"]', /crashed/);
  assert.match(message, /The replay engine crashed and was restarted; 04-frame\.iridia was opened again/);
  assert.match(message, /crash_for_test\(\)/);
  // a new worker in the old one's place, the capture open again on no draw, and its draws replay as before
  await page.waitForSelector('h2:text-is("Pick a draw")');
  assert.equal(await page.textContent("#capture-title"), "04-frame.iridia");
  await page.waitForFunction(() => document.querySelectorAll("li.draw").length === 26);
  assert.equal(page.workers().length, 1);
  assert.notEqual(page.workers()[0], workers[0]);
  const other = expectation(FRAME, 4);
  await page.click('li.draw[data-index="4"]');
  await page.waitForFunction(() => /draw 4 RT0/.test(document.querySelector("#compare-summary")?.textContent ?? ""));
  assert.equal(await page.textContent('[data-testid="differing-count"]'), countText(other));
  await imagesDrawn(page);
  await shot(page, "real-08-engine-restarted");
  // a second crash soon after: the engine restarts again, but the capture is not opened again (a capture whose
  // opening crashed the engine would otherwise be opened for ever)
  await crashEngine(page);
  const second = await waitForText(page, '[data-testid="message-error"]:last-of-type', /not opened again/);
  assert.match(second, /04-frame\.iridia was not opened again \(it crashed twice\)/);
  await page.waitForSelector('h2:text-is("Open a capture")');
  assert.equal(await page.textContent("#capture-title"), "No capture");
  await page.close();
});

test("a draw past the work limit set in Settings stops with an error naming it, and replays once it is raised", async () => {
  const row = expectation(LIT_MESH, 0);
  const { page, assertClean } = await open(`#capture=/${LIT_MESH}`);
  await page.waitForSelector('li.draw[data-index="0"]');
  // Settings (the "," key): one million units of work per draw, far below the lit mesh's 3,072 triangles
  await page.keyboard.press(",");
  await page.waitForSelector("#settings-overlay:not([hidden])");
  await page.fill("#settings-work", "1");
  await page.click('#settings-form button[type="submit"]');
  await page.click('li.draw[data-index="0"]');
  const error = await waitForText(page, '[data-testid="draw-status"]', /error/);
  assert.match(error, /error/);
  assert.match((await page.textContent("#panes, #placeholder, body")) ?? "", /work limit of 1000000 units/);
  await shot(page, "real-09-work-limit");
  // kept in this browser: a new page reads it back
  const again = await open(`#capture=/${LIT_MESH}`);
  await again.page.keyboard.press(",");
  assert.equal(await again.page.inputValue("#settings-work"), "1");
  // the defaults again: the draw that stopped replays at once and shows the library's count
  await again.page.click("#settings-reset");
  await again.page.click('#settings-form button[type="submit"]');
  await again.page.close();
  await page.keyboard.press(",");
  await page.click("#settings-reset");
  await page.click('#settings-form button[type="submit"]');
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), countText(row));
  assertClean();
  await page.close();
});

test("replaying the largest captures keeps the page responsive, with progress at least every 200 ms", async () => {
  // every draw of the frame (Replay all), then the lit mesh's one long draw
  const frame = await open(`#capture=/${FRAME}`);
  await frame.page.waitForSelector("li.draw");
  await recordProgress(frame.page);
  const started = Date.now();
  await frame.page.click("#replay-all-button");
  await frame.page.waitForSelector("#progress:not([hidden])");
  // the page answers input during the replay: the filter narrows the list while the progress bar is up
  await frame.page.click("#draw-filter");
  await frame.page.keyboard.type("crate");
  await frame.page.waitForFunction(() => document.querySelectorAll("li.draw:not([hidden])").length < 26);
  const answeredDuringReplay = await frame.page.isVisible("#progress");
  await frame.page.waitForFunction(
    () => Array.from(document.querySelectorAll('li.draw [data-testid="draw-status"]')).every((tag) => tag.textContent !== "not replayed"),
    null,
    { timeout: 120_000 },
  );
  await frame.page.waitForSelector("#progress", { state: "hidden" });
  const frameMs = Date.now() - started;
  const frameRecord = await stopRecording(frame.page);
  await frame.page.fill("#draw-filter", "");
  await shot(frame.page, "real-06-replay-all-frame");
  // every draw's status is what the library says (RT0 alone decides for draws whose depth matches)
  const statuses = await frame.page.locator('li.draw [data-testid="draw-status"]').allTextContents();
  assert.equal(statuses.length, 26);
  for (const [draw, status] of statuses.entries()) {
    if (expectation(FRAME, draw).differing_pixels > 0) assert.match(status, /px differ/, `draw ${draw}`);
  }
  frame.assertClean();
  await frame.page.close();

  const mesh = await open(`#capture=/${LIT_MESH}`);
  await mesh.page.waitForSelector("li.draw");
  await recordProgress(mesh.page);
  const meshStarted = Date.now();
  await mesh.page.click('li.draw[data-index="0"]');
  await waitForText(mesh.page, '[data-testid="differing-count"]', /pixels differ/);
  const meshMs = Date.now() - meshStarted;
  const meshRecord = await stopRecording(mesh.page);
  mesh.assertClean();
  await mesh.page.close();

  Object.assign(measurements, {
    frame_replay_all_ms: frameMs,
    frame_progress_updates: frameRecord.updates.length,
    frame_largest_progress_gap_ms: Math.round(largestGap(frameRecord.updates)),
    frame_largest_timer_delay_ms: Math.round(frameRecord.maxTimerLateMs),
    lit_mesh_replay_ms: meshMs,
    lit_mesh_progress_updates: meshRecord.updates.length,
    lit_mesh_largest_progress_gap_ms: Math.round(largestGap(meshRecord.updates)),
    lit_mesh_largest_timer_delay_ms: Math.round(meshRecord.maxTimerLateMs),
  });
  assert.ok(answeredDuringReplay, "the filter answered while the replay was still running");
  for (const [name, record] of [["frame", frameRecord], ["lit mesh", meshRecord]] as const) {
    assert.ok(record.updates.length >= 3, `${name}: the page showed progress (${record.updates.length} updates)`);
    assert.ok(largestGap(record.updates) <= MAX_PROGRESS_GAP_MS, `${name}: progress gaps ≤ ${MAX_PROGRESS_GAP_MS} ms (${largestGap(record.updates)})`);
    // the replay runs in the worker: the page's own thread is never held for a progress interval
    assert.ok(record.maxTimerLateMs < MAX_PROGRESS_GAP_MS, `${name}: the page's timers ran (largest delay ${record.maxTimerLateMs} ms)`);
  }
});

test("Esc cancels a real replay under way, and the draw replays again afterwards", async () => {
  const row = expectation(LIT_MESH, 0);
  const { page, assertClean } = await open(`#capture=/${LIT_MESH}`);
  await page.waitForSelector("li.draw");
  await page.click('li.draw[data-index="0"]');
  await page.waitForSelector("#progress:not([hidden])");
  await page.keyboard.press("Escape");
  await waitForText(page, "#compare-summary", /cancelled/);
  assert.equal(await page.textContent('li.draw[data-index="0"] [data-testid="draw-status"]'), "not replayed");
  await page.keyboard.press("Enter");
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), countText(row));
  assertClean();
  await page.close();
});

test("the README's screenshot: a real capture with a differing pixel inspected", async () => {
  assert.notEqual(shareUrl, "");
  const { page, assertClean } = await watchPage(context, shareUrl);
  await page.waitForSelector('[data-testid="pixel-trace"] .asm-line.executed');
  // one large pane (S) fitted to the view (0), the inspected pixel's values, fragment and verdict beside it
  await page.keyboard.press("s");
  await page.keyboard.press("0");
  await page.waitForSelector('.pane[data-role="side"]', { state: "hidden" });
  await shot(page, "readme");
  assertClean();
  await page.close();
});
