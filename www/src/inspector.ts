// The pixel inspector's contents: the texel in each image, the verdict, every fragment that reached the pixel, and
// program traces with each executed instruction's values. Builders only: the app fetches, these lay out.

import { type Child, append, h } from "./dom";
import type {
  BlendResult,
  DepthResult,
  Disassembly,
  FragmentOutcome,
  FragmentRecord,
  PixelHistory,
  ProgramTrace,
  RegisterValue,
  StencilResult,
  TexelReadout,
  TexelValue,
  TraceStep,
  VertexRecord,
} from "./protocol";

/** A number for a person: integers as they are, others with 6 significant digits, NaN and infinities named. */
export function num(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  if (Number.isInteger(value)) return String(value);
  return Number(value.toPrecision(6)).toString();
}

function vector(values: number[]): string {
  return `(${values.map(num).join(", ")})`;
}

const VERDICT_LABELS: Record<string, string> = {
  matches: "matches",
  differs: "differs",
  ambiguous: "ambiguous",
  not_covered: "not covered",
  not_replayed: "not replayed",
  not_recorded: "not recorded",
};

/** A verdict as a coloured tag. */
export function verdictTag(verdict: string): HTMLElement {
  return h("span", { class: `tag verdict-${verdict}` }, VERDICT_LABELS[verdict] ?? verdict);
}

/** The texel of a target in each image, channel by channel. */
export function texelTable(readout: TexelReadout): HTMLElement {
  const columns: [string, TexelValue | null][] = [
    ["Before", readout.before],
    ["Recorded (GPU)", readout.recorded],
    ["Replayed", readout.replayed],
  ];
  const channelNames = readout.before.channels.map((channel) => channel.channel);
  const rows = channelNames.map((name, c) => {
    const difference = readout.difference[c];
    const differs = difference !== undefined && difference.difference !== 0 && !Number.isNaN(difference.difference);
    return h(
      "tr",
      { class: differs ? "differs" : "" },
      h("th", null, name.toUpperCase()),
      columns.map(([, texel]) => h("td", null, texel?.channels[c]?.text ?? "—")),
      h("td", { class: differs ? "diff" : "muted" }, difference?.text ?? "—"),
    );
  });
  return h(
    "table",
    { class: "values", attrs: { "data-testid": "texel-table" } },
    h("thead", null, h("tr", null, h("th", null, ""), columns.map(([title]) => h("th", null, title)), h("th", null, "Difference"))),
    h(
      "tbody",
      null,
      rows,
      h(
        "tr",
        { class: "hex" },
        h("th", null, "hex"),
        columns.map(([, texel]) => h("td", null, texel?.hex ?? "—")),
        h("td", null, ""),
      ),
    ),
  );
}

function registerRows(values: RegisterValue[]): HTMLElement[] {
  return values.map((value) =>
    h(
      "tr",
      null,
      h("th", null, value.register),
      h("td", { class: "muted" }, value.semantic ?? ""),
      h("td", null, value.text),
    ),
  );
}

function registerTable(title: string, values: RegisterValue[]): HTMLElement | null {
  if (values.length === 0) return null;
  return h("div", { class: "block" }, h("h4", null, title), h("table", { class: "regs" }, h("tbody", null, registerRows(values))));
}

function depthLine(depth: DepthResult): HTMLElement {
  return h(
    "div",
    { class: `line ${depth.passed ? "ok" : "bad"}` },
    `Depth ${depth.func}: fragment ${num(depth.fragment_depth)} vs stored ${num(depth.stored_depth)} → `,
    h("b", null, depth.passed ? "passed" : "failed"),
    depth.written ? ", written" : "",
  );
}

function stencilLine(stencil: StencilResult): HTMLElement {
  return h(
    "div",
    { class: `line ${stencil.passed ? "ok" : "bad"}` },
    `Stencil ${stencil.func}: ref ${stencil.reference} & ${stencil.read_mask} vs ${stencil.stored} → `,
    h("b", null, stencil.passed ? "passed" : "failed"),
    `, result ${stencil.result}`,
  );
}

function blendBlock(blend: BlendResult): HTMLElement {
  return h(
    "div",
    { class: "block" },
    h("h4", null, `Output merger → ${blend.target.toUpperCase()}`),
    h(
      "table",
      { class: "regs" },
      h(
        "tbody",
        null,
        h("tr", null, h("th", null, "blend"), h("td", null, blend.enabled ? blend.equation : "off")),
        h("tr", null, h("th", null, "source"), h("td", null, vector(blend.source))),
        h("tr", null, h("th", null, "dest"), h("td", null, vector(blend.destination))),
        h("tr", null, h("th", null, "result"), h("td", null, vector(blend.result))),
        h("tr", null, h("th", null, "stored"), h("td", null, blend.stored.channels.map((channel) => channel.text).join("  "))),
      ),
    ),
  );
}

/** Callbacks of the fragment list. */
export interface FragmentActions {
  traceFragment(fragment: FragmentRecord): void;
  traceVertex(vertex: VertexRecord): void;
}

