// The page's shared services: messages under the top bar, inline errors, the progress bar of the one long request
// running at a time (opening, replaying), which Esc cancels, and the formatting helpers several controllers use.

import { byId, h } from "../dom";
import { BackendError, type ErrorInfo, type Progress, type TargetId, formatError, toErrorInfo } from "../protocol";

/** Shows a message under the top bar until dismissed (at most five at once). */
export function showMessage(kind: "error" | "warning" | "info", text: string, error?: ErrorInfo): void {
  const messages = byId("messages", HTMLDivElement);
  const message = h(
    "div",
    { class: `message message-${kind}`, attrs: { "data-testid": `message-${kind}`, role: kind === "error" ? "alert" : "status" } },
    h("span", null, h("b", null, text), error !== undefined ? h("span", { class: "message-detail" }, ` — ${formatError(error)}`) : null),
    h("button", { class: "small close", title: "Dismiss", on: { click: () => message.remove() } }, "×"),
  );
  messages.append(message);
  while (messages.children.length > 5) messages.firstElementChild?.remove();
}

/** An error shown in place of what could not be had, in the inspector. */
export function inlineError(title: string, error: unknown): HTMLElement {
  return h("div", { class: "inline-error" }, h("b", null, `${title}: `), formatError(toErrorInfo(error instanceof BackendError ? error.info : error)));
}

/** The long request running now, with the progress bar; starting one cancels the one before. */
export class JobBar {
  private job: AbortController | null = null;

  begin(label: string): AbortController {
    this.job?.abort();
    const job = new AbortController();
    this.job = job;
    byId("progress", HTMLDivElement).hidden = false;
    byId("progress-text", HTMLSpanElement).textContent = label;
    byId("progress-fill", HTMLDivElement).style.width = "0%";
    byId("progress", HTMLDivElement).dataset["label"] = label;
    return job;
  }

  show(progress: Progress): void {
    const fraction = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
    byId("progress-fill", HTMLDivElement).style.width = `${(fraction * 100).toFixed(1)}%`;
    const label = byId("progress", HTMLDivElement).dataset["label"] ?? "";
    const amount = progress.stage === "downloading" ? `${bytesText(progress.done)} of ${bytesText(progress.total)}` : `${progress.done} / ${progress.total}`;
    byId("progress-text", HTMLSpanElement).textContent = `${label}: ${progress.stage} ${amount}`;
  }

  end(job: AbortController): void {
    if (this.job !== job) return;
    this.job = null;
    byId("progress", HTMLDivElement).hidden = true;
  }

  /** Cancels the running request; false when none runs. */
  cancel(): boolean {
    if (this.job === null) return false;
    this.job.abort();
    return true;
  }

  /** Cancels the running request, if any, without saying whether one ran. */
  abort(): void {
    this.job?.abort();
  }
}

export function bytesText(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  if (size < 1024 * 1024 * 1024) return `${(size / 1024 / 1024).toFixed(1)} MiB`;
  return `${(size / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

export function targetLabel(target: TargetId): string {
  return target.startsWith("rt") ? target.toUpperCase() : target === "depth" ? "Depth" : "Stencil";
}
