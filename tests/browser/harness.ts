// What the browser tests share: Debian's chromium launched headless with a fresh profile, pages watched for
// uncaught errors, screenshots, dropping a file as a person would, waiting for text, clicking an image pixel.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, type JSHandle, type Page, chromium } from "playwright-core";
import { REPO } from "../../scripts/serve.mjs";

export const CHROMIUM = process.env["IRIDIA_CHROMIUM"] ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(REPO, "test-output", "screenshots");

/** Every context `launch` started, with its profile directory. */
const launched: { context: BrowserContext; profile: string }[] = [];

/** Chromium headless with a fresh profile (no IndexedDB, no cache); `closeLaunched` closes it and removes it. */
export async function launch(): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), "iridia-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 860 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  launched.push({ context, profile });
  return context;
}

/** Closes every context `launch` started and removes their profiles (chromium may still be writing to them). */
export async function closeLaunched(): Promise<void> {
  for (const { context, profile } of launched.splice(0)) {
    await context.close();
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (error: unknown) {
      // a profile left in the temporary directory is untidy, not a failure of the viewer
      console.warn(`could not remove ${profile}: ${String(error)}`);
    }
  }
}

/** A page and the check that it raised and logged no errors. */
export interface PageWatch {
  page: Page;
  assertClean: () => void;
}

/** Opens `url` in a new page of `browser`, collecting uncaught errors and console errors. */
export async function watchPage(browser: BrowserContext, url: string): Promise<PageWatch> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  await page.waitForSelector("#status-backend:not(:empty)");
  return { page, assertClean: () => assert.deepEqual(errors, [], "the page raised no uncaught errors") };
}

/** Saves a screenshot of the page as test-output/screenshots/NAME.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Drops a file on the page as a person dragging it from the desktop would. */
export async function dropFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  const transfer: JSHandle<DataTransfer> = await page.evaluateHandle(
    ({ fileName, data }) => {
      const dataTransfer = new DataTransfer();
      dataTransfer.items.add(new File([new Uint8Array(data)], fileName));
      return dataTransfer;
    },
    { fileName: name, data: Array.from(bytes) },
  );
  await page.dispatchEvent("body", "dragenter", { dataTransfer: transfer });
  assert.equal(await page.isVisible("#drop-overlay"), true, "dragging a file over the page shows the drop overlay");
  await page.dispatchEvent("body", "drop", { dataTransfer: transfer });
  assert.equal(await page.isVisible("#drop-overlay"), false);
}

/** Waits until an element's text matches, and returns it. */
export async function waitForText(page: Page, selector: string, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    ({ selector: css, source, flags }) => new RegExp(source, flags).test(document.querySelector(css)?.textContent ?? ""),
    { selector, source: pattern.source, flags: pattern.flags },
  );
  return (await page.textContent(selector)) ?? "";
}

/** Clicks the centre of image pixel (x, y) in the main pane. */
export async function clickPixel(page: Page, x: number, y: number): Promise<void> {
  const canvas = page.locator('canvas[data-role="main"]');
  const box = await canvas.boundingBox();
  assert.ok(box !== null);
  const data = await canvas.evaluate((element) => ({ ...(element as HTMLCanvasElement).dataset }));
  const scale = Number(data["scale"]);
  const left = box.x + Number(data["offsetX"]) + (x + 0.5) * scale;
  const top = box.y + Number(data["offsetY"]) + (y + 0.5) * scale;
  assert.ok(left > box.x && left < box.x + box.width && top > box.y && top < box.y + box.height, "the pixel is visible");
  await page.mouse.click(left, top);
}

/** Starts recording, in the page, when the progress text changes and how late the page's timers run. */
export async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const record = { updates: [] as number[], maxTimerLateMs: 0, running: true };
    (window as unknown as { iridiaRecord: typeof record }).iridiaRecord = record;
    const text = document.querySelector("#progress-text");
    if (text === null) throw new Error("no #progress-text");
    new MutationObserver(() => record.updates.push(performance.now())).observe(text, { childList: true, characterData: true, subtree: true });
    // a 10 ms timer: how late it fires is how long the page's thread was busy
    let last = performance.now();
    const tick = (): void => {
      const now = performance.now();
      record.maxTimerLateMs = Math.max(record.maxTimerLateMs, now - last - 10);
      last = now;
      if (record.running) setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  });
}

/** The recording, stopped: the progress updates' times and the largest timer delay. */
export async function stopRecording(page: Page): Promise<{ updates: number[]; maxTimerLateMs: number }> {
  return page.evaluate(() => {
    const record = (window as unknown as { iridiaRecord: { updates: number[]; maxTimerLateMs: number; running: boolean } }).iridiaRecord;
    record.running = false;
    return { updates: record.updates, maxTimerLateMs: record.maxTimerLateMs };
  });
}

/** The longest time between two of `times` (milliseconds). */
export function largestGap(times: number[]): number {
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, (times[i] ?? 0) - (times[i - 1] ?? 0));
  return gap;
}

/** Merges `figures` into test-output/measurements.json (the browser tests' measurements, file by file). */
export function recordMeasurements(figures: Record<string, unknown>): void {
  const path = join(REPO, "test-output", "measurements.json");
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    // none yet
  }
  mkdirSync(join(REPO, "test-output"), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ ...current, ...figures }, null, 2)}\n`);
}
