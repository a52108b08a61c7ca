// The viewer's settings (the Settings dialog, kept in this browser's localStorage): what one draw may cost (the
// library's limits: memory inflated, work done) and the largest capture the viewer downloads whole from a link. An
// unset field keeps the engine's default, which the open capture's summary reports.

import type { BackendClient } from "../client";
import type { Limits } from "../protocol";

/** The settings as the user left them; null is "the default". */
export interface ViewerSettings {
  /** The most MiB one draw's blobs may inflate to. */
  maxMemoryMiB: number | null;
  /** The most work one draw may do, in millions of units (a lane running one instruction is one unit). */
  maxWorkMillions: number | null;
  /** The largest capture downloaded whole from a link (a server without byte ranges), in MiB. */
  maxLinkedMiB: number | null;
}

/** The key the settings are kept under. */
export const SETTINGS_KEY = "iridia.settings";

/** The largest capture the viewer downloads whole from a link by default: 1 GiB (the module has 4 GiB in all). */
export const DEFAULT_MAX_LINKED_BYTES = 1024 * 1024 * 1024;

/** The most a field may hold: 2^40 MiB or million units (beyond any real limit, within a double's whole numbers). */
const MAX_FIELD = 2 ** 40;

/** No setting changed. */
export function defaultSettings(): ViewerSettings {
  return { maxMemoryMiB: null, maxWorkMillions: null, maxLinkedMiB: null };
}

/** A field's value from what the user typed: null for empty, else a whole number from 1 to 2^40, or why not. */
export function parseField(text: string): number | null | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (!/^\d+$/.test(trimmed)) return { problem: `"${trimmed}" is not a whole number` };
  const value = Number(trimmed);
  if (value < 1 || value > MAX_FIELD) return { problem: `${trimmed} is not between 1 and ${MAX_FIELD}` };
  return value;
}

/** The settings kept in `storage`, each field checked (a damaged or foreign value is the default). */
export function loadSettings(storage: Pick<Storage, "getItem"> | null): ViewerSettings {
  const settings = defaultSettings();
  let text: string | null = null;
  try {
    text = storage?.getItem(SETTINGS_KEY) ?? null;
  } catch {
    return settings;
  }
  if (text === null) return settings;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return settings;
  }
  if (typeof value !== "object" || value === null) return settings;
  const record = value as Record<string, unknown>;
  const field = (key: keyof ViewerSettings): number | null => {
    const stored = record[key];
    if (typeof stored !== "number") return null;
    const parsed = parseField(String(stored));
    return typeof parsed === "number" ? parsed : null;
  };
  return { maxMemoryMiB: field("maxMemoryMiB"), maxWorkMillions: field("maxWorkMillions"), maxLinkedMiB: field("maxLinkedMiB") };
}

/** Keeps the settings in `storage`; false when it cannot (storage full or refused). */
export function saveSettings(storage: Pick<Storage, "setItem"> | null, settings: ViewerSettings): boolean {
  try {
    storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
    return storage !== null;
  } catch {
    return false;
  }
}

/** The limits a capture is to replay under: the settings' where set, else the engine's `defaults`. */
export function effectiveLimits(settings: ViewerSettings, defaults: Limits): Limits {
  return {
    max_memory: settings.maxMemoryMiB === null ? defaults.max_memory : settings.maxMemoryMiB * 1024 * 1024,
    max_work: settings.maxWorkMillions === null ? defaults.max_work : settings.maxWorkMillions * 1_000_000,
  };
}

/**
 * Gives an open capture (the worker's `capture`, now replaying under `current`, whose engine defaults are `defaults`)
 * the settings' limits, asking the worker only when they differ; the limits it replays under after.
 */
export async function applyLimits(
  client: BackendClient,
  capture: number,
  current: Limits,
  defaults: Limits,
  settings: ViewerSettings,
): Promise<Limits> {
  const limits = effectiveLimits(settings, defaults);
  if (limits.max_memory === current.max_memory && limits.max_work === current.max_work) return current;
  return client.request({ kind: "set_limits", capture, limits });
}

/** The largest capture downloaded whole from a link, in bytes. */
export function maxLinkedBytes(settings: ViewerSettings): number {
  return settings.maxLinkedMiB === null ? DEFAULT_MAX_LINKED_BYTES : settings.maxLinkedMiB * 1024 * 1024;
}
