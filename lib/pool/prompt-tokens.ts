/**
 * Tokens counted where an app is read (SPEC §21), in the read's worker: each tool's share that does
 * not depend on its whole name (`promptTokens`), once per distinct tool while this process runs. A
 * re-read whose tools are unchanged counts nothing, whichever read thread it lands on: the counts
 * are kept in the process's table of shared memory (lib/cache/token-counts.ts), the same one an
 * inline check's counts are kept in, bounded by the cache budget. After a restart, or on another
 * instance, a read is given the counts stored with its app's newest snapshot (`StoredCounts`), so it
 * too counts only the tools whose text changed.
 *
 * Kept by what is counted, the tool's description and input schema as received (the hash of their
 * JSON text), not by the tool's fingerprint (SPEC §11): a fingerprint's canonical JSON costs a good
 * part of counting; a tool that changes only its title or hints is not counted again; one whose keys
 * come in another order is counted again (the count itself is of the canonical text, so it is the same).
 */
import { keptPromptCounts, promptCountsKept, type Counted } from "@/lib/cache/token-counts";
import { prefixCounts, sentPrefix } from "@/lib/engine/tokens";
import { isObject } from "@/lib/json-text";

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
function storedCounts(entry: Record<string, unknown>, stored: StoredCounts, byName: Map<string, number>): Counted | undefined {
  const at = byName.get(entry["name"] as string);
  if (at === undefined) return undefined;
  const tokens = stored.tokens[at];
  const was = stored.entries[at] as Record<string, unknown>;
  if (typeof tokens !== "number" || !sameValue(entry["description"], was["description"]) || !sameValue(entry["inputSchema"], was["inputSchema"])) return undefined;
  const chars = stored.chars?.[at];
  return { tokens, chars: typeof chars === "number" ? chars : sentPrefix(entry).length };
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

/** How many of `entries`' tools the process keeps the counts of, counting none: what a re-read would not count. */
export function keptOf(entries: readonly unknown[]): number {
  return entries.filter((entry) => isTool(entry) && promptCountsKept(entry)).length;
}

/**
 * Each entry's `promptTokens` and the characters of the same text (null: not a tool), and how many
 * tools had to be counted: neither kept, nor the same as in `stored`, the counts stored with the
 * app's newest snapshot (given after a restart, or on another instance, so that its first re-read
 * counts only the tools whose text changed).
 */
export function countPromptTokens(entries: readonly unknown[], stored?: StoredCounts): { tokens: (number | null)[]; chars: (number | null)[]; counted: number } {
  let counted = 0;
  let byName: Map<string, number> | undefined;
  const chars: (number | null)[] = [];
  const tokens = entries.map((entry) => {
    if (!isTool(entry)) {
      chars.push(null);
      return null;
    }
    const found = keptPromptCounts(entry, (texts) => {
      const given = stored === undefined ? undefined : storedCounts(entry, stored, (byName ??= placesOf(stored)));
      if (given !== undefined) return given;
      counted += 1;
      return prefixCounts(entry, texts);
    });
    chars.push(found.chars);
    return found.tokens;
  });
  return { tokens, chars, counted };
}
