// The toolbar and the target views: which target, which image (replayed, recorded, before, differences, heatmap),
// channels, value range, side by side; the two canvas panes sharing one zoom and pan; the comparison summary line;
// and a small cache of rendered images, so that flicking between replayed and recorded asks the worker once.

import { byId, h, replace } from "../dom";
import { num } from "../inspector";
import {
  BackendError,
  type DispatchView,
  type DisplayOptions,
  type ErrorInfo,
  IMAGE_KINDS,
  type ImageKind,
  type PixelCoord,
  type RenderedImage,
  type TargetId,
  type TargetInfo,
  formatError,
  toErrorInfo,
} from "../protocol";
import type { BackendClient } from "../client";
import { ImagePane, ViewTransform } from "../view";
import type { Generation } from "./generation";
import { targetLabel } from "./page";
import { type ViewerState, planeHeight } from "./state";

const VIEW_LABELS: Record<ImageKind, string> = {
  replayed: "Replayed",
  recorded: "Recorded",
  before: "Before",
  difference: "Differences",
  heatmap: "Heatmap",
  perceptual: "FLIP",
};

const PANE_CAPTIONS: Record<ImageKind, string> = {
  replayed: "Replayed (Iridia)",
  recorded: "Recorded (GPU)",
  before: "Before the draw",
  difference: "Differences over replayed",
  heatmap: "Difference heatmap",
  perceptual: "Perceptual error (FLIP)",
};

/** The images a dispatch's view has. */
const DISPATCH_KINDS: readonly ImageKind[] = ["replayed", "recorded", "before", "difference"];

/** How many rendered images are kept for flicking back and forth. */
const IMAGE_CACHE_SIZE = 16;

/** What the views ask of the rest of the page. */
export interface ViewHooks {
  /** A pixel was clicked in a pane. */
  pick(pixel: PixelCoord): void;
  /** The target changed: inspect the picked pixel again, in the new target. */
  refreshPixel(): Promise<void>;
  updateHash(): void;
  /** Shows the start page or "pick a draw" in place of the panes when there is no draw. */
  renderPlaceholder(): void;
}

/** The toolbar, the panes and the comparison summary. */
export class Views {
  private readonly transform = new ViewTransform();
  private readonly mainPane: ImagePane;
  private readonly sidePane: ImagePane;
  private readonly images = new Map<string, RenderedImage>();
  /** The view (zoom and pan) last used at each target size, "WxH" (at most 64 sizes). */
  private readonly placements = new Map<string, { scale: number; offsetX: number; offsetY: number }>();
  /** A new render makes the answers of the one before stale, and so does a new capture or draw. */
  private readonly renders: Generation;
  private readonly targetSelect = byId("target-select", HTMLSelectElement);
  private readonly sampleSelect = byId("sample-select", HTMLSelectElement);

  constructor(
    private readonly client: BackendClient,
    private readonly state: ViewerState,
    private readonly hooks: ViewHooks,
  ) {
    this.renders = state.navigation.child();
    const events = {
      onPick: (pixel: PixelCoord) => hooks.pick(this.toTarget(pixel)),
      onHover: (pixel: PixelCoord | null) => {
        byId("status-hover", HTMLSpanElement).textContent = pixel === null ? "" : this.hoverText(pixel);
      },
    };
    this.mainPane = new ImagePane(this.transform, events, "main");
    this.sidePane = new ImagePane(this.transform, events, "side");
    byId("panes", HTMLDivElement).append(this.mainPane.element, this.sidePane.element);
    this.transform.onChange(() => {
      byId("status-zoom", HTMLSpanElement).textContent = `zoom ${num(Math.round(this.transform.scale * 1000) / 10)}%`;
    });
    this.buildToolbar();
    this.bind();
  }

  /** Forgets the images and the placement of the capture before. */
  reset(): void {
    this.images.clear();
    this.placements.clear();
    this.transform.placed = false;
  }

