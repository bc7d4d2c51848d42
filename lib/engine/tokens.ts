import canonicalize from "canonicalize";
import o200k from "gpt-tokenizer/encoding/o200k_base";
import { keptPromptCounts, type Counted, type ToolTexts } from "@/lib/cache/token-counts";
import { isObject } from "@/lib/json-text";
import { pieceEnd, stickySplit } from "./o200k-pieces";

/**
 * What a tool costs in the model's context (SPEC §21): the tool as sent, `{"name": <whole name>,
 * "description"?, "inputSchema"}`, in RFC 8785 canonical JSON, counted in UTF-16 characters and in
 * o200k_base tokens (GPT-4o, 4.1, the o-series, GPT-5; other models count differently).
 *
 * Keys sort as `description`, `inputSchema`, `name`, so the text is a prefix that does not depend on
 * the whole name, `{"description":…,"inputSchema":…,"name":"`, then `<whole name>"}`. The prefix is
 * counted once per distinct tool where it is read; the name's share where names are made. o200k's
 * pre-tokenizer ends the prefix's last piece (`":"`, a run of punctuation) before the whole name's
 * first letter, so the two counts add up exactly to counting the whole text (check.tokens.property.test.ts).
 */
export const ENCODING = "o200k_base" as const;

/** A tool as sent to the model: its whole name, its description as listed (absent when it has none) and its input schema as listed. */
interface SentTool {
  name: string;
  description?: unknown;
  inputSchema: unknown;
}

/** The tool as sent (SPEC §21), `wholeName` given. */
export function sentTool(entry: Record<string, unknown>, wholeName: string): SentTool {
  const description = entry["description"];
  return { name: wholeName, ...(description === undefined ? {} : { description }), inputSchema: entry["inputSchema"] };
}

/** The canonical JSON of the tool as sent up to its whole name: `{"description":…,"inputSchema":…,"name":"`. */
export function sentPrefix(entry: Record<string, unknown>): string {
  const description = entry["description"];
  const inputSchema = entry["inputSchema"];
  try {
    // Written directly, in one pass, for what JSON.parse makes (the listing as received).
    let text = "{";
    if (description !== undefined) text += `"description":${plainCanonical(description)},`;
    if (inputSchema !== undefined) text += `"inputSchema":${plainCanonical(inputSchema)},`;
    return `${text}"name":"`;
  } catch (error) {
    if (error !== UNUSUAL && !(error instanceof RangeError)) throw error;
  }
  const text = canonicalText(sentTool(entry, ""));
  // `"name":""}` ends it (name sorts last): keep up to the name's opening quote.
  return text.slice(0, -2);
}

/** Thrown by `plainCanonical` for a value it leaves to `canonicalize` (one JSON.parse never makes). */
const UNUSUAL = new Error("a value for canonicalize to write");

/**
 * RFC 8785 canonical JSON of a value as JSON.parse makes it (plain objects and arrays, strings,
 * finite numbers, booleans, null), as `canonicalize` writes it, without its intermediate arrays and
 * strings: a third of making the text as sent. Throws `UNUSUAL` for anything else (and RangeError
 * when nested too deep), which `canonicalize` then writes.
 */
function plainCanonical(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value !== "object") {
    if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return JSON.stringify(value);
    throw UNUSUAL;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") throw UNUSUAL;
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) text += ",";
      text += item === undefined ? "null" : plainCanonical(item);
    }
    return `${text}]`;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || typeof (value as { toJSON?: unknown }).toJSON === "function") throw UNUSUAL;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // A listing's keys often come sorted already: sorted only when they are not.
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let text = "{";
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${plainCanonical(item)}`;
    first = false;
  }
  return `${text}}`;
}

/** RFC 8785 canonical JSON; a value nested too deep for `canonicalize`'s recursion is written without recursing. */
function canonicalText(value: unknown): string {
  try {
    return canonicalize(value) ?? "null";
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return deepCanonical(value);
  }
}

/** `canonicalize` with a stack of its own: keys sorted by UTF-16 code units, numbers and strings as JSON writes them. */
function deepCanonical(root: unknown): string {
  const out: string[] = [];
  // Each item is a value to write, or a piece of text already made.
  const todo: ({ value: unknown } | string)[] = [{ value: root }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const { value } = item;
    if (value === null || typeof value !== "object") {
      out.push(JSON.stringify(value) ?? "null");
    } else if (Array.isArray(value)) {
      const parts: ({ value: unknown } | string)[] = ["["];
      value.forEach((v, i) => parts.push(...(i > 0 ? [","] : []), { value: v === undefined ? null : v }));
      parts.push("]");
      todo.push(...parts.reverse());
    } else {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
      const parts: ({ value: unknown } | string)[] = ["{"];
      keys.forEach((k, i) => parts.push(`${i > 0 ? "," : ""}${JSON.stringify(k)}:`, { value: record[k] }));
      parts.push("}");
      todo.push(...parts.reverse());
    }
  }
  return out.join("");
}

/** The rest of the text after `sentPrefix`: `<whole name>"}` (a whole name needs no escaping: `[A-Za-z0-9_-]`). */
export const sentSuffix = (wholeName: string): string => `${wholeName}"}`;

