// The production bundle (scripts/build-www.mjs, which runs before these tests): the worker, with every chunk it
// imports statically, holds no code of the mock backend, which it loads with a dynamic import() under ?mock only,
// from a chunk of its own.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO } from "../../scripts/serve.mjs";

const DIST = join(REPO, "www", "dist");

/** Strings only the mock backend's code has: its capture file's magic, and the comment esbuild puts before it. */
const MOCK_MARKERS = ["IRIDIA-MOCK", "// www/src/mock-backend.ts"];

/** The relative modules a bundled file imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.\/[^"']+)["']/g)) {
    const path = match[1];
    if (path !== undefined) found.push(path);
  }
  return found;
}

/** The relative modules a bundled file imports dynamically (`import("./x.js")`). */
function dynamicImports(code: string): string[] {
  return Array.from(code.matchAll(/\bimport\(\s*["'](\.\/[^"']+)["']\s*\)/g), (match) => match[1] ?? "");
}

/** The files of dist/ that loading `entry` runs: itself and what it imports statically, transitively. */
function staticGraph(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const pending = [entry];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (files.has(name)) continue;
    const code = readFileSync(join(DIST, name), "utf8");
    files.set(name, code);
    for (const path of staticImports(code)) pending.push(path.slice(2));
  }
  return files;
}

test("the worker bundle and the chunks it imports contain no mock backend code", () => {
  assert.ok(existsSync(join(DIST, "worker.js")), "www/dist/worker.js is missing: run scripts/build-www.mjs first");
  const graph = staticGraph("worker.js");
  for (const [name, code] of graph)
    for (const marker of MOCK_MARKERS)
      assert.ok(!code.includes(marker), `www/dist/${name}, which the production worker loads, contains ${JSON.stringify(marker)}`);
});

test("the mock backend is a chunk of its own that the worker imports dynamically", () => {
  const worker = readFileSync(join(DIST, "worker.js"), "utf8");
  const chunks = dynamicImports(worker).filter((path) => path !== "" && !path.startsWith("../pkg/"));
  assert.equal(chunks.length, 1, `the worker's dynamic imports: ${chunks.join(", ")}`);
  const mock = readFileSync(join(DIST, (chunks[0] ?? "").slice(2)), "utf8");
  assert.ok(mock.includes("IRIDIA-MOCK"), `${chunks[0]} does not hold the mock backend`);
});

test("the page's bundle contains no mock backend code either", () => {
  for (const [name, code] of staticGraph("main.js"))
    for (const marker of MOCK_MARKERS) assert.ok(!code.includes(marker), `www/dist/${name} contains ${JSON.stringify(marker)}`);
});

test("the import scanner sees static imports and tells them from dynamic ones", () => {
  const code = 'import {\n  a,\n  b\n} from "./chunk-A.js";\nimport "./chunk-B.js";\nexport { c } from "./chunk-C.js";\nconst m = import("./mock-D.js");';
  assert.deepEqual(staticImports(code), ["./chunk-A.js", "./chunk-B.js", "./chunk-C.js"]);
  assert.deepEqual(dynamicImports(code), ["./mock-D.js"]);
});
