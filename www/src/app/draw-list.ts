// The draw list: one row per draw (index, name, programs, status), a filter over their text, a keyboard cursor
// apart from the picked draw, and each row's status tag updated as draws are replayed. Draws the recorder could not
// record are rows of their own where they came in the frame, with the reason, that cannot be picked; so are the
// frame's resolves (`ResolveSubresource`), with their result (resolved again when the capture was opened). The
// frame's dispatches are rows too: not replayed until picked (or Replay all), then with their result.

import { byId, h, replace } from "../dom";
import { type CompareResult, type DispatchInfo, type DrawInfo, type DrawStatus, type ResolveInfo, type UnrecordedDrawInfo, formatError } from "../protocol";
import { frameRows } from "./frame-order";
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

/** The list of draws; a click picks one (`onPick`), the keyboard moves its cursor. */
export class DrawList {
  private readonly list = byId("draw-list", HTMLOListElement);
  private readonly filter = byId("draw-filter", HTMLInputElement);
  private readonly sort = byId("draw-sort", HTMLSelectElement);
  /** Each compared draw's perceptual figure ([`perceptualOf`]). */
  private readonly perceptual = new Map<number, number>();

  constructor(
    private readonly state: ViewerState,
    private readonly onPick: (index: number) => void,
    private readonly onPickDispatch: (index: number) => void = () => undefined,
  ) {
    this.filter.addEventListener("input", () => this.applyFilter());
    this.sort.addEventListener("change", () => this.render());
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

  /** Sets a draw's status and redraws its row. */
  setStatus(index: number, status: DrawStatus): void {
    const draw = this.state.draws[index];
    if (draw === undefined) return;
    draw.status = status;
    const item = this.list.querySelector(`li[data-index="${index}"]`);
    if (item !== null) item.replaceWith(this.item(draw));
    this.updateClasses();
  }

  /** Sets a dispatch's entry (its status after a replay) and redraws its row. */
  setDispatch(dispatch: DispatchInfo): void {
    const list = this.state.capture?.summary.dispatches;
    if (list === undefined) return;
    const at = list.findIndex((entry) => entry.index === dispatch.index);
    if (at < 0) return;
    list[at] = dispatch;
    const item = this.list.querySelector(`li[data-dispatch="${dispatch.index}"]`);
    if (item !== null) item.replaceWith(this.dispatchItem(dispatch));
    this.updateClasses();
  }

  private item(draw: DrawInfo): HTMLLIElement {
    const programs = [draw.vs, draw.ps]
      .filter((program) => program !== null)
      .map((program) => h("span", { class: "program", title: `${program.model} SHA-256 ${program.sha256}` }, `${program.model} ${program.sha256.slice(0, 6)}`));
    const status = draw.status;
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
      h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, draw.name), h("span", { class: "draw-programs" }, programs)),
      h(
        "span",
        {
          class: `tag draw-status ${statusClass(status)}`,
          title: statusTitle(status) + (this.perceptual.has(draw.index) ? `; FLIP mean ${(this.perceptual.get(draw.index) ?? 0).toFixed(4)}` : ""),
          attrs: { "data-testid": "draw-status" },
        },
        statusText(status),
      ),
    );
    item.dataset["search"] = [
      draw.index,
      draw.name,
      draw.api_call ?? "",
      draw.vs?.model ?? "",
      draw.vs?.sha256 ?? "",
      draw.ps?.model ?? "",
      draw.ps?.sha256 ?? "",
      statusText(status),
      status.state,
      ...draw.targets.map((target) => target.format),
    ]
      .join(" ")
      .toLowerCase();
    return item;
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
    item.dataset["search"] = `${draw.label} ${draw.reason} not recorded`.toLowerCase();
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
    item.dataset["search"] = `${resolve.label} resolve ${statusText(status)}`.toLowerCase();
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
    item.dataset["search"] = `${dispatch.label} dispatch compute ${statusText(status)}`.toLowerCase();
    return item;
  }

  render(): void {
    if (this.sort.value === "perceptual") {
      // sorted by how visible each draw's difference is: draws only (the frame's other entries belong to its order)
      const rows = orderedDraws(this.state.draws.length, "perceptual", this.perceptual).flatMap((index) => {
        const draw = this.state.draws[index];
        return draw === undefined ? [] : [this.item(draw)];
      });
      replace(this.list, rows);
      this.applyFilter();
      return;
    }
    const summary = this.state.capture?.summary;
    const rows = frameRows(this.state.draws.length, summary?.unrecorded_draws ?? [], summary?.resolves ?? [], summary?.dispatches ?? []).flatMap((row) => {
      if (row.kind === "unrecorded") return [this.unrecordedItem(row.entry)];
      if (row.kind === "resolve") return [this.resolveItem(row.entry)];
      if (row.kind === "dispatch") return [this.dispatchItem(row.entry)];
      const draw = this.state.draws[row.index];
      return draw === undefined ? [] : [this.item(draw)];
    });
    replace(this.list, rows);
    this.applyFilter();
  }

  private applyFilter(): void {
    const words = this.filter.value.toLowerCase().split(/\s+/).filter((word) => word !== "");
    for (const item of this.list.querySelectorAll<HTMLLIElement>("li.draw, li.unrecorded, li.resolve, li.dispatch")) {
      const search = item.dataset["search"] ?? "";
      item.hidden = !words.every((word) => search.includes(word));
    }
    this.updateClasses();
  }

  /** Marks the picked draw and the cursor's. */
  updateClasses(): void {
    for (const item of this.list.querySelectorAll<HTMLLIElement>("li.draw")) {
      const index = Number(item.dataset["index"]);
      item.classList.toggle("selected", index === this.state.drawIndex);
      item.classList.toggle("cursor", index === this.state.cursor);
      item.setAttribute("aria-selected", String(index === this.state.drawIndex));
    }
    for (const item of this.list.querySelectorAll<HTMLLIElement>("li.dispatch")) {
      const picked = Number(item.dataset["dispatch"]) === this.state.dispatchIndex;
      item.classList.toggle("selected", picked);
      item.setAttribute("aria-selected", String(picked));
    }
  }

  scrollCursorIntoView(): void {
    this.list.querySelector(`li[data-index="${this.state.cursor}"]`)?.scrollIntoView({ block: "nearest" });
  }

  /** Moves the cursor over the draws the filter shows. */
  moveCursor(step: number | "first" | "last"): void {
    const visible = Array.from(this.list.querySelectorAll<HTMLLIElement>("li.draw")).filter((item) => !item.hidden);
    if (visible.length === 0) return;
    const indices = visible.map((item) => Number(item.dataset["index"]));
    let at = indices.indexOf(this.state.cursor);
    if (step === "first") at = 0;
    else if (step === "last") at = indices.length - 1;
    else at = at < 0 ? 0 : Math.max(0, Math.min(indices.length - 1, at + step));
    this.state.cursor = indices[at] ?? this.state.cursor;
    this.updateClasses();
    this.scrollCursorIntoView();
  }
}
