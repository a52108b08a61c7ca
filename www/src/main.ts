// The viewer page: wires the controllers of www/src/app/ together — opening captures (open.ts), the draw list
// (draw-list.ts), the toolbar and target views (views.ts), the pixel inspector (inspector-panel.ts) — over one
// shared state (state.ts), and keeps here what spans them: picking and replaying a draw, the URL's hash naming the
// view (so that a link reopens it), dialogs and the keyboard. Answers that arrive after what they belong to has
// changed are dropped by the generation tokens of app/generation.ts.

import { BackendClient, isCancelled, workerEndpoint } from "./client";
import { byId, h, replace } from "./dom";
import { CaptureOpener, fetchConfig } from "./app/open";
import { DrawList } from "./app/draw-list";
import { Thumbnails } from "./app/thumbnails";
import { explainView } from "./app/explain";
import { InspectorPanel } from "./app/inspector-panel";
import { ProgramEditor } from "./app/program-editor";
import { JobBar, bytesText, showMessage } from "./app/page";
import { DEFAULT_MAX_LINKED_BYTES, type ViewerSettings, applyLimits, parseField, saveSettings } from "./app/settings";
import { type Restore, ViewerState, pageStorage } from "./app/state";
import { Views } from "./app/views";
import {
  BackendError,
  type DrawStatus,
  type ErrorInfo,
  type ExplainResult,
  IMAGE_KINDS,
  type Progress,
  formatError,
  toErrorInfo,
} from "./protocol";
import { type ViewState, formatHash, parseHash, parsePixelInput, sameSource, sameVariants } from "./url-state";

/** Keyboard shortcuts, as the help overlay lists them. */
const SHORTCUTS: [string, string][] = [
  ["↑ / ↓, Home / End", "Move in the draw list"],
  ["Enter", "Replay and show the draw under the cursor (on a group: fold or unfold it)"],
  ["← / →", "Fold / unfold the group under the cursor (← on a draw: go to its group)"],
  ["Space or F", "Flick between replayed and recorded"],
  ["1 – 6", "Replayed, recorded, before, differences, heatmap, perceptual error (FLIP)"],
  ["R G B A", "Toggle a channel"],
  ["N / Shift+N", "Next / previous differing pixel"],
  ["T / Shift+T", "Next / previous target"],
  ["M / Shift+M", "Next / previous sample of a multisampled target (all stacked, 0, 1, …)"],
  ["S", "Side by side on / off"],
  ["+ / − / 0", "Zoom in / out / fit"],
  ["Ctrl+G", "Go to a pixel (x, y)"],
  ["Shift+arrows", "Move the picked pixel by one"],
  ["Ctrl+O", "Open a capture file"],
  ["E", "Explain the draw's differences: replay it under each variant (implementation choice) and name the one that reproduces the GPU's"],
  ["C", "Copy a link to this view"],
  ["/", "Filter draws"],
  ["Esc", "Close a dialog, cancel a replay"],
  [",", "Settings (what a draw may cost)"],
  ["?", "This help"],
];

function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

/** How soon after a crash another one stops the page from opening the capture again (milliseconds). */
const REOPEN_WINDOW_MS = 30_000;

class App {
  private readonly client: BackendClient;
  /** When the engine last crashed (Date.now()), or never. */
  private lastCrash = Number.NEGATIVE_INFINITY;
  /** The last explanation (the Explain dialog's). */
  private explanation: ExplainResult | null = null;
  private readonly state = new ViewerState();
  private readonly jobs = new JobBar();
  private readonly opener: CaptureOpener;
  private readonly drawList: DrawList;
  private readonly views: Views;
  private readonly inspector: InspectorPanel;
  private readonly editor: ProgramEditor;

