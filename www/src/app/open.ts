// Opening captures: from a URL (#capture=, the server's default), from a file dropped or picked (kept in IndexedDB
// under its SHA-256), or from IndexedDB (#file=, the recent list). The start page, before a capture or draw is
// picked, is drawn here too: it offers the file picker, the recent captures and, for a link naming a file this
// browser does not have, asks for that file.

import { type BackendClient, isCancelled } from "../client";
import { byId, h, replace } from "../dom";
import { BackendError, type CaptureData, type CaptureSummary, type DrawInfo, type Limits, toErrorInfo } from "../protocol";
import { type RecentCapture, forgetCapture, loadCapture, recentCaptures, sha256Hex, storeCapture, touchCapture } from "../store";
import { type CaptureSource, type ViewState, linkAccess, parseHash } from "../url-state";
import { applyLimits, maxLinkedBytes } from "./settings";
import { type JobBar, bytesText, showMessage } from "./page";
import type { ViewerState } from "./state";

/** The server's viewer-config.json (scripts/serve.mjs): the capture to open when the URL names none. */
export interface ViewerConfig {
  default_capture: string | null;
  /** The draw (0-based) the default capture opens on, so a new user sees a replay at once; null picks none. */
  default_draw: number | null;
}

/** What the opener asks of the rest of the page. */
export interface OpenHooks {
  /** A capture has replaced the open one (state.capture and state.draws are set): show it, then `restore`. */
  opened(restore: ViewState | null): Promise<void>;
  /** Brings the page to a state (a recent capture was clicked). */
  applyState(state: ViewState): Promise<void>;
  /** Redraws what depends on the open capture when opening failed or is waiting for a file. */
  renderAll(): void;
}

function baseName(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)) || url;
}

/**
 * The length of the file a response to `Range: bytes=0-0` belongs to when the server answered the range (206 with
 * `Content-Range: bytes 0-0/LENGTH`), else null (the server sent the whole file, or an error).
 */
export function rangedLength(response: Response): number | null {
  if (response.status !== 206) return null;
  const match = /^bytes 0-0\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
  const length = Number(match?.[1] ?? "NaN");
  return Number.isSafeInteger(length) && length > 0 ? length : null;
}

