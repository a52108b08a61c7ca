// The event list's model: the outline as nodes with group ends, unrecorded draws in place, implicit passes (without
// markers at the top level; with markers inside a region whose draws write several sets of targets), folding, a
// filter that keeps the groups around a match, and the groups' tags.

import assert from "node:assert/strict";
import { test } from "node:test";
import { EventTree, eventNodes, groupCounts, groupSummary, groupTitle } from "../../www/src/app/event-tree";
import type { OutlineRowInfo } from "../../www/src/protocol";

const row = (depth: number, kind: OutlineRowInfo["kind"], index = 0, text = ""): OutlineRowInfo => ({ depth, kind, index, call: kind === "call" ? "clear" : null, text });

// Pass A { clear, draw 0, draw 1, marker }, draw 2, Pass B { inner { draw 3 } }
const OUTLINE = [
  row(0, "group", 5, "Pass A"),
  row(1, "call", 0, "ClearRenderTargetView"),
  row(1, "draw", 0),
  row(1, "draw", 1),
  row(1, "marker", 0, "done"),
  row(0, "draw", 2),
  row(0, "group", 9, "Pass B"),
  row(1, "group", 9, "inner"),
  row(2, "draw", 3),
];

const spell = (tree: EventTree): string[] =>
  tree.visible().map((n) => {
    const node = tree.nodes[n];
    if (node === undefined) return "?";
    const pad = "  ".repeat(node.depth);
    switch (node.kind) {
      case "group":
        return `${pad}[${node.label}] ..${node.end}`;
      case "draw":
        return `${pad}draw ${node.index}`;
      case "unrecorded":
        return `${pad}unrecorded ${node.entry.label}`;
      case "marker":
      case "call":
        return `${pad}${node.kind} ${node.text}`;
      default:
        return `${pad}${node.kind} ${node.index}`;
    }
  });

test("the outline's rows are the nodes, an unrecorded draw before the draw it came before", () => {
  const nodes = eventNodes(OUTLINE, 4, [{ before_draw: 3, label: "u", reason: "r" }], [], () => "same", true);
  assert.deepEqual(spell(new EventTree(nodes)), [
    "[Pass A] ..5",
    "  call ClearRenderTargetView",
    "  draw 0",
    "  draw 1",
    "  marker done",
    "draw 2",
    "[Pass B] ..10",
    "  [inner] ..10",
    "    unrecorded u",
    "    draw 3",
  ]);
});

test("folding hides a group's insides; ancestors are innermost first", () => {
  const tree = new EventTree(eventNodes(OUTLINE, 4, [], [], () => null, true));
  tree.setFolded(0, true);
  assert.deepEqual(spell(tree), ["[Pass A] ..5", "draw 2", "[Pass B] ..9", "  [inner] ..9", "    draw 3"]);
  assert.deepEqual(tree.ancestors(8), [7, 6]);
  tree.setFolded(6, true);
  tree.reveal(8);
  assert.equal(tree.visible().includes(8), true);
});

test("a filter keeps the groups around a match and ignores folding", () => {
  const tree = new EventTree(eventNodes(OUTLINE, 4, [], [], () => null, true));
  tree.setFolded(6, true);
  const text = ["pass a", "clear", "mesh 0", "mesh 1", "done", "mesh 2", "pass b", "inner", "mesh 3"];
  tree.setFilter(["mesh", "3"], (n) => text[n] ?? "");
  assert.deepEqual(spell(tree), ["[Pass B] ..9", "  [inner] ..9", "    draw 3"]);
  tree.setFilter([], () => "");
  assert.equal(tree.visible().length, 7);
});

test("without markers, runs of draws writing the same targets are passes", () => {
  const outline = [0, 1, 2, 3, 4].map((index) => row(0, "draw", index));
  const keys = ["a", "a", "b", "a", "a"];
  const nodes = eventNodes(outline, 5, [], [], (draw) => keys[draw] ?? null, false);
  assert.deepEqual(spell(new EventTree(nodes)), ["[pass: a] ..3", "  draw 0", "  draw 1", "draw 2", "[pass: a] ..7", "  draw 3", "  draw 4"]);
});

