// A frame's dispatch in the viewer through Iridia's wasm module (no ?mock): the capture `cargo run --example
// dispatch_capture` writes (a draw, then a dispatch over a 16x16 R8G8B8A8_UINT texture view u0 and a counter view u1
// of 256 words, 4x4 groups of 4x4 threads, each storing (16 x, 16 y, 128, 255) at its thread ID in u0 and its slot's
// number at the slot of u1 it takes; texels (5, 3) and (10, 12) recorded as (0, 0, 0, 255)) is dropped on the page.
// The dispatch waits in the list until picked; picked, it replays and its view shows with its two differing texels
// marked; a click on texel (5, 3) names its one writer, worked out by hand: group (1, 0, 0), thread (1, 3, 0) in it,
// `store_uav_typed` (instruction 7) writing 503080ff over 00000000. u1 shows as words 64 a row, and its counter's
// 256 users are listed, the first 16 traced.

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
  assert.match(write, /7: store_uav_typed/);
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

test("a buffer view shows its words 64 a row and its counter's users are listed", async () => {
  const { page, assertClean } = await watchPage(context, server.url);
  await waitForText(page, "#status-backend", /^iridia \d+\.\d+\.\d+ \(wasm\)$/);
  await page.waitForSelector('h2:text-is("Open a capture")');
  await dropFile(page, "dispatch.iridia", readFileSync(CAPTURE));
  await page.locator('li[data-testid="dispatch"]').click();
  await waitForText(page, '[data-testid="differing-count"]', /texels differ/);
  await page.selectOption("#target-select", "u1");
  // 256 words of 4 bytes: 4 rows of 64; all as recorded (0..255, whichever thread took which slot)
  await page.waitForSelector('canvas[data-role="main"][data-image="64x4"]');
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /elements differ/), "0 of 256 elements differ");
  assert.match((await page.textContent('[data-testid="dispatch-layout"]')) ?? "", /structured buffer view of 256 structures of 4 bytes as words \(R32_UINT\), 64 a row/);
  await page.click('button[data-counter="1"]');
  const heading = await waitForText(page, '[data-testid="element-writes-heading"]', /write\(s\)/);
  assert.equal(heading, "256 write(s) by 256 thread(s)");
  assert.equal(await page.locator('[data-testid="element-write"]').count(), 256);
  // the first slot went to group (0, 0, 0) thread (0, 0, 0), which found the counter at 0
  assert.match((await page.locator('[data-testid="element-write"]').first().textContent()) ?? "", /\(0,0,0\) \(0,0,0\)8: imm_atomic_alloc.*00000000 → 01000000/);
  assert.match((await page.locator('[data-testid="element-write"]').first().textContent()) ?? "", /counter alloc/);
  assert.equal(await page.locator('[data-testid="writer-trace"]').count(), 16);
  await page.waitForSelector("text=240 more writer(s) not traced");
  await shot(page, "dispatch-counter");
  assertClean();
  await page.close();
});