/** Fetches viewer-config.json; a missing or malformed one names no capture. */
export async function fetchConfig(): Promise<ViewerConfig> {
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

/** Opens captures and draws the start page. */
export class CaptureOpener {
  /** A link named a file this browser does not have: the view to restore when it is dropped. */
  private wanted: { sha256: string; name: string | null; state: ViewState } | null = null;
  /** A link names a capture on another origin: the start page asks before fetching it. */
  private confirming: { url: string; origin: string; source: CaptureSource; state: ViewState } | null = null;
  /** Other-origin URLs the user has agreed to fetch in this page. */
  private readonly confirmed = new Set<string>();
  /** Why the start page has no capture to offer (no default capture configured). */
  placeholderNote: string | null = null;
  private dragDepth = 0;
  private readonly placeholder = byId("placeholder", HTMLDivElement);

  constructor(
    private readonly client: BackendClient,
    private readonly state: ViewerState,
    private readonly jobs: JobBar,
    private readonly hooks: OpenHooks,
  ) {}

  /** The file picker, the open button and dropping a file anywhere on the page. */
  bind(): void {
    const fileInput = byId("file-input", HTMLInputElement);
    byId("open-button", HTMLButtonElement).addEventListener("click", () => fileInput.click());
    fileInput.addEventListener("change", () => {
      const file = fileInput.files?.[0];
      fileInput.value = "";
      if (file !== undefined) void this.openFile(file);
    });
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
  }

  /** Opens the capture a hash names: fetched from its URL, or read from IndexedDB (or asked for when missing). */
  async openSource(source: CaptureSource, state: ViewState): Promise<void> {
    if (source.kind === "url") {
      const name = baseName(source.url);
      const access = linkAccess(source.url, window.location.href);
      if (access.kind === "refused") {
        showMessage("error", `Could not fetch the capture ${source.url}`, { kind: "request", what: "capture link", at: source.url, detail: access.problem });
        this.hooks.renderAll();
        return;
      }
      if (access.kind === "confirm" && !this.confirmed.has(access.url)) {
        this.confirming = { url: access.url, origin: access.origin, source, state };
        this.hooks.renderAll();
        return;
      }
      this.confirming = null;
      const job = this.jobs.begin(`Fetching ${name}`);
      let data: CaptureData;
      try {
        data = await this.fetchCapture(access.url, job.signal);
      } catch (error: unknown) {
        this.jobs.end(job);
        if (isCancelled(error) || job.signal.aborted) return;
        showMessage("error", `Could not fetch the capture ${source.url}`, toErrorInfo(error, "capture"));
        this.hooks.renderAll();
        return;
      }
      this.jobs.end(job);
      await this.openData(data, name, source, state);
      return;
    }
    let stored = null;
    try {
      stored = await loadCapture(source.sha256);
    } catch (error: unknown) {
      showMessage("warning", "This browser's capture store (IndexedDB) could not be read", toErrorInfo(error, "IndexedDB"));
    }
    if (stored === null) {
      this.wanted = { sha256: source.sha256, name: source.name, state };
      this.hooks.renderAll();
      return;
    }
    // the stored Blob goes to the worker as it is: the worker reads it by position
    if (await this.openData({ blob: stored.blob }, stored.name, { kind: "file", sha256: stored.sha256, name: stored.name }, state))
      touchCapture(stored.sha256).catch(() => undefined);
  }

  /**
   * A link's capture (`url` resolved, its origin allowed by linkAccess). A server that answers byte ranges gives the
   * capture's length, and the worker reads the file by position (its directory and manifest, then each draw's blobs);
   * any other server's answer is the whole file, at most the settings' size (1 GiB by default), read into one buffer of the
   * announced size as it arrives (no second copy), with the download's progress.
   */
  private async fetchCapture(url: string, signal: AbortSignal): Promise<CaptureData> {
    const limit = maxLinkedBytes(this.state.settings);
    const tooLarge = (bytes: number): BackendError =>
      new BackendError({
        kind: "budget",
        what: "capture",
        at: url,
        detail: `${bytesText(bytes)} is more than the ${bytesText(limit)} the viewer downloads whole from a link (Settings); open the file itself`,
      });
    let response = await fetch(url, { signal, headers: { Range: "bytes=0-0" } });
    const length = rangedLength(response);
    if (length !== null) {
      await response.body?.cancel();
      return { url, length };
    }
    if (response.status === 206) {
      // a range whose file length cannot be read (another origin that does not expose Content-Range): the whole file
      await response.body?.cancel();
      response = await fetch(url, { signal });
    }
    if (!response.ok)
      throw new BackendError({ kind: "request", what: "capture", at: url, detail: `HTTP ${response.status} ${response.statusText}`.trim() });
    // a content-length counts encoded bytes: with a content-encoding the body's length is not known ahead
    const encoding = response.headers.get("content-encoding");
    const plain = encoding === null || encoding === "identity";
    const total = plain ? Number(response.headers.get("content-length") ?? "0") : 0;
    if (total > limit) throw tooLarge(total);
    if (response.body === null || !(total > 0)) {
      const whole = await response.arrayBuffer();
      if (whole.byteLength > limit) throw tooLarge(whole.byteLength);
      return { bytes: whole };
    }
    const reader = response.body.getReader();
    const bytes = new Uint8Array(total);
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.length > total) {
        await reader.cancel();
        throw new BackendError({ kind: "invalid", what: "capture", at: url, detail: `the server sent more than the ${total} bytes it announced` });
      }
      bytes.set(value, received);
      received += value.length;
      this.jobs.show({ stage: "downloading", done: received, total });
    }
    if (received !== total)
      throw new BackendError({ kind: "invalid", what: "capture", at: url, detail: `the server sent ${received} of the ${total} bytes it announced` });
    return { bytes: bytes.buffer };
  }

  /** Opens a capture file (dropped or picked), keeps it in IndexedDB under its hash. */
  async openFile(file: File): Promise<void> {
    let sha256: string;
    try {
      sha256 = await sha256Hex(await file.arrayBuffer());
    } catch (error: unknown) {
      showMessage("error", `Could not read ${file.name}`, toErrorInfo(error, "file"));
      return;
    }
    let state: ViewState | null = null;
    if (this.wanted !== null) {
      if (this.wanted.sha256 === sha256) state = this.wanted.state;
      else
        showMessage(
          "warning",
          `${file.name} is not the capture the link names (SHA-256 ${this.wanted.sha256.slice(0, 12)}…, this file ${sha256.slice(0, 12)}…); opening it anyway`,
        );
    }
    const source: CaptureSource = { kind: "file", sha256, name: file.name };
    // the worker reads the file by position: only its directory, manifest and each draw's blobs reach the module
    if (await this.openData({ blob: file }, file.name, source, state)) {
      storeCapture({ sha256, name: file.name, size: file.size, opened: Date.now(), blob: file }).catch((error: unknown) =>
        showMessage("warning", "The capture could not be kept in this browser (IndexedDB)", toErrorInfo(error, "IndexedDB")),
      );
    }
  }

  /** Has the worker open a capture; on success it replaces the open capture, on failure that one stays. */
  private async openData(data: CaptureData, name: string, source: CaptureSource, state: ViewState | null): Promise<boolean> {
    const job = this.jobs.begin(`Opening ${name}`);
    let summary: CaptureSummary;
    let defaultLimits: Limits;
    let draws: DrawInfo[];
    try {
      summary = await this.client.request(
        { kind: "open_capture", name, ...data },
        { transfer: "bytes" in data ? [data.bytes] : [], signal: job.signal, onProgress: (progress) => this.jobs.show(progress) },
      );
      // the settings' limits, where they differ from the engine's defaults
      defaultLimits = summary.limits;
      summary = { ...summary, limits: await applyLimits(this.client, summary.capture, summary.limits, defaultLimits, this.state.settings) };
      draws = await this.client.request({ kind: "list_draws", capture: summary.capture }, { signal: job.signal });
    } catch (error: unknown) {
      this.jobs.end(job);
      if (!isCancelled(error)) showMessage("error", `Could not open ${name}`, toErrorInfo(error, "capture"));
      this.hooks.renderAll();
      return false;
    }
    this.jobs.end(job);
    const previous = this.state.capture;
    if (previous !== null) this.client.request({ kind: "close_capture", capture: previous.summary.capture }).catch(() => undefined);
    this.state.navigation.next();
    this.state.capture = { summary, defaultLimits, source, name };
    this.state.draws = draws;
    this.wanted = null;
    await this.hooks.opened(state);
    return true;
  }

  /** The start page (no capture: open one, recent captures, a linked file to drop) or, with one, "pick a draw" (unless a
   * draw or a dispatch is picked). */
  renderPlaceholder(): void {
    const hasCapture = this.state.capture !== null;
    // the question about another site's capture shows even over an open draw, which stays open if it is declined
    const hasDraw = (this.state.currentDraw() !== null || this.state.dispatchIndex !== null) && this.confirming === null;
    byId("panes", HTMLDivElement).hidden = !hasDraw;
    this.placeholder.hidden = hasDraw;
    if (hasDraw) return;
    if (hasCapture) {
      replace(this.placeholder, h("div", { class: "empty" }, h("h2", null, "Pick a draw"), h("p", null, "Click one in the list, or use ↑ / ↓ and Enter. Replay all fills in every draw's status.")));
      return;
    }
    const confirming = this.confirming;
    if (confirming !== null) {
      replace(
        this.placeholder,
        h(
          "div",
          { class: "empty confirm-link", attrs: { "data-testid": "confirm-link" } },
          h("h2", null, "Open a capture from another site?"),
          h("p", null, "This link asks the viewer to fetch a capture from ", h("b", null, confirming.origin), ":"),
          h("p", null, h("code", null, confirming.url)),
          h("p", { class: "muted" }, "Only open captures from sites you trust: the request goes from your browser, with what it can reach."),
          h(
            "p",
            null,
            h("button", { attrs: { type: "button", "data-testid": "confirm-link-open" }, on: { click: () => this.confirmLink(true) } }, "Open it"),
            " ",
            h("button", { attrs: { type: "button", "data-testid": "confirm-link-cancel" }, on: { click: () => this.confirmLink(false) } }, "Cancel"),
          ),
        ),
      );
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

  /** The answer to "open a capture from another site?": fetch it, or drop the link's request. */
  private confirmLink(open: boolean): void {
    const confirming = this.confirming;
    if (confirming === null) return;
    this.confirming = null;
    if (!open) {
      this.hooks.renderAll();
      return;
    }
    this.confirmed.add(confirming.url);
    void this.openSource(confirming.source, confirming.state);
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
                on: { click: () => void this.hooks.applyState({ ...parseHash(""), source: { kind: "file", sha256: capture.sha256, name: capture.name } }) },
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
                      .catch((error: unknown) => showMessage("warning", "Could not forget the capture", toErrorInfo(error, "IndexedDB")));
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
}
