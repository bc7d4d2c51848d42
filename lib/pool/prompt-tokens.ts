/**
 * Tokens counted where an app is read (SPEC §21), in the read's worker: each tool's share that does
 * not depend on its whole name (`promptTokens`), once per distinct tool while this worker runs. A
 * re-read whose tools are unchanged counts nothing.
 *
 * Kept by what is counted, the tool's description and input schema as received (their JSON text: a
 * Map's key), not by the tool's fingerprint (SPEC §11): a fingerprint's canonical JSON and SHA-256
 * cost a quarter of a loopback read of 1,000 tools, where `JSON.stringify` costs a few hundredths; a
 * tool that changes only its title or hints is not counted again; one whose keys come in another order
 * is counted again (the count itself is of the canonical text, so it is the same).
 */
import { countTokens, sentPrefix } from "@/lib/engine/tokens";
import { isObject } from "@/lib/json-text";

/** Characters of keys kept per worker thread (about 64 MB), oldest out first. */
const KEPT_CHARS = 32 * 2 ** 20;
const kept = new Map<string, [tokens: number, chars: number]>();
let keptChars = 0;

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
        while (keptChars + key.length > KEPT_CHARS && kept.size > 0) {
          const oldest = kept.keys().next().value!;
          kept.delete(oldest);
          keptChars -= oldest.length;
        }
        kept.set(key, found);
        keptChars += key.length;
      }
    }
    chars.push(found[1]);
    return found[0];
  });
  return { tokens, chars, counted };
}