/** The canonical JSON of the tool as sent: `sentPrefix` then `sentSuffix`. */
export const sentText = (entry: Record<string, unknown>, wholeName: string): string => sentPrefix(entry) + sentSuffix(wholeName);

interface Core {
  tokenSplitRegex: RegExp;
  getBpeRankFromString(key: string): number | undefined;
  getBpeRankFromBytes(key: Uint8Array): number | undefined;
  bytePairEncode(piece: string): number[];
  bytePairStringRankEncoder: Map<string, number>;
  bytePairNonUtfSortedEncoder: [Uint8Array, number][];
}

// gpt-tokenizer 4.0.0 (pinned) merges a piece's byte pairs by scanning every pair after each merge:
// quadratic, a minute for one piece of 200,000 repeated emoji. Longer pieces are merged here with a
// heap instead, in the same order (lowest rank, then leftmost), so the count is the same.
const core = (o200k as unknown as { bytePairEncodingCoreProcessor: Core }).bytePairEncodingCoreProcessor;
const LONG_PIECE = 256;
const encoder = new TextEncoder();

/** The pre-tokenizer's expression, for the pieces `pieceEnd` does not find by ASCII alone. */
const split = stickySplit(core.tokenSplitRegex);
const ranks = core.bytePairStringRankEncoder;

/** The number of o200k_base tokens of `text`, every special token's text counted as ordinary text. */
export function countTokens(text: string): number {
  let count = 0;
  for (let pos = 0; pos < text.length; ) {
    const end = pieceEnd(text, pos, split);
    // Every byte is a token of its own at least: one ASCII character is one token.
    if (end === pos + 1 && text.charCodeAt(pos) < 128) count += 1;
    else {
      const piece = text.slice(pos, end);
      if (ranks.has(piece)) count += 1;
      else count += partsOf(piece);
    }
    pos = end;
  }
  return count;
}

/** Pieces that are no token of their own (`":{"`, `"},"`, a rare word) recur from tool to tool: each one's parts, merged once (at most `MERGED_MAX` pieces of at most `LONG_PIECE` characters, about 10 MB). */
const merged = new Map<string, number>();
const MERGED_MAX = 20_000;

/** How many tokens byte-pair merging makes of `piece` (one that is no token). */
function partsOf(piece: string): number {
  if (piece.length > LONG_PIECE) return mergedParts(encoder.encode(piece));
  let parts = merged.get(piece);
  if (parts === undefined) {
    parts = core.bytePairEncode(piece).length;
    if (merged.size >= MERGED_MAX) merged.clear();
    merged.set(piece, parts);
  }
  return parts;
}

let longest: number | undefined;
/** Tokens (ranks) and bytes that are none are all below this, so a pair of them is one exact number. */
const TOKENS = 2 ** 21;
const byteTokens = new Float64Array(256).fill(-1);

/** A byte's token as one part: its rank, or (a byte that is no token) a number past every rank. */
function byteToken(byte: number): number {
  if (byteTokens[byte]! < 0) byteTokens[byte] = core.getBpeRankFromBytes(Uint8Array.of(byte)) ?? 2 ** 20 + byte;
  return byteTokens[byte]!;
}

/** The most bytes of any one token of the encoding: a longer pair of parts has no rank. */
function longestToken(): number {
  if (longest !== undefined) return longest;
  let most = 0;
  for (const key of core.bytePairStringRankEncoder.keys()) most = Math.max(most, Buffer.byteLength(key));
  for (const [key] of core.bytePairNonUtfSortedEncoder) most = Math.max(most, key.length);
  return (longest = most);
}

/**
 * How many tokens byte-pair merging leaves of `bytes`: lowest rank first, the leftmost of equals, as
 * tiktoken. A pair longer than any token has no rank, and each distinct pair is looked up once (the
 * library's look-up decodes the bytes each time): 200,000 characters of one repeated emoji or of
 * zero-width spaces took seconds of the read's thread, where every other read waits.
 */
