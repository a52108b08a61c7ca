// The viewer in a real browser: Debian's chromium, headless, driven by playwright-core, against the page served by
// scripts/serve.mjs. These run on the mock backend (?mock), whose answers the tests also ask directly, so each check
// is that the page shows what the backend says. Screenshots go to test-output/screenshots/.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { REPO, startServer } from "../../scripts/serve.mjs";
import type { JobContext } from "../../www/src/backend";
import { createMockBackend } from "../../www/src/mock-backend";
import type { CompareResult } from "../../www/src/protocol";
import { clickPixel, closeLaunched, dropFile, launch, shot, waitForText } from "./harness";

const MOCK_CAPTURE = readFileSync(join(REPO, "fixtures", "viewer", "mock-capture.txt"));

let server: Awaited<ReturnType<typeof startServer>>;
let context: BrowserContext;

/** Errors the page raised or logged, checked after each test. */
const pageErrors = new Map<Page, string[]>();

async function openPage(browser: BrowserContext, hash = "", query = "?mock"): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // a 404 for a capture that does not exist is the browser's own log line, expected in one test
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  await page.goto(`${server.url}${query}${hash}`);
  await page.waitForSelector("#status-backend:not(:empty)");
  return page;
}

function assertNoPageErrors(page: Page): void {
  assert.deepEqual(pageErrors.get(page) ?? [], [], "the page raised no uncaught errors");
}

/** The mock backend's own comparison of a draw, to check the page against. */
async function mockComparison(draw: number): Promise<CompareResult> {
  const job: JobContext = { cancelled: false, checkCancelled: () => undefined, progress: () => undefined, pause: async () => undefined };
  const backend = createMockBackend({ replayStepMs: 0 });
  const summary = await backend.handlers.open_capture(
    { kind: "open_capture", bytes: new Uint8Array(MOCK_CAPTURE).buffer, name: "m" },
    job,
  );
  await backend.handlers.replay({ kind: "replay", capture: summary.capture, draw }, job);
  return backend.handlers.compare({ kind: "compare", capture: summary.capture, draw }, job);
}

async function selectedDraw(page: Page): Promise<string | null> {
  return page.getAttribute("li.draw.selected", "data-index");
}

async function activeView(page: Page): Promise<string | null> {
  return page.getAttribute("#view-buttons button.active", "data-view");
}

before(async () => {
  // no default capture: most tests start from the start page or name their capture in the URL
  server = await startServer({ port: 0, quiet: true, capture: null });
  context = await launch();
});

after(async () => {
  await closeLaunched();
  await server.close();
});

let shareUrl = "";

test("a dropped capture opens and lists its draws", async () => {
  const page = await openPage(context);
  await page.waitForSelector('h2:text-is("Open a capture")');
  await shot(page, "01-empty");
  await dropFile(page, "scene.iridia", MOCK_CAPTURE);
  await page.waitForSelector("li.draw");
  assert.equal(await page.locator("li.draw").count(), 6);
  assert.equal(await page.textContent("#capture-title"), "scene.iridia");
  // the hash names the file by the SHA-256 of its bytes
  assert.match(page.url(), /#file=[0-9a-f]{64}&name=scene\.iridia/);
  await shot(page, "02-opened");
  assertNoPageErrors(page);
  await page.close();
});

test("picking a draw replays it and shows how many pixels differ", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt");
  await page.waitForSelector("li.draw");
  await page.click('li.draw[data-index="1"]');
  const expected = (await mockComparison(1)).targets[0];
  assert.ok(expected !== undefined && expected.differing_pixels > 0);
  const text = await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  assert.equal(text, `${expected.differing_pixels} of ${expected.compared_pixels} pixels differ`);
  const status = await page.textContent('li.draw[data-index="1"] [data-testid="draw-status"]');
  assert.equal(status, `${expected.differing_pixels} px differ`);
  await page.waitForSelector('canvas[data-role="main"][data-image="64x40"]');
  assert.equal(await activeView(page), "difference");
  // the draw's bounding box is outlined: the box of the pixels it covers, as the backend says
  const bounds = expected.bounds;
  assert.ok(bounds !== null && bounds !== undefined);
  await page.waitForSelector(`canvas[data-role="main"][data-bounds="${bounds.x0},${bounds.y0},${bounds.x1},${bounds.y1}"]`);
  await shot(page, "03-draw-differences");
  assertNoPageErrors(page);
  await page.close();
});

