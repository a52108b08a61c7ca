// The event list's groups after Replay all, through the wasm module: (a) the re-recorded Dear ImGui frame
// (fixtures/captures/21-imgui.iridia: its clear, then the program's region "ImGui" around its five draws, every one
// matching under the default tolerance — fixtures/captures/README.md) shows its tree, thumbnails and a "match" tag;
// (b) the 4,480-draw frame with markers of event-list.test.ts, made here by `cargo run --release --example
// marked_frame` with every 7th draw recorded altered (so that it differs): each of its 180 groups' tag is the sum of
// its draws' statuses read back from the list's rows, part way (one draw picked) and after Replay all.
// Replay all's time on each frame is printed and written to test-output/measurements.json (`group_sums`).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { REPO, startServer } from "../../scripts/serve.mjs";
import { closeLaunched, launch, recordMeasurements, shot, waitForText, watchPage } from "./harness";

/** The marked frame's shape: event-list.test.ts's 4,480 draws (Replay all took about 30 s on it when this test was
 * written, so the whole frame is summed), every 7th draw altered: 640 differ. */
const PASSES = 20;
const OBJECTS = 8;
const DRAWS = 28;
const DIFFER_EVERY = 7;

let server: Awaited<ReturnType<typeof startServer>>;
let context: BrowserContext;
let work = "";
const measurements: Record<string, unknown> = {};

before(() => {
  work = mkdtempSync(join(tmpdir(), "iridia-group-sums-"));
  execFileSync(
    "cargo",
    [
      "run",
      "--quiet",
      "--locked",
      "--release",
      "--example",
      "marked_frame",
      "--",
      join(REPO, "fixtures", "draw", "demo", "scene_color.json"),
      join(work, "marked.iridia"),
      String(PASSES),
      String(OBJECTS),
      String(DRAWS),
      String(DIFFER_EVERY),
    ],
    { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] },
  );
  return (async () => {
    server = await startServer({ port: 0, quiet: true, capture: null, benchDir: work });
    context = await launch();
  })();
});

