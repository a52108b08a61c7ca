// The pixel inspector: before a pixel is picked, the draw's call, programs (with their listings) and targets; for a
// picked pixel, its texel in every image, the fragments that reached it, the deciding fragment's pixel-program trace
// and, on request, a vertex's trace. Also the search for the next differing pixel.

import type { BackendClient } from "../client";
import { byId, h, replace } from "../dom";
import { decidingFragment, historyView, listingView, texelTable, traceView, verdictTag } from "../inspector";
import {
  type DispatchElement,
  type DispatchThread,
  type FragmentRecord,
  type PixelCoord,
  type Stage,
  type TexelValue,
  type VertexRecord,
  formatError,
  toErrorInfo,
} from "../protocol";
import type { Generation, GenerationToken } from "./generation";
import { inlineError, showMessage, targetLabel } from "./page";
import { type ViewerState, planePixel } from "./state";
import type { Views } from "./views";

/** The inspector panel. */
export class InspectorPanel {
  private readonly panel = byId("inspector", HTMLDivElement);
  /** A newly picked pixel makes the answers for the one before stale, and so does a new capture or draw. */
  private readonly pixels: Generation;

  constructor(
    private readonly client: BackendClient,
    private readonly state: ViewerState,
    private readonly views: Views,
    private readonly updateHash: () => void,
    private readonly editProgram: (stage: "vs" | "ps") => void,
  ) {
    this.pixels = state.navigation.child();
  }

  /** Picks a pixel of the current target and explains it; `centre` brings it to the middle of the panes. */
  async selectPixel(pixel: PixelCoord, centre: boolean): Promise<void> {
    const capture = this.state.capture;
    const draw = this.state.drawIndex;
    const info = this.state.currentTarget();
    if (capture === null || draw === null || info === null) return;
    if (pixel.x >= info.width || pixel.y >= info.height) {
      showMessage("warning", `(${pixel.x}, ${pixel.y}) is outside the ${info.width}×${info.height} target`);
      return;
    }
    const request = this.pixels.next();
    this.state.pixel = pixel;
    this.views.setSelected(pixel);
    if (centre) this.views.centreOn(pixel);
    this.updateHash();
    // a multisampled target's pixel is a sample of a pixel of one of its stacked planes
    const at = planePixel(info, pixel);
    const place = info.samples > 1 ? `(${at.x}, ${at.y}) sample ${at.sample}` : `(${pixel.x}, ${pixel.y})`;
    byId("inspector-title", HTMLSpanElement).textContent = `${place} · ${targetLabel(info.target)} ${info.format}`;
    const values = h("div", { class: "section", attrs: { "data-testid": "texel-values" } }, h("p", { class: "muted" }, "Reading…"));
    const historySection = h("div", { class: "section", attrs: { "data-testid": "history" } });
    const traceSection = h("div", { class: "section", attrs: { "data-testid": "pixel-trace" } });
    const vertexSection = h("div", { class: "section", attrs: { "data-testid": "vertex-trace" } });
    replace(this.panel, values, historySection, traceSection, vertexSection);
    const base = { capture: capture.summary.capture, draw, target: info.target, x: pixel.x, y: pixel.y };
    try {
      const readout = await this.client.request({ kind: "read_texels", ...base });
      if (!request.current) return;
      replace(values, h("h3", null, "Values ", verdictTag(readout.verdict)), texelTable(readout));
    } catch (error: unknown) {
      if (!request.current) return;
      replace(values, inlineError("Could not read the texel", error));
    }
    if (this.state.replayError !== null) {
      replace(historySection, h("p", { class: "muted" }, `No fragment history: ${formatError(this.state.replayError)}`));
      return;
    }
    try {
      const history = await this.client.request({ kind: "inspect_pixel", ...base, y: at.y, sample: at.sample });
      if (!request.current) return;
      const actions = {
        traceFragment: (fragment: FragmentRecord) => void this.traceFragment(request, traceSection, fragment),
        traceVertex: (vertex: VertexRecord) => void this.traceVertex(request, vertexSection, vertex),
      };
      replace(historySection, historyView(history, actions));
      const deciding = decidingFragment(history);
      if (deciding !== null && deciding.pixel_inputs.length > 0) await this.traceFragment(request, traceSection, deciding);
    } catch (error: unknown) {
      if (!request.current) return;
      replace(historySection, inlineError("Could not inspect the pixel", error));
    }
  }

