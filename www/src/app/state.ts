// What the page shows, shared by its controllers: the open capture, the draws, the picked draw, target, view, pixel
// and display options, the picked draw's comparison or replay error, and the generation the stale-answer checks of
// every controller nest in.

import type {
  CaptureSummary,
  CompareResult,
  DispatchResult,
  DispatchView,
  DrawInfo,
  ErrorInfo,
  ImageKind,
  Limits,
  PixelCoord,
  TargetId,
  TargetInfo,
} from "../protocol";
import { type CaptureSource, DEFAULT_VIEW, type ViewState } from "../url-state";
import { Generation } from "./generation";
import { type ViewerSettings, loadSettings } from "./settings";

/** This page's localStorage, or null where the browser refuses it. */
export function pageStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A capture open in the worker. */
export interface OpenCapture {
  summary: CaptureSummary;
  /** The engine's limits before the settings' were applied (what an empty settings field means). */
  defaultLimits: Limits;
  source: CaptureSource;
  name: string;
}

/** What to restore after opening a capture or picking a draw. */
export interface Restore {
  target: TargetId | null;
  pixel: PixelCoord | null;
}

/** A value range of a display. */
export interface ValueRange {
  min: number;
  max: number;
}

/** The page's state; the controllers read and write it, and each renders its part of the page from it. */
export class ViewerState {
  capture: OpenCapture | null = null;
  draws: DrawInfo[] = [];
  /** The picked draw. */
  drawIndex: number | null = null;
  /** The draw list's keyboard cursor. */
  cursor = 0;
  target: TargetId | null = null;
  view: ImageKind = DEFAULT_VIEW;
  split = true;
  channels = { r: true, g: true, b: true, a: false };
  /** The display range the user set; null takes the image's own. */
  range: ValueRange | null = null;
  highlightNonFinite = true;
  /** The picked pixel, in the target's coordinates (a multisampled target's sample planes stacked). */
  pixel: PixelCoord | null = null;
  /** The sample plane the panes show of a multisampled target, or its resolve; null shows every plane, stacked. */
  sample: number | "resolved" | null = null;
  comparison: CompareResult | null = null;
  /** Why the picked draw has no replay (failed or cancelled), or null. */
  replayError: ErrorInfo | null = null;
  /** The picked dispatch (no draw is picked then), as the list numbers them. */
  dispatchIndex: number | null = null;
  /** The programs edited in the viewer, as the link names them (`3.ps`). */
  edited: string[] = [];
  /** The picked dispatch's replay (its views), once it has one. */
  dispatch: DispatchResult | null = null;
  /** The slot of the dispatch view the panes show. */
  dispatchSlot: number | null = null;
  /** Why the picked dispatch has no replay, or null. */
  dispatchError: ErrorInfo | null = null;
  /** The value range of the last image the main pane showed. */
  lastValueRange: ValueRange | null = null;
  /** Moves on whenever the capture or draw changes: answers for the old one are then stale. */
  readonly navigation = new Generation();
  /** The Settings dialog's values. */
  settings: ViewerSettings = loadSettings(pageStorage());

  currentDraw(): DrawInfo | null {
    return this.drawIndex === null ? null : (this.draws[this.drawIndex] ?? null);
  }

  /** The dispatch view the panes show, when a replayed dispatch is picked. */
  currentDispatchView(): DispatchView | null {
    return this.dispatch?.views.find((view) => view.slot === this.dispatchSlot) ?? null;
  }

  currentTarget(): TargetInfo | null {
    return this.currentDraw()?.targets.find((target) => target.target === this.target) ?? null;
  }

  /** The sample plane shown of the current target, when it is multisampled and one is picked. */
  shownSample(): number | null {
    const info = this.currentTarget();
    if (info === null || info.samples <= 1 || typeof this.sample !== "number" || this.sample >= info.samples) return null;
    return this.sample;
  }

  /** Whether the panes show the current target resolved (a target with a resolved view whose resolve was asked). */
  showsResolved(): boolean {
    const info = this.currentTarget();
    return this.sample === "resolved" && info !== null && this.hasResolvedView(info);
  }

  /** Whether `info` has a resolved view: a multisampled colour target of a resolvable format (the comparison, once
   * made, says whether the backend resolved it). */
  hasResolvedView(info: TargetInfo): boolean {
    const comparison = this.comparison?.targets.find((target) => target.target === info.target);
    const colour = info.kind !== "depth" && info.kind !== "stencil" && info.kind !== "uint" && info.kind !== "sint";
    return info.samples > 1 && colour && (comparison === undefined || comparison.resolved_differing_pixels !== null);
  }

  /** The view as the hash names it. */
  hashState(): ViewState {
    return {
      source: this.capture?.source ?? null,
      draw: this.drawIndex,
      target: this.target,
      view: this.view,
      pixel: this.pixel,
      variants: this.capture?.summary.variants ?? [],
      edited: this.edited,
    };
  }
}

/** Where a pixel of a target's stacked sample planes is: its column, its row in its plane, and its sample. */
export interface PlanePixel {
  x: number;
  y: number;
  sample: number;
}

/** The rows of one sample plane of `info` (its whole height with one sample a pixel). */
export function planeHeight(info: TargetInfo): number {
  return info.samples > 1 ? Math.floor(info.height / info.samples) : info.height;
}

/** The plane pixel of `pixel`, a pixel of `info`'s stacked planes (sample 0's on top). */
export function planePixel(info: TargetInfo, pixel: PixelCoord): PlanePixel {
  const rows = Math.max(1, planeHeight(info));
  return { x: pixel.x, y: pixel.y % rows, sample: Math.floor(pixel.y / rows) };
}