  /**
   * Going from target `previous` to `next`: remembers the view (zoom and pan) of `previous`'s size, then keeps the
   * view when `next` has the same size, else puts back the view last used at `next`'s size, else fits the next image
   * to the panes (a target size not seen before opens zoomed to fit).
   */
  keepPlacementIf(previous: TargetInfo | null, next: TargetInfo | null): void {
    const key = (target: TargetInfo): string => `${target.width}x${target.height}`;
    if (previous !== null && this.transform.placed) {
      if (this.placements.size >= 64 && !this.placements.has(key(previous))) this.placements.clear();
      this.placements.set(key(previous), { scale: this.transform.scale, offsetX: this.transform.offsetX, offsetY: this.transform.offsetY });
    }
    if (next !== null && previous !== null && next.width === previous.width && next.height === previous.height) return;
    const kept = next === null ? undefined : this.placements.get(key(next));
    if (kept === undefined) {
      this.transform.placed = false;
      return;
    }
    this.transform.scale = kept.scale;
    this.transform.offsetX = kept.offsetX;
    this.transform.offsetY = kept.offsetY;
    this.transform.placed = true;
    this.transform.changed();
  }

  /** Shows a note in place of the images while the draw replays. */
  showReplaying(): void {
    this.mainPane.setImage(null, "", "", "Replaying…");
    this.sidePane.setImage(null, "", "", "");
  }

  /** A pixel of the panes as a pixel of the target (its stacked sample planes, when one plane is shown; sample 0
   * of the pixel in the resolved view). */
  private toTarget(pixel: PixelCoord): PixelCoord {
    const info = this.state.currentTarget();
    const sample = this.state.shownSample() ?? (this.state.showsResolved() ? 0 : null);
    if (info === null || sample === null) return pixel;
    return { x: pixel.x, y: pixel.y + sample * planeHeight(info) };
  }

  /** A pixel of the target as a pixel of the panes, or null when it lies in a sample plane not shown (the resolved
   * view shows every sample's pixel). */
  private toPane(pixel: PixelCoord | null): PixelCoord | null {
    const info = this.state.currentTarget();
    if (pixel === null || info === null) return pixel;
    const rows = planeHeight(info);
    if (this.state.showsResolved()) return { x: pixel.x, y: pixel.y % rows };
    const sample = this.state.shownSample();
    if (sample === null) return pixel;
    return Math.floor(pixel.y / rows) === sample ? { x: pixel.x, y: pixel.y % rows } : null;
  }

  /** The status line's text for a pane pixel: with several samples a pixel, its row in its plane and its sample. */
  private hoverText(pixel: PixelCoord): string {
    const info = this.state.currentTarget();
    if (info === null || info.samples <= 1) return `x ${pixel.x}, y ${pixel.y}`;
    const rows = planeHeight(info);
    const at = this.toTarget(pixel);
    return `x ${at.x}, y ${at.y % rows}, sample ${Math.floor(at.y / rows)}`;
  }

  /** The size of the image the panes show: one sample plane (or the resolve), or the whole target. */
  private shownSize(info: TargetInfo): { width: number; height: number } {
    const onePlane = this.state.shownSample() !== null || this.state.showsResolved();
    return { width: info.width, height: onePlane ? planeHeight(info) : info.height };
  }

  /** Marks the picked pixel (of the target) in both panes. */
  setSelected(pixel: PixelCoord | null): void {
    const shown = this.toPane(pixel);
    this.mainPane.setSelected(shown);
    this.sidePane.setSelected(shown);
  }

  centreOn(pixel: PixelCoord): void {
    const shown = this.toPane(pixel);
    if (shown === null) return;
    const size = this.mainPane.size();
    this.transform.centreOn(shown, size.width, size.height, 8);
  }

  fit(): void {
    const view = this.state.currentDispatchView();
    if (view !== null) {
      const size = this.mainPane.size();
      this.transform.fit(view.width, view.height, size.width, size.height);
      return;
    }
    const info = this.state.currentTarget();
    if (info === null) return;
    const size = this.mainPane.size();
    const shown = this.shownSize(info);
    this.transform.fit(shown.width, shown.height, size.width, size.height);
  }

  /** Shows sample plane `sample` of a multisampled target, its resolve, or (null) every plane stacked. */
  setSample(sample: number | "resolved" | null): void {
    this.state.sample = sample;
    this.transform.placed = false;
    this.renderToolbar();
    this.hooks.updateHash();
    void this.render();
  }