test("clicking a pixel shows its values, fragments, verdict and traces", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt&draw=1");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  await page.keyboard.press("0");
  // (30, 30) is covered by both of the Terrain draw's triangles
  await clickPixel(page, 30, 30);
  await waitForText(page, "#inspector-title", /\(30, 30\) · RT0 R8G8B8A8_UNORM/);
  await page.waitForSelector('[data-testid="texel-table"]');
  const header = await page.locator('[data-testid="texel-table"] thead').textContent();
  assert.match(header ?? "", /Before.*Recorded \(GPU\).*Replayed.*Difference/);
  await page.waitForSelector('[data-testid="fragments"]');
  assert.equal(await page.locator('[data-testid="fragments"] details.fragment').count(), 2);
  assert.match((await page.textContent('[data-testid="verdict"]')) ?? "", /matches|differs|ambiguous/);
  // the deciding fragment's pixel program trace, with values beside executed lines
  await page.waitForSelector('[data-testid="pixel-trace"] .asm-line.executed');
  assert.ok((await page.locator('[data-testid="pixel-trace"] .asm-line.executed').count()) >= 5);
  assert.match((await page.locator('[data-testid="pixel-trace"] .asm-line.executed .asm-values').first().textContent()) ?? "", /r0\.xyzw = \(/);
  // a vertex of the triangle: its vertex program trace
  await page.click('details.fragment[open] details.triangle summary');
  await page.click('details.fragment[open] button[data-vertex]');
  await page.waitForSelector('[data-testid="vertex-trace"] .asm-line.executed');
  assert.match((await page.textContent('[data-testid="vertex-trace"] h3')) ?? "", /Vertex program · vertex #\d+/);
  assert.match(page.url(), /pixel=30,30/);
  await shot(page, "04-pixel-inspected");
  shareUrl = page.url();
  assertNoPageErrors(page);
  await page.close();
});

test("a shared link opens the same draw, target, view and pixel", async () => {
  assert.notEqual(shareUrl, "");
  const page = await context.newPage();
  pageErrors.set(page, []);
  page.on("pageerror", (error) => pageErrors.get(page)?.push(error.message));
  await page.goto(shareUrl);
  await waitForText(page, "#inspector-title", /\(30, 30\) · RT0/);
  assert.equal(await selectedDraw(page), "1");
  assert.equal(await page.inputValue("#target-select"), "rt0");
  assert.equal(await activeView(page), "difference");
  await page.waitForSelector('[data-testid="fragments"]');
  assert.equal(page.url(), shareUrl, "restoring the view leaves the link as it was");
  await shot(page, "05-shared-link");
  assertNoPageErrors(page);
  await page.close();
});

test("a link to a file capture asks a browser without it for the file, then restores the view", async () => {
  const first = await openPage(context);
  await dropFile(first, "linked.iridia", MOCK_CAPTURE);
  await first.waitForSelector("li.draw");
  await first.click('li.draw[data-index="2"]');
  await waitForText(first, '[data-testid="differing-count"]', /pixels differ/);
  await first.keyboard.press("Control+g");
  await first.fill("#goto-input", "12, 12");
  await first.keyboard.press("Enter");
  await waitForText(first, "#inspector-title", /\(12, 12\)/);
  const link = first.url();
  assert.match(link, /#file=[0-9a-f]{64}&name=linked\.iridia&draw=2&target=rt0&view=difference&pixel=12,12/);
  await first.close();

  const fresh = await launch();
  const page = await fresh.newPage();
  pageErrors.set(page, []);
  page.on("pageerror", (error) => pageErrors.get(page)?.push(error.message));
  await page.goto(link);
  await page.waitForSelector('[data-testid="wanted-file"]');
  const sha = /file=([0-9a-f]{64})/.exec(link)?.[1] ?? "";
  assert.match((await page.textContent('[data-testid="wanted-file"]')) ?? "", new RegExp(sha));
  await shot(page, "06-link-wants-file");
  await dropFile(page, "linked.iridia", MOCK_CAPTURE);
  await waitForText(page, "#inspector-title", /\(12, 12\)/);
  assert.equal(await selectedDraw(page), "2");
  assert.equal(page.url(), link);
  await shot(page, "07-link-restored-from-file");
  assertNoPageErrors(page);
  await page.close();
});

test("a recent capture kept in IndexedDB reopens from the start page", async () => {
  const page = await openPage(context);
  await page.waitForSelector('[data-testid="recent"] li');
  const names = await page.locator('[data-testid="recent"] li button.link').allTextContents();
  // scene.iridia and linked.iridia are the same bytes, kept once under their hash with the latest name
  assert.deepEqual(names, ["linked.iridia"]);
  await shot(page, "08-recent-captures");
  await page.click('[data-testid="recent"] button.link:text-is("linked.iridia")');
  await page.waitForSelector("li.draw");
  assert.equal(await page.textContent("#capture-title"), "linked.iridia");
  assert.match(page.url(), /#file=[0-9a-f]{64}&name=linked\.iridia/);
  assertNoPageErrors(page);
  await page.close();
});

test("a corrupt or foreign file shows an error and the open capture stays usable", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt&draw=1");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  await dropFile(page, "broken.iridia", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xde, 0xad, 0xbe, 0xef]));
  const corrupt = await waitForText(page, '[data-testid="message-error"]', /broken\.iridia/);
  assert.match(corrupt, /corrupt ZIP archive/);
  await dropFile(page, "notes.txt", new TextEncoder().encode("just some text"));
  await waitForText(page, '[data-testid="message-error"]:last-of-type', /notes\.txt.*not a capture/);
  // the previous capture is still open and its draws still work
  assert.equal(await page.textContent("#capture-title"), "mock-capture.txt");
  assert.equal(await selectedDraw(page), "1");
  await page.click('li.draw[data-index="0"]');
  await waitForText(page, '[data-testid="differing-count"]', /^0 of \d+ pixels differ$/);
  await shot(page, "09-corrupt-file-error");
  assertNoPageErrors(page);
  await page.close();
});

test("a draw whose replay fails shows why, and the rest of the capture stays usable", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt&draw=4");
  const summary = await waitForText(page, "#compare-summary", /Replay failed/);
  assert.match(summary, /unsupported at draws\[4\]\.gs: a geometry shader is bound/);
  await waitForText(page, 'li.draw[data-index="4"] [data-testid="draw-status"]', /error/);
  // the recorded image is still shown beside the error (it is drawn when its own request returns)
  await page.waitForSelector('canvas[data-role="side"][data-image="64x40"]');
  await shot(page, "10-replay-error");
  await page.click('li.draw[data-index="5"]');
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  assert.equal(await page.locator("#target-select option").count(), 3);
  assertNoPageErrors(page);
  await page.close();
});

test("a float target offers a value range and shows NaN and Inf", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt&draw=2&view=recorded");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  assert.equal(await page.isVisible("#range-controls"), true);
  await waitForText(page, '.pane[data-role="main"] .pane-badge', /R16G16B16A16_FLOAT 48×32 · \d+ NaN\/Inf/);
  await page.keyboard.press("Control+g");
  await page.fill("#goto-input", "30,20");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-testid="texel-table"]');
  assert.match((await page.textContent('[data-testid="texel-table"] tbody tr:first-child')) ?? "", /NaN/);
  await shot(page, "11-float-target-nan");
  // a unorm target has no range controls
  await page.click('li.draw[data-index="0"]');
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  assert.equal(await page.isVisible("#range-controls"), false);
  assertNoPageErrors(page);
  await page.close();
});

