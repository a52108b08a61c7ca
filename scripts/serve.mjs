#!/usr/bin/env node
// @ts-check
// A small static server for the viewer: www/ at /, fixtures/ at /fixtures/, and /viewer-config.json naming the
// capture the page opens by default and the draw it selects there (the first). Local only (binds 127.0.0.1), GET and HEAD only, no directory listings.
//
//   node scripts/serve.mjs [--port N] [--capture PATH_OR_URL]
//
// The default capture is --capture, else $IRIDIA_CAPTURE, else the first fixtures/captures/*.iridia; with none the
// page says so. A PATH is relative to the repository and must lie under fixtures/.

import { createServer } from "node:http";
import { readdirSync, statSync, createReadStream, existsSync } from "node:fs";
import { dirname, extname, join, normalize, resolve, sep, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository root: the nearest directory above this file that holds www/index.html (this file is in scripts/,
 * or bundled into test-output/build/ for the browser tests).
 * @returns {string}
 */
function findRepo() {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, "www", "index.html"))) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error("serve: cannot find the repository (no www/index.html above this file)");
    directory = parent;
  }
}

export const REPO = findRepo();

/** @type {Record<string, string>} */
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".d.ts": "text/plain; charset=utf-8",
};

/** The draw (0-based, as the page's `#draw=` counts) the default capture opens on: the first. */
export const DEFAULT_DRAW = 0;

/**
 * The capture the page opens by default, as a URL path, or null when there is none.
 * @param {string | undefined} wanted a path relative to the repository (under fixtures/) or an http(s) URL
 * @returns {string | null}
 */
export function defaultCapture(wanted) {
  if (wanted !== undefined && wanted !== "") {
    if (/^https?:\/\//.test(wanted)) return wanted;
    const path = resolve(REPO, wanted);
    const fromFixtures = relative(join(REPO, "fixtures"), path);
    if (fromFixtures.startsWith("..") || !existsSync(path)) {
      console.error(`serve: the default capture ${wanted} is not a file under fixtures/; starting without one`);
      return null;
    }
    return `/fixtures/${fromFixtures.split(sep).join("/")}`;
  }
  const directory = join(REPO, "fixtures", "captures");
  if (!existsSync(directory)) return null;
  const found = readdirSync(directory).filter((name) => name.endsWith(".iridia")).sort();
  return found.length > 0 ? `/fixtures/captures/${found[0]}` : null;
}

/**
 * Maps a URL path to a file under www/ or fixtures/ (or the benchmark's directory, at /bench/), or null when it
 * escapes them.
 * @param {string} urlPath
 * @param {string | undefined} benchDir
 * @returns {string | null}
 */
function fileFor(urlPath, benchDir) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const [root, rest] = decoded.startsWith("/fixtures/")
    ? [join(REPO, "fixtures"), decoded.slice("/fixtures/".length)]
    : benchDir !== undefined && decoded.startsWith("/bench/")
      ? [resolve(benchDir), decoded.slice("/bench/".length)]
      : [join(REPO, "www"), decoded.slice(1)];
  const path = normalize(join(root, rest));
  if (path !== root && !path.startsWith(root + sep)) return null;
  return path;
}

/**
 * The byte range a `Range` header asks of a file of `size` bytes: `{start, end}` (inclusive), null to send the whole
 * file (no header, a unit other than bytes, several ranges or one that does not parse: RFC 9110 lets a server ignore
 * them), or "unsatisfiable" (a range that starts past the end).
 * @param {string | undefined} header
 * @param {number} size
 * @returns {{ start: number, end: number } | null | "unsatisfiable"}
 */
