// The texture view: one or two canvases showing target images with nearest-neighbour zoom, pan, a pixel grid at high
// zoom and the selected pixel outlined. Panes share one transform, so side by side they stay aligned.

import { h } from "./dom";
import type { PixelBounds, PixelCoord, RenderedImage } from "./protocol";

/** Screen position = image position × scale + offset, in CSS pixels of the pane. */
export class ViewTransform {
  scale = 1;
  offsetX = 0;
  offsetY = 0;
  /** Whether the view was placed for the current image size (else the next image is fitted). */
  placed = false;
  private readonly listeners: (() => void)[] = [];

  static readonly MIN_SCALE = 1 / 32;
  static readonly MAX_SCALE = 256;

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Zooms by `factor` keeping the image point under (x, y) (pane CSS pixels) in place. */
  zoomAt(factor: number, x: number, y: number): void {
    const scale = Math.min(ViewTransform.MAX_SCALE, Math.max(ViewTransform.MIN_SCALE, this.scale * factor));
    const imageX = (x - this.offsetX) / this.scale;
    const imageY = (y - this.offsetY) / this.scale;
    this.scale = scale;
    this.offsetX = x - imageX * scale;
    this.offsetY = y - imageY * scale;
    this.changed();
  }

  /** Fits an image of the given size into a pane, at a whole scale when it is 1 or more. */
  fit(imageWidth: number, imageHeight: number, paneWidth: number, paneHeight: number): void {
    if (imageWidth <= 0 || imageHeight <= 0 || paneWidth <= 0 || paneHeight <= 0) return;
    let scale = Math.min(paneWidth / imageWidth, paneHeight / imageHeight) * 0.94;
    if (scale >= 1) scale = Math.floor(scale);
    this.scale = Math.min(ViewTransform.MAX_SCALE, Math.max(ViewTransform.MIN_SCALE, scale));
    this.offsetX = Math.round((paneWidth - imageWidth * this.scale) / 2);
    this.offsetY = Math.round((paneHeight - imageHeight * this.scale) / 2);
    this.placed = true;
    this.changed();
  }

  /** Centres a pixel in a pane, zooming in to at least `minScale`. */
  centreOn(pixel: PixelCoord, paneWidth: number, paneHeight: number, minScale: number): void {
    this.scale = Math.max(this.scale, minScale);
    this.offsetX = Math.round(paneWidth / 2 - (pixel.x + 0.5) * this.scale);
    this.offsetY = Math.round(paneHeight / 2 - (pixel.y + 0.5) * this.scale);
    this.changed();
  }
}

/** What a pane tells its owner. */
export interface PaneEvents {
  /** A click (not a drag) on a pixel of the image. */
  onPick(pixel: PixelCoord): void;
  /** The pointer is over this pixel (or left the image: null). */
  onHover(pixel: PixelCoord | null): void;
}

/** Zoom at which pixel grid lines appear (screen pixels per texel). */
const GRID_SCALE = 8;
/** A press that moves less than this (CSS pixels) is a click, not a drag. */
const CLICK_SLOP = 4;

/** One canvas showing one image. */
export class ImagePane {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly caption: HTMLElement;
  private readonly badge: HTMLElement;
  /** Says why there is no image (replay failed, nothing to show), over the canvas. */
  private readonly notice: HTMLElement;
  private source: HTMLCanvasElement | null = null;
  private imageWidth = 0;
  private imageHeight = 0;
  private selected: PixelCoord | null = null;
  /** The draw's bounding box, outlined (image pixels). */
  private bounds: PixelBounds | null = null;
  private checker: CanvasPattern | null = null;

  constructor(
    private readonly transform: ViewTransform,
    private readonly events: PaneEvents,
    readonly role: "main" | "side",
  ) {
    this.canvas = h("canvas", { class: "pane-canvas", attrs: { "data-role": role } });
    this.caption = h("span", { class: "pane-caption" });
    this.badge = h("span", { class: "pane-badge" });
    this.notice = h("div", { class: "pane-message" });
    this.notice.hidden = true;
    this.element = h(
      "div",
      { class: "pane", attrs: { "data-role": role } },
      this.canvas,
      this.notice,
      h("div", { class: "pane-label" }, this.caption, this.badge),
    );
    transform.onChange(() => this.draw());
    new ResizeObserver(() => this.resize()).observe(this.canvas);
    this.listen();
  }

