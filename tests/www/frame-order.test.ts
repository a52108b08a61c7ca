// The draw list's rows: resolves and unrecorded draws where they came in the frame.

import assert from "node:assert/strict";
import { test } from "node:test";
import { frameRows } from "../../www/src/app/frame-order";

const spell = (rows: ReturnType<typeof frameRows<{ before_draw: number; name: string }, { before_draw: number; name: string }>>): string[] =>
  rows.map((row) => (row.kind === "draw" ? `draw ${row.index}` : `${row.kind} ${row.entry.name}`));

test("resolves and unrecorded draws come before the draw they preceded, the rest at the end", () => {
  const unrecorded = [
    { before_draw: 0, name: "u0" },
    { before_draw: 2, name: "u1" },
  ];
  const resolves = [
    { before_draw: 2, name: "r0" },
    { before_draw: 3, name: "r1" },
    { before_draw: 9, name: "r2" },
  ];
  assert.deepEqual(spell(frameRows(3, unrecorded, resolves)), [
    "unrecorded u0",
    "draw 0",
    "draw 1",
    "unrecorded u1",
    "resolve r0",
    "draw 2",
    "resolve r1",
    "resolve r2",
  ]);
});

test("a capture of no draws lists its resolves alone", () => {
  assert.deepEqual(spell(frameRows(0, [], [{ before_draw: 0, name: "r0" }])), ["resolve r0"]);
  assert.deepEqual(spell(frameRows(2, [], [])), ["draw 0", "draw 1"]);
});

test("dispatches come before the draw they preceded, after that draw's resolves", () => {
  const rows = frameRows(2, [], [{ before_draw: 1, name: "r0" }], [
    { before_draw: 0, name: "d0" },
    { before_draw: 1, name: "d1" },
    { before_draw: 5, name: "d2" },
  ]);
  assert.deepEqual(
    rows.map((row) => (row.kind === "draw" ? `draw ${row.index}` : `${row.kind} ${row.entry.name}`)),
    ["dispatch d0", "draw 0", "resolve r0", "dispatch d1", "draw 1", "dispatch d2"],
  );
});
