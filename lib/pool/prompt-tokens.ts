/**
 * Tokens counted where an app is read (SPEC §21), in the read's worker: each tool's share that does
 * not depend on its whole name (`promptTokens`), once per distinct tool, kept by its fingerprint
 * (SPEC §11) while this worker runs. A re-read whose tools are unchanged counts nothing.
 */
import { createHash } from "node:crypto";
import { canonicalText, promptTokens } from "@/lib/engine/tokens";
import { isObject } from "@/lib/json-text";

/** Fingerprints kept per worker thread: about 100 bytes each, so about 20 MB at most. */
const KEPT = 200_000;
const kept = new Map<string, number>();

/** Each entry's `promptTokens` (null: not a tool), and how many tools had to be counted (not kept). */
export function countPromptTokens(entries: readonly unknown[]): { tokens: (number | null)[]; counted: number } {
  let counted = 0;
  const tokens = entries.map((entry) => {
    if (!isObject(entry) || typeof entry["name"] !== "string" || entry["name"] === "") return null;
    // The fingerprint of SPEC §11, written without recursing for a tool nested too deep for `canonicalize`.
    const key = createHash("sha256").update(canonicalText(entry)).digest("hex");
    let found = kept.get(key);
    if (found === undefined) {
      found = promptTokens(entry) ?? 0;
      counted += 1;
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
      kept.set(key, found);
    }
    return found;
  });
  return { tokens, counted };
}