  constructor() {
    const mock = new URLSearchParams(location.search).has("mock");
    const workerUrl = new URL(`worker.js${mock ? "?mock" : ""}`, import.meta.url);
    const newWorker = (): Worker => new Worker(workerUrl, { type: "module" });
    this.client = new BackendClient(workerEndpoint(newWorker()));
    this.client.onFault((error) => showMessage("error", "The worker reported an error", error));
    this.client.onCrash((error) => void this.recover(error, newWorker));
    this.opener = new CaptureOpener(this.client, this.state, this.jobs, {
      opened: (restore) => this.opened(restore),
      applyState: (state) => this.applyState(state),
      renderAll: () => this.renderAll(),
    });
    this.drawList = new DrawList(
      this.state,
      (index) => void this.selectDraw(index),
      (index) => void this.selectDispatch(index),
    );
    this.views = new Views(this.client, this.state, {
      pick: (pixel) => void (this.state.dispatchIndex !== null ? this.inspector.selectElement(pixel) : this.inspector.selectPixel(pixel, false)),
      refreshPixel: async () => {
        if (this.state.pixel !== null) await this.inspector.selectPixel(this.state.pixel, false);
      },
      updateHash: () => this.updateHash(),
      renderPlaceholder: () => this.opener.renderPlaceholder(),
    });
    this.inspector = new InspectorPanel(
      this.client,
      this.state,
      this.views,
      () => this.updateHash(),
      (stage) => {
        if (this.state.drawIndex !== null) void this.editor.open(this.state.drawIndex, stage);
      },
    );
    this.editor = new ProgramEditor(this.client, this.state, {
      rerun: (index) => this.rerun(index),
      updateHash: () => this.updateHash(),
    });
    this.opener.bind();
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
        showMessage("error", "The replay engine could not be loaded; add ?mock to the URL to try the viewer on synthetic data", info);
      },
    );
    window.addEventListener("hashchange", () => void this.applyState(parseHash(location.hash)));
    let state = parseHash(location.hash);
    if (state.source === null) {
      const config = await fetchConfig();
      const url = config.default_capture;
      if (url !== null) {
        state = { ...state, source: { kind: "url", url }, draw: state.draw ?? config.default_draw };
        history.replaceState(null, "", formatHash(state));
      } else {
        this.opener.placeholderNote = "No sample capture is configured (the server found none in fixtures/captures/).";
      }
    }
    await this.applyState(state);
  }

  /**
   * After the engine crashed: a new worker in its place, and the capture that was open opened again on no draw (the
   * draw that crashed is not replayed again by itself), with the crash shown.
   */
  private async recover(error: ErrorInfo, newWorker: () => Worker): Promise<void> {
    this.jobs.cancel();
    // a capture whose opening crashes the engine is not opened again and again: after a second crash within
    // REOPEN_WINDOW_MS of the last, the engine restarts without it
    const now = Date.now();
    const again = now - this.lastCrash < REOPEN_WINDOW_MS;
    this.lastCrash = now;
    const open = again ? null : this.state.capture;
    showMessage(
      "error",
      open === null
        ? `The replay engine crashed and was restarted${again && this.state.capture !== null ? `; ${this.state.capture.name} was not opened again (it crashed twice)` : ""}`
        : `The replay engine crashed and was restarted; ${open.name} was opened again`,
      error,
    );
    this.client.restart(workerEndpoint(newWorker()));
    this.state.capture = null;
    this.state.draws = [];
    this.state.navigation.next();
    if (open === null) {
      this.renderAll();
      return;
    }
    const restore = { ...this.state.hashState(), source: open.source, draw: null, pixel: null };
    await this.opener.openSource(open.source, restore);
  }

  /** Writes the view into the hash; with no capture open the hash is left as it is (it may name one to open). */
  private updateHash(): void {
    byId("copy-link-button", HTMLButtonElement).disabled = this.state.capture === null;
    if (this.state.capture === null) return;
    const hash = formatHash(this.state.hashState());
    if (hash !== location.hash) history.replaceState(null, "", hash);
  }

  /** Brings the page to a state: opens its capture if another, then its draw, target, view and pixel. */
  private async applyState(state: ViewState): Promise<void> {
    if (state.source === null) {
      this.renderAll();
      return;
    }
    if (!sameSource(state.source, this.state.capture?.source ?? null)) {
      await this.opener.openSource(state.source, state);
      return;
    }
    if (!sameVariants(state.variants, this.state.capture?.summary.variants ?? [])) {
      // the same draw is replayed again under the link's variants; another is replayed when picked below
      await this.applyVariants(state.variants, state.draw === null || state.draw === this.state.drawIndex);
    }
    this.state.view = state.view;
    if (state.draw !== null && state.draw !== this.state.drawIndex) {
      await this.selectDraw(state.draw, { target: state.target, pixel: state.pixel });
      return;
    }
    if (state.target !== null && state.target !== this.state.target) this.views.setTarget(state.target);
    this.views.renderToolbar();
    await this.views.render();
    const pixel = this.state.pixel;
    if (state.pixel !== null && (state.pixel.x !== pixel?.x || state.pixel.y !== pixel.y)) await this.inspector.selectPixel(state.pixel, true);
  }

  /** A capture replaced the open one (the opener set it and its draws): start afresh on it, then restore a view. */
  private async opened(restore: ViewState | null): Promise<void> {
    const state = this.state;
    state.drawIndex = null;
    this.clearDispatch();
    state.cursor = 0;
    state.target = null;
    state.pixel = null;
    state.comparison = null;
    state.replayError = null;
    this.drawList.clearComparisons();
    const capture = state.capture;
    const thumbnails = capture === null ? null : new Thumbnails(this.client, capture.summary.capture);
    this.drawList.setThumbnails(thumbnails === null ? null : (draw, canvas, cachedOnly) => thumbnails.paint(draw, canvas, cachedOnly));
    this.views.reset();
    state.range = null;
    if (restore !== null) state.view = restore.view;
    this.renderAll();
    this.updateHash();
    if (restore !== null && restore.variants.length > 0) await this.applyVariants(restore.variants, false);
    await this.editor.restore(restore?.edited ?? []);
    if (state.edited.length > 0) this.drawList.render();
    if (restore !== null && restore.draw !== null) await this.selectDraw(restore.draw, { target: restore.target, pixel: restore.pixel });
    else this.drawList.focus();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Draws

  private setDrawStatus(index: number, status: DrawStatus): void {
    this.drawList.setStatus(index, status);
  }

  /** Picks a draw: replays it if it has not been, compares, shows its targets. */
  private async selectDraw(index: number, restore: Restore | null = null): Promise<void> {
    const state = this.state;
    const capture = state.capture;
    const draw = state.draws[index];
    if (capture === null) return;
    if (draw === undefined) {
      showMessage("error", `The capture has no draw ${index} (it has ${state.draws.length})`);
      return;
    }
    const navigation = state.navigation.next();
    this.jobs.abort();
    const previousTarget = state.currentTarget();
    if (state.dispatchIndex !== null) {
      this.clearDispatch();
      state.pixel = null;
      this.views.keepPlacementIf(null, null);
    }
    state.drawIndex = index;
    state.cursor = index;
    state.comparison = null;
    state.replayError = null;
    const wantedTarget = restore?.target ?? state.target;
    state.target = draw.targets.find((target) => target.target === wantedTarget)?.target ?? draw.targets[0]?.target ?? null;
    if (restore !== null) state.pixel = restore.pixel;
    const target = state.currentTarget();
    this.views.keepPlacementIf(previousTarget, target);
    if (state.pixel !== null && target !== null && (state.pixel.x >= target.width || state.pixel.y >= target.height)) state.pixel = null;
    state.range = null;
    this.drawList.updateClasses();
    this.drawList.scrollCursorIntoView();
    this.views.renderToolbar();
    this.inspector.renderEmpty();
    this.updateHash();

    if (draw.status.state === "not_replayed") {
      const job = this.jobs.begin(`Replaying draw ${index}`);
      this.views.showReplaying();
      try {
        const summary = await this.client.request(
          { kind: "replay", capture: capture.summary.capture, draw: index },
          { signal: job.signal, onProgress: (progress) => this.jobs.show(progress) },
        );
        this.jobs.end(job);
        if (!navigation.current) return;
        this.setDrawStatus(index, summary.status);
      } catch (error: unknown) {
        this.jobs.end(job);
        if (!navigation.current) return;
        if (isCancelled(error)) {
          state.replayError = { kind: "cancelled", what: "cancelled", detail: "the replay was cancelled; press Enter to replay again" };
        } else {
          state.replayError = toErrorInfo(error, "replay");
          this.setDrawStatus(index, { state: "error", error: state.replayError });
        }
      }
    } else if (draw.status.state === "error") {
      state.replayError = draw.status.error;
    }
    if (state.replayError === null) {
      try {
        const comparison = await this.client.request({ kind: "compare", capture: capture.summary.capture, draw: index });
        if (!navigation.current) return;
        state.comparison = comparison;
        this.setDrawStatus(index, comparison.status);
        this.drawList.setComparison(index, comparison);
      } catch (error: unknown) {
        if (!navigation.current) return;
        showMessage("error", `Could not compare draw ${index}`, toErrorInfo(error, "compare"));
      }
    }
    this.views.renderToolbar();
    await this.views.render();
    if (!navigation.current) return;
    if (state.pixel !== null) await this.inspector.selectPixel(state.pixel, restore?.pixel !== undefined && restore.pixel !== null);
  }

  /** Replays draw `index` again (an edit dropped its replay) and shows it; gives its new status. */
  private async rerun(index: number): Promise<DrawStatus | null> {
    const draw = this.state.draws[index];
    if (draw === undefined) return null;
    draw.status = { state: "not_replayed" };
    this.drawList.setStatus(index, draw.status);
    await this.selectDraw(index, { target: this.state.target, pixel: this.state.pixel });
    return this.state.draws[index]?.status ?? null;
  }

  /** Forgets the picked dispatch. */
  private clearDispatch(): void {
    this.state.dispatchIndex = null;
    this.state.dispatch = null;
    this.state.dispatchSlot = null;
    this.state.dispatchError = null;
  }

  /** Picks a dispatch: replays it (each pick replays it again: the worker keeps the last few), shows its views. */
  private async selectDispatch(index: number): Promise<void> {
    const state = this.state;
    const capture = state.capture;
    if (capture === null) return;
    const navigation = state.navigation.next();
    this.jobs.abort();
    const previousSlot = state.dispatchIndex === index ? state.dispatchSlot : null;
    state.drawIndex = null;
    state.target = null;
    state.comparison = null;
    state.replayError = null;
    state.pixel = null;
    state.dispatchIndex = index;
    state.dispatch = null;
    state.dispatchError = null;
    state.range = null;
    if (!["replayed", "recorded", "before", "difference"].includes(state.view)) state.view = "replayed";
    this.views.keepPlacementIf(null, null);
    this.drawList.updateClasses();
    this.views.renderToolbar();
    this.inspector.renderDispatch();
    this.updateHash();
    void this.views.render();
    const job = this.jobs.begin(`Replaying dispatch ${index}`);
    try {
      const result = await this.client.request({ kind: "replay_dispatch", capture: capture.summary.capture, dispatch: index }, { signal: job.signal });
      this.jobs.end(job);
      if (!navigation.current) return;
      state.dispatch = result;
      state.dispatchSlot = result.views.find((view) => view.slot === previousSlot)?.slot ?? result.views[0]?.slot ?? null;
      this.drawList.setDispatch(result.dispatch);
    } catch (error: unknown) {
      this.jobs.end(job);
      if (!navigation.current) return;
      state.dispatchError = toErrorInfo(error, "replay");
      const entry = capture.summary.dispatches.find((dispatch) => dispatch.index === index);
      if (entry !== undefined && !isCancelled(error)) this.drawList.setDispatch({ ...entry, status: { state: "error", error: state.dispatchError } });
    }
    this.views.renderToolbar();
    this.inspector.renderDispatch();
    await this.views.render();
  }

  /** Replays and compares every draw not replayed yet, to fill in the list's status column; then every dispatch. */
  private async replayAll(): Promise<void> {
    const capture = this.state.capture;
    if (capture === null) return;
    const pending = this.state.draws.filter((draw) => draw.status.state === "not_replayed");
    const job = this.jobs.begin("Replaying all draws");
    for (const [done, draw] of pending.entries()) {
      this.jobs.show({ stage: `draw ${draw.index}`, done, total: pending.length });
      try {
        // each draw's own progress too, so that a long draw keeps the bar moving
        const onProgress = (progress: Progress): void =>
          this.jobs.show({ stage: `draw ${draw.index} (${progress.stage} ${progress.done} / ${progress.total})`, done, total: pending.length });
        const summary = await this.client.request(
          { kind: "replay", capture: capture.summary.capture, draw: draw.index },
          { signal: job.signal, onProgress },
        );
        this.setDrawStatus(draw.index, summary.status);
        const comparison = await this.client.request({ kind: "compare", capture: capture.summary.capture, draw: draw.index }, { signal: job.signal });
        this.setDrawStatus(draw.index, comparison.status);
        this.drawList.setComparison(draw.index, comparison);
      } catch (error: unknown) {
        if (isCancelled(error) || job.signal.aborted) break;
        this.setDrawStatus(draw.index, { state: "error", error: toErrorInfo(error, "replay") });
      }
      if (this.state.capture !== capture) break;
    }
    const dispatches = capture.summary.dispatches.filter((dispatch) => dispatch.status.state === "not_replayed");
    for (const [done, dispatch] of dispatches.entries()) {
      if (job.signal.aborted || this.state.capture !== capture) break;
      this.jobs.show({ stage: `dispatch ${dispatch.index}`, done, total: dispatches.length });
      try {
        const result = await this.client.request({ kind: "replay_dispatch", capture: capture.summary.capture, dispatch: dispatch.index }, { signal: job.signal });
        this.drawList.setDispatch(result.dispatch);
      } catch (error: unknown) {
        if (isCancelled(error) || job.signal.aborted) break;
        this.drawList.setDispatch({ ...dispatch, status: { state: "error", error: toErrorInfo(error, "replay") } });
      }
    }
    this.jobs.end(job);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Variants and explanations

  /** Replays the picked draw under every set of variants and shows the table (the Explain dialog). */
  private async explain(): Promise<void> {
    const capture = this.state.capture;
    const index = this.state.drawIndex;
    if (capture === null || index === null) {
      showMessage("info", "Pick a draw to explain its differences.");
      return;
    }
    const job = this.jobs.begin(`Explaining draw ${index}`);
    try {
      const result = await this.client.request(
        { kind: "explain", capture: capture.summary.capture, draw: index },
        { signal: job.signal, onProgress: (progress) => this.jobs.show(progress) },
      );
      this.jobs.end(job);
      if (this.state.capture !== capture || this.state.drawIndex !== index) return;
      this.explanation = result;
      this.renderExplanation();
      this.openOverlay("explain-overlay");
      // the inspector now says which differing pixels the best set explains
      if (this.state.pixel !== null) await this.inspector.selectPixel(this.state.pixel, true);
    } catch (error: unknown) {
      this.jobs.end(job);
      if (!isCancelled(error)) showMessage("error", `Could not explain draw ${index}`, toErrorInfo(error, "explain"));
    }
  }

  /** Fills the Explain dialog from the last explanation. */
  private renderExplanation(): void {
    const result = this.explanation;
    const capture = this.state.capture;
    if (result === null || capture === null) return;
    replace(
      byId("explain-body", HTMLDivElement),
      explainView(result, capture.summary.variants, (variants) => {
        this.closeOverlays();
        void this.applyVariants(variants, true);
      }),
    );
  }

  /**
   * Replays the capture's draws under `variants` from now on (the worker drops every replay made under others): the
   * list's statuses start over, and with `reselect` the picked draw is replayed again at once.
   */
  private async applyVariants(variants: string[], reselect: boolean): Promise<void> {
    const capture = this.state.capture;
    if (capture === null) return;
    try {
      const set = await this.client.request({ kind: "set_variants", capture: capture.summary.capture, variants });
      if (this.state.capture !== capture) return;
      const changed = !sameVariants(set, capture.summary.variants);
      capture.summary.variants = set;
      if (changed) {
        this.state.draws = await this.client.request({ kind: "list_draws", capture: capture.summary.capture });
        this.drawList.clearComparisons();
        this.drawList.render();
      }
      this.renderHeader();
      this.updateHash();
      if (changed && reselect && this.state.drawIndex !== null)
        await this.selectDraw(this.state.drawIndex, { target: this.state.target, pixel: this.state.pixel });
    } catch (error: unknown) {
      showMessage("error", "Could not replay under those variants", toErrorInfo(error, "variants"));
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Rendering the page

  private renderAll(): void {
    this.renderHeader();
    this.drawList.render();
    this.views.renderToolbar();
    this.inspector.renderEmpty();
    void this.views.render();
    this.updateHash();
  }

  private renderHeader(): void {
    const capture = this.state.capture;
    byId("capture-title", HTMLSpanElement).textContent = capture === null ? "No capture" : capture.name;
    byId("capture-meta", HTMLSpanElement).textContent =
      capture === null
        ? ""
        : `${capture.summary.draw_count} draws` +
          (capture.summary.unrecorded_draws.length > 0 ? ` (${capture.summary.unrecorded_draws.length} not recorded)` : "") +
          ` · ${bytesText(capture.summary.size_bytes)} · format ${capture.summary.format_version}` +
          (capture.summary.application !== null ? ` · ${capture.summary.application}` : "") +
          (capture.summary.variants.length > 0 ? ` · replayed under ${capture.summary.variants.join(", ")}` : "");
    byId("capture-title", HTMLSpanElement).title =
      capture === null ? "" : capture.source.kind === "url" ? capture.source.url : `SHA-256 ${capture.source.sha256}`;
    byId("replay-all-button", HTMLButtonElement).disabled = capture === null;
    byId("explain-button", HTMLButtonElement).disabled = capture === null;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Dialogs, links, events

  private async copyLink(): Promise<void> {
    const capture = this.state.capture;
    if (capture === null) return;
    this.updateHash();
    const link = location.href;
    const input = byId("link-input", HTMLInputElement);
    input.value = link;
    const note = byId("link-note", HTMLParagraphElement);
    note.textContent =
      capture.source.kind === "file"
        ? "The capture came from a file: the link names its SHA-256. A browser that does not have it will ask for the file."
        : "";
    try {
      await navigator.clipboard.writeText(link);
      showMessage("info", "Link copied to the clipboard.");
      if (capture.source.kind === "file") this.openOverlay("link-overlay");
    } catch {
      this.openOverlay("link-overlay");
      input.select();
    }
  }

  /** Fills the Settings dialog from the settings, each empty field showing its default. */
  private fillSettings(): void {
    const settings = this.state.settings;
    const defaults = this.state.capture?.defaultLimits ?? null;
    const field = (id: string, value: number | null, placeholder: string): void => {
      const input = byId(id, HTMLInputElement);
      input.value = value === null ? "" : String(value);
      input.placeholder = placeholder;
    };
    field("settings-memory", settings.maxMemoryMiB, defaults === null ? "default" : `default ${Math.round(defaults.max_memory / 2 ** 20)}`);
    field("settings-work", settings.maxWorkMillions, defaults === null ? "default" : `default ${Math.round(defaults.max_work / 1e6)}`);
    field("settings-linked", settings.maxLinkedMiB, `default ${DEFAULT_MAX_LINKED_BYTES / 2 ** 20}`);
    byId("settings-problem", HTMLParagraphElement).hidden = true;
  }

  /** Checks and keeps the dialog's values, and gives the open capture its new limits. */
  private async saveSettings(): Promise<void> {
    const problem = byId("settings-problem", HTMLParagraphElement);
    const read = (id: string, what: string): number | null | string => {
      const parsed = parseField(byId(id, HTMLInputElement).value);
      return parsed !== null && typeof parsed === "object" ? `${what}: ${parsed.problem}` : parsed;
    };
    const memory = read("settings-memory", "Memory per draw");
    const work = read("settings-work", "Work per draw");
    const linked = read("settings-linked", "Largest capture from a link");
    const wrong = [memory, work, linked].find((value) => typeof value === "string");
    if (typeof wrong === "string") {
      problem.textContent = wrong;
      problem.hidden = false;
      return;
    }
    const settings: ViewerSettings = {
      maxMemoryMiB: memory as number | null,
      maxWorkMillions: work as number | null,
      maxLinkedMiB: linked as number | null,
    };
    this.state.settings = settings;
    if (!saveSettings(pageStorage(), settings)) showMessage("warning", "The settings apply to this page only: this browser does not keep them");
    this.closeOverlays();
    const capture = this.state.capture;
    if (capture === null) return;
    try {
      const limits = await applyLimits(this.client, capture.summary.capture, capture.summary.limits, capture.defaultLimits, settings);
      if (this.state.capture !== capture) return;
      capture.summary = { ...capture.summary, limits };
      // draws stopped by a limit may replay under the new ones: they are "not replayed" again, the picked one at once
      const stopped = this.state.draws.filter((draw) => draw.status.state === "error" && draw.status.error.kind === "budget");
      for (const draw of stopped) this.setDrawStatus(draw.index, { state: "not_replayed" });
      showMessage("info", "Settings saved: draws replayed from now on use them.");
      const picked = this.state.drawIndex;
      if (picked !== null && stopped.some((draw) => draw.index === picked)) await this.selectDraw(picked);
    } catch (error: unknown) {
      showMessage("error", "Could not apply the settings", toErrorInfo(error, "settings"));
    }
  }

  private openOverlay(id: string): void {
    if (id === "settings-overlay") this.fillSettings();
    byId(id, HTMLDivElement).hidden = false;
    if (id === "goto-overlay") {
      const info = this.state.currentTarget();
      byId("goto-hint", HTMLParagraphElement).textContent = info === null ? "Pick a draw first." : `0 ≤ x < ${info.width}, 0 ≤ y < ${info.height}`;
      const input = byId("goto-input", HTMLInputElement);
      const pixel = this.state.pixel;
      input.value = pixel === null ? "" : `${pixel.x}, ${pixel.y}`;
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
    byId("replay-all-button", HTMLButtonElement).addEventListener("click", () => void this.replayAll());
    byId("explain-button", HTMLButtonElement).addEventListener("click", () => void this.explain());
    byId("explain-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("copy-link-button", HTMLButtonElement).addEventListener("click", () => void this.copyLink());
    byId("help-button", HTMLButtonElement).addEventListener("click", () => this.openOverlay("help-overlay"));
    byId("settings-button", HTMLButtonElement).addEventListener("click", () => this.openOverlay("settings-overlay"));
    byId("settings-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("settings-reset", HTMLButtonElement).addEventListener("click", () => {
      for (const id of ["settings-memory", "settings-work", "settings-linked"]) byId(id, HTMLInputElement).value = "";
    });
    byId("settings-form", HTMLFormElement).addEventListener("submit", (event) => {
      event.preventDefault();
      void this.saveSettings();
    });
    byId("help-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("link-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("goto-close", HTMLButtonElement).addEventListener("click", () => this.closeOverlays());
    byId("progress-cancel", HTMLButtonElement).addEventListener("click", () => this.jobs.cancel());
    byId("goto-form", HTMLFormElement).addEventListener("submit", (event) => {
      event.preventDefault();
      const pixel = parsePixelInput(byId("goto-input", HTMLInputElement).value);
      if (pixel === null) {
        byId("goto-hint", HTMLParagraphElement).textContent = "Type two whole numbers: x, y";
        return;
      }
      this.closeOverlays();
      void this.inspector.selectPixel(pixel, true);
    });
    for (const overlay of document.querySelectorAll<HTMLDivElement>(".overlay"))
      overlay.addEventListener("click", (event) => {
        if (event.target === overlay) this.closeOverlays();
      });
    byId("next-diff-button", HTMLButtonElement).addEventListener("click", () => void this.inspector.nextDifference(false));
    window.addEventListener("keydown", (event) => this.onKey(event));
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      if (this.closeOverlays() || this.jobs.cancel()) event.preventDefault();
      return;
    }
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && event.key.toLowerCase() === "g") {
      event.preventDefault();
      if (this.state.currentTarget() !== null) this.openOverlay("goto-overlay");
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
      const info = this.state.currentTarget();
      const pixel = this.state.pixel;
      if (info === null || pixel === null) return;
      const dx = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0;
      const dy = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
      const next = { x: Math.max(0, Math.min(info.width - 1, pixel.x + dx)), y: Math.max(0, Math.min(info.height - 1, pixel.y + dy)) };
      event.preventDefault();
      if (next.x !== pixel.x || next.y !== pixel.y) void this.inspector.selectPixel(next, false);
      return;
    }
    const handled = ((): boolean => {
      switch (key) {
        case "ArrowUp":
        case "k":
          this.drawList.moveCursor(-1);
          return true;
        case "ArrowDown":
        case "j":
          this.drawList.moveCursor(1);
          return true;
        case "ArrowLeft":
          this.drawList.foldOrUp();
          return true;
        case "ArrowRight":
          this.drawList.unfoldOrDown();
          return true;
        case "Home":
          this.drawList.moveCursor("first");
          return true;
        case "End":
          this.drawList.moveCursor("last");
          return true;
        case "Enter":
          if (this.drawList.cursorOnGroup()) {
            this.drawList.toggleCursorGroup();
            return true;
          }
          if (this.state.capture !== null) {
            if (this.state.cursor === this.state.drawIndex && this.state.replayError?.kind === "cancelled") {
              const draw = this.state.currentDraw();
              if (draw !== null) draw.status = { state: "not_replayed" };
            }
            void this.selectDraw(this.state.cursor);
          }
          return true;
        case " ":
        case "f":
        case "F":
          if (this.state.currentTarget() === null) return false;
          this.views.setView(this.state.view === "replayed" ? "recorded" : "replayed");
          return true;
        case "1":
        case "2":
        case "3":
        case "4":
        case "5":
        case "6": {
          const kind = IMAGE_KINDS[Number(key) - 1];
          if (kind === undefined || this.state.currentTarget() === null) return false;
          this.views.setView(kind);
          return true;
        }
        case "r":
        case "g":
        case "b":
        case "a":
          if (this.state.currentTarget() === null) return false;
          this.views.toggleChannel(key);
          return true;
        case "n":
          void this.inspector.nextDifference(false);
          return true;
        case "N":
          void this.inspector.nextDifference(true);
          return true;
        case "t":
          this.views.cycleTarget(1);
          return true;
        case "T":
          this.views.cycleTarget(-1);
          return true;
        case "s":
          this.views.toggleSplit();
          return true;
        case "m":
          this.views.cycleSample(1);
          return true;
        case "M":
          this.views.cycleSample(-1);
          return true;
        case "+":
        case "=":
          this.views.zoom(2);
          return true;
        case "-":
          this.views.zoom(0.5);
          return true;
        case "0":
          this.views.fit();
          return true;
        case "c":
          void this.copyLink();
          return true;
        case "e":
          void this.explain();
          return true;
        case "/":
          this.drawList.focusFilter();
          return true;
        case "?":
          this.openOverlay("help-overlay");
          return true;
        case ",":
          this.openOverlay("settings-overlay");
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
