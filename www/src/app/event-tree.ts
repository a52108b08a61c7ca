// The event list's model, apart from the DOM: the frame's outline (its marker groups, draws, resolves, dispatches,
// point markers, clears, copies and updates, `CaptureSummary.outline`) as a flat list of nodes in pre-order, each
// group knowing where it ends, with the draws the recorder could not record put where they came; which groups are
// folded; and which nodes a filter shows. The list ([`DrawList`]) renders only the visible nodes in view.
//
// Render-target passes: consecutive draws (two or more, nothing else between them) that write the same targets (the
// same formats and sizes) are put in an implicit group "pass: rt0 1280x720 R8G8B8A8_UNORM". In a frame without
// markers, every such run at the top level. In a frame with markers, inside a marker region (and at the frame's top
// level) only when the region's own draws write more than one set of targets: a region whose draws all write one set
// is that pass already, and nesting it again would say nothing.
//
// A group's tag sums its draws' statuses and says how much of it is known ([`groupSummary`]).

import type { DrawInfo, DrawStatus, OutlineRowInfo, UnrecordedDrawInfo } from "../protocol";
import { frameRows } from "./frame-order";

/** One node of the event list. */
export type EventNode =
  | { readonly kind: "group"; depth: number; end: number; readonly label: string; readonly pass: boolean }
  | { readonly kind: "draw"; depth: number; readonly index: number }
  | { readonly kind: "unrecorded"; depth: number; readonly entry: UnrecordedDrawInfo }
  | { readonly kind: "resolve"; depth: number; readonly index: number }
  | { readonly kind: "dispatch"; depth: number; readonly index: number }
  | { readonly kind: "marker"; depth: number; readonly text: string }
  | { readonly kind: "call"; depth: number; readonly call: string; readonly text: string };

/** What a draw's pass is: its targets (render targets, else depth) with sizes and formats, or null without any. */
export function passKey(draw: DrawInfo): string | null {
  const colour = draw.targets.filter((target) => target.target.startsWith("rt"));
  const shown = colour.length > 0 ? colour : draw.targets.filter((target) => target.target === "depth");
  if (shown.length === 0) return null;
  return shown.map((target) => `${target.target} ${target.width}x${target.height} ${target.format}`).join(", ");
}

/** Sets each group's `end` (the index of the first node after it) from the nodes' depths. */
function closeGroups(nodes: EventNode[]): void {
  const open: number[] = [];
  nodes.forEach((node, at) => {
    for (let top = open.at(-1); top !== undefined && (nodes[top]?.depth ?? 0) >= node.depth; top = open.at(-1)) {
      const group = nodes[top];
      if (group?.kind === "group") group.end = at;
      open.pop();
    }
    if (node.kind === "group") open.push(at);
  });
  for (const top of open) {
    const group = nodes[top];
    if (group?.kind === "group") group.end = nodes.length;
  }
}

/** A node with the nodes directly inside it (a group's), for regrouping. */
interface Branch {
  readonly node: EventNode;
  readonly children: Branch[];
}

/** The pre-order `nodes` as trees: a group holds the nodes after it that are deeper than it. */
function branches(nodes: readonly EventNode[]): Branch[] {
  const roots: Branch[] = [];
  const open: Branch[] = [];
  for (const node of nodes) {
    while (open.length > 0 && (open.at(-1)?.node.depth ?? 0) >= node.depth) open.pop();
    const branch: Branch = { node, children: [] };
    (open.at(-1)?.children ?? roots).push(branch);
    if (node.kind === "group") open.push(branch);
  }
  return roots;
}

/**
 * `children` with each run of two or more consecutive draws of one pass key (nothing else between them) put in an
 * implicit pass group, when `always` or when the draws among `children` have more than one key.
 */
function passesAmong(children: readonly Branch[], keyOf: (draw: number) => string | null, always: boolean): Branch[] {
  const key = (branch: Branch): string | null => (branch.node.kind === "draw" ? keyOf(branch.node.index) : null);
  if (!always) {
    const keys = new Set<string>();
    for (const child of children) {
      const k = key(child);
      if (k !== null) keys.add(k);
    }
    if (keys.size < 2) return [...children];
  }
  const out: Branch[] = [];
  let at = 0;
  while (at < children.length) {
    const first = children[at];
    if (first === undefined) break;
    const k = key(first);
    let run = at + 1;
    while (k !== null && run < children.length) {
      const next = children[run];
      if (next === undefined || key(next) !== k) break;
      run++;
    }
    if (k !== null && run - at >= 2) {
      out.push({ node: { kind: "group", depth: 0, end: 0, label: `pass: ${k}`, pass: true }, children: children.slice(at, run) });
      at = run;
    } else {
      out.push(first);
      at++;
    }
  }
  return out;
}

