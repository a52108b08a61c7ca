// The hash names the view; these check that what one page writes, another reads back, and that malformed hashes
// fall back to defaults rather than to nonsense.

import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyState, formatHash, linkAccess, parseHash, parsePixelInput, sameSource, sameVariants } from "../../www/src/url-state";

const SHA = "ab".repeat(32);

test("a URL capture's view survives formatting and parsing", () => {
  const state = {
    source: { kind: "url" as const, url: "/fixtures/captures/scene.iridia" },
    draw: 12,
    target: "rt3" as const,
    view: "heatmap" as const,
    pixel: { x: 640, y: 17 },
    variants: [],
    edited: [],
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
    variants: [],
    edited: ["3.ps", "12.vs"],
  };
  assert.deepEqual(parseHash(formatHash(state)), state);
});

test("a link names edited programs as draw.stage, and a malformed list names none", () => {
  assert.match(formatHash({ ...parseHash("#capture=/a.iridia"), edited: ["3.ps"] }), /&edited=3\.ps$/);
  assert.deepEqual(parseHash("#capture=/a.iridia&edited=3.ps,12.vs").edited, ["3.ps", "12.vs"]);
  assert.deepEqual(parseHash("#capture=/a.iridia&edited=3.ps,x.gs").edited, []);
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

test("a link names the variants the draws replay under, and a malformed list names none", () => {
  const state = { ...emptyState(), source: { kind: "url" as const, url: "x.iridia" }, draw: 1, variants: ["unsnapped-interpolation", "blend-8bit"] };
  const hash = formatHash(state);
  assert.ok(hash.endsWith("&variants=unsnapped-interpolation,blend-8bit"), hash);
  assert.deepEqual(parseHash(hash), state);
  assert.deepEqual(parseHash("#capture=x.iridia&variants=blend-8bit,<script>").variants, []);
  assert.deepEqual(parseHash("#capture=x.iridia&variants=").variants, []);
  assert.ok(sameVariants(["a", "b"], ["b", "a"]));
  assert.ok(!sameVariants(["a"], ["a", "b"]));
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

test("a link's capture: the page's own origin at once, another over https after confirming, nothing else", () => {
  const base = "http://localhost:8080/index.html#capture=x";
  const problem = (url: string): string => {
    const access = linkAccess(url, base);
    return access.kind === "refused" ? access.problem : "";
  };
  assert.deepEqual(linkAccess("/fixtures/captures/01-lit-mesh.iridia", base), { kind: "own", url: "http://localhost:8080/fixtures/captures/01-lit-mesh.iridia" });
  assert.deepEqual(linkAccess("fixtures/a.iridia", base), { kind: "own", url: "http://localhost:8080/fixtures/a.iridia" });
  assert.deepEqual(linkAccess("http://localhost:8080/a.iridia", base), { kind: "own", url: "http://localhost:8080/a.iridia" });
  // https elsewhere (the same host over https is another origin too): only once the user confirms
  assert.deepEqual(linkAccess("https://captures.example/f.iridia?x=1", base), {
    kind: "confirm",
    url: "https://captures.example/f.iridia?x=1",
    origin: "https://captures.example",
  });
  assert.equal(linkAccess("https://localhost:8080/a.iridia", base).kind, "confirm");
  // plain http elsewhere (the intranet's routers and printers), other schemes, non-URLs: refused
  assert.match(problem("http://192.168.1.1/admin"), /own origin \(http:\/\/localhost:8080\), or from another over https once you confirm, not from http:\/\/192\.168\.1\.1/);
  assert.match(problem("//evil.example/a.iridia"), /not from http:\/\/evil\.example/);
  assert.match(problem("data:application/octet-stream;base64,UEsDBA=="), /http\(s\) URLs only, not data:/);
  assert.match(problem("file:///etc/passwd"), /not file:/);
  assert.match(problem("http://[::1"), /not a URL/);
});
