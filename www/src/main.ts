// The viewer page: opens captures (drop, file picker, #capture=URL, #file=hash from IndexedDB), lists draws,
// replays and compares the picked one in the worker, shows its targets, inspects pixels, and keeps the URL's hash
// naming the view so that a link reopens it.

import { BackendClient, isCancelled, workerEndpoint } from "./client";
import { byId, h, replace } from "./dom";
import { decidingFragment, historyView, listingView, num, texelTable, traceView, verdictTag } from "./inspector";
import {
  BackendError,
  type CaptureSummary,
  type CompareResult,
  type DisplayOptions,
  type DrawInfo,
  type DrawStatus,
  type ErrorInfo,
  type FragmentRecord,
  IMAGE_KINDS,
  type ImageKind,
  type PixelCoord,
  type Progress,
  type RenderedImage,
  type TargetId,
  type TargetInfo,
  type VertexRecord,
  formatError,
  toErrorInfo,
} from "./protocol";
import { type RecentCapture, forgetCapture, loadCapture, recentCaptures, sha256Hex, storeCapture, touchCapture } from "./store";
import { type CaptureSource, DEFAULT_VIEW, type ViewState, formatHash, parseHash, parsePixelInput, sameSource } from "./url-state";
import { ImagePane, ViewTransform } from "./view";

/** Keyboard shortcuts, as the help overlay lists them. */
const SHORTCUTS: [string, string][] = [
  ["↑ / ↓, Home / End", "Move in the draw list"],
  ["Enter", "Replay and show the draw under the cursor"],
  ["Space or F", "Flick between replayed and recorded"],
  ["1 – 5", "Replayed, recorded, before, differences, heatmap"],
  ["R G B A", "Toggle a channel"],
  ["N / Shift+N", "Next / previous differing pixel"],
  ["T / Shift+T", "Next / previous target"],
  ["S", "Side by side on / off"],
  ["+ / − / 0", "Zoom in / out / fit"],
  ["Ctrl+G", "Go to a pixel (x, y)"],
  ["Shift+arrows", "Move the picked pixel by one"],
  ["Ctrl+O", "Open a capture file"],
  ["C", "Copy a link to this view"],
  ["/", "Filter draws"],
  ["Esc", "Close a dialog, cancel a replay"],
  ["?", "This help"],
];

const VIEW_LABELS: Record<ImageKind, string> = {
  replayed: "Replayed",
  recorded: "Recorded",
  before: "Before",
  difference: "Differences",
  heatmap: "Heatmap",
};

const PANE_CAPTIONS: Record<ImageKind, string> = {
  replayed: "Replayed (Iridia)",
  recorded: "Recorded (GPU)",
  before: "Before the draw",
  difference: "Differences over replayed",
  heatmap: "Difference heatmap",
};

/** A capture open in the worker. */
interface OpenCapture {
  summary: CaptureSummary;
  source: CaptureSource;
  name: string;
}

/** What to restore after opening a capture or picking a draw. */
interface Restore {
  target: TargetId | null;
  pixel: PixelCoord | null;
}

/** The server's viewer-config.json (scripts/serve.mjs): the capture to open when the URL names none. */
interface ViewerConfig {
  default_capture: string | null;
  /** The draw (0-based) the default capture opens on, so a new user sees a replay at once; null picks none. */
  default_draw: number | null;
}

/** How many rendered images are kept for flicking back and forth. */
const IMAGE_CACHE_SIZE = 16;

function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

function bytesText(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  if (size < 1024 * 1024 * 1024) return `${(size / 1024 / 1024).toFixed(1)} MiB`;
  return `${(size / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

function statusText(status: DrawStatus): string {
  switch (status.state) {
    case "not_replayed":
      return "not replayed";
    case "matches":
      return "matches";
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
      return `all ${status.compared_pixels} compared pixels match, over the draw's targets`;
    case "error":
      return [status.error.what, status.error.at, status.error.detail].filter((part) => part !== undefined && part !== null).join(": ");
    case "not_replayed":
      return "not replayed yet: pick the draw or use Replay all";
  }
}

function statusClass(status: DrawStatus): string {
  if (status.state === "differs" && status.differing_pixels === 0) return "status-ambiguous";
  return `status-${status.state}`;
}

function targetLabel(target: TargetId): string {
  return target.startsWith("rt") ? target.toUpperCase() : target === "depth" ? "Depth" : "Stencil";
}

function baseName(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)) || url;
}

class App {
  private readonly client: BackendClient;
  private readonly mock: boolean;
  private capture: OpenCapture | null = null;
  private draws: DrawInfo[] = [];
  private drawIndex: number | null = null;
  private cursor = 0;
  private target: TargetId | null = null;
  private view: ImageKind = DEFAULT_VIEW;
  private split = true;
  private channels = { r: true, g: true, b: true, a: false };
  private range: { min: number; max: number } | null = null;
  private highlightNonFinite = true;
  private pixel: PixelCoord | null = null;
  private comparison: CompareResult | null = null;
  private replayError: ErrorInfo | null = null;
  private lastValueRange: { min: number; max: number } | null = null;
  /** The long request running now (opening, replaying), which Esc cancels. */
  private job: AbortController | null = null;
  /** Incremented whenever the capture or draw changes, so that late answers for the old one are dropped. */
  private navigation = 0;
  private pixelRequest = 0;
  private renderRequest = 0;
  /** A link named a file this browser does not have: the view to restore when it is dropped. */
  private wanted: { sha256: string; name: string | null; state: ViewState } | null = null;
  private readonly images = new Map<string, RenderedImage>();
  private readonly transform = new ViewTransform();
  private readonly mainPane: ImagePane;
  private readonly sidePane: ImagePane;
  private placeholderNote: string | null = null;
  private dragDepth = 0;

  private readonly drawList = byId("draw-list", HTMLOListElement);
  private readonly filter = byId("draw-filter", HTMLInputElement);
  private readonly targetSelect = byId("target-select", HTMLSelectElement);
  private readonly inspector = byId("inspector", HTMLDivElement);
  private readonly messages = byId("messages", HTMLDivElement);
  private readonly placeholder = byId("placeholder", HTMLDivElement);

