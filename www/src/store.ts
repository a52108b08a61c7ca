// Captures opened from files, kept in this browser's IndexedDB under the SHA-256 of their bytes, so that a link that
// names a file's hash opens it again and the start page can list recent captures.

/** A capture file kept in IndexedDB. */
export interface StoredCapture {
  /** Lowercase hex SHA-256 of the bytes: the key. */
  sha256: string;
  name: string;
  size: number;
  /** When it was last opened, in milliseconds since the epoch. */
  opened: number;
  blob: Blob;
}

/** What the recent list shows of a stored capture (without its bytes). */
export type RecentCapture = Omit<StoredCapture, "blob">;

const DB_NAME = "iridia";
const DB_VERSION = 1;
const STORE = "captures";
/** How many captures are kept; opening one more drops the least recently opened. */
export const MAX_STORED = 12;

/** The lowercase hex SHA-256 of bytes (SubtleCrypto). */
export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error("IndexedDB transaction aborted"));
    transaction.onerror = () => reject(transaction.error ?? new Error("IndexedDB transaction failed"));
  });
}

let opening: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "sha256" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be opened"));
    request.onblocked = () => reject(new Error("IndexedDB is blocked by another tab"));
  });
  opening.catch(() => {
    opening = null;
  });
  return opening;
}

function isStoredCapture(value: unknown): value is StoredCapture {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record["sha256"] === "string" &&
    typeof record["name"] === "string" &&
    typeof record["size"] === "number" &&
    typeof record["opened"] === "number" &&
    record["blob"] instanceof Blob
  );
}

/** Keeps a capture (replacing one with the same hash) and drops the oldest beyond MAX_STORED. */
export async function storeCapture(capture: StoredCapture): Promise<void> {
  const db = await database();
  const transaction = db.transaction(STORE, "readwrite");
  const store = transaction.objectStore(STORE);
  store.put(capture);
  const all = (await promised(store.getAll())).filter(isStoredCapture);
  all.sort((a, b) => b.opened - a.opened);
  for (const old of all.slice(MAX_STORED)) store.delete(old.sha256);
  await done(transaction);
}

/** The capture with this hash, or null. */
export async function loadCapture(sha256: string): Promise<StoredCapture | null> {
  const db = await database();
  const value: unknown = await promised(db.transaction(STORE, "readonly").objectStore(STORE).get(sha256));
  return isStoredCapture(value) ? value : null;
}

/** Marks a stored capture as opened now. */
export async function touchCapture(sha256: string): Promise<void> {
  const found = await loadCapture(sha256);
  if (found !== null) await storeCapture({ ...found, opened: Date.now() });
}

/** The stored captures, most recently opened first. */
export async function recentCaptures(): Promise<RecentCapture[]> {
  const db = await database();
  const all = (await promised(db.transaction(STORE, "readonly").objectStore(STORE).getAll())).filter(isStoredCapture);
  all.sort((a, b) => b.opened - a.opened);
  return all.map(({ sha256, name, size, opened }) => ({ sha256, name, size, opened }));
}

/** Forgets a stored capture. */
export async function forgetCapture(sha256: string): Promise<void> {
  const db = await database();
  const transaction = db.transaction(STORE, "readwrite");
  transaction.objectStore(STORE).delete(sha256);
  await done(transaction);
}
