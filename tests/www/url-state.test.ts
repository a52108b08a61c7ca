// The hash names the view; these check that what one page writes, another reads back, and that malformed hashes
// fall back to defaults rather than to nonsense.

import assert from "node:assert/strict";
import { test } from "node:test";
import { captureUrlProblem, emptyState, formatHash, parseHash, parsePixelInput, sameSource } from "../../www/src/url-state";

const SHA = "ab".repeat(32);

test("a URL capture's view survives formatting and parsing", () => {
  const state = {
    source: { kind: "url" as const, url: "/fixtures/captures/scene.iridia" },
    draw: 12,
    target: "rt3" as const,
    view: "heatmap" as const,
    pixel: { x: 640, y: 17 },
  };
  const hash = formatHash(state);
  // slashes and commas stay readable in the link
  assert.equal(hash, "#capture=/fixtures/captures/scene.iridia&draw=12&target=rt3&view=heatmap&pixel=640,17");
  assert.deepEqual(parseHash(hash), state);
});

test("a file capture is named by its hash and file name", () => {
  const state = {
    source: { kind: "file" as const, sha256: SHA, name: "frame 12 & more.iridia" },
    draw: 0,
    target: "depth" as const,
    view: "recorded" as const,
    pixel: null,
  };
  assert.deepEqual(parseHash(formatHash(state)), state);
});

test("an uppercase hash is read in lowercase, and a short one is no source", () => {
  assert.deepEqual(parseHash(`#file=${SHA.toUpperCase()}`).source, { kind: "file", sha256: SHA, name: null });
  assert.equal(parseHash("#file=abc123").source, null);
});

test("a URL with its own query and ampersands round-trips", () => {
  const url = "https://example.test/get?id=3&name=a b";
  const parsed = parseHash(formatHash({ ...emptyState(), source: { kind: "url", url } }));
  assert.deepEqual(parsed.source, { kind: "url", url });
});

test("malformed members are left at their defaults", () => {
  const state = parseHash("#capture=x.iridia&draw=-1&target=rt9&view=sideways&pixel=1;2");
  assert.deepEqual(state, { ...emptyState(), source: { kind: "url", url: "x.iridia" } });
});

test("an empty state writes no hash", () => {
  assert.equal(formatHash(emptyState()), "");
});

test("typed pixel positions accept the usual spellings", () => {
  assert.deepEqual(parsePixelInput("12, 34"), { x: 12, y: 34 });
  assert.deepEqual(parsePixelInput(" (12,34) "), { x: 12, y: 34 });
  assert.deepEqual(parsePixelInput("12 34"), { x: 12, y: 34 });
  assert.equal(parsePixelInput("12"), null);
  assert.equal(parsePixelInput("-1, 3"), null);
  assert.equal(parsePixelInput("a, b"), null);
});

test("sources are the same capture by URL or by hash, never across kinds", () => {
  assert.ok(sameSource({ kind: "url", url: "a" }, { kind: "url", url: "a" }));
  assert.ok(sameSource({ kind: "file", sha256: SHA, name: "x" }, { kind: "file", sha256: SHA, name: null }));
  assert.ok(!sameSource({ kind: "url", url: SHA }, { kind: "file", sha256: SHA, name: null }));
  assert.ok(!sameSource(null, { kind: "url", url: "a" }));
  assert.ok(sameSource(null, null));
});

test("a link's capture is fetched from the page's own origin over http(s) only", () => {
  const base = "http://localhost:8080/index.html#capture=x";
  assert.equal(captureUrlProblem("/fixtures/captures/01-lit-mesh.iridia", base), null);
  assert.equal(captureUrlProblem("fixtures/a.iridia", base), null);
  assert.equal(captureUrlProblem("http://localhost:8080/a.iridia", base), null);
  assert.match(captureUrlProblem("http://192.168.1.1/admin", base) ?? "", /own origin \(http:\/\/localhost:8080\) only, not http:\/\/192\.168\.1\.1/);
  assert.match(captureUrlProblem("https://localhost:8080/a.iridia", base) ?? "", /own origin/);
  assert.match(captureUrlProblem("//evil.example/a.iridia", base) ?? "", /not http:\/\/evil\.example/);
  assert.match(captureUrlProblem("data:application/octet-stream;base64,UEsDBA==", base) ?? "", /http\(s\) URLs only, not data:/);
  assert.match(captureUrlProblem("file:///etc/passwd", base) ?? "", /not file:/);
  assert.match(captureUrlProblem("http://[::1", base) ?? "", /not a URL/);
});
