// The view the URL's hash names, so that a link opens the same capture, draw, target, view and pixel:
//   #capture=<url>&draw=3&target=rt0&view=difference&pixel=12,34
//   #file=<sha256>&name=<file name>&draw=3...      (a capture opened from a file, named by its content hash)
//   ...&variants=unsnapped-interpolation,blend-8bit (the implementation choices the draws are replayed under)
//   ...&edited=3.ps,5.vs                           (programs edited in the viewer; the listings are in this browser)

import { IMAGE_KINDS, type ImageKind, type PixelCoord, type TargetId, isTargetId } from "./protocol";

/** Where a capture comes from: a URL, or a file this browser may hold, named by the SHA-256 of its bytes. */
export type CaptureSource = { kind: "url"; url: string } | { kind: "file"; sha256: string; name: string | null };

/** What the hash holds. */
export interface ViewState {
  source: CaptureSource | null;
  draw: number | null;
  target: TargetId | null;
  view: ImageKind;
  pixel: PixelCoord | null;
  /** The variants the draws replay under, by name (empty: the spec's rules). */
  variants: string[];
  /** The draws' programs edited in the viewer, as `3.ps` (the listings are in the browser's storage). */
  edited: string[];
}

/** The most variants a link names (more is not a link the viewer made). */
const MAX_LINK_VARIANTS = 16;

/** The view a page starts with. */
export const DEFAULT_VIEW: ImageKind = "difference";

/** An empty state: no capture. */
export function emptyState(): ViewState {
  return { source: null, draw: null, target: null, view: DEFAULT_VIEW, pixel: null, variants: [], edited: [] };
}

function parseCount(text: string | null): number | null {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  return Number(text);
}

/** Variant names from a link: lower-case words joined by hyphens, comma-separated; a malformed list names none. */
function parseVariants(text: string | null): string[] {
  if (text === null || text === "") return [];
  const names = text.split(",");
  if (names.length > MAX_LINK_VARIANTS || !names.every((name) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) && name.length <= 40)) return [];
  return names;
}

/** Whether two lists name the same variants (in any order). */
export function sameVariants(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => b.includes(name));
}

/** Edited programs from a link: `draw.stage` names (`3.ps`), comma-separated; a malformed list names none. */
function parseEdited(text: string | null): string[] {
  if (text === null || text === "") return [];
  const names = text.split(",");
  if (names.length > 64 || !names.every((name) => /^\d{1,9}\.(vs|ps)$/.test(name))) return [];
  return names;
}

function parsePixel(text: string | null): PixelCoord | null {
  const match = text === null ? null : /^(\d{1,6}),(\d{1,6})$/.exec(text);
  if (match === null) return null;
  return { x: Number(match[1]), y: Number(match[2]) };
}

/** Reads a hash ("#..." or without the "#"); what is missing or malformed is left at its default. */
export function parseHash(hash: string): ViewState {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  const state = emptyState();
  const file = params.get("file");
  const url = params.get("capture");
  if (file !== null && /^[0-9a-fA-F]{64}$/.test(file))
    state.source = { kind: "file", sha256: file.toLowerCase(), name: params.get("name") };
  else if (url !== null && url !== "") state.source = { kind: "url", url };
  state.draw = parseCount(params.get("draw"));
  const target = params.get("target");
  if (target !== null && isTargetId(target)) state.target = target;
  const view = params.get("view");
  const kind = IMAGE_KINDS.find((candidate) => candidate === view);
  if (kind !== undefined) state.view = kind;
  state.pixel = parsePixel(params.get("pixel"));
  state.variants = parseVariants(params.get("variants"));
  state.edited = parseEdited(params.get("edited"));
  return state;
}

/** Writes a state as a hash, with the "#"; an empty state gives "". */
export function formatHash(state: ViewState): string {
  const params = new URLSearchParams();
  if (state.source?.kind === "url") params.set("capture", state.source.url);
  if (state.source?.kind === "file") {
    params.set("file", state.source.sha256);
    if (state.source.name !== null) params.set("name", state.source.name);
  }
  if (state.source === null) return "";
  if (state.draw !== null) params.set("draw", String(state.draw));
  if (state.target !== null) params.set("target", state.target);
  params.set("view", state.view);
  if (state.pixel !== null) params.set("pixel", `${state.pixel.x},${state.pixel.y}`);
  if (state.variants.length > 0) params.set("variants", state.variants.join(","));
  if (state.edited.length > 0) params.set("edited", state.edited.join(","));
  // keep URLs and pixel commas readable: URLSearchParams escapes more than a hash needs
  return `#${params.toString().replace(/%2F/gi, "/").replace(/%3A/gi, ":").replace(/%2C/gi, ",")}`;
}

/** Whether two sources name the same capture. */
export function sameSource(a: CaptureSource | null, b: CaptureSource | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === "url" && b.kind === "url") return a.url === b.url;
  if (a.kind === "file" && b.kind === "file") return a.sha256 === b.sha256;
  return false;
}

/** Reads "x, y", "x y" or "(x, y)" as a pixel position. */
export function parsePixelInput(text: string): PixelCoord | null {
  const match = /^\s*\(?\s*(\d{1,6})\s*[,\s]\s*(\d{1,6})\s*\)?\s*$/.exec(text);
  if (match === null) return null;
  return { x: Number(match[1]), y: Number(match[2]) };
}

/**
 * Whether the viewer may fetch a link's capture URL (`base` is the page's address). A link can come from anyone, so:
 * - `own`: http(s) on the page's own origin, fetched at once;
 * - `confirm`: https on another origin, fetched only once the user has confirmed, with the URL shown (`url`,
 *   resolved), so that a link cannot make the page read an intranet address unasked;
 * - `refused` with why: anything else (plain http to another origin, `data:` URLs that would carry a hostile capture
 *   in the link itself, `file:`, text that is no URL).
 */
export type LinkAccess = { kind: "own"; url: string } | { kind: "confirm"; url: string; origin: string } | { kind: "refused"; problem: string };

export function linkAccess(url: string, base: string): LinkAccess {
  let resolved: URL;
  let page: URL;
  try {
    page = new URL(base);
    resolved = new URL(url, page);
  } catch {
    return { kind: "refused", problem: "it is not a URL" };
  }
  if (resolved.protocol !== "http:" && resolved.protocol !== "https:")
    return { kind: "refused", problem: `the viewer fetches http(s) URLs only, not ${resolved.protocol}` };
  if (resolved.origin === page.origin) return { kind: "own", url: resolved.href };
  if (resolved.protocol !== "https:")
    return {
      kind: "refused",
      problem: `the viewer fetches captures from its own origin (${page.origin}), or from another over https once you confirm, not from ${resolved.origin}`,
    };
  return { kind: "confirm", url: resolved.href, origin: resolved.origin };
}