  /** Steps through the views of a multisampled target: all stacked, sample 0, 1, ..., resolved, and back. */
  cycleSample(step: number): void {
    const info = this.state.currentTarget();
    if (info === null || info.samples <= 1) return;
    const choices: (number | "resolved" | null)[] = [null, ...Array.from({ length: info.samples }, (_, s) => s)];
    if (this.state.hasResolvedView(info)) choices.push("resolved");
    const current = this.state.showsResolved() ? "resolved" : this.state.shownSample();
    const at = Math.max(0, choices.indexOf(current));
    this.setSample(choices[(at + step + choices.length) % choices.length] ?? null);
  }


  zoom(factor: number): void {
    const size = this.mainPane.size();
    this.transform.zoomAt(factor, size.width / 2, size.height / 2);
  }

  setTarget(target: TargetId): void {
    const previous = this.state.currentTarget();
    this.state.target = target;
    this.keepPlacementIf(previous, this.state.currentTarget());
    this.state.range = null;
    this.renderToolbar();
    this.hooks.updateHash();
  }

  /** Steps through the draw's targets. */
  cycleTarget(step: number): void {
    const targets = this.state.currentDraw()?.targets ?? [];
    if (targets.length < 2) return;
    const at = targets.findIndex((target) => target.target === this.state.target);
    const next = targets[(at + step + targets.length) % targets.length];
    if (next === undefined) return;
    this.setTarget(next.target);
    void this.refreshAfterTargetChange();
  }

  private async refreshAfterTargetChange(): Promise<void> {
    await this.render();
    await this.hooks.refreshPixel();
  }

  setView(view: ImageKind): void {
    this.state.view = view;
    this.renderToolbar();
    this.hooks.updateHash();
    void this.render();
  }

  toggleChannel(channel: "r" | "g" | "b" | "a"): void {
    this.state.channels = { ...this.state.channels, [channel]: !this.state.channels[channel] };
    this.renderToolbar();
    void this.render();
  }

  toggleSplit(): void {
    this.state.split = !this.state.split;
    this.renderToolbar();
    void this.render();
  }

  private bind(): void {
    this.targetSelect.addEventListener("change", () => {
      const value = this.targetSelect.value;
      if (this.state.dispatchIndex !== null) {
        this.state.dispatchSlot = Number(value.replace(/^u/, ""));
        this.state.pixel = null;
        this.transform.placed = false;
        void this.render();
        return;
      }
      const target = this.state.currentDraw()?.targets.find((candidate) => candidate.target === value);
      if (target !== undefined) {
        this.setTarget(target.target);
        void this.refreshAfterTargetChange();
      }
    });
    this.sampleSelect.addEventListener("change", () => {
      const value = this.sampleSelect.value;
      this.setSample(value === "all" ? null : value === "resolved" ? "resolved" : Number(value));
    });
    byId("split-button", HTMLButtonElement).addEventListener("click", () => this.toggleSplit());
    byId("fit-button", HTMLButtonElement).addEventListener("click", () => this.fit());
    byId("nonfinite-toggle", HTMLInputElement).addEventListener("change", (event) => {
      this.state.highlightNonFinite = event.target instanceof HTMLInputElement && event.target.checked;
      void this.render();
    });
    const rangeChanged = (): void => {
      const min = Number(byId("range-min", HTMLInputElement).value);
      const max = Number(byId("range-max", HTMLInputElement).value);
      if (Number.isFinite(min) && Number.isFinite(max) && max > min) {
        this.state.range = { min, max };
        void this.render();
      }
    };
    byId("range-min", HTMLInputElement).addEventListener("change", rangeChanged);
    byId("range-max", HTMLInputElement).addEventListener("change", rangeChanged);
    byId("range-auto", HTMLButtonElement).addEventListener("click", () => {
      this.state.range = null;
      void this.render();
    });
  }

  private buildToolbar(): void {
    replace(
      byId("view-buttons", HTMLSpanElement),
      IMAGE_KINDS.map((kind, i) =>
        h(
          "button",
          { class: "small", title: `${PANE_CAPTIONS[kind]} (${i + 1})`, attrs: { type: "button", "data-view": kind }, on: { click: () => this.setView(kind) } },
          VIEW_LABELS[kind],
        ),
      ),
    );
    replace(
      byId("channel-buttons", HTMLSpanElement),
      (["r", "g", "b", "a"] as const).map((channel) =>
        h(
          "button",
          {
            class: `small channel channel-${channel}`,
            title: `Channel ${channel.toUpperCase()} (${channel.toUpperCase()})`,
            attrs: { type: "button", "data-channel": channel },
            on: { click: () => this.toggleChannel(channel) },
          },
          channel.toUpperCase(),
        ),
      ),
    );
  }