const MATCH = { state: "matches", compared_pixels: 4 } as const;
const DIFFER = { state: "differs", differing_pixels: 2, ambiguous_pixels: 0, compared_pixels: 4 } as const;
const AMBIGUOUS = { state: "differs", differing_pixels: 0, ambiguous_pixels: 3, compared_pixels: 4 } as const;
const PENDING = { state: "not_replayed" } as const;
const ERROR = { state: "error", error: { kind: "invalid", what: "bad" } } as const;
const times = <T>(count: number, value: T): T[] => Array.from({ length: count }, () => value);

test("a group's tag is nothing while none of its draws is replayed", () => {
  assert.equal(groupSummary([]), null);
  assert.equal(groupSummary([PENDING]), null);
  assert.equal(groupSummary(times(40, PENDING)), null);
});

test("once every draw is replayed a group's tag is their sum", () => {
  assert.equal(groupSummary(times(5, MATCH))?.text, "match");
  assert.equal(groupSummary(times(5, MATCH))?.cls, "status-matches");
  // a draw replayed with nothing recorded to compare has nothing differing: it counts with the matches
  assert.equal(groupSummary([MATCH, { state: "matches", compared_pixels: 0 }])?.text, "match");
  // two differing (one by its ambiguous pixels only) among three matching
  const some = groupSummary([MATCH, DIFFER, MATCH, AMBIGUOUS, MATCH]);
  assert.equal(some?.text, "2 differ");
  assert.equal(some?.cls, "status-differs");
  assert.equal(groupSummary([DIFFER, ERROR, MATCH])?.text, "1 differ · 1 error");
  assert.equal(groupSummary([ERROR, ERROR, MATCH])?.text, "2 errors");
  assert.equal(groupSummary([ERROR, ERROR, MATCH])?.cls, "status-error");
});

test("while some draws are not replayed a group's tag says what is known and what is not", () => {
  const partial = groupSummary([...times(2, DIFFER), ...times(38, PENDING), ...times(3, MATCH)]);
  assert.equal(partial?.text, "2 differ · 38 not replayed");
  assert.equal(partial?.cls, "status-differs");
  assert.equal(groupSummary([ERROR, DIFFER, PENDING])?.text, "1 differ · 1 error · 1 not replayed");
  // only matches known so far: not "match", which would claim the draws not yet replayed
  const known = groupSummary([MATCH, ...times(4, PENDING)]);
  assert.equal(known?.text, "1 match · 4 not replayed");
  assert.notEqual(known?.cls, "status-matches");
});

test("a group's tooltip counts every state", () => {
  const tag = groupSummary([MATCH, MATCH, MATCH, DIFFER, ERROR, PENDING, PENDING]);
  assert.equal(tag?.title, "7 draws: 3 match, 1 differs, 1 error, 2 not replayed");
  assert.deepEqual(groupCounts([MATCH, AMBIGUOUS, PENDING]), { draws: 3, match: 1, differ: 1, error: 0, pending: 1 });
  assert.equal(groupTitle(groupCounts([PENDING])), "1 draw: 0 match, 0 differ, 0 errors, 1 not replayed");
});

// keys of hand-built frames: draws writing rt0 of a 192x128 target ("A"), of a 64x64 one ("B"), a depth-only draw ("D")
const A = "rt0 192x128 R8G8B8A8_UNORM";
const B = "rt0 64x64 R16G16B16A16_FLOAT";
const D = "depth 192x128 D24_UNORM_S8_UINT";