/**
 * Puts implicit render-target passes into `nodes`: without markers (`markers` false) every run of two or more
 * consecutive top-level draws writing the same targets; with markers, the same inside each marker region and at the
 * top level, but only where the region's own draws write more than one set of targets (a region of one set is
 * already that pass). Depths are set again from the nesting.
 */
function groupPasses(nodes: readonly EventNode[], keyOf: (draw: number) => string | null, markers: boolean): EventNode[] {
  const out: EventNode[] = [];
  const walk = (list: readonly Branch[], depth: number, top: boolean): void => {
    for (const branch of passesAmong(list, keyOf, top && !markers)) {
      out.push({ ...branch.node, depth });
      walk(branch.children, depth + 1, false);
    }
  };
  walk(branches(nodes), 0, true);
  return out;
}

/**
 * The event list's nodes: `outline`'s rows (else, before the outline, the frame's draws, resolves and dispatches in
 * the frame's order) with each unrecorded draw right before the draw it came before (at its depth; at the end past
 * the last), and the implicit passes of `keyOf` ([`groupPasses`]).
 */
export function eventNodes(
  outline: readonly OutlineRowInfo[],
  drawCount: number,
  unrecorded: readonly UnrecordedDrawInfo[],
  dispatches: readonly { index: number; before_draw: number }[],
  keyOf: (draw: number) => string | null,
  hasMarkers: boolean,
): EventNode[] {
  const nodes: EventNode[] = [];
  if (outline.length === 0) {
    // no outline (a backend that sends none): the draws, unrecorded draws and dispatches in the frame's order
    for (const row of frameRows(drawCount, unrecorded, [], dispatches)) {
      if (row.kind === "draw") nodes.push({ kind: "draw", depth: 0, index: row.index });
      else if (row.kind === "unrecorded") nodes.push({ kind: "unrecorded", depth: 0, entry: row.entry });
      else if (row.kind === "dispatch") nodes.push({ kind: "dispatch", depth: 0, index: row.entry.index });
    }
  } else {
    const before = new Map<number, UnrecordedDrawInfo[]>();
    const late: UnrecordedDrawInfo[] = [];
    for (const entry of unrecorded) {
      if (entry.before_draw >= drawCount) late.push(entry);
      else before.set(entry.before_draw, [...(before.get(entry.before_draw) ?? []), entry]);
    }
    for (const row of outline) {
      const depth = row.depth;
      switch (row.kind) {
        case "group":
          nodes.push({ kind: "group", depth, end: 0, label: row.text, pass: false });
          break;
        case "draw":
          for (const entry of before.get(row.index) ?? []) nodes.push({ kind: "unrecorded", depth, entry });
          nodes.push({ kind: "draw", depth, index: row.index });
          break;
        case "resolve":
          nodes.push({ kind: "resolve", depth, index: row.index });
          break;
        case "dispatch":
          nodes.push({ kind: "dispatch", depth, index: row.index });
          break;
        case "marker":
          nodes.push({ kind: "marker", depth, text: row.text });
          break;
        case "call":
          nodes.push({ kind: "call", depth, call: row.call ?? "", text: row.text });
          break;
      }
    }
    for (const entry of late) nodes.push({ kind: "unrecorded", depth: 0, entry });
  }
  const grouped = groupPasses(nodes, keyOf, hasMarkers);
  closeGroups(grouped);
  return grouped;
}

/** The nodes, which groups are folded, and which nodes the filter leaves: the rows the list shows, in order. */
export class EventTree {
  /** Folded groups, by node index. */
  readonly folded = new Set<number>();
  /** Per node whether it matches the filter, or null without a filter. */
  private matches: Uint8Array | null = null;
  /** Matching nodes before each index (prefix sums of `matches`), for "a descendant matches" in O(1). */
  private before: Uint32Array | null = null;
  /** The visible nodes in order, recomputed when the filter or folding changes. */
  private shown: number[] | null = null;
  /** Where each draw's node is. */
  private readonly drawNode = new Map<number, number>();

  constructor(readonly nodes: readonly EventNode[]) {
    nodes.forEach((node, at) => {
      if (node.kind === "draw") this.drawNode.set(node.index, at);
    });
  }

  /** The node of draw `index`, if listed. */
  nodeOfDraw(index: number): number | undefined {
    return this.drawNode.get(index);
  }

  /** Filters by `words` (every word in a node's `searchOf` text; a group also shows when a descendant matches). */
  setFilter(words: readonly string[], searchOf: (node: number) => string): void {
    this.shown = null;
    if (words.length === 0) {
      this.matches = null;
      this.before = null;
      return;
    }
    const count = this.nodes.length;
    const matches = new Uint8Array(count);
    const before = new Uint32Array(count + 1);
    for (let at = 0; at < count; at++) {
      const text = searchOf(at);
      const hit = words.every((word) => text.includes(word));
      matches[at] = hit ? 1 : 0;
      before[at + 1] = (before[at] ?? 0) + (hit ? 1 : 0);
    }
    this.matches = matches;
    this.before = before;
  }

