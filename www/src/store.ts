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

/**
 * The lowercase hex SHA-256 of bytes: SubtleCrypto's, which pages get only in a secure context (https or
 * localhost); elsewhere `sha256Portable`, so that a capture opened from a page served over plain http still works.
 */
export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle;
  const digest = subtle === undefined ? sha256Portable(new Uint8Array(bytes)) : new Uint8Array(await subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** SHA-256's round constants (FIPS 180-4, 4.2.2). */
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** SHA-256 in plain TypeScript (FIPS 180-4, 6.2): padding, message schedule, 64 rounds per 64-byte block. */
export function sha256Portable(message: Uint8Array): Uint8Array {
  const hash = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  // 5.1.1: a 1 bit, zeros, and the length in bits as a 64-bit big-endian number, to a multiple of 64 bytes
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = message.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15] ?? 0;
      const b = w[t - 2] ?? 0;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = ((w[t - 16] ?? 0) + s0 + (w[t - 7] ?? 0) + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = Array.from(hash) as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[t] ?? 0) + (w[t] ?? 0)) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => {
      hash[i] = ((hash[i] ?? 0) + value) >>> 0;
    });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  hash.forEach((value, i) => outView.setUint32(i * 4, value));
  return out;
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