function vertexTable(vertices: VertexRecord[], actions: FragmentActions): HTMLElement {
  const rows = vertices.flatMap((vertex) => [
    h(
      "tr",
      { class: "vertex-head" },
      h(
        "th",
        { attrs: { colspan: "3" } },
        h(
          "button",
          {
            class: "link",
            title: "Trace the vertex program for this vertex",
            attrs: { "data-vertex": String(vertex.vertex_id) },
            on: { click: () => actions.traceVertex(vertex) },
          },
          `vertex #${vertex.vertex_id}`,
        ),
        h("span", { class: "muted" }, `  window ${vector(vertex.window_position)}`),
      ),
    ),
    ...vertex.inputs.map((input) =>
      h("tr", null, h("td", { class: "muted" }, "in"), h("th", null, input.semantic ?? input.register), h("td", null, input.text)),
    ),
    ...vertex.outputs.map((output) =>
      h("tr", null, h("td", { class: "muted" }, "out"), h("th", null, output.semantic ?? output.register), h("td", null, output.text)),
    ),
  ]);
  const block = h(
    "details",
    { class: "block triangle" },
    h("summary", null, h("h4", null, `Vertices (${vertices.length}): vertex program inputs and outputs`)),
    h("table", { class: "regs vertices" }, h("tbody", null, rows)),
  );
  return block;
}

const OUTCOME_LABELS: Record<FragmentOutcome, string> = {
  written: "written",
  discarded: "discarded",
  depth_failed: "depth test failed",
  stencil_failed: "stencil test failed",
  sample_masked: "masked by sample mask",
  clipped: "removed by a clip distance",
};

/** One fragment as a collapsible card. */
/** The samples a mask of `samples` bits names, e.g. "0, 2", or "none". */
function sampleList(mask: number, samples: number): string {
  const list = Array.from({ length: samples }, (_, s) => s).filter((s) => ((mask >>> s) & 1) === 1);
  return list.length === 0 ? "none" : list.join(", ");
}

/** A multisampled fragment's samples: which its primitive covered, which its one shading wrote, and per sample the
 * depth and stencil tests, the value stored and what became of it. */
function sampleTable(fragment: FragmentRecord, samples: number, inspected: number): HTMLElement {
  const rows = fragment.samples.map((record) =>
    h(
      "tr",
      { class: record.sample === inspected ? "inspected" : "", attrs: { "data-sample": String(record.sample) } },
      h("th", null, `#${record.sample}`),
      h(
        "td",
        null,
        record.depth === null
          ? "—"
          : `${record.depth.func} ${num(record.depth.fragment_depth)} vs ${num(record.depth.stored_depth)} ${record.depth.passed ? "passed" : "failed"}`,
      ),
      h(
        "td",
        null,
        record.stencil === null ? "—" : `${record.stencil.func} ${record.stencil.stored} → ${record.stencil.passed ? "passed" : "failed"}, ${record.stencil.result}`,
      ),
      h("td", null, record.stored.length === 0 ? "—" : record.stored.map((texel) => texel.hex).join(" ")),
      h("td", null, OUTCOME_LABELS[record.outcome] ?? record.outcome),
    ),
  );
  return h(
    "div",
    { class: "samples", attrs: { "data-testid": "fragment-samples" } },
    h(
      "div",
      { class: "line" },
      `Samples covered: ${sampleList(fragment.covered_samples, samples)} · written: ${sampleList(fragment.written_samples, samples)}`,
    ),
    rows.length === 0
      ? null
      : h(
          "table",
          { class: "registers" },
          h("thead", null, h("tr", null, h("th", null, "sample"), h("th", null, "depth"), h("th", null, "stencil"), h("th", null, "stored"), h("th", null, "outcome"))),
          h("tbody", null, rows),
        ),
  );
}

function fragmentCard(fragment: FragmentRecord, open: boolean, actions: FragmentActions, history: PixelHistory): HTMLElement {
  const details = h("details", { class: `fragment outcome-${fragment.outcome}`, attrs: { "data-fragment": String(fragment.order) } });
  details.open = open;
  const summary = h(
    "summary",
    null,
    h("span", { class: "fragment-order" }, `#${fragment.order}`),
    ` primitive ${fragment.primitive_id}`,
    fragment.instance_id !== 0 ? ` · instance ${fragment.instance_id}` : "",
    ` · ${fragment.front_facing ? "front" : "back"}`,
    h("span", { class: `tag outcome outcome-${fragment.outcome}` }, OUTCOME_LABELS[fragment.outcome] ?? fragment.outcome),
  );
  const children: Child[] = [
    summary,
    vertexTable(fragment.vertices, actions),
    h("div", { class: "line muted" }, `barycentrics ${vector(fragment.barycentrics)}`),
    registerTable("Pixel program inputs", fragment.pixel_inputs),
    fragment.discarded ? h("div", { class: "line bad" }, "The pixel program discarded this fragment.") : null,
    registerTable("Pixel program outputs", fragment.pixel_outputs),
    fragment.depth === null ? null : depthLine(fragment.depth),
    fragment.stencil === null ? null : stencilLine(fragment.stencil),
    ...fragment.blend.map(blendBlock),
    history.samples > 1 ? sampleTable(fragment, history.samples, history.sample) : null,
    fragment.pixel_inputs.length > 0
      ? h(
          "button",
          { class: "small trace-button", on: { click: () => actions.traceFragment(fragment) } },
          "Trace pixel program",
        )
      : null,
  ];
  append(details, children);
  return details;
}

