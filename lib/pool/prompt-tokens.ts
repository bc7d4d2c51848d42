/**
 * Tokens counted where an app is read (SPEC §21), in the read's worker: each tool's share that does
 * not depend on its whole name (`promptTokens`), once per distinct tool while this process runs. A
 * re-read whose tools are unchanged counts nothing, whichever read thread it lands on: what one
 * thread counts it tells the others (`CHANNEL`), and a thread that starts counting asks them for
 * what they keep.
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
export const CHANNEL = "theorem:prompt-tokens";
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

/**
 * Each entry's `promptTokens` and the characters of the same text (null: not a tool), and how many
 * tools had to be counted (not kept).
 */
export function countPromptTokens(entries: readonly unknown[]): { tokens: (number | null)[]; chars: (number | null)[]; counted: number } {
  const share = joined();
  const made: [string, number, number][] = [];
  let counted = 0;
  const chars: (number | null)[] = [];
  const tokens = entries.map((entry) => {
    if (!isObject(entry) || typeof entry["name"] !== "string" || entry["name"] === "") {
      chars.push(null);
      return null;
    }
    const key = keyOf(entry);
    let found = key === null ? undefined : kept.get(key);
    if (found === undefined) {
      const text = sentPrefix(entry);
      found = [countTokens(text), text.length];
      counted += 1;
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
