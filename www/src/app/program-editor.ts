// The program editor: a draw's vertex or pixel program as its listing (fxc's syntax, as `iridia disasm` prints it),
// edited in place, assembled in the worker (an error names its line and the editor selects it), and the draw run
// again with it, its difference set against the one with the recorded program. Edits are kept in this browser's
// storage with the capture (by its URL or content hash) and put back when the capture is opened again; a link names
// the edited draws and stages (`edited=3.ps`).

import type { BackendClient } from "../client";
import { h, replace } from "../dom";
import { type DrawStatus, type EditStage, type ProgramEditResult, toErrorInfo, formatError } from "../protocol";
import type { CaptureSource } from "../url-state";
import { showMessage } from "./page";
import type { ViewerState } from "./state";

/** The storage key of an edit: the capture, the draw and the stage. */
function storageKey(source: CaptureSource, draw: number, stage: EditStage): string {
  const capture = source.kind === "url" ? `url:${source.url}` : `file:${source.sha256}`;
  return `iridia-edit:${capture}:${draw}:${stage}`;
}

/** The stored edits of a capture, as (draw, stage, listing). */
export function storedEdits(source: CaptureSource): { draw: number; stage: EditStage; listing: string }[] {
  const prefix = storageKey(source, 0, "vs").replace(/0:vs$/, "");
  const edits: { draw: number; stage: EditStage; listing: string }[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key === null || !key.startsWith(prefix)) continue;
      const match = /^(\d{1,9}):(vs|ps)$/.exec(key.slice(prefix.length));
      const listing = localStorage.getItem(key);
      if (match === null || listing === null) continue;
      edits.push({ draw: Number(match[1]), stage: match[2] === "vs" ? "vs" : "ps", listing });
    }
  } catch {
    // storage refused (private mode): no edits kept
  }
  return edits;
}

/** A draw status in words, for the editor's comparison line. */
function statusWords(status: DrawStatus): string {
  switch (status.state) {
    case "matches":
      return status.compared_pixels === 0 ? "nothing recorded to compare" : `matches (${status.compared_pixels} px compared)`;
    case "differs":
      return `${status.differing_pixels} px differ of ${status.compared_pixels}`;
    case "error":
      return `error: ${formatError(status.error)}`;
    case "not_replayed":
      return "not replayed";
  }
}

/** What the editor asks of the page. */
export interface EditorHost {
  /** Runs draw `index` again (its replay was dropped by the edit) and shows it; gives its new status. */
  rerun(index: number): Promise<DrawStatus | null>;
  /** The link changed (edits are named in it). */
  updateHash(): void;
}

/** The editor overlay. */
export class ProgramEditor {
  private readonly overlay: HTMLDivElement;
  private readonly text: HTMLTextAreaElement;
  private readonly stageSelect: HTMLSelectElement;
  private readonly result: HTMLDivElement;
  private readonly title: HTMLHeadingElement;
  private draw: number | null = null;
  /** Each draw's edited stages, for the link. */
  private readonly edited = new Map<number, Set<EditStage>>();

