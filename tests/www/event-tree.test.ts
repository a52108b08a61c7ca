// The event list's model: the outline as nodes with group ends, unrecorded draws in place, implicit passes without
// markers, folding, and a filter that keeps the groups around a match.

import assert from "node:assert/strict";
import { test } from "node:test";
import { EventTree, eventNodes, groupSummary } from "../../www/src/app/event-tree";
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

test("a group's tag sums its draws' differences", () => {
  assert.equal(groupSummary([{ state: "not_replayed" }]), null);
  assert.deepEqual(groupSummary([{ state: "matches", compared_pixels: 4 }]), { text: "match", cls: "status-matches" });
  const differs = { state: "differs", differing_pixels: 2, ambiguous_pixels: 0, compared_pixels: 4 } as const;
  assert.deepEqual(groupSummary([differs, differs, { state: "not_replayed" }]), { text: "2 differ", cls: "status-differs" });
});