  constructor() {
    this.mock = new URLSearchParams(location.search).has("mock");
    const workerUrl = new URL(`worker.js${this.mock ? "?mock" : ""}`, import.meta.url);
    this.client = new BackendClient(workerEndpoint(new Worker(workerUrl, { type: "module" })));
    this.client.onFault((error) => this.showMessage("error", "The worker reported an error", error));
    const events = {
      onPick: (pixel: PixelCoord) => void this.selectPixel(pixel, false),
      onHover: (pixel: PixelCoord | null) => {
        byId("status-hover", HTMLSpanElement).textContent = pixel === null ? "" : `x ${pixel.x}, y ${pixel.y}`;
      },
    };
    this.mainPane = new ImagePane(this.transform, events, "main");
    this.sidePane = new ImagePane(this.transform, events, "side");
    byId("panes", HTMLDivElement).append(this.mainPane.element, this.sidePane.element);
    this.transform.onChange(() => {
      byId("status-zoom", HTMLSpanElement).textContent = `zoom ${num(Math.round(this.transform.scale * 1000) / 10)}%`;
    });
    this.buildToolbar();
    this.bindPage();
    this.renderAll();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Start-up and the hash

  async start(): Promise<void> {
    this.client.ready.then(
      (info) => {
        byId("status-backend", HTMLSpanElement).textContent =
          info.backend === "mock" ? "mock backend (synthetic data)" : `iridia ${info.version} (wasm)`;
      },
      (error: unknown) => {
        byId("status-backend", HTMLSpanElement).textContent = "backend not loaded";
        const info = toErrorInfo(error instanceof BackendError ? error.info : error, "wasm");
        this.showMessage(
          "error",
          "The replay engine could not be loaded; add ?mock to the URL to try the viewer on synthetic data",
          info,
        );
      },
    );
    window.addEventListener("hashchange", () => void this.applyState(parseHash(location.hash)));
    let state = parseHash(location.hash);
    if (state.source === null) {
      const config = await this.config();
      const url = config.default_capture;
      if (url !== null) {
        state = { ...state, source: { kind: "url", url }, draw: state.draw ?? config.default_draw };
        history.replaceState(null, "", formatHash(state));
      } else {
        this.placeholderNote = "No sample capture is configured (the server found none in fixtures/captures/).";
      }
    }
    await this.applyState(state);
  }

  private async config(): Promise<ViewerConfig> {
    const none: ViewerConfig = { default_capture: null, default_draw: null };
    try {
      const response = await fetch("viewer-config.json", { cache: "no-store" });
      if (!response.ok) return none;
      const value: unknown = await response.json();
      if (typeof value !== "object" || value === null) return none;
      const record = value as Record<string, unknown>;
      const text = (key: string): string | null => {
        const field = record[key];
        return typeof field === "string" && field !== "" ? field : null;
      };
      const draw = record["default_draw"];
      const defaultDraw = typeof draw === "number" && Number.isInteger(draw) && draw >= 0 ? draw : null;
      return { default_capture: text("default_capture"), default_draw: defaultDraw };
    } catch {
      return none;
    }
  }

  /** The view as the hash names it. */
  private state(): ViewState {
    return {
      source: this.capture?.source ?? null,
      draw: this.drawIndex,
      target: this.target,
      view: this.view,
      pixel: this.pixel,
    };
  }

  /** Writes the view into the hash; with no capture open the hash is left as it is (it may name one to open). */
  private updateHash(): void {
    byId("copy-link-button", HTMLButtonElement).disabled = this.capture === null;
    if (this.capture === null) return;
    const hash = formatHash(this.state());
    if (hash !== location.hash) history.replaceState(null, "", hash);
  }

  /** Brings the page to a state: opens its capture if another, then its draw, target, view and pixel. */
  private async applyState(state: ViewState): Promise<void> {
    if (state.source === null) {
      this.renderAll();
      return;
    }
    if (!sameSource(state.source, this.capture?.source ?? null)) {
      await this.openSource(state.source, state);
      return;
    }
    this.view = state.view;
    if (state.draw !== null && state.draw !== this.drawIndex) {
      await this.selectDraw(state.draw, { target: state.target, pixel: state.pixel });
      return;
    }
    if (state.target !== null && state.target !== this.target) this.setTarget(state.target);
    this.renderToolbar();
    await this.renderViews();
    if (state.pixel !== null && (state.pixel.x !== this.pixel?.x || state.pixel.y !== this.pixel.y))
      await this.selectPixel(state.pixel, true);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Opening captures

  private async openSource(source: CaptureSource, state: ViewState): Promise<void> {
    if (source.kind === "url") {
      const name = baseName(source.url);
      const job = this.beginJob(`Fetching ${name}`);
      let bytes: ArrayBuffer;
      try {
        bytes = await this.fetchCapture(source.url, job.signal);
      } catch (error: unknown) {
        this.endJob(job);
        if (isCancelled(error) || job.signal.aborted) return;
        this.showMessage("error", `Could not fetch the capture ${source.url}`, toErrorInfo(error, "capture"));
        this.renderAll();
        return;
      }
      this.endJob(job);
      await this.openBytes(bytes, name, source, state);
      return;
    }
    let stored = null;
    try {
      stored = await loadCapture(source.sha256);
    } catch (error: unknown) {
      this.showMessage("warning", "This browser's capture store (IndexedDB) could not be read", toErrorInfo(error, "IndexedDB"));
    }
    if (stored === null) {
      this.wanted = { sha256: source.sha256, name: source.name, state };
      this.renderAll();
      return;
    }
    const bytes = await stored.blob.arrayBuffer();
    if (await this.openBytes(bytes, stored.name, { kind: "file", sha256: stored.sha256, name: stored.name }, state))
      touchCapture(stored.sha256).catch(() => undefined);
  }

  private async fetchCapture(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
    const response = await fetch(url, { signal });
    if (!response.ok)
      throw new BackendError({ what: "capture", at: url, detail: `HTTP ${response.status} ${response.statusText}`.trim() });
    const total = Number(response.headers.get("content-length") ?? "0");
    if (response.body === null || !(total > 0)) return response.arrayBuffer();
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      this.showProgress({ stage: "downloading", done: received, total });
    }
    const bytes = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes.buffer;
  }

  /** Opens a capture file (dropped or picked), keeps it in IndexedDB under its hash. */
  private async openFile(file: File): Promise<void> {
    let bytes: ArrayBuffer;
    let sha256: string;
    try {
      bytes = await file.arrayBuffer();
      sha256 = await sha256Hex(bytes);
    } catch (error: unknown) {
      this.showMessage("error", `Could not read ${file.name}`, toErrorInfo(error, "file"));
      return;
    }
    let state: ViewState | null = null;
    if (this.wanted !== null) {
      if (this.wanted.sha256 === sha256) state = this.wanted.state;
      else
        this.showMessage(
          "warning",
          `${file.name} is not the capture the link names (SHA-256 ${this.wanted.sha256.slice(0, 12)}…, this file ${sha256.slice(0, 12)}…); opening it anyway`,
        );
    }
    const source: CaptureSource = { kind: "file", sha256, name: file.name };
    if (await this.openBytes(bytes, file.name, source, state)) {
      storeCapture({ sha256, name: file.name, size: file.size, opened: Date.now(), blob: file }).catch((error: unknown) =>
        this.showMessage("warning", "The capture could not be kept in this browser (IndexedDB)", toErrorInfo(error, "IndexedDB")),
      );
    }
  }

  /** Sends a capture's bytes to the worker; on success it replaces the open capture, on failure that one stays. */
  private async openBytes(bytes: ArrayBuffer, name: string, source: CaptureSource, state: ViewState | null): Promise<boolean> {
    const job = this.beginJob(`Opening ${name}`);
    let summary: CaptureSummary;
    let draws: DrawInfo[];
    try {
      summary = await this.client.request(
        { kind: "open_capture", bytes, name },
        { transfer: [bytes], signal: job.signal, onProgress: (progress) => this.showProgress(progress) },
      );
      draws = await this.client.request({ kind: "list_draws", capture: summary.capture }, { signal: job.signal });
    } catch (error: unknown) {
      this.endJob(job);
      if (!isCancelled(error)) this.showMessage("error", `Could not open ${name}`, toErrorInfo(error, "capture"));
      this.renderAll();
      return false;
    }
    this.endJob(job);
    const previous = this.capture;
    if (previous !== null) this.client.request({ kind: "close_capture", capture: previous.summary.capture }).catch(() => undefined);
    this.navigation++;
    this.capture = { summary, source, name };
    this.wanted = null;
    this.draws = draws;
    this.drawIndex = null;
    this.cursor = 0;
    this.target = null;
    this.pixel = null;
    this.comparison = null;
    this.replayError = null;
    this.images.clear();
    this.transform.placed = false;
    this.range = null;
    if (state !== null) this.view = state.view;
    this.renderAll();
    this.updateHash();
    if (state?.draw !== null && state?.draw !== undefined) await this.selectDraw(state.draw, { target: state.target, pixel: state.pixel });
    else this.drawList.focus();
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Long requests: one at a time, with a progress bar and Esc to cancel

  private beginJob(label: string): AbortController {
    this.job?.abort();
    const job = new AbortController();
    this.job = job;
    byId("progress", HTMLDivElement).hidden = false;
    byId("progress-text", HTMLSpanElement).textContent = label;
    byId("progress-fill", HTMLDivElement).style.width = "0%";
    byId("progress", HTMLDivElement).dataset["label"] = label;
    return job;
  }

  private showProgress(progress: Progress): void {
    const fraction = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
    byId("progress-fill", HTMLDivElement).style.width = `${(fraction * 100).toFixed(1)}%`;
    const label = byId("progress", HTMLDivElement).dataset["label"] ?? "";
    const amount = progress.stage === "downloading" ? `${bytesText(progress.done)} of ${bytesText(progress.total)}` : `${progress.done} / ${progress.total}`;
    byId("progress-text", HTMLSpanElement).textContent = `${label}: ${progress.stage} ${amount}`;
  }

  private endJob(job: AbortController): void {
    if (this.job !== job) return;
    this.job = null;
    byId("progress", HTMLDivElement).hidden = true;
  }

  private cancelJob(): boolean {
    if (this.job === null) return false;
    this.job.abort();
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Draws

  private currentDraw(): DrawInfo | null {
    return this.drawIndex === null ? null : (this.draws[this.drawIndex] ?? null);
  }

  private currentTarget(): TargetInfo | null {
    return this.currentDraw()?.targets.find((target) => target.target === this.target) ?? null;
  }

  private setDrawStatus(index: number, status: DrawStatus): void {
    const draw = this.draws[index];
    if (draw === undefined) return;
    draw.status = status;
    const item = this.drawList.querySelector(`li[data-index="${index}"]`);
    if (item !== null) item.replaceWith(this.drawItem(draw));
    this.updateListClasses();
  }

  /** Picks a draw: replays it if it has not been, compares, shows its targets. */
  private async selectDraw(index: number, restore: Restore | null = null): Promise<void> {
    const capture = this.capture;
    const draw = this.draws[index];
    if (capture === null) return;
    if (draw === undefined) {
      this.showMessage("error", `The capture has no draw ${index} (it has ${this.draws.length})`);
      return;
    }
    const navigation = ++this.navigation;
    this.job?.abort();
    const previousTarget = this.currentTarget();
    this.drawIndex = index;
    this.cursor = index;
    this.comparison = null;
    this.replayError = null;
    const wantedTarget = restore?.target ?? this.target;
    this.target = draw.targets.find((target) => target.target === wantedTarget)?.target ?? draw.targets[0]?.target ?? null;
    if (restore !== null) this.pixel = restore.pixel;
    const target = this.currentTarget();
    if (target === null || previousTarget === null || target.width !== previousTarget.width || target.height !== previousTarget.height)
      this.transform.placed = false;
    if (this.pixel !== null && target !== null && (this.pixel.x >= target.width || this.pixel.y >= target.height)) this.pixel = null;
    this.range = null;
    this.updateListClasses();
    this.scrollCursorIntoView();
    this.renderToolbar();
    this.renderInspectorEmpty();
    this.updateHash();

    if (draw.status.state === "not_replayed") {
      const job = this.beginJob(`Replaying draw ${index}`);
      this.mainPane.setImage(null, "", "", "Replaying…");
      this.sidePane.setImage(null, "", "", "");
      try {
        const summary = await this.client.request(
          { kind: "replay", capture: capture.summary.capture, draw: index },
          { signal: job.signal, onProgress: (progress) => this.showProgress(progress) },
        );
        this.endJob(job);
        if (navigation !== this.navigation) return;
        this.setDrawStatus(index, summary.status);
      } catch (error: unknown) {
        this.endJob(job);
        if (navigation !== this.navigation) return;
        if (isCancelled(error)) {
          this.replayError = { what: "cancelled", detail: "the replay was cancelled; press Enter to replay again" };
        } else {
          this.replayError = toErrorInfo(error, "replay");
          this.setDrawStatus(index, { state: "error", error: this.replayError });
        }
      }
    } else if (draw.status.state === "error") {
      this.replayError = draw.status.error;
    }
    if (this.replayError === null) {
      try {
        const comparison = await this.client.request({ kind: "compare", capture: capture.summary.capture, draw: index });
        if (navigation !== this.navigation) return;
        this.comparison = comparison;
        this.setDrawStatus(index, comparison.status);
      } catch (error: unknown) {
        if (navigation !== this.navigation) return;
        this.showMessage("error", `Could not compare draw ${index}`, toErrorInfo(error, "compare"));
      }
    }
    this.renderToolbar();
    await this.renderViews();
    if (navigation !== this.navigation) return;
    if (this.pixel !== null) await this.selectPixel(this.pixel, restore?.pixel !== undefined && restore.pixel !== null);
  }

  /** Replays and compares every draw not replayed yet, to fill in the list's status column. */
  private async replayAll(): Promise<void> {
    const capture = this.capture;
    if (capture === null) return;
    const pending = this.draws.filter((draw) => draw.status.state === "not_replayed");
    const job = this.beginJob("Replaying all draws");
    for (const [done, draw] of pending.entries()) {
      this.showProgress({ stage: `draw ${draw.index}`, done, total: pending.length });
      try {
        // each draw's own progress too, so that a long draw keeps the bar moving
        const onProgress = (progress: Progress): void =>
          this.showProgress({ stage: `draw ${draw.index} (${progress.stage} ${progress.done} / ${progress.total})`, done, total: pending.length });
        const summary = await this.client.request(
          { kind: "replay", capture: capture.summary.capture, draw: draw.index },
          { signal: job.signal, onProgress },
        );
        this.setDrawStatus(draw.index, summary.status);
        const comparison = await this.client.request({ kind: "compare", capture: capture.summary.capture, draw: draw.index }, { signal: job.signal });
        this.setDrawStatus(draw.index, comparison.status);
      } catch (error: unknown) {
        if (isCancelled(error) || job.signal.aborted) break;
        this.setDrawStatus(draw.index, { state: "error", error: toErrorInfo(error, "replay") });
      }
      if (this.capture !== capture) break;
    }
    this.endJob(job);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Targets and images

  private setTarget(target: TargetId): void {
    const previous = this.currentTarget();
    this.target = target;
    const next = this.currentTarget();
    if (next === null || previous === null || next.width !== previous.width || next.height !== previous.height) this.transform.placed = false;
    this.range = null;
    this.renderToolbar();
    this.updateHash();
  }

  private cycleTarget(step: number): void {
    const targets = this.currentDraw()?.targets ?? [];
    if (targets.length < 2) return;
    const at = targets.findIndex((target) => target.target === this.target);
    const next = targets[(at + step + targets.length) % targets.length];
    if (next === undefined) return;
    this.setTarget(next.target);
    void this.refreshAfterTargetChange();
  }

  private async refreshAfterTargetChange(): Promise<void> {
    await this.renderViews();
    if (this.pixel !== null) await this.selectPixel(this.pixel, false);
  }

  private setView(view: ImageKind): void {
    this.view = view;
    this.renderToolbar();
    this.updateHash();
    void this.renderViews();
  }

  private display(): DisplayOptions {
    return { channels: { ...this.channels }, range: this.range, highlight_non_finite: this.highlightNonFinite };
  }

  private async renderImage(kind: ImageKind): Promise<RenderedImage> {
    const capture = this.capture;
    const draw = this.drawIndex;
    const target = this.target;
    if (capture === null || draw === null || target === null) throw new BackendError({ what: "view", detail: "nothing to show" });
    const display = this.display();
    const key = JSON.stringify([capture.summary.capture, draw, target, kind, display]);
    const cached = this.images.get(key);
    if (cached !== undefined) return cached;
    const image = await this.client.request({ kind: "render_target", capture: capture.summary.capture, draw, target, image: kind, display });
    this.images.set(key, image);
    if (this.images.size > IMAGE_CACHE_SIZE) {
      const oldest = this.images.keys().next();
      if (oldest.done !== true) this.images.delete(oldest.value);
    }
    return image;
  }

  /** The image kind of the side pane: the recorded image, or the replayed one when the main pane shows recorded. */
  private sideKind(): ImageKind {
    return this.view === "recorded" ? "replayed" : "recorded";
  }

  private paneBadge(info: TargetInfo, image: RenderedImage): string {
    const parts = [`${info.format} ${info.width}×${info.height}`];
    if (image.non_finite_texels > 0) parts.push(`${image.non_finite_texels} NaN/Inf`);
    return parts.join(" · ");
  }

  /** Renders the panes for the current draw, target and view. */
  private async renderViews(): Promise<void> {
    const request = ++this.renderRequest;
    const draw = this.currentDraw();
    const info = this.currentTarget();
    const panes = byId("panes", HTMLDivElement);
    this.sidePane.element.hidden = !this.split;
    panes.classList.toggle("split", this.split);
    this.renderPlaceholder();
    this.renderCompareSummary();
    if (draw === null || info === null) {
      this.mainPane.setImage(null, "", "", draw === null ? "" : "This draw writes no target.");
      this.sidePane.setImage(null, "", "", "");
      return;
    }
    const needsReplay = (kind: ImageKind): boolean => kind === "replayed" || kind === "difference" || kind === "heatmap";
    const kinds: [ImagePane, ImageKind][] = [[this.mainPane, this.view]];
    if (this.split) kinds.push([this.sidePane, this.sideKind()]);
    const results = await Promise.all(
      kinds.map(async ([pane, kind]): Promise<[ImagePane, ImageKind, RenderedImage | ErrorInfo]> => {
        if (needsReplay(kind) && this.replayError !== null) return [pane, kind, this.replayError];
        try {
          return [pane, kind, await this.renderImage(kind)];
        } catch (error: unknown) {
          return [pane, kind, toErrorInfo(error, "render")];
        }
      }),
    );
    if (request !== this.renderRequest) return;
    for (const [pane, kind, result] of results) {
      if ("rgba" in result) {
        pane.setImage(result, PANE_CAPTIONS[kind], this.paneBadge(info, result));
        if (pane === this.mainPane) this.lastValueRange = result.value_range;
      } else {
        pane.setImage(null, PANE_CAPTIONS[kind], "", `${VIEW_LABELS[kind]}: ${formatError(result)}`);
      }
      pane.setSelected(this.pixel);
    }
    if (!this.transform.placed) {
      const size = this.mainPane.size();
      this.transform.fit(info.width, info.height, size.width, size.height);
    }
    this.renderRange();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Pixels

  private async selectPixel(pixel: PixelCoord, centre: boolean): Promise<void> {
    const capture = this.capture;
    const draw = this.drawIndex;
    const info = this.currentTarget();
    if (capture === null || draw === null || info === null) return;
    if (pixel.x >= info.width || pixel.y >= info.height) {
      this.showMessage("warning", `(${pixel.x}, ${pixel.y}) is outside the ${info.width}×${info.height} target`);
      return;
    }
    const request = ++this.pixelRequest;
    this.pixel = pixel;
    this.mainPane.setSelected(pixel);
    this.sidePane.setSelected(pixel);
    if (centre) {
      const size = this.mainPane.size();
      this.transform.centreOn(pixel, size.width, size.height, 8);
    }
    this.updateHash();
    byId("inspector-title", HTMLSpanElement).textContent = `(${pixel.x}, ${pixel.y}) · ${targetLabel(info.target)} ${info.format}`;
    const values = h("div", { class: "section", attrs: { "data-testid": "texel-values" } }, h("p", { class: "muted" }, "Reading…"));
    const historySection = h("div", { class: "section", attrs: { "data-testid": "history" } });
    const traceSection = h("div", { class: "section", attrs: { "data-testid": "pixel-trace" } });
    const vertexSection = h("div", { class: "section", attrs: { "data-testid": "vertex-trace" } });
    replace(this.inspector, values, historySection, traceSection, vertexSection);
    const base = { capture: capture.summary.capture, draw, target: info.target, x: pixel.x, y: pixel.y };
    try {
      const readout = await this.client.request({ kind: "read_texels", ...base });
      if (request !== this.pixelRequest) return;
      replace(values, h("h3", null, "Values ", verdictTag(readout.verdict)), texelTable(readout));
    } catch (error: unknown) {
      if (request !== this.pixelRequest) return;
      replace(values, this.inlineError("Could not read the texel", error));
    }
    if (this.replayError !== null) {
      replace(historySection, h("p", { class: "muted" }, `No fragment history: ${formatError(this.replayError)}`));
      return;
    }
    try {
      const history = await this.client.request({ kind: "inspect_pixel", ...base });
      if (request !== this.pixelRequest) return;
      const actions = {
        traceFragment: (fragment: FragmentRecord) => void this.traceFragment(request, traceSection, fragment),
        traceVertex: (vertex: VertexRecord) => void this.traceVertex(request, vertexSection, vertex),
      };
      replace(historySection, historyView(history, actions));
      const deciding = decidingFragment(history);
      if (deciding !== null && deciding.pixel_inputs.length > 0) await this.traceFragment(request, traceSection, deciding);
    } catch (error: unknown) {
      if (request !== this.pixelRequest) return;
      replace(historySection, this.inlineError("Could not inspect the pixel", error));
    }
  }

  private async traceFragment(request: number, section: HTMLElement, fragment: FragmentRecord): Promise<void> {
    const capture = this.capture;
    const pixel = this.pixel;
    if (capture === null || this.drawIndex === null || pixel === null) return;
    replace(section, h("p", { class: "muted" }, "Tracing…"));
    try {
      const trace = await this.client.request({
        kind: "trace_pixel",
        capture: capture.summary.capture,
        draw: this.drawIndex,
        x: pixel.x,
        y: pixel.y,
        fragment: fragment.order,
      });
      if (request !== this.pixelRequest) return;
      replace(section, traceView(`Pixel program · fragment #${fragment.order}`, trace));
    } catch (error: unknown) {
      if (request !== this.pixelRequest) return;
      replace(section, this.inlineError("Could not trace the pixel program", error));
    }
  }

  private async traceVertex(request: number, section: HTMLElement, vertex: VertexRecord): Promise<void> {
    const capture = this.capture;
    if (capture === null || this.drawIndex === null) return;
    replace(section, h("p", { class: "muted" }, "Tracing…"));
    try {
      const trace = await this.client.request({
        kind: "trace_vertex",
        capture: capture.summary.capture,
        draw: this.drawIndex,
        vertex_id: vertex.vertex_id,
        instance_id: vertex.instance_id,
      });
      if (request !== this.pixelRequest) return;
      replace(section, traceView(`Vertex program · vertex #${vertex.vertex_id}`, trace));
      section.scrollIntoView({ block: "nearest" });
    } catch (error: unknown) {
      if (request !== this.pixelRequest) return;
      replace(section, this.inlineError("Could not trace the vertex program", error));
    }
  }

  private async nextDifference(backwards: boolean): Promise<void> {
    const capture = this.capture;
    const info = this.currentTarget();
    if (capture === null || this.drawIndex === null || info === null || this.replayError !== null) return;
    const from = this.pixel ?? (backwards ? { x: 0, y: 0 } : { x: info.width - 1, y: info.height - 1 });
    try {
      const found = await this.client.request({
        kind: "find_difference",
        capture: capture.summary.capture,
        draw: this.drawIndex,
        target: info.target,
        x: from.x,
        y: from.y,
        backwards,
      });
      if (found === null) this.showMessage("info", `No pixel of ${targetLabel(info.target)} differs.`);
      else await this.selectPixel(found, true);
    } catch (error: unknown) {
      this.showMessage("error", "Could not look for a difference", toErrorInfo(error, "compare"));
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Rendering the page

  private renderAll(): void {
    this.renderHeader();
    this.renderDrawList();
    this.renderToolbar();
    this.renderInspectorEmpty();
    void this.renderViews();
    this.updateHash();
  }

  private renderHeader(): void {
    const capture = this.capture;
    byId("capture-title", HTMLSpanElement).textContent = capture === null ? "No capture" : capture.name;
    byId("capture-meta", HTMLSpanElement).textContent =
      capture === null
        ? ""
        : `${capture.summary.draw_count} draws · ${bytesText(capture.summary.size_bytes)} · format ${capture.summary.format_version}` +
          (capture.summary.application !== null ? ` · ${capture.summary.application}` : "");
    byId("capture-title", HTMLSpanElement).title =
      capture === null ? "" : capture.source.kind === "url" ? capture.source.url : `SHA-256 ${capture.source.sha256}`;
    byId("replay-all-button", HTMLButtonElement).disabled = capture === null;
  }

  private drawItem(draw: DrawInfo): HTMLLIElement {
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
            this.cursor = draw.index;
            void this.selectDraw(draw.index);
          },
        },
      },
      h("span", { class: "draw-index" }, String(draw.index)),
      h("span", { class: "draw-main" }, h("span", { class: "draw-name" }, draw.name), h("span", { class: "draw-programs" }, programs)),
      h(
        "span",
        { class: `tag draw-status ${statusClass(status)}`, title: statusTitle(status), attrs: { "data-testid": "draw-status" } },
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

  private renderDrawList(): void {
    replace(this.drawList, this.draws.map((draw) => this.drawItem(draw)));
    this.applyFilter();
  }

  private applyFilter(): void {
    const words = this.filter.value.toLowerCase().split(/\s+/).filter((word) => word !== "");
    for (const item of this.drawList.querySelectorAll<HTMLLIElement>("li.draw")) {
      const search = item.dataset["search"] ?? "";
      item.hidden = !words.every((word) => search.includes(word));
    }
    this.updateListClasses();
  }

  private updateListClasses(): void {
    for (const item of this.drawList.querySelectorAll<HTMLLIElement>("li.draw")) {
      const index = Number(item.dataset["index"]);
      item.classList.toggle("selected", index === this.drawIndex);
      item.classList.toggle("cursor", index === this.cursor);
      item.setAttribute("aria-selected", String(index === this.drawIndex));
    }
  }

  private scrollCursorIntoView(): void {
    this.drawList.querySelector(`li[data-index="${this.cursor}"]`)?.scrollIntoView({ block: "nearest" });
  }

  private moveCursor(step: number | "first" | "last"): void {
    const visible = Array.from(this.drawList.querySelectorAll<HTMLLIElement>("li.draw")).filter((item) => !item.hidden);
    if (visible.length === 0) return;
    const indices = visible.map((item) => Number(item.dataset["index"]));
    let at = indices.indexOf(this.cursor);
    if (step === "first") at = 0;
    else if (step === "last") at = indices.length - 1;
    else at = at < 0 ? 0 : Math.max(0, Math.min(indices.length - 1, at + step));
    this.cursor = indices[at] ?? this.cursor;
    this.updateListClasses();
    this.scrollCursorIntoView();
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

  private toggleChannel(channel: "r" | "g" | "b" | "a"): void {
    this.channels = { ...this.channels, [channel]: !this.channels[channel] };
    this.renderToolbar();
    void this.renderViews();
  }

  private renderToolbar(): void {
    const draw = this.currentDraw();
    const info = this.currentTarget();
    replace(
      this.targetSelect,
      (draw?.targets ?? []).map((target) => {
        const option = h("option", { attrs: { value: target.target } }, `${targetLabel(target.target)} · ${target.format}`);
        option.selected = target.target === this.target;
        return option;
      }),
    );
    this.targetSelect.disabled = draw === null || draw.targets.length === 0;
    for (const button of document.querySelectorAll<HTMLButtonElement>("#view-buttons button")) {
      button.classList.toggle("active", button.dataset["view"] === this.view);
      button.setAttribute("aria-pressed", String(button.dataset["view"] === this.view));
      button.disabled = info === null;
    }
    const channels = info?.channels ?? 4;
    for (const button of document.querySelectorAll<HTMLButtonElement>("#channel-buttons button")) {
      const channel = button.dataset["channel"];
      const index = ["r", "g", "b", "a"].indexOf(channel ?? "");
      const on = channel === "r" || channel === "g" || channel === "b" || channel === "a" ? this.channels[channel] : false;
      button.classList.toggle("active", on);
      button.setAttribute("aria-pressed", String(on));
      button.disabled = info === null || index >= channels;
    }
    byId("split-button", HTMLButtonElement).classList.toggle("active", this.split);
    byId("next-diff-button", HTMLButtonElement).disabled = info === null || this.replayError !== null;
    byId("fit-button", HTMLButtonElement).disabled = info === null;
    this.renderRange();
  }

  private renderRange(): void {
    const info = this.currentTarget();
    const ranged = info !== null && info.kind !== "unorm" && info.kind !== "snorm";
    byId("range-controls", HTMLSpanElement).hidden = !ranged;
    const shown = this.range ?? this.lastValueRange;
    const min = byId("range-min", HTMLInputElement);
    const max = byId("range-max", HTMLInputElement);
    if (shown !== null && document.activeElement !== min && document.activeElement !== max) {
      min.value = num(shown.min);
      max.value = num(shown.max);
    }
    byId("range-auto", HTMLButtonElement).classList.toggle("active", this.range === null);
  }

  private renderCompareSummary(): void {
    const element = byId("compare-summary", HTMLSpanElement);
    const info = this.currentTarget();
    const draw = this.currentDraw();
    element.className = "compare-summary";
    if (draw === null || info === null) {
      replace(element);
      return;
    }
    if (this.replayError !== null) {
      element.classList.add("error");
      replace(element, h("b", null, "Replay failed: "), formatError(this.replayError), " — the recorded images are still shown.");
      return;
    }
    const comparison = this.comparison?.targets.find((target) => target.target === info.target);
    if (comparison === undefined) {
      replace(element, h("span", { class: "muted" }, "Not compared yet."));
      return;
    }
    const stats = comparison.channels
      .filter((channel) => channel.max_abs_difference > 0)
      .map((channel) => `${channel.channel} ≤ ${num(channel.max_abs_difference)}${channel.max_ulps !== null ? ` (${channel.max_ulps} ULP)` : ""}`);
    element.classList.add(comparison.differing_pixels > 0 ? "differs" : comparison.ambiguous_pixels > 0 ? "ambiguous" : "matches");
    replace(
      element,
      h("b", { attrs: { "data-testid": "differing-count" } }, `${comparison.differing_pixels} of ${comparison.compared_pixels} pixels differ`),
      comparison.ambiguous_pixels > 0 ? ` · ${comparison.ambiguous_pixels} ambiguous` : "",
      stats.length > 0 ? ` · max |Δ| ${stats.join(", ")}` : "",
      ` · draw ${draw.index} ${targetLabel(info.target)}`,
    );
  }

  /** The inspector before a pixel is picked: the draw's call, programs (with their listings) and targets. */
  private renderInspectorEmpty(): void {
    byId("inspector-title", HTMLSpanElement).textContent = "";
    const draw = this.currentDraw();
    if (draw === null) {
      replace(this.inspector, h("p", { class: "muted hint" }, "Pick a draw, then click a pixel to see why it has its value."));
      return;
    }
    const listing = h("div", { class: "section", attrs: { "data-testid": "program-listing" } });
    const programs = [draw.vs, draw.ps].filter((program) => program !== null);
    replace(
      this.inspector,
      h("p", { class: "muted hint" }, "Click a pixel (or Ctrl+G) to see its values, the fragments that reached it, and the program's trace."),
      h("h3", null, `Draw ${draw.index}: ${draw.name}`),
      h(
        "table",
        { class: "regs draw-facts" },
        h(
          "tbody",
          null,
          h("tr", null, h("th", null, "call"), h("td", null, draw.api_call ?? "—")),
          programs.map((program) =>
            h("tr", null, h("th", null, program.stage), h("td", null, `${program.model} · ${program.instruction_count} instructions · ${program.sha256}`)),
          ),
          draw.targets.map((target) =>
            h("tr", null, h("th", null, targetLabel(target.target)), h("td", null, `${target.format} ${target.width}×${target.height}`)),
          ),
        ),
      ),
      h(
        "div",
        { class: "buttons" },
        programs.map((program) =>
          h(
            "button",
            { class: "small", attrs: { type: "button", "data-stage": program.stage }, on: { click: () => void this.showProgram(program.stage, listing) } },
            program.stage === "vs" ? "Vertex program" : "Pixel program",
          ),
        ),
      ),
      listing,
    );
  }

  private async showProgram(stage: "vs" | "ps", section: HTMLElement): Promise<void> {
    const capture = this.capture;
    const draw = this.drawIndex;
    if (capture === null || draw === null) return;
    const navigation = this.navigation;
    replace(section, h("p", { class: "muted" }, "Disassembling…"));
    try {
      const listing = await this.client.request({ kind: "disassemble", capture: capture.summary.capture, draw, stage });
      if (navigation !== this.navigation) return;
      replace(section, listingView(stage === "vs" ? "Vertex program" : "Pixel program", listing));
    } catch (error: unknown) {
      if (navigation !== this.navigation) return;
      replace(section, this.inlineError("Could not disassemble the program", error));
    }
  }

  private renderPlaceholder(): void {
    const hasCapture = this.capture !== null;
    const hasDraw = this.currentDraw() !== null;
    byId("panes", HTMLDivElement).hidden = !hasDraw;
    this.placeholder.hidden = hasDraw;
    if (hasDraw) return;
    if (hasCapture) {
      replace(this.placeholder, h("div", { class: "empty" }, h("h2", null, "Pick a draw"), h("p", null, "Click one in the list, or use ↑ / ↓ and Enter. Replay all fills in every draw's status.")));
      return;
    }
    const wanted = this.wanted;
    const open = h("button", { attrs: { type: "button" }, on: { click: () => byId("file-input", HTMLInputElement).click() } }, "choose a file");
    const recent = h("div", { class: "recent", attrs: { "data-testid": "recent" } });
    replace(
      this.placeholder,
      h(
        "div",
        { class: "empty" },
        wanted === null
          ? h("h2", null, "Open a capture")
          : h(
              "div",
              { class: "wanted", attrs: { "data-testid": "wanted-file" } },
              h("h2", null, "This link names a capture file"),
              h("p", null, `It was opened from ${wanted.name ?? "a file"} (SHA-256 `, h("code", null, wanted.sha256), "), which this browser does not have. Drop that file here to open the linked view."),
            ),
        h("p", null, "Drop an Iridia capture (.iridia) anywhere on this page, or ", open, "."),
        this.placeholderNote !== null && wanted === null ? h("p", { class: "muted" }, this.placeholderNote) : null,
        recent,
      ),
    );
    void this.renderRecent(recent);
  }

  private async renderRecent(element: HTMLElement): Promise<void> {
    let recent: RecentCapture[];
    try {
      recent = await recentCaptures();
    } catch {
      return;
    }
    if (recent.length === 0) return;
    replace(
      element,
      h("h3", null, "Recent captures"),
      h(
        "ul",
        null,
        recent.map((capture) =>
          h(
            "li",
            null,
            h(
              "button",
              {
                class: "link",
                title: `SHA-256 ${capture.sha256}`,
                on: { click: () => void this.applyState({ ...parseHash(""), source: { kind: "file", sha256: capture.sha256, name: capture.name } }) },
              },
              capture.name,
            ),
            h("span", { class: "muted" }, ` ${bytesText(capture.size)} · ${new Date(capture.opened).toLocaleString()}`),
            h(
              "button",
              {
                class: "small forget",
                title: "Forget this capture",
                on: {
                  click: () => {
                    forgetCapture(capture.sha256)
                      .then(() => this.renderPlaceholder())
                      .catch((error: unknown) => this.showMessage("warning", "Could not forget the capture", toErrorInfo(error, "IndexedDB")));
                  },
                },
              },
              "×",
            ),
          ),
        ),
      ),
    );
  }

  private inlineError(title: string, error: unknown): HTMLElement {
    return h("div", { class: "inline-error" }, h("b", null, `${title}: `), formatError(toErrorInfo(error instanceof BackendError ? error.info : error)));
  }

  /** Shows a message under the top bar until dismissed (at most five at once). */
  private showMessage(kind: "error" | "warning" | "info", text: string, error?: ErrorInfo): void {
    const message = h(
      "div",
      { class: `message message-${kind}`, attrs: { "data-testid": `message-${kind}`, role: kind === "error" ? "alert" : "status" } },
      h("span", null, h("b", null, text), error !== undefined ? h("span", { class: "message-detail" }, ` — ${formatError(error)}`) : null),
      h("button", { class: "small close", title: "Dismiss", on: { click: () => message.remove() } }, "×"),
    );
    this.messages.append(message);
    while (this.messages.children.length > 5) this.messages.firstElementChild?.remove();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Dialogs, links, events

  private async copyLink(): Promise<void> {
    if (this.capture === null) return;
    this.updateHash();
    const link = location.href;
    const input = byId("link-input", HTMLInputElement);
    input.value = link;
    const note = byId("link-note", HTMLParagraphElement);
    note.textContent =
      this.capture.source.kind === "file"
        ? "The capture came from a file: the link names its SHA-256. A browser that does not have it will ask for the file."
        : "";
    try {
      await navigator.clipboard.writeText(link);
      this.showMessage("info", "Link copied to the clipboard.");
      if (this.capture.source.kind === "file") this.openOverlay("link-overlay");
    } catch {
      this.openOverlay("link-overlay");
      input.select();
    }
  }

  private openOverlay(id: string): void {
    byId(id, HTMLDivElement).hidden = false;
    if (id === "goto-overlay") {
      const info = this.currentTarget();
      byId("goto-hint", HTMLParagraphElement).textContent = info === null ? "Pick a draw first." : `0 ≤ x < ${info.width}, 0 ≤ y < ${info.height}`;
      const input = byId("goto-input", HTMLInputElement);
      input.value = this.pixel === null ? "" : `${this.pixel.x}, ${this.pixel.y}`;
      input.focus();
      input.select();
    }
  }

  private closeOverlays(): boolean {
    let closed = false;
    for (const overlay of document.querySelectorAll<HTMLDivElement>(".overlay:not(.drop-overlay)")) {
      if (!overlay.hidden) closed = true;
      overlay.hidden = true;
    }
    return closed;
  }

  private bindPage(): void {
    replace(
      byId("help-table", HTMLTableElement),
      h("tbody", null, SHORTCUTS.map(([keys, what]) => h("tr", null, h("th", null, h("kbd", null, keys)), h("td", null, what)))),
    );
    const fileInput = byId("file-input", HTMLInputElement);
    byId("open-button", HTMLButtonElement).addEventListener("click", () => fileInput.click());
    fileInput.addEventListener("change", () => {
      const file = fileInput.files?.[0];
      fileInput.value = "";
      if (file !== undefined) void this.openFile(file);
    });
    byId("replay-all-button", HTMLButtonElement).addEventListener("click", () => void this.replayAll());
    byId("copy-link-button", HTMLButtonElement).addEventListener("click", () => void this.copyLink());
    byId("help-button", HTMLButtonElement).addEventListener("click", () => this.openOverlay("help-overlay"));
    byId("help-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("link-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("goto-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("progress-cancel", HTMLButtonElement).addEventListener("click", () => this.cancelJob());
    byId("goto-form", HTMLFormElement).addEventListener("submit", (event) => {
      event.preventDefault();
      const pixel = parsePixelInput(byId("goto-input", HTMLInputElement).value);
      if (pixel === null) {
        byId("goto-hint", HTMLParagraphElement).textContent = "Type two whole numbers: x, y";
        return;
      }
      this.closeOverlays();
      void this.selectPixel(pixel, true);
    });
    for (const overlay of document.querySelectorAll<HTMLDivElement>(".overlay"))
      overlay.addEventListener("click", (event) => {
        if (event.target === overlay) this.closeOverlays();
      });
    this.filter.addEventListener("input", () => this.applyFilter());
    this.filter.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === "ArrowDown") {
        event.preventDefault();
        this.moveCursor("first");
        this.drawList.focus();
      }
      if (event.key === "Escape") {
        this.filter.value = "";
        this.applyFilter();
        this.drawList.focus();
      }
    });
    this.targetSelect.addEventListener("change", () => {
      const value = this.targetSelect.value;
      const target = this.currentDraw()?.targets.find((candidate) => candidate.target === value);
      if (target !== undefined) {
        this.setTarget(target.target);
        void this.refreshAfterTargetChange();
      }
    });
    byId("split-button", HTMLButtonElement).addEventListener("click", () => this.toggleSplit());
    byId("fit-button", HTMLButtonElement).addEventListener("click", () => this.fit());
    byId("next-diff-button", HTMLButtonElement).addEventListener("click", () => void this.nextDifference(false));
    byId("nonfinite-toggle", HTMLInputElement).addEventListener("change", (event) => {
      this.highlightNonFinite = event.target instanceof HTMLInputElement && event.target.checked;
      void this.renderViews();
    });
    const rangeChanged = (): void => {
      const min = Number(byId("range-min", HTMLInputElement).value);
      const max = Number(byId("range-max", HTMLInputElement).value);
      if (Number.isFinite(min) && Number.isFinite(max) && max > min) {
        this.range = { min, max };
        void this.renderViews();
      }
    };
    byId("range-min", HTMLInputElement).addEventListener("change", rangeChanged);
    byId("range-max", HTMLInputElement).addEventListener("change", rangeChanged);
    byId("range-auto", HTMLButtonElement).addEventListener("click", () => {
      this.range = null;
      void this.renderViews();
    });

    // dropping a file anywhere opens it
    const overlay = byId("drop-overlay", HTMLDivElement);
    const hasFiles = (event: DragEvent): boolean => Array.from(event.dataTransfer?.types ?? []).includes("Files");
    window.addEventListener("dragenter", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      this.dragDepth++;
      overlay.hidden = false;
    });
    window.addEventListener("dragover", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer !== null) event.dataTransfer.dropEffect = "copy";
    });
    window.addEventListener("dragleave", () => {
      this.dragDepth = Math.max(0, this.dragDepth - 1);
      if (this.dragDepth === 0) overlay.hidden = true;
    });
    window.addEventListener("drop", (event) => {
      event.preventDefault();
      this.dragDepth = 0;
      overlay.hidden = true;
      const file = event.dataTransfer?.files[0];
      if (file !== undefined) void this.openFile(file);
    });

    window.addEventListener("keydown", (event) => this.onKey(event));
  }

  private toggleSplit(): void {
    this.split = !this.split;
    this.renderToolbar();
    void this.renderViews();
  }

  private fit(): void {
    const info = this.currentTarget();
    if (info === null) return;
    const size = this.mainPane.size();
    this.transform.fit(info.width, info.height, size.width, size.height);
  }

  private zoom(factor: number): void {
    const size = this.mainPane.size();
    this.transform.zoomAt(factor, size.width / 2, size.height / 2);
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      if (this.closeOverlays() || this.cancelJob()) event.preventDefault();
      return;
    }
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && event.key.toLowerCase() === "g") {
      event.preventDefault();
      if (this.currentTarget() !== null) this.openOverlay("goto-overlay");
      return;
    }
    if (ctrl && event.key.toLowerCase() === "o") {
      event.preventDefault();
      byId("file-input", HTMLInputElement).click();
      return;
    }
    if (ctrl || event.altKey || isEditable(event.target)) return;
    if (Array.from(document.querySelectorAll<HTMLDivElement>(".overlay")).some((overlay) => !overlay.hidden)) return;
    const key = event.key;
    if (event.shiftKey && key.startsWith("Arrow")) {
      // Shift+arrows move the picked pixel by one
      const info = this.currentTarget();
      const pixel = this.pixel;
      if (info === null || pixel === null) return;
      const dx = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0;
      const dy = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
      const next = { x: Math.max(0, Math.min(info.width - 1, pixel.x + dx)), y: Math.max(0, Math.min(info.height - 1, pixel.y + dy)) };
      event.preventDefault();
      if (next.x !== pixel.x || next.y !== pixel.y) void this.selectPixel(next, false);
      return;
    }
    const handled = ((): boolean => {
      switch (key) {
        case "ArrowUp":
        case "k":
          this.moveCursor(-1);
          return true;
        case "ArrowDown":
        case "j":
          this.moveCursor(1);
          return true;
        case "Home":
          this.moveCursor("first");
          return true;
        case "End":
          this.moveCursor("last");
          return true;
        case "Enter":
          if (this.capture !== null) {
            if (this.cursor === this.drawIndex && this.replayError?.what === "cancelled") {
              const draw = this.currentDraw();
              if (draw !== null) draw.status = { state: "not_replayed" };
            }
            void this.selectDraw(this.cursor);
          }
          return true;
        case " ":
        case "f":
        case "F":
          if (this.currentTarget() === null) return false;
          this.setView(this.view === "replayed" ? "recorded" : "replayed");
          return true;
        case "1":
        case "2":
        case "3":
        case "4":
        case "5": {
          const kind = IMAGE_KINDS[Number(key) - 1];
          if (kind === undefined || this.currentTarget() === null) return false;
          this.setView(kind);
          return true;
        }
        case "r":
        case "g":
        case "b":
        case "a":
          if (this.currentTarget() === null) return false;
          this.toggleChannel(key);
          return true;
        case "n":
          void this.nextDifference(false);
          return true;
        case "N":
          void this.nextDifference(true);
          return true;
        case "t":
          this.cycleTarget(1);
          return true;
        case "T":
          this.cycleTarget(-1);
          return true;
        case "s":
          this.toggleSplit();
          return true;
        case "+":
        case "=":
          this.zoom(2);
          return true;
        case "-":
          this.zoom(0.5);
          return true;
        case "0":
          this.fit();
          return true;
        case "c":
          void this.copyLink();
          return true;
        case "/":
          this.filter.focus();
          return true;
        case "?":
          this.openOverlay("help-overlay");
          return true;
        default:
          return false;
      }
    })();
    if (handled) event.preventDefault();
  }
}

/** Shows a failure to start as a message in the page rather than a blank one. */
function reportStartFailure(error: unknown): void {
  const info = toErrorInfo(error instanceof BackendError ? error.info : error, "viewer");
  const banner = h("div", { class: "message message-error", attrs: { role: "alert" } }, h("b", null, "The viewer failed to start: "), formatError(info));
  (document.getElementById("messages") ?? document.body).append(banner);
}

window.addEventListener("unhandledrejection", (event) => {
  const info = toErrorInfo(event.reason instanceof BackendError ? event.reason.info : event.reason, "viewer");
  const banner = h("div", { class: "message message-error", attrs: { role: "alert" } }, h("b", null, "Unexpected error: "), formatError(info));
  document.getElementById("messages")?.append(banner);
});

try {
  void new App().start().catch(reportStartFailure);
} catch (error: unknown) {
  reportStartFailure(error);
}