function mergedParts(bytes: Uint8Array): number {
  const n = bytes.length;
  const most = longestToken();
  // Each part is a token (a byte at first, then the pair it merged from): a pair's rank depends on
  // its two tokens alone, so it is looked up once per distinct pair of tokens.
  const token = new Float64Array(n);
  for (let i = 0; i < n; i++) token[i] = byteToken(bytes[i]!);
  const ranks = new Map<number, number>();
  // Parts as a linked list by their first byte; `end[i]` is where part i ends.
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const alive = new Uint8Array(n).fill(1);
  const pairRank = (i: number): number => {
    const j = next[i]!;
    if (j >= n) return Infinity;
    const end = next[j]!;
    if (end - i > most) return Infinity;
    const key = token[i]! * TOKENS + token[j]!;
    let found = ranks.get(key);
    if (found === undefined) ranks.set(key, (found = core.getBpeRankFromBytes(bytes.subarray(i, end)) ?? Infinity));
    return found;
  };
  const heap = new MinHeap();
  for (let i = 0; i < n; i++) {
    rank[i] = pairRank(i);
    if (rank[i] !== Infinity) heap.push(rank[i]!, i);
  }
  let parts = n;
  for (;;) {
    const top = heap.pop();
    if (top === undefined) break;
    const [r, i] = top;
    if (alive[i] === 0 || rank[i] !== r) continue; // stale
    const j = next[i]!;
    alive[j] = 0;
    token[i] = r;
    next[i] = next[j]!;
    if (next[i] < n) prev[next[i]] = i;
    parts -= 1;
    rank[i] = pairRank(i);
    if (rank[i] !== Infinity) heap.push(rank[i], i);
    const p = prev[i]!;
    if (p >= 0) {
      const before = pairRank(p);
      if (before !== rank[p]) {
        rank[p] = before;
        if (before !== Infinity) heap.push(before, p);
      }
    }
  }
  return parts;
}

/** Positions below this fit beside a rank in one exact number (a rank is below 2^20, so the two below 2^53). */
const POSITIONS = 2 ** 32;

/**
 * A binary heap of (rank, position), smallest rank first, then smallest position, each pair kept
 * as one number, `rank × 2^32 + position`, so the order is the numbers' order.
 */
class MinHeap {
  private readonly keys: number[] = [];

  push(rank: number, at: number): void {
    const keys = this.keys;
    const key = rank * POSITIONS + at;
    let i = keys.length;
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      i = parent;
    }
    keys[i] = key;
  }

  pop(): [number, number] | undefined {
    const keys = this.keys;
    if (keys.length === 0) return undefined;
    const top = keys[0]!;
    const last = keys.pop()!;
    const size = keys.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const least = r < size && keys[r]! < keys[l]! ? r : l;
        if (keys[least]! >= last) break;
        keys[i] = keys[least]!;
        i = least;
      }
      keys[i] = last;
    }
    const rank = Math.floor(top / POSITIONS);
    return [rank, top - rank * POSITIONS];
  }
}

/** The prefix's tokens of a listing entry (counted once per distinct tool by the process's threads: lib/cache/token-counts.ts), or null for an entry that is not a tool. */
export function promptTokens(entry: unknown): number | null {
  if (!isObject(entry) || typeof entry["name"] !== "string" || entry["name"] === "") return null;
  return keptPromptCounts(entry, (texts) => prefixCounts(entry, texts)).tokens;
}

/**
 * The prefix's tokens and characters of a tool (`promptTokens`), counted now, not looked up; `texts`
 * its description's and schema's JSON text when known (lib/cache/token-counts.ts `keptPromptCounts`).
 */
export function prefixCounts(entry: Record<string, unknown>, texts: ToolTexts | null): Counted {
  const text = texts !== null && writtenCanonically(entry) ? prefixOf(texts) : sentPrefix(entry);
  return { tokens: countTokens(text), chars: text.length };
}

/** `sentPrefix` from its parts' JSON text, when that text is already canonical. */
const prefixOf = ({ description, inputSchema }: ToolTexts): string =>
  `{${description === undefined ? "" : `"description":${description},`}${inputSchema === undefined ? "" : `"inputSchema":${inputSchema},`}"name":"`;

/**
 * Whether `JSON.stringify` writes the entry's description and input schema as RFC 8785 does: plain
 * values whose objects' keys come sorted (a listing's often do), finite numbers, nothing undefined.
 * Strings and numbers are written alike by both, so then the key's text is the text to count.
 */
function writtenCanonically(entry: Record<string, unknown>): boolean {
  try {
    return isCanonical(entry["description"], 0) && isCanonical(entry["inputSchema"], 0);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

const CANONICAL_DEPTH = 400;

function isCanonical(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "undefined":
      return depth === 0; // absent at the top; never inside (JSON leaves it out, or writes null)
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > CANONICAL_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isCanonical(value[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const record = value as Record<string, unknown>;
  let last: string | undefined;
  for (const key of Object.keys(record)) {
    // Sorted by UTF-16 code units, as RFC 8785 sorts; integer-like keys come first in number order, so `"10"` after `"2"` is not.
    if (last !== undefined && !(last < key)) return false;
    const item = record[key];
    if (item === undefined || !isCanonical(item, depth + 1)) return false;
    last = key;
  }
  return true;
}

/** The whole name's share of a tool's tokens: `<whole name>"}`, counted alone. */
export const nameTokens = (wholeName: string): number => countTokens(sentSuffix(wholeName));