  /** The pane's size in CSS pixels. */
  size(): { width: number; height: number } {
    return { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
  }

  /** Shows an image (or a message instead of one) with a caption. */
  setImage(image: RenderedImage | null, caption: string, badge = "", message: string | null = null): void {
    this.caption.textContent = caption;
    this.badge.textContent = badge;
    this.notice.textContent = message ?? "";
    this.notice.hidden = message === null || message === "";
    if (image === null) {
      this.source = null;
    } else {
      const canvas = this.source ?? document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext("2d");
      if (context !== null && image.width > 0 && image.height > 0) {
        const pixels = new Uint8ClampedArray(image.width * image.height * 4);
        pixels.set(image.rgba.subarray(0, pixels.length));
        context.putImageData(new ImageData(pixels, image.width, image.height), 0, 0);
      }
      this.source = canvas;
      this.imageWidth = image.width;
      this.imageHeight = image.height;
    }
    this.draw();
  }

  setSelected(pixel: PixelCoord | null): void {
    this.selected = pixel;
    this.draw();
  }

  /** Outlines the draw's bounding box (image pixels), or none. */
  setBounds(bounds: PixelBounds | null): void {
    this.bounds = bounds;
    this.canvas.dataset["bounds"] = bounds === null ? "" : `${bounds.x0},${bounds.y0},${bounds.x1},${bounds.y1}`;
    this.draw();
  }

  /** The image pixel under a point of the pane, or null outside the image. */
  pixelAt(x: number, y: number): PixelCoord | null {
    const px = Math.floor((x - this.transform.offsetX) / this.transform.scale);
    const py = Math.floor((y - this.transform.offsetY) / this.transform.scale);
    if (this.source === null || px < 0 || py < 0 || px >= this.imageWidth || py >= this.imageHeight) return null;
    return { x: px, y: py };
  }

  private resize(): void {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.draw();
  }

  private listen(): void {
    let press: { x: number; y: number; offsetX: number; offsetY: number; moved: boolean } | null = null;
    const local = (event: MouseEvent): { x: number; y: number } => {
      const rect = this.canvas.getBoundingClientRect();
      return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    };
    this.canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 && event.button !== 1) return;
      this.canvas.setPointerCapture(event.pointerId);
      press = { x: event.clientX, y: event.clientY, offsetX: this.transform.offsetX, offsetY: this.transform.offsetY, moved: false };
    });
    this.canvas.addEventListener("pointermove", (event) => {
      const point = local(event);
      this.events.onHover(this.pixelAt(point.x, point.y));
      if (press === null) return;
      const dx = event.clientX - press.x;
      const dy = event.clientY - press.y;
      if (!press.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
      press.moved = true;
      this.canvas.classList.add("panning");
      this.transform.offsetX = press.offsetX + dx;
      this.transform.offsetY = press.offsetY + dy;
      this.transform.changed();
    });
    const release = (event: PointerEvent, cancelled: boolean): void => {
      if (press === null) return;
      const wasClick = !press.moved && !cancelled && event.button === 0;
      press = null;
      this.canvas.classList.remove("panning");
      if (wasClick) {
        const point = local(event);
        const pixel = this.pixelAt(point.x, point.y);
        if (pixel !== null) this.events.onPick(pixel);
      }
    };
    this.canvas.addEventListener("pointerup", (event) => release(event, false));
    this.canvas.addEventListener("pointercancel", (event) => release(event, true));
    this.canvas.addEventListener("pointerleave", () => this.events.onHover(null));
    this.canvas.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const point = local(event);
        const lines = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? event.deltaY * 33 : event.deltaY;
        this.transform.zoomAt(2 ** (-lines / 240), point.x, point.y);
      },
      { passive: false },
    );
  }

  private pattern(context: CanvasRenderingContext2D): CanvasPattern | null {
    if (this.checker !== null) return this.checker;
    const tile = document.createElement("canvas");
    tile.width = 16;
    tile.height = 16;
    const tileContext = tile.getContext("2d");
    if (tileContext === null) return null;
    tileContext.fillStyle = "#3a3d42";
    tileContext.fillRect(0, 0, 16, 16);
    tileContext.fillStyle = "#2c2f33";
    tileContext.fillRect(0, 0, 8, 8);
    tileContext.fillRect(8, 8, 8, 8);
    this.checker = context.createPattern(tile, "repeat");
    return this.checker;
  }

  /** Redraws: checkerboard under the image, the image, grid lines, the selected pixel. */
  draw(): void {
    const context = this.canvas.getContext("2d");
    if (context === null) return;
    const ratio = window.devicePixelRatio || 1;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const { scale, offsetX, offsetY } = this.transform;
    // where the image is, for tests and tools that click on pixels
    this.canvas.dataset["scale"] = String(scale);
    this.canvas.dataset["offsetX"] = String(offsetX);
    this.canvas.dataset["offsetY"] = String(offsetY);
    this.canvas.dataset["image"] = this.source === null ? "" : `${this.imageWidth}x${this.imageHeight}`;
    if (this.source === null) return;
    const width = this.imageWidth * scale;
    const height = this.imageHeight * scale;
    const pattern = this.pattern(context);
    if (pattern !== null) {
      context.fillStyle = pattern;
      context.fillRect(offsetX, offsetY, width, height);
    }
    context.imageSmoothingEnabled = false;
    context.drawImage(this.source, offsetX, offsetY, width, height);
    context.strokeStyle = "rgba(255,255,255,0.25)";
    context.lineWidth = 1 / ratio;
    context.strokeRect(offsetX - 0.5 / ratio, offsetY - 0.5 / ratio, width + 1 / ratio, height + 1 / ratio);
    if (scale >= GRID_SCALE) this.drawGrid(context, ratio);
    if (this.bounds !== null) {
      // the draw's bounding box, dashed, just outside its pixels
      const b = this.bounds;
      context.setLineDash([4, 3]);
      context.lineWidth = 1;
      context.strokeStyle = "#4ad0ff";
      context.strokeRect(offsetX + b.x0 * scale - 1, offsetY + b.y0 * scale - 1, (b.x1 - b.x0) * scale + 2, (b.y1 - b.y0) * scale + 2);
      context.setLineDash([]);
    }
    if (this.selected !== null) {
      const size = Math.max(scale, 6);
      const x = offsetX + (this.selected.x + 0.5) * scale - size / 2;
      const y = offsetY + (this.selected.y + 0.5) * scale - size / 2;
      context.lineWidth = 2;
      context.strokeStyle = "#000";
      context.strokeRect(x - 1, y - 1, size + 2, size + 2);
      context.strokeStyle = "#ffd24a";
      context.lineWidth = 1.5;
      context.strokeRect(x - 1, y - 1, size + 2, size + 2);
    }
  }

  private drawGrid(context: CanvasRenderingContext2D, ratio: number): void {
    const { scale, offsetX, offsetY } = this.transform;
    const paneWidth = this.canvas.clientWidth;
    const paneHeight = this.canvas.clientHeight;
    const firstX = Math.max(0, Math.floor(-offsetX / scale));
    const lastX = Math.min(this.imageWidth, Math.ceil((paneWidth - offsetX) / scale));
    const firstY = Math.max(0, Math.floor(-offsetY / scale));
    const lastY = Math.min(this.imageHeight, Math.ceil((paneHeight - offsetY) / scale));
    context.beginPath();
    for (let x = firstX; x <= lastX; x++) {
      const sx = Math.round((offsetX + x * scale) * ratio) / ratio + 0.5 / ratio;
      context.moveTo(sx, offsetY + firstY * scale);
      context.lineTo(sx, offsetY + lastY * scale);
    }
    for (let y = firstY; y <= lastY; y++) {
      const sy = Math.round((offsetY + y * scale) * ratio) / ratio + 0.5 / ratio;
      context.moveTo(offsetX + firstX * scale, sy);
      context.lineTo(offsetX + lastX * scale, sy);
    }
    context.strokeStyle = "rgba(0,0,0,0.35)";
    context.lineWidth = 1 / ratio;
    context.stroke();
  }
}
