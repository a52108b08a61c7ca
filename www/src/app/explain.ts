// The Explain dialog: a draw replayed by the worker under every set of variants (implementation choices the spec
// allows or a known GPU makes), its table — the spec's rules, each variant alone, the best set — with the verdict
// line, and a button per row that replays the capture's draws under that set so that the difference view shows it.

import { h } from "../dom";
import type { ExplainResult } from "../protocol";
import { targetLabel } from "./page";

/** What a row's button asks: replay under these variants (empty: the spec's rules). */
export type ViewUnder = (variants: string[]) => void;

/** Whether `variants` is the set the draws replay under now. */
function isCurrent(variants: readonly string[], current: readonly string[]): boolean {
  return variants.length === current.length && variants.every((name) => current.includes(name));
}

/** The dialog's body for an explanation: the table and the verdict. `current` is the set the draws replay under. */
export function explainView(result: ExplainResult, current: readonly string[], viewUnder: ViewUnder): HTMLElement {
  const button = (variants: string[]): HTMLElement =>
    isCurrent(variants, current)
      ? h("span", { class: "muted" }, "shown")
      : h(
          "button",
          {
            class: "small",
            title: variants.length === 0 ? "Replay the draws under the spec's rules" : `Replay the draws under ${variants.join(", ")}`,
            attrs: { type: "button", "data-variants": variants.join(",") },
            on: { click: () => viewUnder(variants) },
          },
          "View",
        );
  const row = (name: string, detail: string, differing: number, ulp: number, variants: string[], best = false): HTMLElement =>
    h(
      "tr",
      { class: best ? "best" : "", attrs: { "data-testid": `explain-row-${variants.length === 0 ? "spec" : variants.join(",")}` } },
      h("td", null, h("b", null, name), h("div", { class: "muted" }, detail)),
      h("td", { class: "number" }, differing.toLocaleString("en")),
      h("td", { class: "number" }, ulp.toLocaleString("en")),
      h("td", null, button(variants)),
    );
  const rows = [
    row("the spec's rules", "no variant", result.baseline_differing_pixels, result.baseline_max_ulp, []),
    ...result.rows.map((r) => row(r.variant.name, `${r.variant.stage}: ${r.variant.description}`, r.differing_pixels, r.max_ulp, [r.variant.name])),
  ];
  if (result.best.length > 1)
    rows.push(row(`best: ${result.best.join(" + ")}`, "the variants together", result.best_differing_pixels, result.best_max_ulp, result.best, true));
  return h(
    "div",
    { class: "explain" },
    h("p", null, `Draw ${result.draw}, ${targetLabel(result.target)}, compared bit for bit.`),
    h(
      "table",
      { class: "explain-table", attrs: { "data-testid": "explain-table" } },
      h("thead", null, h("tr", null, h("th", null, "variant"), h("th", null, "differing"), h("th", null, "max ULP"), h("th", null, ""))),
      h("tbody", null, rows),
    ),
    h("p", { class: "explain-verdict", attrs: { "data-testid": "explain-verdict" } }, result.verdict),
  );
}
