// The event list: the frame's outline as a tree (event-tree.ts): the program's marker groups and implicit
// render-target passes (runs of draws writing the same targets, in a region whose draws write several sets; without
// markers, at the top level) with a disclosure triangle and the sum of their draws' statuses, and as leaves
// the draws (index, name, programs, status, a thumbnail of the main target), the draws the recorder could not record
// (where they came, with the reason, not pickable), the resolves with their result, the dispatches (replayed when
// picked or by Replay all), point markers and clears, copies and updates. A filter over their text (a group stays
// while a descendant matches), a keyboard cursor apart from the picked draw (Up/Down move, Left/Right fold and
// unfold, Left on a leaf goes to its group, Enter opens or folds). Virtualised: every row is ROW_HEIGHT pixels high and
// only the rows in view plus a margin are in the DOM, between two spacers, so thousands of events scroll and filter
// at the browser's frame rate.

import { byId, h } from "../dom";
import { type CompareResult, type DispatchInfo, type DrawInfo, type DrawStatus, type ResolveInfo, type UnrecordedDrawInfo, formatError } from "../protocol";
import { type EventNode, EventTree, eventNodes, groupCounts, groupSummary, groupTitle, passKey } from "./event-tree";
import type { ViewerState } from "./state";

/** Replayed, but nothing compared: the capture records no target after the draw. */
function nothingRecorded(status: DrawStatus): boolean {
  return status.state === "matches" && status.compared_pixels === 0;
}

function statusText(status: DrawStatus): string {
  switch (status.state) {
    case "not_replayed":
      return "not replayed";
    case "matches":
      return nothingRecorded(status) ? "not recorded" : "matches";
    case "differs":
      return status.differing_pixels > 0
        ? `${status.differing_pixels} px differ`
        : `${status.ambiguous_pixels} px ambiguous`;
    case "error":
      return "error";
  }
}

/** The status tag's tooltip: the list's counts are summed over every target of the draw (RT0–7, depth, stencil). */
function statusTitle(status: DrawStatus): string {
  switch (status.state) {
    case "differs":
      return `${status.differing_pixels} differing and ${status.ambiguous_pixels} ambiguous of ${status.compared_pixels} compared pixels, summed over the draw's targets (render targets, depth, stencil)`;
    case "matches":
      return nothingRecorded(status)
        ? "replayed; the capture records no target after this draw, so nothing was compared"
        : `all ${status.compared_pixels} compared pixels match, over the draw's targets`;
    case "error":
      return [status.error.what, status.error.at, status.error.detail].filter((part) => part !== undefined && part !== null).join(": ");
    case "not_replayed":
      return "not replayed yet: pick the draw or use Replay all";
  }
}

function statusClass(status: DrawStatus): string {
  if (status.state === "differs" && status.differing_pixels === 0) return "status-ambiguous";
  if (nothingRecorded(status)) return "status-not-recorded";
  return `status-${status.state}`;
}

/** How the list orders its rows. */
export type DrawOrder = "frame" | "perceptual";

/** A draw's perceptual figure for the list: the largest mean LDR-FLIP error over its compared render targets. */
export function perceptualOf(comparison: CompareResult): number | null {
  const means = comparison.targets.flatMap((target) => (target.perceptual === null ? [] : [target.perceptual.mean]));
  return means.length === 0 ? null : Math.max(...means);
}

/**
 * The draw indices in `order`: the frame's order, or the most visible difference first (the perceptual figure,
 * highest first; draws without one after them, in the frame's order).
 */
export function orderedDraws(count: number, order: DrawOrder, perceptual: ReadonlyMap<number, number>): number[] {
  const indices = Array.from({ length: count }, (_, index) => index);
  if (order === "frame") return indices;
  const figure = (index: number): number => perceptual.get(index) ?? Number.NEGATIVE_INFINITY;
  return indices.sort((a, b) => figure(b) - figure(a) || a - b);
}

/** Every row's height in pixels (style.css `.draw-list > li` agrees). */
export const ROW_HEIGHT = 40;