  constructor(
    private readonly client: BackendClient,
    private readonly state: ViewerState,
    private readonly host: EditorHost,
  ) {
    this.text = h("textarea", {
      class: "program-text",
      attrs: { spellcheck: "false", "aria-label": "Program listing", "data-testid": "program-text", rows: "28", cols: "100" },
      on: {
        keydown: (event: Event) => {
          if (!(event instanceof KeyboardEvent)) return;
          event.stopPropagation();
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void this.run();
          }
          if (event.key === "Escape") this.close();
        },
      },
    });
    this.stageSelect = h(
      "select",
      { attrs: { "aria-label": "Program", "data-testid": "program-stage" }, on: { change: () => void this.load() } },
      h("option", { attrs: { value: "ps" } }, "Pixel program"),
      h("option", { attrs: { value: "vs" } }, "Vertex program"),
    );
    this.result = h("div", { class: "program-result", attrs: { "data-testid": "program-result", role: "status" } });
    this.title = h("h2", null, "Edit program");
    this.overlay = h(
      "div",
      { class: "overlay", attrs: { id: "editor-overlay", hidden: "" } },
      h(
        "div",
        { class: "dialog editor-dialog", attrs: { role: "dialog", "aria-label": "Edit program" } },
        this.title,
        h(
          "p",
          { class: "muted" },
          "The program as a listing (fxc's syntax). Run assembles it and replays the draw with it (Ctrl+Enter); Revert goes back to the recorded program. The edit is kept in this browser with the capture.",
        ),
        h("div", { class: "buttons" }, this.stageSelect),
        this.text,
        this.result,
        h(
          "div",
          { class: "buttons" },
          h("button", { attrs: { type: "button", "data-testid": "program-run" }, on: { click: () => void this.run() } }, "Run"),
          h("button", { attrs: { type: "button", "data-testid": "program-revert" }, on: { click: () => void this.revert() } }, "Revert"),
          h("button", { attrs: { type: "button" }, on: { click: () => this.close() } }, "Close"),
        ),
      ),
    );
    document.body.append(this.overlay);
  }

  /** Opens the editor on draw `draw`'s `stage` program. */
  async open(draw: number, stage: EditStage): Promise<void> {
    this.draw = draw;
    this.stageSelect.value = stage;
    this.overlay.hidden = false;
    await this.load();
    this.text.focus();
  }

  close(): void {
    this.overlay.hidden = true;
  }

  private stage(): EditStage {
    return this.stageSelect.value === "vs" ? "vs" : "ps";
  }

  /** Fills the text with the draw's program (its edit, if it has one). */
  private async load(): Promise<void> {
    const capture = this.state.capture;
    const draw = this.draw;
    if (capture === null || draw === null) return;
    this.title.textContent = `Edit draw ${draw}'s ${this.stage() === "vs" ? "vertex" : "pixel"} program`;
    replace(this.result, []);
    try {
      this.text.value = await this.client.request({ kind: "program_listing", capture: capture.summary.capture, draw, stage: this.stage() });
    } catch (error: unknown) {
      this.text.value = "";
      replace(this.result, h("p", { class: "inline-error" }, `Could not read the program: ${formatError(toErrorInfo(error, "program"))}`));
    }
  }

  /** Assembles the text and, if it assembles, replays the draw with it. */
  private async run(): Promise<void> {
    const capture = this.state.capture;
    const draw = this.draw;
    if (capture === null || draw === null) return;
    const stage = this.stage();
    const listing = this.text.value;
    replace(this.result, h("p", { class: "muted" }, "Assembling…"));
    let answer: ProgramEditResult;
    try {
      answer = await this.client.request({ kind: "edit_program", capture: capture.summary.capture, draw, stage, listing });
    } catch (error: unknown) {
      replace(this.result, h("p", { class: "inline-error" }, formatError(toErrorInfo(error, "edit"))));
      return;
    }
    if (!answer.accepted) {
      const line = answer.line;
      replace(this.result, h("p", { class: "inline-error", attrs: { "data-testid": "program-error" } }, answer.error ?? "the listing does not assemble"));
      if (line !== null) this.selectLine(line);
      return;
    }
    try {
      localStorage.setItem(storageKey(capture.source, draw, stage), listing);
    } catch {
      showMessage("warning", "The edit could not be kept in this browser's storage; it lasts until the page closes");
    }
    this.mark(draw, stage, true);
    replace(this.result, h("p", { class: "muted" }, "Replaying with the edit…"));
    const status = await this.host.rerun(draw);
    const changes = await this.client.request({ kind: "edit_changes", capture: capture.summary.capture, draw }).catch(() => []);
    this.showComparison(status, answer.original);
    if (changes.length > 0)
      this.result.append(
        h(
          "p",
          { attrs: { "data-testid": "program-changes" } },
          `Against the replay with the recorded program, the edit changed ${changes.map((change) => `${change.changed_texels} of ${change.texels} texels of ${change.target.toUpperCase()}`).join(", ")}`,
        ),
      );
  }

  /** Goes back to the recorded program. */
  private async revert(): Promise<void> {
    const capture = this.state.capture;
    const draw = this.draw;
    if (capture === null || draw === null) return;
    const stage = this.stage();
    try {
      await this.client.request({ kind: "clear_program_edit", capture: capture.summary.capture, draw, stage });
    } catch (error: unknown) {
      replace(this.result, h("p", { class: "inline-error" }, formatError(toErrorInfo(error, "edit"))));
      return;
    }
    try {
      localStorage.removeItem(storageKey(capture.source, draw, stage));
    } catch {
      // nothing kept
    }
    this.mark(draw, stage, false);
    await this.load();
    const status = await this.host.rerun(draw);
    replace(this.result, h("p", { class: "muted" }, status === null ? "Reverted." : `Reverted: as recorded, ${statusWords(status)}.`));
  }

  private showComparison(edited: DrawStatus | null, original: DrawStatus | null): void {
    replace(
      this.result,
      h("p", { attrs: { "data-testid": "program-comparison" } }, `With the edit: ${edited === null ? "not replayed" : statusWords(edited)}`),
      h("p", { class: "muted" }, `With the recorded program: ${original === null ? "not replayed before the edit" : statusWords(original)}`),
    );
  }

  /** Selects line `line` (from 1) of the text. */
  private selectLine(line: number): void {
    const lines = this.text.value.split("\n");
    const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
    const end = start + (lines[line - 1]?.length ?? 0);
    this.text.focus();
    this.text.setSelectionRange(start, end);
  }

  private mark(draw: number, stage: EditStage, on: boolean): void {
    const stages = this.edited.get(draw) ?? new Set<EditStage>();
    if (on) stages.add(stage);
    else stages.delete(stage);
    if (stages.size === 0) this.edited.delete(draw);
    else this.edited.set(draw, stages);
    this.state.edited = this.linkValue() === "" ? [] : this.linkValue().split(",");
    this.host.updateHash();
  }

  /** The edited draws and stages for the link: `3.ps,5.vs`. */
  linkValue(): string {
    return [...this.edited.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([draw, stages]) => [...stages].sort().map((stage) => `${draw}.${stage}`))
      .join(",");
  }

  /** Puts a newly opened capture's stored edits back into the worker; `named` are the edits a link names (a
   * named edit this browser does not hold is reported). */
  async restore(named: readonly string[]): Promise<void> {
    this.edited.clear();
    this.state.edited = [];
    const capture = this.state.capture;
    if (capture === null) return;
    const held = new Set<string>();
    for (const edit of storedEdits(capture.source)) {
      if (edit.draw >= this.state.draws.length) continue;
      const answer = await this.client
        .request({ kind: "edit_program", capture: capture.summary.capture, draw: edit.draw, stage: edit.stage, listing: edit.listing })
        .catch(() => null);
      if (answer?.accepted === true) {
        this.mark(edit.draw, edit.stage, true);
        held.add(`${edit.draw}.${edit.stage}`);
        const draw = this.state.draws[edit.draw];
        if (draw !== undefined) draw.status = { state: "not_replayed" };
      }
    }
    const missing = named.filter((name) => !held.has(name));
    if (missing.length > 0)
      showMessage("warning", `The link names edited programs this browser does not hold (${missing.join(", ")}): the recorded programs run`);
  }
}