  renderToolbar(): void {
    if (this.state.dispatchIndex !== null) {
      this.renderDispatchToolbar();
      return;
    }
    const draw = this.state.currentDraw();
    const info = this.state.currentTarget();
    replace(
      this.targetSelect,
      (draw?.targets ?? []).map((target) => {
        const option = h("option", { attrs: { value: target.target } }, `${targetLabel(target.target)} · ${target.format}`);
        option.selected = target.target === this.state.target;
        return option;
      }),
    );
    this.targetSelect.disabled = draw === null || draw.targets.length === 0;
    const samples = info?.samples ?? 1;
    this.sampleSelect.hidden = samples <= 1;
    if (samples > 1) {
      const shown = this.state.shownSample();
      const option = (value: string, label: string, selected: boolean): HTMLOptionElement => {
        const element = h("option", { attrs: { value } }, label);
        element.selected = selected;
        return element;
      };
      const resolved = this.state.showsResolved();
      replace(
        this.sampleSelect,
        option("all", `All ${samples} samples`, shown === null && !resolved),
        ...Array.from({ length: samples }, (_, s) => option(String(s), `Sample ${s}`, shown === s)),
        info !== null && this.state.hasResolvedView(info) ? option("resolved", "Resolved", resolved) : null,
      );
    }
    for (const button of document.querySelectorAll<HTMLButtonElement>("#view-buttons button")) {
      button.classList.toggle("active", button.dataset["view"] === this.state.view);
      button.setAttribute("aria-pressed", String(button.dataset["view"] === this.state.view));
      button.disabled = info === null;
    }
    const channels = info?.channels ?? 4;
    for (const button of document.querySelectorAll<HTMLButtonElement>("#channel-buttons button")) {
      const channel = button.dataset["channel"];
      const index = ["r", "g", "b", "a"].indexOf(channel ?? "");
      const on = channel === "r" || channel === "g" || channel === "b" || channel === "a" ? this.state.channels[channel] : false;
      button.classList.toggle("active", on);
      button.setAttribute("aria-pressed", String(on));
      button.disabled = info === null || index >= channels;
    }
    byId("split-button", HTMLButtonElement).classList.toggle("active", this.state.split);
    byId("next-diff-button", HTMLButtonElement).disabled = info === null || this.state.replayError !== null;
    byId("fit-button", HTMLButtonElement).disabled = info === null;
    this.renderRange();
  }

  private renderRange(): void {
    const info = this.state.currentTarget();
    const ranged = info !== null && info.kind !== "unorm" && info.kind !== "snorm";
    byId("range-controls", HTMLSpanElement).hidden = !ranged;
    const shown = this.state.range ?? this.state.lastValueRange;
    const min = byId("range-min", HTMLInputElement);
    const max = byId("range-max", HTMLInputElement);
    if (shown !== null && document.activeElement !== min && document.activeElement !== max) {
      min.value = num(shown.min);
      max.value = num(shown.max);
    }
    byId("range-auto", HTMLButtonElement).classList.toggle("active", this.state.range === null);
  }