export function byteRange(header, size) {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? "").trim());
  if (match === null) return null;
  const [first, last] = [match[1] ?? "", match[2] ?? ""];
  if (first === "" && last === "") return null;
  if (first === "") {
    // a suffix: the last N bytes
    const length = Math.min(Number(last), size);
    return length === 0 ? "unsatisfiable" : { start: size - length, end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return "unsatisfiable";
  return end < start ? null : { start, end };
}

/**
 * Starts the server.
 * @param {{ port?: number, host?: string, capture?: string | null | undefined, quiet?: boolean, benchDir?: string,
 *   onServed?: (served: { path: string, status: number, bytes: number }) => void }} options
 *   `capture: null` starts without a default capture (the start page), whatever fixtures/captures holds;
 *   `benchDir` is served at /bench/ (scripts/bench-browser.mjs); `onServed` hears of each file's answer (its URL
 *   path, status and the body's length), for tests
 * @returns {Promise<{ url: string, port: number, defaultCapture: string | null, close: () => Promise<void> }>}
 */
export function startServer(options = {}) {
  const host = options.host ?? "127.0.0.1";
  const capture = options.capture === null ? null : defaultCapture(options.capture ?? process.env["IRIDIA_CAPTURE"]);
  // the default capture opens on its first draw, so a new user sees the replay against the recording at once
  const config = JSON.stringify({ default_capture: capture, default_draw: capture === null ? null : DEFAULT_DRAW });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const log = () => {
      if (!options.quiet) console.error(`${request.method} ${url.pathname} ${response.statusCode}`);
    };
    response.on("finish", log);
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const headers = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
    if (url.pathname === "/viewer-config.json") {
      response.writeHead(200, { ...headers, "Content-Type": TYPES[".json"] });
      response.end(request.method === "HEAD" ? undefined : config);
      return;
    }
    let path = fileFor(url.pathname, options.benchDir);
    if (path !== null && existsSync(path) && statSync(path).isDirectory()) path = join(path, "index.html");
    if (path === null || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404, { ...headers, "Content-Type": TYPES[".txt"] });
      response.end(request.method === "HEAD" ? undefined : `not found: ${url.pathname}\n`);
      return;
    }
    const size = statSync(path).size;
    const type = TYPES[extname(path)] ?? "application/octet-stream";
    const range = byteRange(request.headers.range, size);
    if (range === "unsatisfiable") {
      response.writeHead(416, { ...headers, "Content-Range": `bytes */${size}` }).end();
      return;
    }
    // a single byte range (RFC 9110 14.2) is answered with 206 and those bytes: the viewer reads a large capture
    // this way, its directory and manifest first and then each draw's blobs, never the whole file
    response.writeHead(range === null ? 200 : 206, {
      ...headers,
      "Content-Type": type,
      "Accept-Ranges": "bytes",
      "Content-Length": String(range === null ? size : range.end - range.start + 1),
      ...(range === null ? {} : { "Content-Range": `bytes ${range.start}-${range.end}/${size}` }),
    });
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    options.onServed?.({ path: url.pathname, status: response.statusCode, bytes: range === null ? size : range.end - range.start + 1 });
    const stream = createReadStream(path, range ?? {});
    stream.on("error", () => response.destroy());
    stream.pipe(response);
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolvePromise({
        url: `http://${host === "127.0.0.1" ? "localhost" : host}:${port}/`,
        port,
        defaultCapture: capture,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The command line. */
async function main() {
  const args = process.argv.slice(2);
  /** @type {{ port: number, capture: string | undefined }} */
  const options = { port: 8080, capture: undefined };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[i + 1];
    if (arg === "--port" && value !== undefined) {
      options.port = Number(value);
      i++;
    } else if (arg === "--capture" && value !== undefined) {
      options.capture = value;
      i++;
    } else {
      console.error(`usage: node scripts/serve.mjs [--port N] [--capture PATH_OR_URL]`);
      process.exit(2);
    }
  }
  let server;
  try {
    server = await startServer({ port: options.port, capture: options.capture, quiet: true });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EADDRINUSE" && options.port !== 0) {
      console.error(`serve: port ${options.port} is taken; using a free one`);
      server = await startServer({ port: 0, capture: options.capture, quiet: true });
    } else throw error;
  }
  const hash = server.defaultCapture === null ? "" : `#capture=${server.defaultCapture}&draw=${DEFAULT_DRAW}`;
  console.log(`Iridia viewer: ${server.url}${hash}`);
  if (server.defaultCapture === null)
    console.log("  (no sample capture yet: put one in fixtures/captures/*.iridia or pass --capture PATH)");
  console.log(`  with the mock backend: ${server.url}?mock#capture=/fixtures/viewer/mock-capture.txt`);
  console.log("Press Ctrl+C to stop.");
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

// run as a program, not when imported (or bundled into a test, where argv[1] is the bundle itself)
const self = fileURLToPath(import.meta.url);
if (process.argv[1] !== undefined && resolve(process.argv[1]) === self && self.endsWith(`${sep}serve.mjs`)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