/** The fragment that decided the pixel: the last written one, or else the last. */
export function decidingFragment(history: PixelHistory): FragmentRecord | null {
  const written = history.fragments.filter((fragment) => fragment.outcome === "written");
  return written[written.length - 1] ?? history.fragments[history.fragments.length - 1] ?? null;
}

/** The verdict line and the fragment list. */
export function historyView(history: PixelHistory, actions: FragmentActions): HTMLElement {
  const deciding = decidingFragment(history);
  return h(
    "div",
    { class: "history" },
    h(
      "div",
      { class: `verdict verdict-${history.verdict}`, attrs: { "data-testid": "verdict" } },
      verdictTag(history.verdict),
      history.samples > 1 ? ` sample ${history.sample} of ${history.samples}: ` : " ",
      history.verdict_text,
    ),
    history.explained_by !== null
      ? h("div", { class: "explained-by", attrs: { "data-testid": "explained-by" } }, history.explained_by)
      : null,
    h("h3", null, `Fragments (${history.fragments.length})`),
    history.fragments.length === 0
      ? h("p", { class: "muted" }, "No fragment of this draw reached the pixel.")
      : h("div", { class: "fragments", attrs: { "data-testid": "fragments" } }, history.fragments.map((fragment) => fragmentCard(fragment, fragment === deciding, actions, history))),
  );
}

function writesText(step: TraceStep): string {
  return step.writes.map((write) => `${write.register} = ${write.text}`).join("; ");
}

/** How many of one line's first executions, and of its last, a trace shows around "N more" (a loop's first and last
 * iterations). */
const EXECUTIONS_SHOWN = 3;

/** One line's executions as the trace shows them: the first and the last few, with how many lie between. */
export function shownExecutions<T>(steps: readonly T[]): { first: T[]; hidden: number; last: T[] } {
  if (steps.length <= 2 * EXECUTIONS_SHOWN) return { first: [...steps], hidden: 0, last: [] };
  return { first: steps.slice(0, EXECUTIONS_SHOWN), hidden: steps.length - 2 * EXECUTIONS_SHOWN, last: steps.slice(-EXECUTIONS_SHOWN) };
}

/** A program's disassembly alone. */
export function listingView(title: string, disassembly: Disassembly): HTMLElement {
  return traceView(title, { disassembly, steps: [], omitted: null }, false);
}

/** A program's disassembly with, beside each executed instruction, the values it wrote. */
export function traceView(title: string, trace: ProgramTrace, traced = true): HTMLElement {
  const byLine = new Map<number, TraceStep[]>();
  for (const step of trace.steps) {
    const steps = byLine.get(step.line) ?? [];
    steps.push(step);
    byLine.set(step.line, steps);
  }
  const lines = trace.disassembly.lines.map((line) => {
    const steps = byLine.get(line.index) ?? [];
    const executed = steps.length > 0;
    const reads = steps[steps.length - 1]?.reads ?? [];
    return h(
      "div",
      {
        class: `asm-line${executed ? " executed" : ""}${line.declaration ? " declaration" : ""}`,
        title: reads.length > 0 ? `reads ${reads.map((read) => `${read.register} = ${read.text}`).join("; ")}` : "",
      },
      h("span", { class: "asm-index" }, String(line.index)),
      h("span", { class: "asm-text", attrs: { style: `padding-left: ${line.indent * 2}ch` } }, line.text),
      h(
        "span",
        { class: "asm-values" },
        ((): HTMLElement[] => {
          const shown = shownExecutions(steps);
          const row = (step: TraceStep): HTMLElement => h("div", null, steps.length > 1 ? `[${step.step}] ` : "", writesText(step));
          return [
            ...shown.first.map(row),
            ...(shown.hidden > 0 ? [h("div", { class: "muted" }, `… ${shown.hidden} more executions …`)] : []),
            ...shown.last.map(row),
          ];
        })(),
      ),
    );
  });
  const program = trace.disassembly.program;
  return h(
    "div",
    { class: traced ? "trace" : "trace listing", attrs: { "data-testid": traced ? "trace" : "listing" } },
    h(
      "h3",
      null,
      title,
      " ",
      h("span", { class: "muted" }, `${program.model} · ${program.sha256.slice(0, 12)}${traced ? ` · ${trace.steps.length} steps` : ""}`),
    ),
    trace.omitted !== null
      ? h(
          "p",
          { class: "muted", attrs: { "data-testid": "trace-omitted" } },
          `${trace.omitted.count.toLocaleString("en")} steps in the middle were not kept (the trace's limit): the first ${trace.omitted.after.toLocaleString("en")} and the last ${(trace.steps.length - trace.omitted.after).toLocaleString("en")} are shown.`,
        )
      : null,
    h("div", { class: "asm" }, lines),
  );
}