  private renderCompareSummary(): void {
    const element = byId("compare-summary", HTMLSpanElement);
    const info = this.state.currentTarget();
    const draw = this.state.currentDraw();
    element.className = "compare-summary";
    if (draw === null || info === null) {
      replace(element);
      return;
    }
    if (this.state.replayError !== null) {
      element.classList.add("error");
      replace(element, h("b", null, "Replay failed: "), formatError(this.state.replayError), " — the recorded images are still shown.");
      return;
    }
    const comparison = this.state.comparison?.targets.find((target) => target.target === info.target);
    if (comparison === undefined) {
      replace(element, h("span", { class: "muted" }, "Not compared yet."));
      return;
    }
    if (comparison.compared_pixels === 0) {
      replace(element, h("span", { class: "muted", attrs: { "data-testid": "not-recorded" } }, "Nothing recorded after this draw to compare with: the Replayed view shows the replay."));
      return;
    }
    const stats = comparison.channels
      .filter((channel) => channel.max_abs_difference > 0)
      .map((channel) => `${channel.channel} ≤ ${num(channel.max_abs_difference)}${channel.max_ulps !== null ? ` (${channel.max_ulps} ULP)` : ""}`);
    element.classList.add(comparison.differing_pixels > 0 ? "differs" : comparison.ambiguous_pixels > 0 ? "ambiguous" : "matches");
    const perSample = comparison.sample_differing_pixels;
    replace(
      element,
      h("b", { attrs: { "data-testid": "differing-count" } }, `${comparison.differing_pixels} of ${comparison.compared_pixels} pixels differ`),
      perSample.length > 0
        ? h(
            "span",
            { attrs: { "data-testid": "sample-differing" } },
            ` (per sample: ${perSample.map((n, s) => `#${s} ${n}`).join(", ")}${comparison.resolved_differing_pixels !== null ? `; resolved ${comparison.resolved_differing_pixels}` : ""})`,
          )
        : "",
      comparison.ambiguous_pixels > 0 ? ` · ${comparison.ambiguous_pixels} ambiguous` : "",
      stats.length > 0 ? ` · max |Δ| ${stats.join(", ")}` : "",
      comparison.perceptual !== null
        ? h(
            "span",
            {
              attrs: { "data-testid": "perceptual" },
              title: "How visible the difference is: LDR-FLIP's error (0 invisible to 1), its mean and 99th percentile over the target",
            },
            ` · FLIP mean ${comparison.perceptual.mean.toFixed(4)}, p99 ${comparison.perceptual.p99.toFixed(4)}`,
          )
        : "",
      ` · draw ${draw.index} ${targetLabel(info.target)}`,
    );
  }

  private display(): DisplayOptions {
    return { channels: { ...this.state.channels }, range: this.state.range, highlight_non_finite: this.state.highlightNonFinite };
  }

  private async renderImage(kind: ImageKind): Promise<RenderedImage> {
    const capture = this.state.capture;
    const draw = this.state.drawIndex;
    const target = this.state.target;
    if (capture === null || draw === null || target === null)
      throw new BackendError({ kind: "request", what: "view", detail: "nothing to show" });
    const display = this.display();
    const resolved = this.state.showsResolved();
    const key = JSON.stringify([capture.summary.capture, draw, target, kind, display, resolved]);
    let image = this.images.get(key);
    if (image === undefined) {
      image = await this.client.request({ kind: "render_target", capture: capture.summary.capture, draw, target, image: kind, display, resolved });
      this.images.set(key, image);
      if (this.images.size > IMAGE_CACHE_SIZE) {
        const oldest = this.images.keys().next();
        if (oldest.done !== true) this.images.delete(oldest.value);
      }
    }
    const info = this.state.currentTarget();
    const sample = this.state.shownSample();
    return info === null || sample === null ? image : samplePlane(image, sample, planeHeight(info));
  }

  /** The image kind of the side pane: the recorded image, or the replayed one when the main pane shows recorded. */
  private sideKind(): ImageKind {
    return this.state.view === "recorded" ? "replayed" : "recorded";
  }

  private paneBadge(info: TargetInfo, image: RenderedImage): string {
    const sample = this.state.shownSample();
    const size =
      info.samples <= 1
        ? `${info.width}×${info.height}`
        : `${info.width}×${planeHeight(info)} ×${info.samples} ${this.state.showsResolved() ? "resolved" : sample === null ? "(samples stacked)" : `sample ${sample}`}`;
    const parts = [`${info.format} ${size}`];
    if (image.non_finite_texels > 0) parts.push(`${image.non_finite_texels} NaN/Inf`);
    return parts.join(" · ");
  }

