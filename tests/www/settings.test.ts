// The viewer's settings (www/src/app/settings.ts): fields as typed, kept and read back from storage (a damaged or
// foreign value is the default), and the limits they give a capture beside the engine's defaults.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DEFAULT_MAX_LINKED_BYTES,
  SETTINGS_KEY,
  defaultSettings,
  effectiveLimits,
  loadSettings,
  maxLinkedBytes,
  parseField,
  saveSettings,
} from "../../www/src/app/settings";

/** A Storage of one Map, or one whose every call throws (a browser refusing storage). */
function memoryStorage(refuse = false): Pick<Storage, "getItem" | "setItem"> & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => {
      if (refuse) throw new Error("SecurityError");
      return values.get(key) ?? null;
    },
    setItem: (key, value) => {
      if (refuse) throw new Error("QuotaExceededError");
      values.set(key, value);
    },
  };
}

test("a field is empty (the default) or a whole number from 1 to 2^40", () => {
  assert.equal(parseField(""), null);
  assert.equal(parseField("  "), null);
  assert.equal(parseField(" 512 "), 512);
  assert.equal(parseField("1"), 1);
  assert.equal(parseField(String(2 ** 40)), 2 ** 40);
  for (const bad of ["0", "-3", "1.5", "1e3", "12MiB", String(2 ** 40 + 1), "NaN"])
    assert.ok(typeof parseField(bad) === "object", bad);
  assert.deepEqual(parseField("abc"), { problem: '"abc" is not a whole number' });
});

test("settings are kept and read back; damaged or foreign values read as the defaults", () => {
  const storage = memoryStorage();
  assert.deepEqual(loadSettings(storage), defaultSettings());
  const settings = { maxMemoryMiB: 256, maxWorkMillions: 1, maxLinkedMiB: null };
  assert.ok(saveSettings(storage, settings));
  assert.deepEqual(loadSettings(storage), settings);
  for (const damaged of ["{", "null", "[1,2]", '{"maxMemoryMiB": "256", "maxWorkMillions": -1, "maxLinkedMiB": 0.5}']) {
    storage.values.set(SETTINGS_KEY, damaged);
    assert.deepEqual(loadSettings(storage), defaultSettings(), damaged);
  }
  // a browser that refuses storage: defaults, and saving says it did not keep them
  const refusing = memoryStorage(true);
  assert.deepEqual(loadSettings(refusing), defaultSettings());
  assert.equal(saveSettings(refusing, settings), false);
  assert.deepEqual(loadSettings(null), defaultSettings());
  assert.equal(saveSettings(null, settings), false);
});

test("the limits a capture replays under: the settings' where set, else the engine's", () => {
  const engine = { max_memory: 2 ** 30, max_work: 2 ** 36 };
  assert.deepEqual(effectiveLimits(defaultSettings(), engine), engine);
  assert.deepEqual(effectiveLimits({ maxMemoryMiB: 3, maxWorkMillions: null, maxLinkedMiB: 7 }, engine), {
    max_memory: 3 * 1024 * 1024,
    max_work: 2 ** 36,
  });
  assert.deepEqual(effectiveLimits({ maxMemoryMiB: null, maxWorkMillions: 5, maxLinkedMiB: null }, engine), {
    max_memory: 2 ** 30,
    max_work: 5_000_000,
  });
  assert.equal(maxLinkedBytes(defaultSettings()), DEFAULT_MAX_LINKED_BYTES);
  assert.equal(maxLinkedBytes({ maxMemoryMiB: null, maxWorkMillions: null, maxLinkedMiB: 64 }), 64 * 1024 * 1024);
});