test("with markers, a region whose draws write two sets of targets gets a pass for each run", () => {
  // Frame { clear, draw 0 (A), draw 1 (A), draw 2 (B), draw 3 (B), draw 4 (B), draw 5 (A) }
  const outline = [row(0, "group", 7, "Frame"), row(1, "call", 0, "ClearRenderTargetView"), ...[0, 1, 2, 3, 4, 5].map((index) => row(1, "draw", index))];
  const keys = [A, A, B, B, B, A];
  const tree = new EventTree(eventNodes(outline, 6, [], [], (draw) => keys[draw] ?? null, true));
  assert.deepEqual(spell(tree), [
    "[Frame] ..10",
    "  call ClearRenderTargetView",
    `  [pass: ${A}] ..5`,
    "    draw 0",
    "    draw 1",
    `  [pass: ${B}] ..9`,
    "    draw 2",
    "    draw 3",
    "    draw 4",
    "  draw 5",
  ]);
  // the passes are groups of their own: Frame holds all six draws, each pass its run
  assert.deepEqual(tree.drawsIn(0), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(tree.drawsIn(5), [2, 3, 4]);
  assert.deepEqual(tree.ancestors(7), [5, 0]);
  // folding a pass hides its draws only; a filter on one draw keeps both groups around it
  tree.setFolded(5, true);
  assert.deepEqual(spell(tree).slice(5), [`  [pass: ${B}] ..9`, "  draw 5"]);
  tree.setFilter(["x3"], (n) => (tree.nodes[n]?.kind === "draw" && n === 7 ? "x3" : ""));
  assert.deepEqual(spell(tree), ["[Frame] ..10", `  [pass: ${B}] ..9`, "    draw 3"]);
});

test("with markers, a region whose draws all write one set of targets stays flat", () => {
  // ImGui-like: a clear, then region ImGui { draw 0..4 } all into rt0; a depth-only draw counts as a set too
  const outline = [row(0, "call", 0, "ClearRenderTargetView"), row(0, "group", 7, "ImGui"), ...[0, 1, 2, 3, 4].map((index) => row(1, "draw", index))];
  const flat = new EventTree(eventNodes(outline, 5, [], [], () => A, true));
  assert.deepEqual(spell(flat), ["call ClearRenderTargetView", "[ImGui] ..7", "  draw 0", "  draw 1", "  draw 2", "  draw 3", "  draw 4"]);
  // a draw without targets is no set of its own
  const keys = [A, null, A, A, A];
  const untargeted = new EventTree(eventNodes(outline, 5, [], [], (draw) => keys[draw] ?? null, true));
  assert.equal(untargeted.nodes.filter((node) => node.kind === "group").length, 1);
  const depthOnly = [A, A, D, D, A];
  const split = new EventTree(eventNodes(outline, 5, [], [], (draw) => depthOnly[draw] ?? null, true));
  assert.deepEqual(spell(split).slice(1), ["[ImGui] ..9", `  [pass: ${A}] ..5`, "    draw 0", "    draw 1", `  [pass: ${D}] ..8`, "    draw 2", "    draw 3", "  draw 4"]);
});

test("with markers, passes at the top level sit beside the regions, and a region's own passes are its own", () => {
  // draw 0 (A), draw 1 (A), Shadow { draw 2 (D), draw 3 (D) }, draw 4 (B), draw 5 (B), UI { draw 6 (B), marker, draw 7 (A), draw 8 (A) }
  const outline = [
    row(0, "draw", 0),
    row(0, "draw", 1),
    row(0, "group", 5, "Shadow"),
    row(1, "draw", 2),
    row(1, "draw", 3),
    row(0, "draw", 4),
    row(0, "draw", 5),
    row(0, "group", 12, "UI"),
    row(1, "draw", 6),
    row(1, "marker", 0, "half"),
    row(1, "draw", 7),
    row(1, "draw", 8),
  ];
  const keys = [A, A, D, D, B, B, B, A, A];
  const tree = new EventTree(eventNodes(outline, 9, [], [], (draw) => keys[draw] ?? null, true));
  assert.deepEqual(spell(tree), [
    `[pass: ${A}] ..3`,
    "  draw 0",
    "  draw 1",
    "[Shadow] ..6",
    "  draw 2",
    "  draw 3",
    `[pass: ${B}] ..9`,
    "  draw 4",
    "  draw 5",
    "[UI] ..15",
    "  draw 6",
    "  marker half",
    `  [pass: ${A}] ..15`,
    "    draw 7",
    "    draw 8",
  ]);
  // an unrecorded draw between two draws of one set breaks the run, as without markers
  const broken = new EventTree(eventNodes(outline, 9, [{ before_draw: 1, label: "u", reason: "r" }], [], (draw) => keys[draw] ?? null, true));
  assert.deepEqual(spell(broken).slice(0, 4), ["draw 0", "unrecorded u", "draw 1", "[Shadow] ..6"]);
});