  /** Whether a filter is set. */
  filtering(): boolean {
    return this.matches !== null;
  }

  /** Folds or unfolds group `node`. */
  setFolded(node: number, folded: boolean): void {
    if (folded) this.folded.add(node);
    else this.folded.delete(node);
    this.shown = null;
  }

  /** Unfolds every group around `node`. */
  reveal(node: number): void {
    for (const group of this.ancestors(node)) this.folded.delete(group);
    this.shown = null;
  }

  /** The groups `node` is in, innermost first. */
  ancestors(node: number): number[] {
    const out: number[] = [];
    const target = this.nodes[node];
    if (target === undefined) return out;
    let depth = target.depth;
    for (let at = node - 1; at >= 0 && depth > 0; at--) {
      const candidate = this.nodes[at];
      if (candidate?.kind === "group" && candidate.depth < depth && candidate.end > node) {
        out.push(at);
        depth = candidate.depth;
      }
    }
    return out;
  }

  /** The nodes shown, in order: folded groups hide their insides (unless filtering, which shows every match). */
  visible(): readonly number[] {
    if (this.shown !== null) return this.shown;
    const shown: number[] = [];
    const { matches, before } = this;
    let at = 0;
    while (at < this.nodes.length) {
      const node = this.nodes[at];
      if (node === undefined) break;
      if (matches === null || before === null) {
        shown.push(at);
        at = node.kind === "group" && this.folded.has(at) ? node.end : at + 1;
        continue;
      }
      const end = node.kind === "group" ? node.end : at + 1;
      const inside = (before[end] ?? 0) - (before[at + 1] ?? 0);
      if (matches[at] === 1 || inside > 0) shown.push(at);
      // a group that matches by its own text alone is shown as one row (its insides match nothing)
      at = node.kind === "group" && matches[at] === 1 && inside === 0 ? end : at + 1;
    }
    this.shown = shown;
    return shown;
  }

  /** The draws inside group `node`. */
  drawsIn(node: number): number[] {
    const group = this.nodes[node];
    if (group?.kind !== "group") return [];
    const out: number[] = [];
    for (let at = node + 1; at < group.end; at++) {
      const inside = this.nodes[at];
      if (inside?.kind === "draw") out.push(inside.index);
    }
    return out;
  }
}

/** How many of a group's draws are in each state. */
export interface GroupCounts {
  readonly draws: number;
  readonly match: number;
  readonly differ: number;
  readonly error: number;
  readonly pending: number;
}

/** Counts `statuses` by state (a draw replayed with nothing to compare counts as matching: nothing differs). */
export function groupCounts(statuses: readonly DrawStatus[]): GroupCounts {
  let match = 0;
  let differ = 0;
  let error = 0;
  let pending = 0;
  for (const status of statuses) {
    if (status.state === "matches") match++;
    else if (status.state === "differs") differ++;
    else if (status.state === "error") error++;
    else pending++;
  }
  return { draws: statuses.length, match, differ, error, pending };
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/**
 * A group's tag: the sum of its draws' statuses, saying how much is known. Every draw replayed: "match" when all
 * match, else "3 differ", "3 differ · 1 error", "1 error". Some not replayed yet: what is known and what is not,
 * "2 differ · 38 not replayed" (or "1 match · 4 not replayed"). Nothing replayed (or no draws): no tag. The tooltip
 * (`title`) has every count.
 */
export function groupSummary(statuses: readonly DrawStatus[]): { text: string; cls: string; title: string } | null {
  const counts = groupCounts(statuses);
  const { match, differ, error, pending } = counts;
  if (pending === counts.draws) return null;
  const title = groupTitle(counts);
  const parts: string[] = [];
  if (differ > 0) parts.push(`${differ} differ`);
  if (error > 0) parts.push(plural(error, "error", "errors"));
  const cls = differ > 0 ? "status-differs" : error > 0 ? "status-error" : pending === 0 ? "status-matches" : "status-partial";
  if (pending === 0) return { text: parts.length === 0 ? "match" : parts.join(" · "), cls, title };
  if (parts.length === 0) parts.push(`${match} match`);
  parts.push(`${pending} not replayed`);
  return { text: parts.join(" · "), cls, title };
}

/** The counts in words: "5 draws: 3 match, 1 differs, 0 errors, 1 not replayed". */
export function groupTitle(counts: GroupCounts): string {
  return `${plural(counts.draws, "draw", "draws")}: ${counts.match} match, ${counts.differ} differ${counts.differ === 1 ? "s" : ""}, ${plural(counts.error, "error", "errors")}, ${counts.pending} not replayed`;
}