test("keyboard shortcuts drive the list, the view, channels, differences and dialogs", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt");
  await page.waitForSelector("li.draw");
  // the list: down twice from draw 0, Enter replays draw 2; up once and Enter gives draw 1
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  assert.equal(await selectedDraw(page), "2");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await waitForText(page, "#compare-summary", /draw 1 RT0/);
  assert.equal(await selectedDraw(page), "1");
  // flick between replayed and recorded; number keys pick a view
  await page.keyboard.press("Space");
  assert.equal(await activeView(page), "replayed");
  await page.keyboard.press("f");
  assert.equal(await activeView(page), "recorded");
  await page.keyboard.press("Space");
  assert.equal(await activeView(page), "replayed");
  await page.keyboard.press("5");
  assert.equal(await activeView(page), "heatmap");
  await page.keyboard.press("4");
  assert.equal(await activeView(page), "difference");
  assert.match(page.url(), /view=difference/);
  // channels
  assert.equal(await page.getAttribute('button[data-channel="g"]', "aria-pressed"), "true");
  await page.keyboard.press("g");
  assert.equal(await page.getAttribute('button[data-channel="g"]', "aria-pressed"), "false");
  await page.keyboard.press("g");
  // N goes to a differing (or ambiguous) pixel and inspects it
  await page.keyboard.press("n");
  const verdict = await waitForText(page, '[data-testid="texel-values"] h3', /differs|ambiguous/);
  assert.match(verdict, /differs|ambiguous/);
  const firstPixel = await page.textContent("#inspector-title");
  await page.keyboard.press("n");
  await page.waitForFunction((previous) => document.querySelector("#inspector-title")?.textContent !== previous, firstPixel);
  await shot(page, "12-next-difference");
  // Ctrl+G
  await page.keyboard.press("Control+g");
  assert.equal(await page.isVisible("#goto-overlay"), true);
  await page.fill("#goto-input", "5, 6");
  await page.keyboard.press("Enter");
  await waitForText(page, "#inspector-title", /\(5, 6\)/);
  await page.keyboard.press("Shift+ArrowRight");
  await waitForText(page, "#inspector-title", /\(6, 6\)/);
  await page.keyboard.press("Shift+ArrowUp");
  await waitForText(page, "#inspector-title", /\(6, 5\)/);
  assert.match(page.url(), /pixel=6,5/);
  // side by side off and on
  assert.equal(await page.isVisible('.pane[data-role="side"]'), true);
  await page.keyboard.press("s");
  assert.equal(await page.isVisible('.pane[data-role="side"]'), false);
  await page.keyboard.press("s");
  // zoom
  const before = Number(await page.getAttribute('canvas[data-role="main"]', "data-scale"));
  await page.keyboard.press("+");
  assert.equal(Number(await page.getAttribute('canvas[data-role="main"]', "data-scale")), before * 2);
  // targets cycle on a draw with several
  await page.click('li.draw[data-index="5"]');
  await waitForText(page, "#compare-summary", /draw 5 RT0/);
  await page.keyboard.press("t");
  await waitForText(page, "#compare-summary", /draw 5 RT1/);
  assert.match(page.url(), /target=rt1/);
  // the filter: "/" focuses it, words narrow the list, Enter puts the cursor on the first match
  await page.keyboard.press("/");
  await page.keyboard.type("shadow");
  assert.deepEqual(await page.locator("li.draw:visible .draw-name").allTextContents(), ["Shadow map"]);
  await page.keyboard.press("Enter");
  assert.equal(await page.getAttribute("li.draw.cursor", "data-index"), "3");
  await page.focus("#draw-filter");
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("li.draw:visible").count(), 6);
  // C copies a link to this view (or, where the clipboard is refused, shows it to copy)
  await page.keyboard.press("c");
  await page.waitForFunction(
    () => !(document.querySelector("#link-overlay") as HTMLElement).hidden || /Link copied/.test(document.querySelector("#messages")?.textContent ?? ""),
  );
  if (await page.isVisible("#link-overlay")) {
    assert.equal(await page.inputValue("#link-input"), page.url());
    await page.keyboard.press("Escape");
  }
  // help
  await page.keyboard.press("?");
  assert.equal(await page.isVisible("#help-overlay"), true);
  await shot(page, "13-help");
  await page.keyboard.press("Escape");
  assert.equal(await page.isVisible("#help-overlay"), false);
  assertNoPageErrors(page);
  await page.close();
});

