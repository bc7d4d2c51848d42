/**
 * Tokens counted where an app is read (SPEC §21), in the read's worker: each tool's share that does
 * not depend on its whole name (`promptTokens`), once per distinct tool while this process runs. A
 * re-read whose tools are unchanged counts nothing, whichever read thread it lands on: what one
 * thread counts it tells the others (`CHANNEL`), and a thread that starts counting asks them for
 * what they keep. After a restart, or on another instance, a read is given the counts stored with
 * its app's newest snapshot (`StoredCounts`), so it too counts only the tools whose text changed.
 *
 * Kept by what is counted, the tool's description and input schema as received (their JSON text: a
 * Map's key), not by the tool's fingerprint (SPEC §11): a fingerprint's canonical JSON and SHA-256
 * cost a quarter of a loopback read of 1,000 tools, where `JSON.stringify` costs a few hundredths; a
 * tool that changes only its title or hints is not counted again; one whose keys come in another order
 * is counted again (the count itself is of the canonical text, so it is the same).
 */
import { BroadcastChannel } from "node:worker_threads";
import { countTokens, sentPrefix } from "@/lib/engine/tokens";
import { isObject } from "@/lib/json-text";

/** Characters of keys kept per worker thread (about 64 MB), oldest out first. */
const KEPT_CHARS = 32 * 2 ** 20;
type Counts = [tokens: number, chars: number];
const kept = new Map<string, Counts>();
let keptChars = 0;

/** The channel the threads that count share their counts on: `{ counted: [key, tokens, chars][] }`, or `{ ask: true }` from a thread that starts counting. */
const CHANNEL = "theorem:prompt-tokens";
type Shared = { counted: [key: string, tokens: number, chars: number][] } | { ask: true };
let channel: BroadcastChannel | undefined;

/** Joins the threads that count (once, when this one first counts); it never keeps a thread alive. */
function joined(): BroadcastChannel {
  if (channel !== undefined) return channel;
  channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as unknown as { data: Shared }).data;
    if ("ask" in message) {
      if (kept.size > 0) channel!.postMessage({ counted: [...kept].map(([key, [tokens, chars]]) => [key, tokens, chars]) } satisfies Shared);
      return;
    }
    for (const [key, tokens, chars] of message.counted) if (!kept.has(key)) keep(key, [tokens, chars]);
  };
  channel.postMessage({ ask: true } satisfies Shared);
  return channel;
}

/** Keeps `counts` under `key` when the key is not too large, the oldest out first past `KEPT_CHARS`. */
function keep(key: string, counts: Counts): void {
  if (key.length > KEPT_CHARS / 64) return;
  while (keptChars + key.length > KEPT_CHARS && kept.size > 0) {
    const oldest = kept.keys().next().value!;
    kept.delete(oldest);
    keptChars -= oldest.length;
  }
  kept.set(key, counts);
  keptChars += key.length;
}

function keyOf(entry: Record<string, unknown>): string | null {
  try {
    return JSON.stringify([entry["description"] ?? null, entry["inputSchema"] ?? null, "description" in entry, "inputSchema" in entry]);
  } catch {
    return null; // too deep, or not JSON: counted, not kept
  }
}

/** Counts stored with a snapshot (SPEC §21): its entries and each one's `promptTokens` (null: not a tool) and characters, as some read counted them. */
export interface StoredCounts {
  entries: readonly unknown[];
  tokens: readonly (number | null)[];
  chars?: readonly (number | null)[];
}

const isTool = (entry: unknown): entry is Record<string, unknown> => isObject(entry) && typeof entry["name"] === "string" && entry["name"] !== "";

/**
 * The stored counts of `entry`'s text: those of the stored tool of its name whose description and
 * input schema are the same JSON values (the counted text is their canonical JSON, so it is the
 * same text), compared as values, not written out: a snapshot's entries are canonical JSON, a live
 * read's keys come in the app's order, and writing either canonically costs a good part of counting it.
 */
function storedCounts(entry: Record<string, unknown>, stored: StoredCounts, byName: Map<string, number>): Counts | undefined {
  const at = byName.get(entry["name"] as string);
  if (at === undefined) return undefined;
  const tokens = stored.tokens[at];
  const was = stored.entries[at] as Record<string, unknown>;
  if (typeof tokens !== "number" || !sameValue(entry["description"], was["description"]) || !sameValue(entry["inputSchema"], was["inputSchema"])) return undefined;
  const chars = stored.chars?.[at];
  return [tokens, typeof chars === "number" ? chars : sentPrefix(entry).length];
}

/** Whether two parsed JSON values are the same value (objects' keys in any order); too deep to compare: not the same. */
function sameValue(a: unknown, b: unknown): boolean {
  try {
    return same(a, b);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Counted without making arrays of keys: this runs for every tool of a re-read after a restart.
  let keys = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k) || x[k] === undefined) continue;
    keys += 1;
    if (!Object.hasOwn(y, k) || !same(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.hasOwn(y, k) && y[k] !== undefined) keys -= 1;
  return keys === 0;
}

/** Each stored tool's place, by name (its first, as the engine names a name listed twice). */
function placesOf(stored: StoredCounts): Map<string, number> {
  const byName = new Map<string, number>();
  stored.entries.forEach((entry, i) => {
    if (isTool(entry) && !byName.has(entry["name"] as string)) byName.set(entry["name"] as string, i);
  });
  return byName;
}

/**
 * How many of `entries`' tools this thread keeps the counts of, counting none: what a re-read
 * here would not count. What another thread said arrives as a message of this thread's, at no
 * set moment, so this is how one knows it has arrived.
 */
export function keptOf(entries: readonly unknown[]): number {
  joined();
  return entries.filter((entry) => {
    if (!isTool(entry)) return false;
    const key = keyOf(entry);
    return key !== null && kept.has(key);
  }).length;
}

/**
 * Each entry's `promptTokens` and the characters of the same text (null: not a tool), and how many
 * tools had to be counted: neither kept, nor the same as in `stored`, the counts stored with the
 * app's newest snapshot (given after a restart, or on another instance, so that its first re-read
 * counts only the tools whose text changed).
 */
export function countPromptTokens(entries: readonly unknown[], stored?: StoredCounts): { tokens: (number | null)[]; chars: (number | null)[]; counted: number } {
  const share = joined();
  const made: [string, number, number][] = [];
  let counted = 0;
  let byName: Map<string, number> | undefined;
  const chars: (number | null)[] = [];
  const tokens = entries.map((entry) => {
    if (!isTool(entry)) {
      chars.push(null);
      return null;
    }
    const key = keyOf(entry);
    let found = key === null ? undefined : kept.get(key);
    if (found === undefined) {
      if (stored !== undefined) found = storedCounts(entry, stored, (byName ??= placesOf(stored)));
      if (found === undefined) {
        const text = sentPrefix(entry);
        found = [countTokens(text), text.length];
        counted += 1;
      }
      if (key !== null && key.length <= KEPT_CHARS / 64) {
        keep(key, found);
        made.push([key, found[0], found[1]]);
      }
    }
    chars.push(found[1]);
    return found[0];
  });
  if (made.length > 0) share.postMessage({ counted: made } satisfies Shared);
  return { tokens, chars, counted };
}
