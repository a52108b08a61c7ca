// Thumbnails of the draws' main targets for the event list: asked for (`thumbnail` requests, which need no replay)
// as rows come into view, at most MAX_IN_FLIGHT at a time, the most recently shown rows first; kept as small canvases
// in a bounded cache (the oldest dropped past MAX_CACHED), and drawn into each row's canvas.

import type { BackendClient } from "../client";
import type { RenderedImage } from "../protocol";

/** Thumbnail size asked for, in pixels (the row's canvas is styled to this). */
export const THUMB_WIDTH = 48;
export const THUMB_HEIGHT = 27;

/** Requests under way at most. */
const MAX_IN_FLIGHT = 2;

/** Thumbnails kept at most. */
const MAX_CACHED = 1024;

/** Rows waiting for a thumbnail at most (the oldest dropped: they scrolled by). */
const MAX_WAITING = 256;

/** The event list's thumbnails for one open capture. */
export class Thumbnails {
  private readonly cache = new Map<number, HTMLCanvasElement | null>();
  /** The canvas each waiting draw's thumbnail goes into, newest last. */
  private readonly waiting = new Map<number, HTMLCanvasElement>();
  private inFlight = 0;
  /** Thumbnails drawn and asked for (for the tests). */
  requested = 0;

  constructor(
    private readonly client: BackendClient,
    private readonly capture: number,
  ) {}

  /** Draws draw `draw`'s thumbnail into `canvas` now if cached, else (unless `cachedOnly`) once it has come. */
  paint(draw: number, canvas: HTMLCanvasElement, cachedOnly = false): void {
    const kept = this.cache.get(draw);
    if (kept !== undefined) {
      if (kept !== null) copy(kept, canvas);
      else canvas.classList.add("none");
      return;
    }
    if (cachedOnly) return;
    this.waiting.delete(draw);
    this.waiting.set(draw, canvas);
    while (this.waiting.size > MAX_WAITING) {
      const oldest = this.waiting.keys().next().value;
      if (oldest === undefined) break;
      this.waiting.delete(oldest);
    }
    // the row is put in the page right after it is made: look for connected canvases once it is
    queueMicrotask(() => this.pump());
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT) {
      // the newest wanted row whose canvas is still in the page
      let next: [number, HTMLCanvasElement] | undefined;
      for (const entry of this.waiting) if (entry[1].isConnected) next = entry;
      for (const [draw, canvas] of this.waiting) if (!canvas.isConnected) this.waiting.delete(draw);
      if (next === undefined) return;
      const [draw] = next;
      this.waiting.delete(draw);
      this.inFlight++;
      this.requested++;
      void this.client
        .request({ kind: "thumbnail", capture: this.capture, draw, max_width: THUMB_WIDTH, max_height: THUMB_HEIGHT })
        .then(
          (image) => this.keep(draw, toCanvas(image)),
          () => this.keep(draw, null),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  private keep(draw: number, canvas: HTMLCanvasElement | null): void {
    if (this.cache.size >= MAX_CACHED) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(draw, canvas);
    // every row of this draw in the page now
    for (const target of document.querySelectorAll<HTMLCanvasElement>(`li.draw[data-index="${draw}"] canvas.thumb`)) {
      if (canvas === null) target.classList.add("none");
      else copy(canvas, target);
    }
  }
}

function toCanvas(image: RenderedImage): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, image.width);
  canvas.height = Math.max(1, image.height);
  const context = canvas.getContext("2d");
  if (context !== null && image.rgba.length === image.width * image.height * 4 && image.width > 0) {
    context.putImageData(new ImageData(new Uint8ClampedArray(image.rgba), image.width, image.height), 0, 0);
  }
  return canvas;
}

function copy(from: HTMLCanvasElement, to: HTMLCanvasElement): void {
  to.width = from.width;
  to.height = from.height;
  to.getContext("2d")?.drawImage(from, 0, 0);
  to.classList.add("loaded");
}