/** Rows kept in the DOM above and below those in view. */
const MARGIN_ROWS = 30;

/** How long the list stands still before the rows in view get their thumbnails, in milliseconds. */
const THUMBNAIL_DELAY_MS = 120;

/** Search texts made at a time ahead of the first filter. */
const SEARCH_CHUNK = 500;

/** Row elements kept for reuse at most; past it the cache is emptied. */
const MAX_CACHED_ROWS = 2000;

/** Draws a draw's thumbnail into `canvas` when it is loaded (thumbnails.ts); with `cachedOnly`, only if it is. */
export type ThumbnailPainter = (draw: number, canvas: HTMLCanvasElement, cachedOnly: boolean) => void;

/** The list of events; a click picks a draw (`onPick`) or dispatch, the keyboard moves its cursor. */
export class DrawList {
  private readonly list = byId("draw-list", HTMLOListElement);
  private readonly filter = byId("draw-filter", HTMLInputElement);
  private readonly sort = byId("draw-sort", HTMLSelectElement);
  /** Each compared draw's perceptual figure ([`perceptualOf`]). */
  private readonly perceptual = new Map<number, number>();
  private tree = new EventTree([]);
  /** Each node's search text, made on first use (a draw's is dropped when its status changes). */
  private search: (string | undefined)[] = [];
  /** Row elements by node, reused while the window moves. */
  private readonly rows = new Map<number, HTMLLIElement>();
  /** Each group's summary tag, by node (dropped when a status changes). */
  private readonly groupTags = new Map<number, { text: string; cls: string; title: string } | null>();
  private readonly topSpacer = h("li", { class: "spacer", attrs: { "aria-hidden": "true" } });
  private readonly bottomSpacer = h("li", { class: "spacer", attrs: { "aria-hidden": "true" } });
  /** The visible rows in the DOM: [first, last) of `tree.visible()`. */
  private window: [number, number] = [0, 0];
  /** The node under the keyboard cursor. */
  private cursorNode: number | null = null;
  /** The draw the cursor was last put on from `state.cursor`. */
  private syncedCursor = -1;
  private framePending = false;
  private painter: ThumbnailPainter | null = null;
  private paintTimer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    private readonly state: ViewerState,
    private readonly onPick: (index: number) => void,
    private readonly onPickDispatch: (index: number) => void = () => undefined,
  ) {
    this.filter.addEventListener("input", () => this.applyFilter());
    this.sort.addEventListener("change", () => this.render());
    this.list.addEventListener("scroll", () => this.scheduleWindow(), { passive: true });
    new ResizeObserver(() => this.scheduleWindow()).observe(this.list);
    this.filter.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === "ArrowDown") {
        event.preventDefault();
        this.moveCursor("first");
        this.list.focus();
      }
      if (event.key === "Escape") {
        this.filter.value = "";
        this.applyFilter();
        this.list.focus();
      }
    });
  }

  /** Sets what draws thumbnails into rows (none: rows have no thumbnail). */
  setThumbnails(painter: ThumbnailPainter | null): void {
    this.painter = painter;
  }

  focus(): void {
    this.list.focus();
  }

  focusFilter(): void {
    this.filter.focus();
  }

  /** Keeps a compared draw's perceptual figure, and re-sorts when the list is sorted by it. */
  setComparison(index: number, comparison: CompareResult): void {
    const figure = perceptualOf(comparison);
    if (figure === null) this.perceptual.delete(index);
    else this.perceptual.set(index, figure);
    if (this.sort.value === "perceptual") this.render();
  }

  /** Forgets every draw's perceptual figure (the draws replay again, under other variants). */
  clearComparisons(): void {
    this.perceptual.clear();
  }

  /** Sets a draw's status and redraws its row and its groups' tags. */
  setStatus(index: number, status: DrawStatus): void {
    const draw = this.state.draws[index];
    if (draw === undefined) return;
    draw.status = status;
    const node = this.tree.nodeOfDraw(index);
    if (node === undefined) return;
    this.search[node] = undefined;
    this.rows.delete(node);
    for (const group of this.tree.ancestors(node)) {
      this.groupTags.delete(group);
      this.rows.delete(group);
    }
    this.fillWindow(true);
    // the row made again keeps its thumbnail at once when it is cached
    const canvas = this.rows.get(node)?.querySelector<HTMLCanvasElement>("canvas.thumb");
    if (canvas !== null && canvas !== undefined) this.painter?.(index, canvas, true);
  }

  /** Sets a dispatch's entry (its status after a replay) and redraws its row. */
  setDispatch(dispatch: DispatchInfo): void {
    const list = this.state.capture?.summary.dispatches;
    if (list === undefined) return;
    const at = list.findIndex((entry) => entry.index === dispatch.index);
    if (at < 0) return;
    list[at] = dispatch;
    this.tree.nodes.forEach((node, n) => {
      if (node.kind === "dispatch" && node.index === dispatch.index) {
        this.rows.delete(n);
        this.search[n] = undefined;
      }
    });
    this.fillWindow(true);
  }

  /** The row of node `n`: made once, kept while in `rows`. */
  private row(n: number): HTMLLIElement {
    const kept = this.rows.get(n);
    if (kept !== undefined) return kept;
    const node = this.tree.nodes[n];
    const item = node === undefined ? h("li") : this.make(node, n);
    item.dataset["node"] = String(n);
    item.style.paddingLeft = `${8 + (node?.depth ?? 0) * 14}px`;
    if (this.rows.size >= MAX_CACHED_ROWS) this.rows.clear();
    this.rows.set(n, item);
    return item;
  }

  private make(node: EventNode, n: number): HTMLLIElement {
    switch (node.kind) {
      case "group":
        return this.groupItem(node, n);
      case "draw": {
        const draw = this.state.draws[node.index];
        return draw === undefined ? h("li") : this.item(draw);
      }
      case "unrecorded":
        return this.unrecordedItem(node.entry);
      case "resolve": {
        const resolve = this.state.capture?.summary.resolves[node.index];
        return resolve === undefined ? h("li") : this.resolveItem(resolve);
      }
      case "dispatch": {
        const dispatch = this.state.capture?.summary.dispatches.find((entry) => entry.index === node.index);
        return dispatch === undefined ? h("li") : this.dispatchItem(dispatch);
      }
      case "marker":
        return h(
          "li",
          { class: "event-marker", attrs: { "data-testid": "marker", "aria-disabled": "true" }, title: `SetMarker: ${node.text}` },
          h("span", { class: "draw-index" }, "◆"),
          h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, node.text)),
        );
      case "call":
        return h(
          "li",
          { class: "event-call", attrs: { "data-testid": "call", "aria-disabled": "true" }, title: node.text },
          h("span", { class: "draw-index" }, "·"),
          h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, node.text === "" ? node.call : node.text), h("span", { class: "draw-programs" }, node.call)),
        );
    }
  }

  /** A group's row: its triangle (a click folds or unfolds), its text, how many draws it holds and its tag. */
  private groupItem(node: Extract<EventNode, { kind: "group" }>, n: number): HTMLLIElement {
    const folded = this.tree.folded.has(n) && !this.tree.filtering();
    let tag = this.groupTags.get(n);
    const draws = this.tree.drawsIn(n);
    const statuses = (): DrawStatus[] =>
      draws.flatMap((index) => {
        const draw = this.state.draws[index];
        return draw === undefined ? [] : [draw.status];
      });
    if (tag === undefined) {
      tag = groupSummary(statuses());
      this.groupTags.set(n, tag);
    }
    const kind = node.pass ? "Draws writing the same targets" : "Marker region";
    return h(
      "li",
      {
        class: `event-group${node.pass ? " pass" : ""}`,
        title: `${kind}: ${tag?.title ?? groupTitle(groupCounts(statuses()))}`,
        attrs: { "data-testid": "group", role: "treeitem", "aria-expanded": String(!folded), "data-group": String(n) },
        on: {
          click: () => {
            this.cursorNode = n;
            this.toggle(n);
          },
        },
      },
      h("span", { class: "disclosure" }, folded ? "▸" : "▾"),
      h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, node.label), h("span", { class: "draw-programs" }, `${draws.length} draw${draws.length === 1 ? "" : "s"}`)),
      tag === null ? [] : [h("span", { class: `tag draw-status ${tag.cls}`, title: tag.title, attrs: { "data-testid": "group-status" } }, tag.text)],
    );
  }

  private item(draw: DrawInfo): HTMLLIElement {
    const programs = [draw.vs, draw.ps]
      .filter((program) => program !== null)
      .map((program) => h("span", { class: "program", title: `${program.model} SHA-256 ${program.sha256}` }, `${program.model} ${program.sha256.slice(0, 6)}`));
    const status = draw.status;
    const thumb = h("canvas", { class: "thumb", attrs: { "data-testid": "thumbnail", width: "1", height: "1" } });
    const item = h(
      "li",
      {
        class: "draw",
        attrs: { "data-index": String(draw.index), role: "option" },
        title: status.state === "error" ? formatError(status.error) : (draw.api_call ?? ""),
        on: {
          click: () => {
            this.state.cursor = draw.index;
            this.onPick(draw.index);
          },
        },
      },
      h("span", { class: "draw-index" }, String(draw.index)),
      h(
        "span",
        { class: "draw-main" },
        h("span", { class: "draw-name" }, draw.name),
        // the second line: the status tag, then the programs
        h(
          "span",
          { class: "draw-line" },
          h(
            "span",
            {
              class: `tag draw-status ${statusClass(status)}`,
              title: statusTitle(status) + (this.perceptual.has(draw.index) ? `; FLIP mean ${(this.perceptual.get(draw.index) ?? 0).toFixed(4)}` : ""),
              attrs: { "data-testid": "draw-status" },
            },
            statusText(status),
          ),
          h("span", { class: "draw-programs" }, programs),
        ),
      ),
      thumb,
    );
    return item;
  }

  /** A draw's search text: index, name, call, programs and their hashes, status, target formats and sizes. */
  private drawSearch(draw: DrawInfo): string {
    return [
      draw.index,
      draw.name,
      draw.api_call ?? "",
      draw.vs?.model ?? "",
      draw.vs?.sha256 ?? "",
      draw.ps?.model ?? "",
      draw.ps?.sha256 ?? "",
      statusText(draw.status),
      draw.status.state,
      ...draw.targets.map((target) => `${target.target} ${target.format} ${target.width}x${target.height}`),
    ]
      .join(" ")
      .toLowerCase();
  }

  /** Node `n`'s search text. */
  private searchOf(n: number): string {
    const kept = this.search[n];
    if (kept !== undefined) return kept;
    const node = this.tree.nodes[n];
    let text = "";
    if (node !== undefined) {
      switch (node.kind) {
        case "group":
          text = node.label;
          break;
        case "draw": {
          const draw = this.state.draws[node.index];
          text = draw === undefined ? "" : this.drawSearch(draw);
          break;
        }
        case "unrecorded":
          text = `${node.entry.label} ${node.entry.reason} not recorded`;
          break;
        case "resolve": {
          const resolve = this.state.capture?.summary.resolves[node.index];
          text = resolve === undefined ? "" : `${resolve.label} resolve ${statusText(resolve.status)}`;
          break;
        }
        case "dispatch": {
          const dispatch = this.state.capture?.summary.dispatches.find((entry) => entry.index === node.index);
          text = dispatch === undefined ? "" : `${dispatch.label} dispatch compute ${statusText(dispatch.status)}`;
          break;
        }
        case "marker":
          text = `${node.text} marker`;
          break;
        case "call":
          text = `${node.call} ${node.text}`;
          break;
      }
    }
    text = text.toLowerCase();
    this.search[n] = text;
    return text;
  }

  /** A row for a draw that is not in the capture: its call and targets, and why it was not recorded. */
  private unrecordedItem(draw: UnrecordedDrawInfo): HTMLLIElement {
    const item = h(
      "li",
      {
        class: "unrecorded",
        title: `Not recorded: ${draw.reason}`,
        attrs: { "data-testid": "unrecorded-draw", "aria-disabled": "true" },
      },
      h("span", { class: "draw-index" }, "–"),
      h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, draw.label), h("span", { class: "draw-programs" }, draw.reason)),
      h("span", { class: "tag draw-status status-error" }, "not recorded"),
    );
    return item;
  }

  /** A row for a resolve of the frame: its call and size, and its result. */
  private resolveItem(resolve: ResolveInfo): HTMLLIElement {
    const status = resolve.status;
    const item = h(
      "li",
      {
        class: "resolve",
        title: status.state === "error" ? formatError(status.error) : `ResolveSubresource: ${statusTitle(status)}`,
        attrs: { "data-testid": "resolve", "aria-disabled": "true" },
      },
      h("span", { class: "draw-index" }, `r${resolve.index}`),
      h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, resolve.label), h("span", { class: "draw-programs" }, "resolve")),
      h("span", { class: `tag draw-status ${statusClass(status)}` }, status.state === "not_replayed" ? "not recorded" : statusText(status)),
    );
    return item;
  }

  /** A row for a dispatch of the frame: its call and views, and its result once replayed (picking it replays it). */
  private dispatchItem(dispatch: DispatchInfo): HTMLLIElement {
    const status = dispatch.status;
    const order = dispatch.order_dependent > 0 ? `; ${dispatch.order_dependent} results depend on the thread order (18.6.6)` : "";
    const title =
      status.state === "error"
        ? formatError(status.error)
        : status.state === "not_replayed"
          ? "Dispatch: not replayed yet: pick it or use Replay all"
          : `Dispatch: ${statusTitle(status).replaceAll("pixels", "elements or texels").replaceAll("draw's targets", "dispatch's views")}${order}`;
    const item = h(
      "li",
      {
        class: "dispatch",
        title,
        attrs: { "data-testid": "dispatch", "data-dispatch": String(dispatch.index), role: "option" },
        on: { click: () => this.onPickDispatch(dispatch.index) },
      },
      h("span", { class: "draw-index" }, `c${dispatch.index}`),
      h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, dispatch.label), h("span", { class: "draw-programs" }, "dispatch")),
      h(
        "span",
        { class: `tag draw-status ${statusClass(status)}`, attrs: { "data-testid": "dispatch-status" } },
        status.state === "differs" ? `${status.differing_pixels} differ` : statusText(status),
      ),
    );
    return item;
  }


  /** Rebuilds the tree from the capture (frame order) or the draws alone (sorted by the perceptual figure). */
  render(): void {
    const summary = this.state.capture?.summary;
    let nodes: EventNode[];
    if (this.sort.value === "perceptual") {
      // sorted by how visible each draw's difference is: draws only (the frame's other entries belong to its order)
      nodes = orderedDraws(this.state.draws.length, "perceptual", this.perceptual).map((index) => ({ kind: "draw", depth: 0, index }));
    } else {
      nodes = eventNodes(
        summary?.outline ?? [],
        this.state.draws.length,
        summary?.unrecorded_draws ?? [],
        summary?.dispatches ?? [],
        (index) => {
          const draw = this.state.draws[index];
          return draw === undefined ? null : passKey(draw);
        },
        summary?.has_markers ?? false,
      );
    }
    this.tree = new EventTree(nodes);
    this.search = [];
    this.rows.clear();
    this.groupTags.clear();
    this.cursorNode = null;
    this.syncedCursor = -1;
    this.applyFilter();
    this.warmSearch(this.tree, 0);
  }

  /** Makes the nodes' search texts ahead of the first filter, SEARCH_CHUNK at a time between frames. */
  private warmSearch(tree: EventTree, from: number): void {
    if (tree !== this.tree || from >= tree.nodes.length) return;
    const end = Math.min(tree.nodes.length, from + SEARCH_CHUNK);
    for (let n = from; n < end; n++) this.searchOf(n);
    setTimeout(() => this.warmSearch(tree, end), 0);
  }

  private applyFilter(): void {
    const words = this.filter.value.toLowerCase().split(/\s+/).filter((word) => word !== "");
    this.tree.setFilter(words, (n) => this.searchOf(n));
    // group rows show their triangle by the filter's state
    for (const [n] of this.rows) if (this.tree.nodes[n]?.kind === "group") this.rows.delete(n);
    this.fillWindow(true);
  }

  /** Folds or unfolds group node `n`. */
  private toggle(n: number): void {
    if (this.tree.filtering()) return;
    this.tree.setFolded(n, !this.tree.folded.has(n));
    this.rows.delete(n);
    this.fillWindow(true);
  }

  private scheduleWindow(): void {
    if (this.framePending) return;
    this.framePending = true;
    requestAnimationFrame(() => {
      this.framePending = false;
      this.fillWindow(false);
    });
  }

  /** Puts the rows in view (plus the margin) between the spacers; `force` rebuilds even when the window is the same. */
  private fillWindow(force: boolean): void {
    const visible = this.tree.visible();
    const height = this.list.clientHeight > 0 ? this.list.clientHeight : 1000;
    const first = Math.max(0, Math.floor(this.list.scrollTop / ROW_HEIGHT) - MARGIN_ROWS);
    const last = Math.min(visible.length, Math.ceil((this.list.scrollTop + height) / ROW_HEIGHT) + MARGIN_ROWS);
    if (!force && first === this.window[0] && last === this.window[1]) return;
    this.window = [first, last];
    this.topSpacer.style.height = `${first * ROW_HEIGHT}px`;
    this.bottomSpacer.style.height = `${(visible.length - last) * ROW_HEIGHT}px`;
    const rows: HTMLLIElement[] = [];
    for (let at = first; at < last; at++) {
      const n = visible[at];
      if (n !== undefined) rows.push(this.row(n));
    }
    // move only the rows that enter or leave (re-inserting every row would restyle them all each frame)
    const keep = new Set<Element>([...rows, this.topSpacer, this.bottomSpacer]);
    for (const child of Array.from(this.list.children)) if (!keep.has(child)) child.remove();
    if (this.list.firstChild !== this.topSpacer) this.list.prepend(this.topSpacer);
    let next = this.topSpacer.nextSibling;
    for (const row of rows) {
      if (row === next) next = row.nextSibling;
      else this.list.insertBefore(row, next);
    }
    if (this.list.lastChild !== this.bottomSpacer) this.list.append(this.bottomSpacer);
    this.list.dataset["rows"] = String(visible.length);
    this.updateClasses();
    // thumbnails once the list has stood still for THUMBNAIL_DELAY_MS (none for the rows scrolled past)
    clearTimeout(this.paintTimer);
    this.paintTimer = setTimeout(() => this.paintThumbnails(), THUMBNAIL_DELAY_MS);
  }

  /** Asks for the thumbnails of the draws in view without one, the topmost first. */
  private paintThumbnails(): void {
    const painter = this.painter;
    if (painter === null) return;
    const visible = this.tree.visible();
    const first = Math.floor(this.list.scrollTop / ROW_HEIGHT);
    const last = Math.min(visible.length, Math.ceil((this.list.scrollTop + this.list.clientHeight) / ROW_HEIGHT) + 2);
    // the thumbnail cache serves the row asked for last first: ask bottom-up
    for (let at = last - 1; at >= first; at--) {
      const n = visible[at];
      const node = n === undefined ? undefined : this.tree.nodes[n];
      if (n === undefined || node?.kind !== "draw") continue;
      const canvas = this.rows.get(n)?.querySelector<HTMLCanvasElement>("canvas.thumb:not(.loaded):not(.none)");
      if (canvas !== null && canvas !== undefined) painter(node.index, canvas, false);
    }
  }

  /** Marks the picked draw and the cursor's row; follows `state.cursor` when something else moved it. */
  updateClasses(): void {
    if (this.state.cursor !== this.syncedCursor) {
      const node = this.tree.nodeOfDraw(this.state.cursor);
      if (node !== undefined) this.cursorNode = node;
      this.syncedCursor = this.state.cursor;
    }
    for (const item of this.list.querySelectorAll<HTMLLIElement>("li[data-node]")) {
      const n = Number(item.dataset["node"]);
      item.classList.toggle("cursor", n === this.cursorNode);
      if (item.classList.contains("draw")) {
        const picked = Number(item.dataset["index"]) === this.state.drawIndex;
        item.classList.toggle("selected", picked);
        item.setAttribute("aria-selected", String(picked));
      } else if (item.classList.contains("dispatch")) {
        const picked = Number(item.dataset["dispatch"]) === this.state.dispatchIndex;
        item.classList.toggle("selected", picked);
        item.setAttribute("aria-selected", String(picked));
      }
    }
  }

  /** Scrolls so the cursor's row is in view (unfolding the groups around it). */
  scrollCursorIntoView(): void {
    this.updateClasses();
    const n = this.cursorNode;
    if (n === null) return;
    let at = this.tree.visible().indexOf(n);
    if (at < 0 && !this.tree.filtering()) {
      this.tree.reveal(n);
      for (const group of this.tree.ancestors(n)) this.rows.delete(group);
      at = this.tree.visible().indexOf(n);
    }
    if (at < 0) return;
    const top = at * ROW_HEIGHT;
    const height = this.list.clientHeight;
    if (top < this.list.scrollTop) this.list.scrollTop = top;
    else if (top + ROW_HEIGHT > this.list.scrollTop + height) this.list.scrollTop = top + ROW_HEIGHT - height;
    this.fillWindow(true);
  }

  /** Puts the cursor on node `n` (on a draw, `state.cursor` follows). */
  private setCursor(n: number): void {
    this.cursorNode = n;
    const node = this.tree.nodes[n];
    if (node?.kind === "draw") {
      this.state.cursor = node.index;
      this.syncedCursor = node.index;
    }
    this.scrollCursorIntoView();
  }

  /** Moves the cursor over the rows shown by `step`; "first" and "last" go to the first and last draw shown. */
  moveCursor(step: number | "first" | "last"): void {
    this.updateClasses();
    const visible = this.tree.visible();
    if (visible.length === 0) return;
    if (step === "first" || step === "last") {
      const draws = visible.filter((n) => this.tree.nodes[n]?.kind === "draw");
      const n = step === "first" ? draws[0] : draws.at(-1);
      if (n !== undefined) this.setCursor(n);
      return;
    }
    const at = this.cursorNode === null ? -1 : visible.indexOf(this.cursorNode);
    const next = at < 0 ? 0 : Math.max(0, Math.min(visible.length - 1, at + step));
    const n = visible[next];
    if (n !== undefined) this.setCursor(n);
  }

  /** Whether the cursor is on a group row. */
  cursorOnGroup(): boolean {
    return this.cursorNode !== null && this.tree.nodes[this.cursorNode]?.kind === "group";
  }

  /** Left: folds the cursor's open group, else moves to the group it is in. */
  foldOrUp(): void {
    this.updateClasses();
    const n = this.cursorNode;
    if (n === null) return;
    if (this.tree.nodes[n]?.kind === "group" && !this.tree.folded.has(n) && !this.tree.filtering()) {
      this.toggle(n);
      return;
    }
    const parent = this.tree.ancestors(n)[0];
    if (parent !== undefined) this.setCursor(parent);
  }

  /** Right: unfolds the cursor's folded group, else moves into it. */
  unfoldOrDown(): void {
    this.updateClasses();
    const n = this.cursorNode;
    if (n === null || this.tree.nodes[n]?.kind !== "group") return;
    if (this.tree.folded.has(n)) this.toggle(n);
    else this.moveCursor(1);
  }

  /** Enter on a group folds or unfolds it. */
  toggleCursorGroup(): void {
    if (this.cursorNode !== null && this.cursorOnGroup()) this.toggle(this.cursorNode);
  }
}
