#!/usr/bin/env node
// @ts-check
// Bundles the viewer with esbuild: www/src/main.ts → www/dist/main.js and www/src/worker.ts → www/dist/worker.js
// (ES modules; the worker loads ../pkg/iridia.js, the wasm-bindgen output, at run time). Code splitting puts what is
// imported dynamically, the mock backend (worker.ts, only under ?mock), in a chunk of its own, and code both
// entries share in `chunk-*.js` files they import; www/dist/ is emptied first so no stale chunk stays. With --tests
// it also bundles tests/www/*.test.ts and tests/browser/*.test.ts into test-output/build/ for node's test runner.

import { build } from "esbuild";
import { readdirSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(fileURLToPath(new URL("..", import.meta.url)));
const withTests = process.argv.includes("--tests");

rmSync(join(repo, "www/dist"), { recursive: true, force: true });
await build({
  entryPoints: [join(repo, "www/src/main.ts"), join(repo, "www/src/worker.ts")],
  outdir: join(repo, "www/dist"),
  bundle: true,
  format: "esm",
  // the page is a module script and the worker a module worker, so chunks load as ES module imports
  splitting: true,
  target: "es2022",
  sourcemap: true,
  logLevel: "warning",
  // the wasm-bindgen glue is fetched at run time beside the wasm file, never bundled
  external: ["../pkg/*"],
});

if (withTests) {
  for (const suite of ["www", "browser"]) {
    const directory = join(repo, "tests", suite);
    if (!existsSync(directory)) continue;
    const entries = readdirSync(directory)
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => join(directory, name));
    if (entries.length === 0) continue;
    await build({
      entryPoints: entries,
      outdir: join(repo, "test-output/build", suite),
      outExtension: { ".js": ".mjs" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: "inline",
      packages: "external",
      logLevel: "warning",
    });
  }
}