  /** Picks an element of the picked dispatch's view and shows the threads that wrote it, with their traces. */
  async selectElement(pixel: PixelCoord): Promise<void> {
    const capture = this.state.capture;
    const dispatch = this.state.dispatchIndex;
    const view = this.state.currentDispatchView();
    if (capture === null || dispatch === null || view === null) return;
    if (pixel.x >= view.width || pixel.y >= view.height) return;
    const request = this.pixels.next();
    this.state.pixel = pixel;
    this.views.setSelected(pixel);
    byId("inspector-title", HTMLSpanElement).textContent = `(${pixel.x}, ${pixel.y}) · u${view.slot} ${view.format}`;
    const section = h("div", { class: "section", attrs: { "data-testid": "dispatch-element" } }, h("p", { class: "muted" }, "Running the dispatch with the element watched…"));
    replace(this.panel, section);
    try {
      const element = await this.client.request({
        kind: "inspect_dispatch_element",
        capture: capture.summary.capture,
        dispatch,
        slot: view.slot,
        x: pixel.x,
        y: pixel.y,
      });
      if (!request.current) return;
      replace(section, ...elementView(element));
    } catch (error: unknown) {
      if (!request.current) return;
      replace(section, inlineError("Could not inspect the element", error));
    }
  }

  /** Shows who took or gave back slots of the hidden counter of the picked dispatch's view u`slot`, in order. */
  async selectCounter(slot: number): Promise<void> {
    const capture = this.state.capture;
    const dispatch = this.state.dispatchIndex;
    if (capture === null || dispatch === null) return;
    const request = this.pixels.next();
    byId("inspector-title", HTMLSpanElement).textContent = `u${slot} counter`;
    const section = h("div", { class: "section", attrs: { "data-testid": "dispatch-element" } }, h("p", { class: "muted" }, "Running the dispatch with the counter watched…"));
    replace(this.panel, section);
    try {
      const element = await this.client.request({ kind: "inspect_dispatch_counter", capture: capture.summary.capture, dispatch, slot });
      if (!request.current) return;
      replace(section, ...elementView(element));
    } catch (error: unknown) {
      if (!request.current) return;
      replace(section, inlineError("Could not inspect the counter", error));
    }
  }

  /** The inspector for a picked dispatch before an element is: its groups, threads and views. */
  renderDispatch(): void {
    byId("inspector-title", HTMLSpanElement).textContent = "";
    const index = this.state.dispatchIndex;
    const entry = this.state.capture?.summary.dispatches.find((dispatch) => dispatch.index === index);
    const result = this.state.dispatch;
    replace(
      this.panel,
      h("p", { class: "muted hint" }, "Click an element of the view to see the threads that wrote it, in the order the replay ran them, and their traces."),
      h("h3", null, `Dispatch ${index ?? ""}: ${entry?.label ?? ""}`),
      result === null
        ? h("p", { class: "muted" }, this.state.dispatchError !== null ? formatError(this.state.dispatchError) : "Replaying…")
        : h(
            "table",
            { class: "regs draw-facts" },
            h(
              "tbody",
              null,
              h("tr", null, h("th", null, "groups"), h("td", null, `${result.groups.join(" × ")} · ${result.threads} threads`)),
              result.views.map((view) =>
                h(
                  "tr",
                  null,
                  h("th", null, `u${view.slot}`),
                  h("td", null, `${view.layout}${view.recorded ? ` · ${view.differing} of ${view.compared} ${view.unit}s differ` : " · not recorded"}`),
                ),
              ),
            ),
          ),
      h(
        "div",
        { class: "buttons" },
        (result?.views ?? [])
          .filter((view) => view.replayed_counter !== null)
          .map((view) =>
            h(
              "button",
              { class: "small", attrs: { type: "button", "data-counter": String(view.slot) }, on: { click: () => void this.selectCounter(view.slot) } },
              `u${view.slot} counter: who took slots`,
            ),
          ),
      ),
    );
  }

