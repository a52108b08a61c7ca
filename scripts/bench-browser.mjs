#!/usr/bin/env node
// @ts-check
// The viewer's side of scripts/bench.sh: the wasm build in headless chromium (Debian's, as the browser tests drive
// it) timed on the benchmark captures that bench.sh writes into DIR, served at /bench/. Prints one JSON object of
// milliseconds (medians of RUNS runs, 1 by default), each figure timed as a user waits for it:
//
// - p1_pass: a 1080p pass of P1: the replay of p1_2.iridia (2 passes) less that of p1_1.iridia (1 pass), each
//   from the draw's selection (#draw=0 on an open capture) to the differing count shown;
// - p1b_draw: a P1b draw: "Replay all" of the frame p1b_N.iridia after its draw 0, divided by its other N - 1 draws;
// - p2_click: the pixel click on p2.iridia's draw of 100,352 triangles after its replay: from the pixel's selection
//   to the verdict shown (three pixels, the median);
// - p3_open: opening large.iridia (about 1 GB) from its link to its draw list shown.
//
//   node scripts/bench-browser.mjs DIR [RUNS]

import { mkdtempSync, rmSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "./serve.mjs";

const CHROMIUM = process.env["IRIDIA_CHROMIUM"] ?? "/usr/bin/chromium";
/** Long replays in wasm take minutes; nothing here should take longer than this. */
const LONG = 30 * 60 * 1000;

/**
 * The median of some numbers.
 * @param {number[]} values
 */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/**
 * Opens the viewer at `hash` on a fresh page and waits until its wasm backend is up.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} url
 */
async function openPage(context, url) {
  const page = await context.newPage();
  page.setDefaultTimeout(LONG);
  await page.goto(url);
  await page.waitForFunction(() => /\(wasm\)$/.test(document.querySelector("#status-backend")?.textContent ?? ""));
  return page;
}

/**
 * Milliseconds from `start()` until `selector`'s text matches `pattern`.
 * @param {import("playwright-core").Page} page
 * @param {() => Promise<unknown>} start
 * @param {string} selector
 * @param {RegExp} pattern
 */
async function timeUntil(page, start, selector, pattern) {
  const begun = Date.now();
  await start();
  await page.waitForFunction(
    ({ css, source }) => new RegExp(source).test(document.querySelector(css)?.textContent ?? ""),
    { css: selector, source: pattern.source },
    { timeout: LONG, polling: 20 },
  );
  return Date.now() - begun;
}

/**
 * The replay of draw 0 of `name`: the capture opened, then the draw selected; milliseconds to the differing count.
 * @param {import("playwright-core").BrowserContext} context
 * @param {string} base
 * @param {string} name
 */
async function replayDraw(context, base, name) {
  const page = await openPage(context, `${base}#capture=/bench/${name}`);
  await page.waitForSelector('li.draw[data-index="0"]');
  const ms = await timeUntil(page, () => page.click('li.draw[data-index="0"]'), '[data-testid="differing-count"]', /pixels differ/);
  return { page, ms };
}

async function main() {
  const [dir, runsText] = process.argv.slice(2);
  if (dir === undefined || !existsSync(dir)) {
    console.error("usage: node scripts/bench-browser.mjs DIR [RUNS]");
    process.exit(2);
  }
  const runs = Math.max(1, Number(runsText ?? "1"));
  const server = await startServer({ port: 0, quiet: true, capture: null, benchDir: dir });
  const profile = mkdtempSync(join(tmpdir(), "iridia-bench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 860 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  /** @type {Record<string, number>} */
  const figures = {};
  const has = (/** @type {string} */ name) => existsSync(join(dir, name));
  try {
    if (has("p1_1.iridia") && has("p1_2.iridia")) {
      const passes = [];
      for (let run = 0; run < runs; run++) {
        const one = await replayDraw(context, server.url, "p1_1.iridia");
        await one.page.close();
        const two = await replayDraw(context, server.url, "p1_2.iridia");
        await two.page.close();
        passes.push(two.ms - one.ms);
        console.error(`wasm P1: 1 pass ${one.ms} ms, 2 passes ${two.ms} ms`);
      }
      figures["p1_pass"] = median(passes);
    }
    const frame = readdirSync(dir).find((name) => /^p1b_([2-9]|\d\d+)\.iridia$/.test(name));
    if (frame !== undefined) {
      const draws = Number(/^p1b_(\d+)/.exec(frame)?.[1]);
      const perDraw = [];
      for (let run = 0; run < runs; run++) {
        const { page } = await replayDraw(context, server.url, frame);
        const begun = Date.now();
        await page.click("#replay-all-button");
        await page.waitForSelector("#progress:not([hidden])", { timeout: 5000 }).catch(() => undefined);
        await page.waitForSelector("#progress", { state: "hidden", timeout: LONG });
        const all = Date.now() - begun;
        await page.close();
        perDraw.push(all / (draws - 1));
        console.error(`wasm P1b: replay all of ${draws - 1} draws ${all} ms`);
      }
      figures["p1b_draw"] = median(perDraw);
    }
    if (has("p2.iridia")) {
      const { page, ms } = await replayDraw(context, server.url, "p2.iridia");
      figures["p2_replay"] = ms;
      await page.waitForSelector('canvas[data-role="main"][data-image="1920x1080"]');
      const clicks = [];
      for (const [x, y] of [
        [960, 540],
        [1087, 23],
        [5, 1070],
      ]) {
        for (let run = 0; run < runs; run++) {
          // a click on the pixel in the main pane, timed until the inspector shows a new verdict
          const canvas = page.locator('canvas[data-role="main"]');
          const box = await canvas.boundingBox();
          const data = await canvas.evaluate((element) => ({ ...(/** @type {HTMLCanvasElement} */ (element)).dataset }));
          if (box === null) throw new Error("the main pane has no canvas");
          const scale = Number(data["scale"]);
          const previous = await page.$('[data-testid="verdict"]');
          const begun = Date.now();
          await page.mouse.click(box.x + Number(data["offsetX"]) + (x + 0.5) * scale, box.y + Number(data["offsetY"]) + (y + 0.5) * scale);
          await page.waitForFunction(
            (old) => {
              const verdict = document.querySelector('[data-testid="verdict"]');
              return verdict !== null && verdict !== old && (verdict.textContent ?? "").trim() !== "";
            },
            previous,
            { timeout: 60_000, polling: 5 },
          );
          const clicked = Date.now() - begun;
          clicks.push(clicked);
          console.error(`wasm P2: pixel ${x},${y} ${clicked} ms (${await page.textContent("#inspector-title")})`);
        }
      }
      figures["p2_click"] = median(clicks);
      await page.close();
    }
    if (has("large.iridia")) {
      const opens = [];
      for (let run = 0; run < runs; run++) {
        const page = await openPage(context, server.url);
        const ms = await timeUntil(
          page,
          () =>
            page.evaluate(() => {
              location.hash = "#capture=/bench/large.iridia";
            }),
          "#capture-meta",
          /draws/,
        );
        opens.push(ms);
        console.error(`wasm P3: opened large.iridia in ${ms} ms (${await page.textContent("#capture-meta")})`);
        await page.close();
      }
      figures["p3_open"] = median(opens);
    }
  } finally {
    await context.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
  console.log(JSON.stringify(figures));
}

await main();