test("the mouse pans and zooms, a drag picks no pixel, and the draw's programs can be listed", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt&draw=1");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  // before a pixel is picked, the inspector describes the draw and lists its programs on request
  assert.match((await page.textContent("#inspector h3")) ?? "", /Draw 1: Terrain/);
  await page.click('#inspector button[data-stage="ps"]');
  await page.waitForSelector('[data-testid="listing"] .asm-line');
  assert.match((await page.textContent('[data-testid="listing"]')) ?? "", /ps_5_0[\s\S]*ret/);
  const canvas = page.locator('canvas[data-role="main"]');
  const box = await canvas.boundingBox();
  assert.ok(box !== null);
  const read = async (): Promise<{ scale: number; x: number; y: number }> => {
    const data = await canvas.evaluate((element) => ({ ...(element as HTMLCanvasElement).dataset }));
    return { scale: Number(data["scale"]), x: Number(data["offsetX"]), y: Number(data["offsetY"]) };
  };
  const start = await read();
  // a drag of (40, 25) moves the image by as much, in both panes, and picks nothing
  await page.mouse.move(box.x + 100, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 110);
  await page.mouse.move(box.x + 140, box.y + 125);
  await page.mouse.up();
  const panned = await read();
  assert.deepEqual(panned, { scale: start.scale, x: start.x + 40, y: start.y + 25 });
  assert.equal(await page.getAttribute('canvas[data-role="side"]', "data-offset-x"), String(start.x + 40));
  assert.equal(await page.textContent("#inspector-title"), "");
  // the wheel zooms about the pointer: the image point under it stays put (within the rounding of mouse events to
  // whole CSS pixels, which the pane's fractional position exposes)
  const pointer = { x: 150, y: 120 };
  const imagePoint = { x: (pointer.x - panned.x) / panned.scale, y: (pointer.y - panned.y) / panned.scale };
  await page.mouse.move(box.x + pointer.x, box.y + pointer.y);
  await page.mouse.wheel(0, -240);
  await page.waitForFunction((before) => Number((document.querySelector('canvas[data-role="main"]') as HTMLCanvasElement).dataset["scale"]) !== before, panned.scale);
  const zoomed = await read();
  assert.ok(zoomed.scale > panned.scale);
  assert.ok(Math.abs(zoomed.x + imagePoint.x * zoomed.scale - pointer.x) < 1);
  assert.ok(Math.abs(zoomed.y + imagePoint.y * zoomed.scale - pointer.y) < 1);
  await shot(page, "14-zoomed-grid");
  assertNoPageErrors(page);
  await page.close();
});

