// Editing a draw's program in the viewer and running the draw with it (issue 17): the pixel program of
// 02-alpha-blend's draw 0 as its listing, a line that does not assemble named, then the output made pure red: the
// page shows the new difference count, the one the command line gives for the same edited listing
// (`iridia replay --program`, whose count tests/cli_batch.rs checks against the GPU's recorded bytes), beside the
// count with the recorded program; the edit survives a reload (the browser's storage) and the link names it.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext } from "playwright-core";
import { REPO, startServer } from "../../scripts/serve.mjs";
import { closeLaunched, launch, shot, waitForText, watchPage } from "./harness";

const CAPTURE = "fixtures/captures/02-alpha-blend.iridia";
const RED = "mov o0.xyzw, l(1.0, 0.0, 0.0, 1.0)";

let server: Awaited<ReturnType<typeof startServer>>;
let context: BrowserContext;
let edited = "";
let expectedDiffering = 0;
let expectedChanged = 0;

/** Runs the command-line tool. */
function iridia(args: string[]): { status: number | null; stdout: string } {
  const run = spawnSync("cargo", ["run", "--quiet", "--locked", "--bin", "iridia", "--", ...args], {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return { status: run.status, stdout: run.stdout };
}

before(async () => {
  const listing = execFileSync("cargo", ["run", "--quiet", "--locked", "--bin", "iridia", "--", "disasm", CAPTURE, "--draw", "0", "--stage", "ps"], {
    cwd: REPO,
    encoding: "utf8",
  });
  assert.ok(listing.includes("mov o0.xyzw, r0.xyzw"), "draw 0's pixel program writes o0 from r0");
  edited = listing.replace("mov o0.xyzw, r0.xyzw", RED);
  const file = join(mkdtempSync(join(tmpdir(), "iridia-edit-")), "red.asm");
  writeFileSync(file, edited);
  const replay = iridia(["replay", CAPTURE, "--draw", "0", "--json", "--program", `ps=${file}`]);
  assert.equal(replay.status, 1, "the edited draw differs");
  const report = JSON.parse(replay.stdout) as {
    draws: { differing_pixels: number; original: { differing_pixels: number }; changed_by_edit: { target: string; changed_texels: number }[] }[];
  };
  expectedDiffering = report.draws[0]?.differing_pixels ?? 0;
  expectedChanged = report.draws[0]?.changed_by_edit.find((change) => change.target === "rt0")?.changed_texels ?? -1;
  assert.ok(expectedDiffering > 1000);
  assert.equal(report.draws[0]?.original.differing_pixels, 0);
  server = await startServer({ port: 0, quiet: true, capture: null });
  context = await launch();
});

after(async () => {
  await closeLaunched();
  await server.close();
});

test("a pixel program edited as its listing replays the draw with the new difference, and survives a reload", async () => {
  const { page, assertClean } = await watchPage(context, `${server.url}#capture=/${CAPTURE}&draw=0`);
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), "0 of 16384 pixels differ");
  await page.click('[data-testid="edit-program"]');
  await page.waitForFunction(() => (document.querySelector<HTMLTextAreaElement>('[data-testid="program-text"]')?.value ?? "").includes("mov o0.xyzw, r0.xyzw"));
  // a line that does not assemble: the error names it, nothing changes
  const broken = edited.replace(RED, "mvo o0.xyzw, r0.xyzw");
  const brokenLine = broken.split("\n").findIndex((line) => line.startsWith("mvo")) + 1;
  await page.fill('[data-testid="program-text"]', broken);
  await page.click('[data-testid="program-run"]');
  assert.match(await waitForText(page, '[data-testid="program-error"]', /line/), new RegExp(`line ${brokenLine}\\b`));
  // the edit: pure red out
  await page.fill('[data-testid="program-text"]', edited);
  await page.click('[data-testid="program-run"]');
  const comparison = await waitForText(page, '[data-testid="program-comparison"]', /px differ/);
  assert.equal(comparison, `With the edit: ${expectedDiffering} px differ of 16384`);
  assert.match((await page.textContent('[data-testid="program-result"]')) ?? "", /With the recorded program: matches \(16384 px compared\)/);
  assert.equal(
    await waitForText(page, '[data-testid="program-changes"]', /changed/),
    `Against the replay with the recorded program, the edit changed ${expectedChanged} of 16384 texels of RT0`,
  );
  await shot(page, "program-edit");
  await page.keyboard.press("Escape");
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /pixels differ/), `${expectedDiffering} of 16384 pixels differ`);
  assert.match(page.url(), /edited=0\.ps/);
  // a reload (or the link) brings the edit back from the browser's storage
  await page.reload();
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', new RegExp(`^${expectedDiffering} of`)), `${expectedDiffering} of 16384 pixels differ`);
  // reverting runs the recorded program again
  await page.click('[data-testid="edit-program"]');
  await page.waitForFunction(() => (document.querySelector<HTMLTextAreaElement>('[data-testid="program-text"]')?.value ?? "").includes("l(1."));
  await page.click('[data-testid="program-revert"]');
  await waitForText(page, '[data-testid="program-result"]', /Reverted/);
  await page.keyboard.press("Escape");
  assert.equal(await waitForText(page, '[data-testid="differing-count"]', /^0 of/), "0 of 16384 pixels differ");
  assertClean();
  await page.close();
});