after(async () => {
  recordMeasurements({ group_sums: measurements });
  await closeLaunched();
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** Clicks Replay all and waits until its job has shown the progress bar and hidden it again; its time. */
async function replayAll(page: Page): Promise<number> {
  // no other job running; then watch the bar's `hidden` attribute go and come back (however quick the job is)
  await page.waitForSelector("#progress", { state: "hidden" });
  await page.evaluate(() => {
    const progress = document.querySelector("#progress") as HTMLElement;
    const record = { shown: false, done: false };
    (window as unknown as { iridiaReplayAll: typeof record }).iridiaReplayAll = record;
    new MutationObserver(() => {
      if (!progress.hidden) record.shown = true;
      else if (record.shown) record.done = true;
    }).observe(progress, { attributes: true, attributeFilter: ["hidden"] });
  });
  const started = Date.now();
  await page.click("#replay-all-button");
  await page.waitForFunction(() => (window as unknown as { iridiaReplayAll: { done: boolean } }).iridiaReplayAll.done, null, { timeout: 600_000 });
  return Date.now() - started;
}

/** A row of the list as read from the DOM: its depth (from its indent), kind and texts. */
interface ListedRow {
  node: number;
  /** A draw's index, else -1. */
  index: number;
  depth: number;
  kind: "group" | "draw" | "other";
  name: string;
  status: string;
  tag: string | null;
}

/** Every row of the (virtualised) list, read a screenful at a time while scrolling from the top to the end. */
async function listedRows(page: Page): Promise<ListedRow[]> {
  return page.evaluate(async () => {
    const list = document.querySelector("#draw-list") as HTMLElement;
    const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
    const rows = new Map<number, ListedRow>();
    list.scrollTop = 0;
    await frame();
    for (;;) {
      await frame();
      for (const item of list.querySelectorAll<HTMLElement>("li[data-node]")) {
        const node = Number(item.dataset["node"]);
        const kind = item.classList.contains("event-group") ? "group" : item.classList.contains("draw") ? "draw" : "other";
        rows.set(node, {
          node,
          index: kind === "draw" ? Number(item.dataset["index"]) : -1,
          // style: 8 px, then 14 px a level (draw-list.ts `row`)
          depth: Math.round((Number.parseFloat(item.style.paddingLeft) - 8) / 14),
          kind,
          name: item.querySelector(".draw-name")?.textContent ?? "",
          status: item.querySelector('[data-testid="draw-status"]')?.textContent ?? "",
          tag: item.querySelector('[data-testid="group-status"]')?.textContent ?? null,
        });
      }
      const before = list.scrollTop;
      list.scrollTop = before + list.clientHeight;
      await frame();
      if (list.scrollTop === before) break;
    }
    // back at the top, its rows in the DOM again
    list.scrollTop = 0;
    await frame();
    await frame();
    return [...rows.values()].sort((a, b) => a.node - b.node);
  });
}

test("the ImGui frame: its clear, then the ImGui region's five draws with thumbnails, all matching after Replay all", async () => {
  const { page, assertClean } = await watchPage(context, `${server.url}#capture=/fixtures/captures/21-imgui.iridia`);
  page.setDefaultTimeout(120_000);
  await waitForText(page, "#status-backend", /\(wasm\)$/);
  await page.waitForSelector("li.event-group");
  // the outline (the capture's events): the clear, then the region holding draws 0-4, nothing else
  const texts = await page.locator("#draw-list > li:not(.spacer) .draw-name").allTextContents();
  assert.deepEqual(texts.slice(0, 2), ["ClearRenderTargetView(rt 1272x773 R8G8B8A8_UNORM, 0.45, 0.55, 0.6, 1)", "ImGui"]);
  assert.equal(texts.length, 7);
  assert.equal(await page.getAttribute("#draw-list > li:not(.spacer) >> nth=0", "data-testid"), "call");
  assert.equal(await page.locator("li.event-group").count(), 1, "one region, its draws all into rt0: no pass group inside it");
  assert.match((await page.textContent("li.event-group .draw-programs")) ?? "", /^5 draws$/);
  const draws = await page.locator("li.draw").evaluateAll((items) => items.map((item) => item.getAttribute("data-index")));
  assert.deepEqual(draws, ["0", "1", "2", "3", "4"]);
  // draw 0's label: its call (the manifest's `DrawIndexed(174, 0, 0)`), its target and its pixel program's hash
  // (blob 392a9ce2...), as the recorder's captures are labelled
  assert.equal(await page.textContent('li.draw[data-index="0"] .draw-name'), "DrawIndexed(174, 0, 0) → rt0 1272x773, ps 392a9c");
  for (const index of [1, 2, 3, 4]) assert.match((await page.textContent(`li.draw[data-index="${index}"] .draw-name`)) ?? "", /^DrawIndexed\(\d+, \d+, \d+\) → rt0 1272x773, ps [0-9a-f]{6}$/);
  // every draw row's thumbnail loads: a canvas of the target's aspect (1272x773, wider than high), not 1x1
  await page.waitForFunction(() => document.querySelectorAll("li.draw canvas.thumb.loaded").length === 5);
  const sizes = await page.locator("li.draw canvas.thumb").evaluateAll((canvases) =>
    canvases.map((canvas) => {
      const box = canvas.getBoundingClientRect();
      return { width: (canvas as HTMLCanvasElement).width, height: (canvas as HTMLCanvasElement).height, shownWidth: box.width, shownHeight: box.height };
    }),
  );
  for (const size of sizes) {
    assert.ok(size.width > 1 && size.height > 1 && size.width > size.height, `a thumbnail of the target's aspect: ${JSON.stringify(size)}`);
    assert.ok(size.shownWidth > 0 && size.shownHeight > 0, `shown: ${JSON.stringify(size)}`);
  }
  // before Replay all the region's tag claims nothing it does not know: none, or the partial sum of the draws replayed
  const replayedBefore = (await page.locator('li.draw [data-testid="draw-status"]').allTextContents()).filter((status) => status !== "not replayed").length;
  const early = await page.locator('li.event-group [data-testid="group-status"]').allTextContents();
  if (replayedBefore === 0) assert.deepEqual(early, []);
  else assert.deepEqual(early, [`${replayedBefore} match · ${5 - replayedBefore} not replayed`]);
  const replayMs = await replayAll(page);
  measurements["imgui_replay_all_ms"] = replayMs;
  console.log(`21-imgui: Replay all of 5 draws in ${replayMs} ms`);
  // each draw row says it matches; the region's tag is their sum, with every count in its tooltip
  assert.deepEqual(await page.locator('li.draw [data-testid="draw-status"]').allTextContents(), ["matches", "matches", "matches", "matches", "matches"]);
  assert.equal(await page.textContent('li.event-group [data-testid="group-status"]'), "match");
  assert.match((await page.getAttribute("li.event-group", "title")) ?? "", /5 draws: 5 match, 0 differ, 0 errors, 0 not replayed/);
  await page.locator("#draw-list").screenshot({ path: join(REPO, "test-output", "screenshots", "group-sums-imgui-tree.png") });
  await shot(page, "group-sums-imgui");
  assertClean();
  await page.close();
});

test("a marked frame's groups each sum their draws' statuses, partly and after Replay all", async () => {
  const { page, assertClean } = await watchPage(context, `${server.url}#capture=/bench/marked.iridia`);
  page.setDefaultTimeout(120_000);
  await waitForText(page, "#status-backend", /\(wasm\)$/);
  await page.waitForSelector("li.event-group");
  const total = PASSES * OBJECTS * DRAWS;
  // nothing replayed: no group has a tag
  const fresh = await listedRows(page);
  assert.equal(fresh.filter((row) => row.kind === "draw").length, total);
  assert.ok(fresh.filter((row) => row.kind === "draw").every((row) => row.status === "not replayed"), "nothing replayed yet");
  assert.deepEqual(fresh.filter((row) => row.tag !== null), []);
  // pick draw 7 (7 is a multiple of 7: altered, it differs): its object (draws 0-27) and its pass (draws 0-223) say
  // what is known: one draw differs, the rest are not replayed
  await page.click('li.draw[data-index="7"]');
  await waitForText(page, 'li.draw[data-index="7"] [data-testid="draw-status"]', /px differ/);
  await page.waitForFunction(() => document.querySelectorAll('li.event-group [data-testid="group-status"]').length === 2);
  assert.deepEqual(await page.locator('li.event-group [data-testid="group-status"]').allTextContents(), [`1 differ · ${OBJECTS * DRAWS - 1} not replayed`, `1 differ · ${DRAWS - 1} not replayed`]);
  assert.match((await page.getAttribute("li.event-group >> nth=1", "title")) ?? "", new RegExp(`${DRAWS} draws: 0 match, 1 differs, 0 errors, ${DRAWS - 1} not replayed`));
  const replayMs = await replayAll(page);
  measurements["marked_frame"] = { draws: total, passes: PASSES, objects: OBJECTS, differ_every: DIFFER_EVERY, replay_all_ms: replayMs };
  console.log(`marked frame of ${total} draws: Replay all in ${replayMs} ms (${(replayMs / total).toFixed(1)} ms a draw)`);
  const rows = await listedRows(page);
  const drawRows = rows.filter((row) => row.kind === "draw");
  assert.equal(drawRows.length, total);
  // the draws that differ are those the example altered: draws 0, 7, 14 ... (the rows are in the frame's order)
  const differing = drawRows.filter((row) => row.status !== "matches").map((row) => row.index);
  assert.deepEqual(differing, Array.from({ length: Math.ceil(total / DIFFER_EVERY) }, (_, k) => k * DIFFER_EVERY));
  assert.ok(drawRows.every((row) => row.status === "matches" || /^\d+ px differ$/.test(row.status)), "every draw replayed and compared");
  // each group's tag from its draws' rows: the draws after it (in the list's order) deeper than it
  const groups = rows.filter((row) => row.kind === "group");
  assert.equal(groups.length, PASSES * (1 + OBJECTS));
  let checked = 0;
  for (const group of groups) {
    const inside: ListedRow[] = [];
    for (const row of rows.filter((candidate) => candidate.node > group.node)) {
      if (row.depth <= group.depth) break;
      if (row.kind === "draw") inside.push(row);
    }
    const differ = inside.filter((row) => row.status !== "matches").length;
    const expected = differ === 0 ? "match" : `${differ} differ`;
    assert.equal(group.tag, expected, `${group.name}: ${inside.length} draws, ${differ} differing`);
    checked++;
  }
  assert.equal(checked, PASSES * (1 + OBJECTS));
  // the first object holds draws 0-27, of which 0, 7, 14 and 21 differ; the first pass draws 0-223, of which the 32
  // multiples of 7 from 0 to 217 differ
  assert.equal(groups[1]?.tag, "4 differ");
  assert.equal(groups[0]?.tag, "32 differ");
  await page.evaluate(() => {
    (document.querySelector("#draw-list") as HTMLElement).scrollTop = 0;
  });
  await shot(page, "group-sums-marked");
  assertClean();
  await page.close();
});