  private async traceFragment(request: GenerationToken, section: HTMLElement, fragment: FragmentRecord): Promise<void> {
    const capture = this.state.capture;
    const pixel = this.state.pixel;
    const draw = this.state.drawIndex;
    const info = this.state.currentTarget();
    if (capture === null || draw === null || pixel === null || info === null) return;
    const at = planePixel(info, pixel);
    replace(section, h("p", { class: "muted" }, "Tracing…"));
    try {
      const trace = await this.client.request({
        kind: "trace_pixel",
        capture: capture.summary.capture,
        draw,
        x: at.x,
        y: at.y,
        fragment: fragment.order,
      });
      if (!request.current) return;
      replace(section, traceView(`Pixel program · fragment #${fragment.order}`, trace));
    } catch (error: unknown) {
      if (!request.current) return;
      replace(section, inlineError("Could not trace the pixel program", error));
    }
  }

  private async traceVertex(request: GenerationToken, section: HTMLElement, vertex: VertexRecord): Promise<void> {
    const capture = this.state.capture;
    const draw = this.state.drawIndex;
    if (capture === null || draw === null) return;
    replace(section, h("p", { class: "muted" }, "Tracing…"));
    try {
      const trace = await this.client.request({
        kind: "trace_vertex",
        capture: capture.summary.capture,
        draw,
        vertex_id: vertex.vertex_id,
        instance_id: vertex.instance_id,
      });
      if (!request.current) return;
      replace(section, traceView(`Vertex program · vertex #${vertex.vertex_id}`, trace));
      section.scrollIntoView({ block: "nearest" });
    } catch (error: unknown) {
      if (!request.current) return;
      replace(section, inlineError("Could not trace the vertex program", error));
    }
  }

  /** Picks the next (or previous) differing pixel of the current target, in row order, wrapping. */
  async nextDifference(backwards: boolean): Promise<void> {
    const capture = this.state.capture;
    const info = this.state.currentTarget();
    const draw = this.state.drawIndex;
    if (capture === null || draw === null || info === null || this.state.replayError !== null) return;
    const from = this.state.pixel ?? (backwards ? { x: 0, y: 0 } : { x: info.width - 1, y: info.height - 1 });
    try {
      const found = await this.client.request({
        kind: "find_difference",
        capture: capture.summary.capture,
        draw,
        target: info.target,
        x: from.x,
        y: from.y,
        backwards,
      });
      if (found === null) showMessage("info", `No pixel of ${targetLabel(info.target)} differs.`);
      else await this.selectPixel(found, true);
    } catch (error: unknown) {
      showMessage("error", "Could not look for a difference", toErrorInfo(error, "compare"));
    }
  }

  /** The inspector before a pixel is picked: the draw's call, programs (with their listings) and targets. */
  renderEmpty(): void {
    byId("inspector-title", HTMLSpanElement).textContent = "";
    const draw = this.state.currentDraw();
    if (draw === null) {
      replace(this.panel, h("p", { class: "muted hint" }, "Pick a draw, then click a pixel to see why it has its value."));
      return;
    }
    const listing = h("div", { class: "section", attrs: { "data-testid": "program-listing" } });
    const programs = [draw.vs, draw.ps].filter((program) => program !== null);
    replace(
      this.panel,
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
        programs.some((program) => program.stage === "ps" || program.stage === "vs")
          ? h(
              "button",
              {
                class: "small",
                title: "Edit the draw's program as a listing and run the draw with it",
                attrs: { type: "button", "data-testid": "edit-program" },
                on: { click: () => this.editProgram(programs.some((program) => program.stage === "ps") ? "ps" : "vs") },
              },
              "Edit program…",
            )
          : [],
      ),
      listing,
    );
  }

  private async showProgram(stage: Stage, section: HTMLElement): Promise<void> {
    const capture = this.state.capture;
    const draw = this.state.drawIndex;
    if (capture === null || draw === null) return;
    const navigation = this.state.navigation.token();
    replace(section, h("p", { class: "muted" }, "Disassembling…"));
    try {
      const listing = await this.client.request({ kind: "disassemble", capture: capture.summary.capture, draw, stage });
      if (!navigation.current) return;
      replace(section, listingView(stage === "vs" ? "Vertex program" : "Pixel program", listing));
    } catch (error: unknown) {
      if (!navigation.current) return;
      replace(section, inlineError("Could not disassemble the program", error));
    }
  }
}