test("Replay all fills in every draw's status", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt");
  await page.waitForSelector("li.draw");
  await page.click("#replay-all-button");
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('li.draw [data-testid="draw-status"]')).every((tag) => tag.textContent !== "not replayed"),
  );
  const expected = await Promise.all([0, 1, 2, 3, 5].map(async (draw) => (await mockComparison(draw)).status));
  const shown = await page.locator('li.draw [data-testid="draw-status"]').allTextContents();
  const text = (status: (typeof expected)[number] | undefined): string =>
    status === undefined ? "" : status.state === "differs" ? `${status.differing_pixels} px differ` : status.state;
  assert.deepEqual(shown, [text(expected[0]), text(expected[1]), text(expected[2]), text(expected[3]), "error", text(expected[4])]);
  // nothing is selected by replaying all
  assert.equal(await page.locator("li.draw.selected").count(), 0);
  await shot(page, "15-replay-all");
  assertNoPageErrors(page);
  await page.close();
});

test("editing the hash moves the page to the view it names", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt&draw=1");
  await waitForText(page, "#compare-summary", /draw 1 RT0/);
  await page.evaluate(() => {
    location.hash = "#capture=/fixtures/viewer/mock-capture.txt&draw=5&target=rt2&view=recorded&pixel=10,10";
  });
  await waitForText(page, "#inspector-title", /\(10, 10\) · RT2 R32_FLOAT/);
  assert.equal(await selectedDraw(page), "5");
  assert.equal(await activeView(page), "recorded");
  assertNoPageErrors(page);
  await page.close();
});

test("Esc cancels a running replay, and Enter replays the draw again", async () => {
  const page = await openPage(context, "#capture=/fixtures/viewer/mock-capture.txt");
  await page.waitForSelector("li.draw");
  await page.click('li.draw[data-index="3"]');
  await page.waitForSelector("#progress:not([hidden])");
  await page.keyboard.press("Escape");
  await waitForText(page, "#compare-summary", /cancelled/);
  assert.equal(await page.textContent('li.draw[data-index="3"] [data-testid="draw-status"]'), "not replayed");
  await page.keyboard.press("Enter");
  await waitForText(page, '[data-testid="differing-count"]', /pixels differ/);
  assert.equal(await page.inputValue("#target-select"), "depth");
  await shot(page, "16-depth-target");
  assertNoPageErrors(page);
  await page.close();
});

test("a capture URL that does not exist is reported in the page", async () => {
  const page = await openPage(context, "#capture=/fixtures/captures/missing.iridia");
  const message = await waitForText(page, '[data-testid="message-error"]', /missing\.iridia/);
  assert.match(message, /HTTP 404/);
  await page.waitForSelector('h2:text-is("Open a capture")');
  await shot(page, "17-missing-url");
  assertNoPageErrors(page);
  await page.close();
});

