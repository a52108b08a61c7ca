// A frame's dispatch in the viewer through Iridia's wasm module (no ?mock): the capture `cargo run --example
// dispatch_capture` writes (a draw, then a dispatch over a 16x16 R8G8B8A8_UINT texture view, 4x4 groups of 4x4
// threads, each storing (16 x, 16 y, 128, 255) at its thread ID; texels (5, 3) and (10, 12) recorded as (0, 0, 0, 255))
// is dropped on the page. The dispatch waits in the list until picked; picked, it replays and its view shows with its
// two differing texels marked; a click on texel (5, 3) names its one writer, worked out by hand: group (1, 0, 0),
// thread (1, 3, 0) in it, `store_uav_typed` (instruction 6) writing 503080ff over 00000000.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext } from "playwright-core";
import { REPO, startServer } from "../../scripts/serve.mjs";
import { clickPixel, closeLaunched, dropFile, launch, shot, waitForText, watchPage } from "./harness";

const CAPTURE = join(REPO, "test-output", "dispatch.iridia");

let server: Awaited<ReturnType<typeof startServer>>;
let context: BrowserContext;

before(async () => {
  execFileSync("cargo", ["run", "--quiet", "--locked", "--example", "dispatch_capture", "--", CAPTURE], {
    cwd: REPO,
    stdio: ["ignore", "inherit", "inherit"],
  });
  server = await startServer({ port: 0, quiet: true, capture: null });
  context = await launch();
});

after(async () => {
  await closeLaunched();
  await server.close();
});

test("a dispatch replays when picked, shows its view's differences, and a clicked texel names its writer", async () => {
  const { page, assertClean } = await watchPage(context, server.url);
  await waitForText(page, "#status-backend", /^iridia \d+\.\d+\.\d+ \(wasm\)$/);
  await page.waitForSelector('h2:text-is("Open a capture")');
  await dropFile(page, "dispatch.iridia", readFileSync(CAPTURE));
  const row = page.locator('li[data-testid="dispatch"]');
  await row.waitFor();
  // listed after the draw, not replayed until picked
  assert.equal(await row.getAttribute("data-dispatch"), "0");
  assert.equal(await page.textContent('[data-testid="dispatch-status"]'), "not replayed");
  await row.click();
  const count = await waitForText(page, '[data-testid="differing-count"]', /texels differ/);
  assert.equal(count, "2 of 256 texels differ");
  assert.equal(await page.textContent('[data-testid="dispatch-status"]'), "2 differ");
  assert.match((await page.textContent('[data-testid="dispatch-layout"]')) ?? "", /R8G8B8A8_UINT texture view, 16x16 texels/);
  await page.waitForSelector('canvas[data-role="main"][data-image="16x16"]');
  // the differences view marks the two texels the GPU left otherwise
  await page.click('#view-buttons button[data-view="difference"]');
  await page.waitForSelector('canvas[data-role="main"][data-image="16x16"]');
  await clickPixel(page, 5, 3);
  const heading = await waitForText(page, '[data-testid="dispatch-element"] h3', /texel/);
  assert.match(heading, /^u0 texel \(5, 3\)/);
  const writes = page.locator('[data-testid="element-write"]');
  await writes.first().waitFor();
  assert.equal(await writes.count(), 1);
  const write = (await writes.first().textContent()) ?? "";
  assert.match(write, /\(1,0,0\) \(1,3,0\)/);
  assert.match(write, /6: store_uav_typed/);
  assert.match(write, /00000000 → 503080ff/);
  // its trace: the shift gave (80, 48) = (16 x 5, 16 x 3)
  const trace = page.locator('[data-testid="writer-trace"]');
  assert.equal(await trace.count(), 1);
  assert.match((await trace.textContent()) ?? "", /SV_DispatchThreadID 5, 3, 0/);
  await shot(page, "dispatch-element");
  assertClean();
  await page.close();
});

test("Replay all replays the frame's dispatches after its draws", async () => {
  const { page, assertClean } = await watchPage(context, server.url);
  await waitForText(page, "#status-backend", /^iridia \d+\.\d+\.\d+ \(wasm\)$/);
  await page.waitForSelector('h2:text-is("Open a capture")');
  await dropFile(page, "dispatch.iridia", readFileSync(CAPTURE));
  await page.locator('li[data-testid="dispatch"]').waitFor();
  assert.equal(await page.textContent('[data-testid="dispatch-status"]'), "not replayed");
  await page.click("#replay-all-button");
  await waitForText(page, '[data-testid="dispatch-status"]', /differ/);
  assert.equal(await page.textContent('[data-testid="dispatch-status"]'), "2 differ");
  // the draw too
  assert.notEqual(await page.textContent('li.draw[data-index="0"] [data-testid="draw-status"]'), "not replayed");
  assertClean();
  await page.close();
});
