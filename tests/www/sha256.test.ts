// The portable SHA-256 that names captures when SubtleCrypto is not there (pages served over plain http).
// Expected digests are the examples of FIPS 180-4 (NIST's published "abc" and two-block vectors) and node's crypto.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { sha256Hex, sha256Portable } from "../../www/src/store";

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

test("the FIPS 180-4 one-block example: abc", () => {
  assert.equal(hex(sha256Portable(text("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("the FIPS 180-4 two-block example", () => {
  assert.equal(
    hex(sha256Portable(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

test("the empty message", () => {
  assert.equal(hex(sha256Portable(new Uint8Array(0))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
});

test("every length around the padding boundaries agrees with node's crypto", () => {
  // 55, 56 and 64 bytes are where the length field moves to a new block
  for (let length = 0; length <= 130; length++) {
    const bytes = Uint8Array.from({ length }, (_value, i) => (i * 31 + 7) & 255);
    assert.equal(hex(sha256Portable(bytes)), createHash("sha256").update(bytes).digest("hex"), `length ${length}`);
  }
});

test("sha256Hex gives the same digest through SubtleCrypto", async () => {
  const bytes = text("IRIDIA-MOCK");
  assert.equal(await sha256Hex(bytes.slice().buffer), hex(sha256Portable(bytes)));
});