test("a link's capture on another origin or in a data: URL is refused in the page, unfetched", async () => {
  const page = await openPage(context, "#capture=http://192.168.1.1/router.iridia");
  const fetched: string[] = [];
  page.on("request", (request) => fetched.push(request.url()));
  const message = await waitForText(page, '[data-testid="message-error"]', /router\.iridia/);
  assert.match(message, /fetches captures from its own origin \(http:\/\/localhost:\d+\), or from another over https once you confirm, not from http:\/\/192\.168\.1\.1/);
  await page.evaluate(() => {
    window.location.hash = "#capture=data:application/octet-stream;base64,UEsDBA==";
  });
  await waitForText(page, '[data-testid="message-error"]:last-of-type', /http\(s\) URLs only, not data:/);
  await page.waitForSelector('h2:text-is("Open a capture")');
  assert.deepEqual(fetched.filter((url) => !url.startsWith("http://localhost")), []);
  assertNoPageErrors(page);
  await page.close();
});

test("a link's capture on another site over https opens only once the user confirms, with the URL shown", async () => {
  const remote = "https://captures.example/frames/scene.iridia?build=7";
  const page = await openPage(context, "");
  const asked: string[] = [];
  // the other site, played by the test: it serves the mock capture whole, to this page's origin
  await page.route("https://captures.example/**", async (route) => {
    asked.push(route.request().url());
    await route.fulfill({
      status: 200,
      headers: { "Access-Control-Allow-Origin": new URL(server.url).origin, "Content-Type": "application/octet-stream" },
      body: MOCK_CAPTURE,
    });
  });
  await page.evaluate((url) => {
    window.location.hash = `#capture=${encodeURIComponent(url)}`;
  }, remote);
  const question = await waitForText(page, '[data-testid="confirm-link"]', /another site/);
  assert.match(question, /https:\/\/captures\.example/);
  assert.ok(question.includes(remote), question);
  await shot(page, "19-confirm-other-site");
  // declined: nothing fetched, the start page again
  await page.click('[data-testid="confirm-link-cancel"]');
  await page.waitForSelector('h2:text-is("Open a capture")');
  assert.deepEqual(asked, []);
  // asked again and confirmed: fetched from there and opened
  await page.evaluate((url) => {
    window.location.hash = `#capture=${encodeURIComponent(url)}&draw=0`;
  }, remote);
  await page.waitForSelector('[data-testid="confirm-link"]');
  await page.click('[data-testid="confirm-link-open"]');
  await page.waitForSelector('li.draw[data-index="0"]');
  assert.equal(await page.textContent("#capture-title"), "scene.iridia");
  assert.ok(asked.length >= 1 && asked.every((url) => url === remote), JSON.stringify(asked));
  assertNoPageErrors(page);
  await page.close();
});

test("the server's default capture opens on its first draw when the URL names none", async () => {
  const withDefault = await startServer({ port: 0, quiet: true, capture: "fixtures/viewer/mock-capture.txt" });
  try {
    const page = await context.newPage();
    pageErrors.set(page, []);
    page.on("pageerror", (error) => pageErrors.get(page)?.push(error.message));
    await page.goto(`${withDefault.url}?mock`);
    // the server's viewer-config.json names the first draw (scripts/serve.mjs DEFAULT_DRAW), so a new user sees the
    // replay against the recording without picking one
    await page.waitForSelector('li.draw.selected[aria-selected="true"]');
    assert.equal(await page.getAttribute("li.draw.selected", "data-index"), "0");
    await page.waitForFunction(() => /[#&]target=/.test(location.hash));
    assert.match(page.url(), /\?mock#capture=\/fixtures\/viewer\/mock-capture\.txt&draw=0&target=rt0&view=difference$/);
    assert.equal(await page.textContent("#capture-title"), "mock-capture.txt");
    assertNoPageErrors(page);
    await page.close();
  } finally {
    await withDefault.close();
  }
});

test("without ?mock the page loads the wasm module or says in the page why it cannot", async () => {
  const page = await openPage(context, "", "");
  const status = (await page.textContent("#status-backend")) ?? "";
  if (/\(wasm\)/.test(status)) {
    assert.match(status, /^iridia \d+\.\d+\.\d+/);
  } else {
    assert.equal(status, "backend not loaded");
    await waitForText(page, '[data-testid="message-error"]', /replay engine could not be loaded/);
  }
  await shot(page, "18-real-backend");
  assertNoPageErrors(page);
  await page.close();
});
