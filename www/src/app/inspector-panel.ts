// The pixel inspector: before a pixel is picked, the draw's call, programs (with their listings) and targets; for a
// picked pixel, its texel in every image, the fragments that reached it, the deciding fragment's pixel-program trace
// and, on request, a vertex's trace. Also the search for the next differing pixel.

import type { BackendClient } from "../client";
import { byId, h, replace } from "../dom";
import { decidingFragment, historyView, listingView, texelTable, traceView, verdictTag } from "../inspector";
import { type FragmentRecord, type PixelCoord, type Stage, type VertexRecord, formatError, toErrorInfo } from "../protocol";
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