  /** The toolbar for a picked dispatch: its views in the target list, the four images a view has. */
  private renderDispatchToolbar(): void {
    const views = this.state.dispatch?.views ?? [];
    replace(
      this.targetSelect,
      views.map((view) => {
        const option = h("option", { attrs: { value: `u${view.slot}` } }, `u${view.slot} · ${view.access} · ${view.format}`);
        option.selected = view.slot === this.state.dispatchSlot;
        return option;
      }),
    );
    this.targetSelect.disabled = views.length === 0;
    this.sampleSelect.hidden = true;
    const shown = this.state.currentDispatchView();
    for (const button of document.querySelectorAll<HTMLButtonElement>("#view-buttons button")) {
      const kind = button.dataset["view"];
      button.classList.toggle("active", kind === this.state.view);
      button.setAttribute("aria-pressed", String(kind === this.state.view));
      button.disabled = shown === null || !DISPATCH_KINDS.some((k) => k === kind);
    }
    for (const button of document.querySelectorAll<HTMLButtonElement>("#channel-buttons button")) {
      const channel = button.dataset["channel"];
      const on = channel === "r" || channel === "g" || channel === "b" || channel === "a" ? this.state.channels[channel] : false;
      button.classList.toggle("active", on);
      button.setAttribute("aria-pressed", String(on));
      button.disabled = shown === null;
    }
    byId("split-button", HTMLButtonElement).classList.toggle("active", this.state.split);
    byId("next-diff-button", HTMLButtonElement).disabled = true;
    byId("fit-button", HTMLButtonElement).disabled = shown === null;
    this.renderRange();
  }

  /** The summary line of a dispatch view: how many of its elements or texels differ, and how it is laid out. */
  private renderDispatchSummary(view: DispatchView | null): void {
    const element = byId("compare-summary", HTMLSpanElement);
    element.className = "compare-summary";
    const index = this.state.dispatchIndex;
    if (this.state.dispatchError !== null) {
      element.classList.add("error");
      replace(element, h("b", null, "Replay failed: "), formatError(this.state.dispatchError));
      return;
    }
    if (view === null || index === null) {
      replace(element, h("span", { class: "muted" }, this.state.dispatch === null ? "Replaying the dispatch…" : "The dispatch records no view."));
      return;
    }
    const counter =
      view.replayed_counter !== null ? ` · counter ${view.replayed_counter}${view.recorded_counter !== null ? ` (GPU ${view.recorded_counter})` : ""}` : "";
    const dependent = [
      view.order_dependent > 0 ? `${view.order_dependent} ${view.unit}s` : null,
      view.counter_unordered ? "which thread took which counter slot" : null,
    ].filter((part) => part !== null);
    const verb = view.order_dependent > 0 ? "depend" : "depends";
    const order = dependent.length > 0 ? ` · ${dependent.join(" and ")} ${verb} on the thread order (18.6.6)` : "";
    if (!view.recorded) {
      replace(element, h("span", { class: "muted", attrs: { "data-testid": "not-recorded" } }, `Nothing recorded of u${view.slot} after dispatch ${index} to compare with.${counter}`));
      return;
    }
    element.classList.add(view.differing > 0 ? "differs" : "matches");
    replace(
      element,
      h("b", { attrs: { "data-testid": "differing-count" } }, `${view.differing} of ${view.compared} ${view.unit}s differ`),
      counter,
      order,
      ` · dispatch ${index} u${view.slot} · `,
      h("span", { class: "muted", attrs: { "data-testid": "dispatch-layout" } }, view.layout),
    );
  }

  /** Renders the panes for the picked dispatch's view. */
  private async renderDispatch(request: { readonly current: boolean }): Promise<void> {
    const capture = this.state.capture;
    const index = this.state.dispatchIndex;
    const view = this.state.currentDispatchView();
    this.renderDispatchSummary(view);
    if (capture === null || index === null || view === null) {
      const note = this.state.dispatchError !== null ? formatError(this.state.dispatchError) : this.state.dispatch === null ? "Replaying…" : "";
      this.mainPane.setImage(null, "", "", note);
      this.sidePane.setImage(null, "", "", "");
      return;
    }
    const display = this.display();
    const kinds: [ImagePane, ImageKind][] = [[this.mainPane, this.state.view]];
    if (this.state.split) kinds.push([this.sidePane, this.sideKind()]);
    const results = await Promise.all(
      kinds.map(async ([pane, kind]): Promise<[ImagePane, ImageKind, RenderedImage | ErrorInfo]> => {
        if (!DISPATCH_KINDS.some((k) => k === kind))
          return [pane, kind, { kind: "request", what: "view", detail: "a dispatch's view shows replayed, recorded, before and differences" }];
        const key = JSON.stringify(["dispatch", capture.summary.capture, index, view.slot, kind, display]);
        try {
          let image = this.images.get(key);
          if (image === undefined) {
            image = await this.client.request({ kind: "render_dispatch_view", capture: capture.summary.capture, dispatch: index, slot: view.slot, image: kind, display });
            this.images.set(key, image);
            if (this.images.size > IMAGE_CACHE_SIZE) {
              const oldest = this.images.keys().next();
              if (oldest.done !== true) this.images.delete(oldest.value);
            }
          }
          return [pane, kind, image];
        } catch (error: unknown) {
          return [pane, kind, toErrorInfo(error, "render")];
        }
      }),
    );
    if (!request.current) return;
    for (const [pane, kind, result] of results) {
      const caption = kind === "before" ? "Before the dispatch" : PANE_CAPTIONS[kind];
      if ("rgba" in result) {
        pane.setImage(result, caption, `u${view.slot} ${view.format} ${view.width}×${view.height}`);
        if (pane === this.mainPane) this.state.lastValueRange = result.value_range;
      } else {
        pane.setImage(null, caption, "", `${VIEW_LABELS[kind]}: ${formatError(result)}`);
      }
      pane.setSelected(this.state.pixel);
      pane.setBounds(null);
    }
    if (!this.transform.placed) {
      const size = this.mainPane.size();
      this.transform.fit(view.width, view.height, size.width, size.height);
    }
    this.renderRange();
  }

