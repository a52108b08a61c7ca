// The development server's byte ranges (scripts/serve.mjs), which the viewer uses to read a linked capture by
// position: the header's forms as RFC 9110 14.1.2 defines them, and the answers a running server gives.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO, byteRange, startServer } from "../../scripts/serve.mjs";

test("a Range header's forms", () => {
  assert.deepEqual(byteRange(undefined, 100), null);
  assert.deepEqual(byteRange("bytes=0-0", 100), { start: 0, end: 0 });
  assert.deepEqual(byteRange("bytes=10-19", 100), { start: 10, end: 19 });
  // an end past the file is cut to its last byte; an open end is the rest of the file
  assert.deepEqual(byteRange("bytes=90-1000", 100), { start: 90, end: 99 });
  assert.deepEqual(byteRange("bytes=95-", 100), { start: 95, end: 99 });
  // a suffix: the last N bytes (all of them when N is larger)
  assert.deepEqual(byteRange("bytes=-10", 100), { start: 90, end: 99 });
  assert.deepEqual(byteRange("bytes=-500", 100), { start: 0, end: 99 });
  assert.equal(byteRange("bytes=100-", 100), "unsatisfiable");
  assert.equal(byteRange("bytes=-0", 100), "unsatisfiable");
  // what the server may ignore: several ranges, other units, nonsense, an end before the start
  for (const ignored of ["bytes=0-1,5-6", "items=0-1", "bytes=x-1", "bytes=-", "bytes=5-2"])
    assert.equal(byteRange(ignored, 100), null, ignored);
});

test("the server answers a byte range with 206 and those bytes", async () => {
  const server = await startServer({ capture: null, quiet: true });
  try {
    const path = "fixtures/captures/03-post-process.iridia";
    const whole = readFileSync(join(REPO, path));
    const url = new URL(`/${path}`, server.url).href;
    const ranged = await fetch(url, { headers: { Range: "bytes=100-199" } });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get("content-range"), `bytes 100-199/${whole.length}`);
    assert.deepEqual(new Uint8Array(await ranged.arrayBuffer()), new Uint8Array(whole.subarray(100, 200)));
    const plain = await fetch(url);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("accept-ranges"), "bytes");
    assert.equal((await plain.arrayBuffer()).byteLength, whole.length);
    const past = await fetch(url, { headers: { Range: `bytes=${whole.length}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get("content-range"), `bytes */${whole.length}`);
    await past.arrayBuffer();
  } finally {
    await server.close();
  }
});