/** A thread as "group (x, y, z) thread (x, y, z)". */
function threadText(thread: DispatchThread): string {
  return `group (${thread.group.join(", ")}) thread (${thread.thread_in_group.join(", ")})`;
}

/** A value's channels for a person, and its bytes. */
function valueText(value: TexelValue): string {
  return `${value.channels.map((channel) => `${channel.channel.toUpperCase()} ${channel.text}`).join(", ")} (${value.hex})`;
}

/** An inspected element: its values, its writes in order, and each traced writer's trace. */
function elementView(element: DispatchElement): HTMLElement[] {
  const verdict = element.matches === null ? "not recorded" : element.matches ? "matches" : "differs";
  const values = h(
    "table",
    { class: "regs" },
    h(
      "tbody",
      null,
      h("tr", null, h("th", null, "before"), h("td", null, valueText(element.before))),
      h("tr", null, h("th", null, "recorded"), h("td", null, element.recorded === null ? "—" : valueText(element.recorded))),
      h("tr", { class: element.matches === false ? "differs" : "" }, h("th", null, "replayed"), h("td", null, valueText(element.replayed))),
    ),
  );
  const notes = [
    element.order_dependent
      ? h(
          "p",
          { class: "warning", attrs: { "data-testid": "order-dependent" } },
          element.counter
            ? "Which thread took which slot depends on the order the threads ran in (18.6.6): threads the spec does not order used the counter."
            : "Its value depends on the order the threads ran in (18.6.6): threads the spec does not order wrote different values, and the GPU may have run another order.",
        )
      : null,
    element.counter_unordered && !element.counter ? h("p", { class: "muted" }, "Threads the spec does not order took slots of this view's counter: where each one's writes land depends on their order.") : null,
  ];
  const writes = h(
    "table",
    { class: "element-writes", attrs: { "data-testid": "element-writes" } },
    h("thead", null, h("tr", null, h("th", null, "#"), h("th", { title: "SV_GroupID and SV_GroupThreadID" }, "group, thread"), h("th", null, "instruction"), h("th", null, "operation"), h("th", null, "before → after"))),
    h(
      "tbody",
      null,
      element.writes.map((write, i) =>
        h(
          "tr",
          { attrs: { "data-testid": "element-write" } },
          h("td", null, String(i)),
          h("td", { class: "thread", title: threadText(write.thread) }, `(${write.thread.group.join(",")}) (${write.thread.thread_in_group.join(",")})`),
          h("td", { class: "line", title: write.line }, `${write.instruction}: ${write.line}`),
          h("td", null, write.operation),
          h("td", null, `${write.before.hex} → ${write.after.hex}`),
        ),
      ),
    ),
  );
  const traces = element.traces.map((traced, i) =>
    h(
      "details",
      { class: "writer-trace", attrs: { "data-testid": "writer-trace", ...(i === element.traces.length - 1 ? { open: "" } : {}) } },
      h("summary", null, `Trace of ${threadText(traced.thread)} (SV_DispatchThreadID ${traced.thread.thread.join(", ")})`),
      traceView(`Compute program · ${threadText(traced.thread)}`, traced.trace),
    ),
  );
  const nodes: (HTMLElement | null)[] = [
    h("h3", null, `u${element.slot} ${element.element} `, verdictTag(element.matches === null ? "not_recorded" : element.matches ? "matches" : "differs")),
    h("p", { class: "muted" }, element.counter ? `the counter's value · ${verdict}` : `bytes ${element.byte_offset}.. of the window, read as ${element.format} · ${verdict}`),
    values,
    ...notes.filter((note) => note !== null),
    h(
      "h3",
      { attrs: { "data-testid": "element-writes-heading" } },
      `${element.writes.length} write(s) by ${element.writers} thread(s)`,
      element.writes_not_kept > 0 ? ` and ${element.writes_not_kept} more not kept` : "",
    ),
    element.writes.length === 0 ? h("p", { class: "muted" }, "No thread wrote this element in the replay.") : writes,
    ...traces,
    element.writers_not_traced > 0 ? h("p", { class: "muted" }, `${element.writers_not_traced} more writer(s) not traced: at most 16 are (the last traced writer's trace is open).`) : null,
  ];
  return nodes.filter((node): node is HTMLElement => node !== null);
}