  /** Renders the panes for the current draw, target and view (or the picked dispatch's view). */
  async render(): Promise<void> {
    const request = this.renders.next();
    if (this.state.dispatchIndex !== null) {
      const panes = byId("panes", HTMLDivElement);
      this.sidePane.element.hidden = !this.state.split;
      panes.classList.toggle("split", this.state.split);
      this.hooks.renderPlaceholder();
      await this.renderDispatch(request);
      return;
    }
    const draw = this.state.currentDraw();
    const info = this.state.currentTarget();
    const panes = byId("panes", HTMLDivElement);
    this.sidePane.element.hidden = !this.state.split;
    panes.classList.toggle("split", this.state.split);
    this.hooks.renderPlaceholder();
    this.renderCompareSummary();
    if (draw === null || info === null) {
      this.mainPane.setImage(null, "", "", draw === null ? "" : "This draw writes no target.");
      this.sidePane.setImage(null, "", "", "");
      return;
    }
    const needsReplay = (kind: ImageKind): boolean => kind === "replayed" || kind === "difference" || kind === "heatmap";
    const kinds: [ImagePane, ImageKind][] = [[this.mainPane, this.state.view]];
    if (this.state.split) kinds.push([this.sidePane, this.sideKind()]);
    const replayError = this.state.replayError;
    const results = await Promise.all(
      kinds.map(async ([pane, kind]): Promise<[ImagePane, ImageKind, RenderedImage | ErrorInfo]> => {
        if (needsReplay(kind) && replayError !== null) return [pane, kind, replayError];
        try {
          return [pane, kind, await this.renderImage(kind)];
        } catch (error: unknown) {
          return [pane, kind, toErrorInfo(error, "render")];
        }
      }),
    );
    if (!request.current) return;
    for (const [pane, kind, result] of results) {
      if ("rgba" in result) {
        pane.setImage(result, PANE_CAPTIONS[kind], this.paneBadge(info, result));
        if (pane === this.mainPane) this.state.lastValueRange = result.value_range;
      } else {
        pane.setImage(null, PANE_CAPTIONS[kind], "", `${VIEW_LABELS[kind]}: ${formatError(result)}`);
      }
      pane.setSelected(this.toPane(this.state.pixel));
      // the draw's bounding box (its primitives' coverage and what the GPU changed; a multisampled target's first plane)
      pane.setBounds(this.state.comparison?.targets.find((target) => target.target === info.target)?.bounds ?? null);
    }
    if (!this.transform.placed) {
      const size = this.mainPane.size();
      const shown = this.shownSize(info);
      this.transform.fit(shown.width, shown.height, size.width, size.height);
    }
    this.renderRange();
  }
}

/** Sample plane `sample` of an image of stacked planes of `rows` rows each (the texel statistics stay the whole
 * image's). */
function samplePlane(image: RenderedImage, sample: number, rows: number): RenderedImage {
  const bytes = image.width * rows * 4;
  return { ...image, height: rows, rgba: image.rgba.subarray(sample * bytes, (sample + 1) * bytes) };
}
