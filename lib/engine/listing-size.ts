import type { LargestTool } from "@/lib/schemas/check";

/** Code points in a string: UTF-16 length less one per surrogate pair. */
export function codePoints(text: string): number {
  let pairs = 0;
  const high = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
  while (high.exec(text) !== null) pairs++;
  return text.length - pairs;
}

/**
 * The size of one listing entry (SPEC §7): the code points of `JSON.stringify(entry)`.
 * Counted by walking the value, without building the text (the engine's hot path);
 * anything unusual (a `toJSON`, a class instance, a BigInt, a value very deep) is measured
 * from `JSON.stringify` itself, and a value too deep for it by an iterative walk.
 */
export function entryChars(entry: unknown): number {
  if (prototypesArePlain()) {
    try {
      return jsonChars(entry, 0);
    } catch (e) {
      if (e !== UNUSUAL) throw e;
    }
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(entry);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return deepJsonChars(entry);
  }
  return text === undefined ? 0 : codePoints(text);
}

/**
 * The fast walk reads plain objects' own keys with `for…in` and no `toJSON`: true unless
 * something added enumerable keys or a `toJSON` to the shared prototypes.
 */
function prototypesArePlain(): boolean {
  for (const _ in Object.prototype) return false;
  return !("toJSON" in Array.prototype);
}

/** Thrown by the fast walk for a value it leaves to `JSON.stringify`. */
const UNUSUAL = new Error("a value for JSON.stringify to measure");
const WALK_MAX_DEPTH = 500;
/** What JSON writes other than as it is: `"`, `\`, control characters, surrogates (global: `escapedChars` steps through them). */
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/g;
const SHORT_STRING = 24;
const keyCharsCache = new Map<string, number>();
const KEY_CACHE_MAX = 10_000;

/** Code points of `JSON.stringify(s)`: quotes, two-character escapes, `\uXXXX` for other controls and lone surrogates. */
function stringChars(s: string): number {
  if (s.length < SHORT_STRING) {
    // a loop beats the regular expression's call for the many short strings (`string`, `object`)
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return escapedChars(s);
    }
    return s.length + 2;
  }
  return escapedChars(s);
}

/**
 * `stringChars` by the regular expression, which skips the plain characters natively and stops
 * at each special one: a two-character escape adds one, `\uXXXX` adds five, a surrogate pair
 * is one code point of two units.
 */
function escapedChars(s: string): number {
  let n = s.length + 2;
  SPECIAL.lastIndex = 0;
  while (SPECIAL.test(s)) {
    const i = SPECIAL.lastIndex - 1;
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n -= 1;
      SPECIAL.lastIndex = i + 2;
    } else n += 5;
  }
  return n;
}

/** Property names repeat across tools (`type`, `description`, …): measure each once. */
function keyChars(key: string): number {
  let n = keyCharsCache.get(key);
  if (n === undefined) {
    n = stringChars(key);
    if (keyCharsCache.size < KEY_CACHE_MAX) keyCharsCache.set(key, n);
  }
  return n;
}

function numberChars(x: number): number {
  if (!Number.isFinite(x)) return 4; // null
  if (Number.isInteger(x) && Math.abs(x) < 1e15) {
    let n = x < 0 ? 2 : 1;
    for (let a = Math.abs(x); a >= 10; a = Math.floor(a / 10)) n++;
    return n;
  }
  return String(x).length;
}

const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

function jsonChars(v: unknown, depth: number): number {
  if (typeof v === "string") return stringChars(v);
  if (typeof v === "number") return numberChars(v);
  if (typeof v === "boolean") return v ? 4 : 5;
  if (v === null) return 4;
  if (typeof v !== "object" || depth > WALK_MAX_DEPTH) throw UNUSUAL;
  if (Array.isArray(v)) {
    let n = v.length === 0 ? 2 : 1 + v.length; // brackets and commas
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      n += skipped(x) ? 4 : jsonChars(x, depth + 1);
    }
    return n;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw UNUSUAL;
  let n = 2;
  let written = 0;
  for (const key in v) {
    const x = (v as Record<string, unknown>)[key];
    if (skipped(x)) {
      if (key === "toJSON" && typeof x === "function") throw UNUSUAL;
      continue;
    }
    n += keyChars(key) + 1 + jsonChars(x, depth + 1);
    written++;
  }
  return written > 1 ? n + written - 1 : n;
}

/** What `JSON.stringify` would write, measured without recursion (for very deep values). */
function deepJsonChars(root: unknown): number {
  let total = 0;
  const stack: unknown[] = [root];
  const scalar = (v: unknown) => codePoints(JSON.stringify(v) ?? "null");
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) stack.push(item === undefined || typeof item === "function" ? null : item);
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v).filter((k) => {
        const x = (v as Record<string, unknown>)[k];
        return x !== undefined && typeof x !== "function";
      });
      total += 2 + Math.max(0, keys.length - 1);
      for (const k of keys) {
        total += scalar(k) + 1;
        stack.push((v as Record<string, unknown>)[k]);
      }
    } else {
      total += scalar(v);
    }
  }
  return total;
}

const LARGEST_COUNT = 5;

/** The largest tools by size, biggest first (ties: listing order), without sorting them all. */
export function largestTools<T extends LargestTool>(tools: readonly T[], count = LARGEST_COUNT): T[] {
  const top: T[] = [];
  for (const t of tools) {
    if (top.length === count && t.chars <= top[top.length - 1]!.chars) continue;
    let i = top.length;
    while (i > 0 && top[i - 1]!.chars < t.chars) i--;
    top.splice(i, 0, t);
    if (top.length > count) top.pop();
  }
  return top;
}

const fmt = new Intl.NumberFormat("en-US");
export const formatCount = (n: number) => fmt.format(n);

/** The largest tools as they can honestly be named: those above a tie, then the tie (how many tools share that size), if naming some of it would pick arbitrarily. */
interface LargestSummary {
  named: LargestTool[];
  tie: { count: number; chars: number; all: boolean } | null;
}

/**
 * Which of `largest` to name, given every tool's size (`sizes`): when more tools share the smallest
 * named size than are named, or every tool is the same size, they are counted instead of named.
 * 240 tools of 1,044 characters: none named, `{count: 240, chars: 1044, all: true}`.
 */
export function largestSummary(largest: readonly LargestTool[], sizes: readonly number[]): LargestSummary {
  const last = largest.at(-1);
  if (last === undefined) return { named: [], tie: null };
  const tied = sizes.filter((c) => c === last.chars).length;
  const all = sizes.length > 1 && tied === sizes.length;
  if (!all && tied <= largest.filter((t) => t.chars === last.chars).length) return { named: [...largest], tie: null };
  return { named: largest.filter((t) => t.chars > last.chars), tie: { count: tied, chars: last.chars, all } };
}

/** A tie in words: "none stands out: all 240 tools are 1,044 characters each", or "12 tools of 1,044 characters each". */
export function tieWords(tie: NonNullable<LargestSummary["tie"]>): string {
  return tie.all ? `none stands out: all ${formatCount(tie.count)} tools are ${formatCount(tie.chars)} characters each` : `${formatCount(tie.count)} tools of ${formatCount(tie.chars)} characters each`;
}

/**
 * The largest tools as a sentence names them, at most three, a nameless entry by its place:
 * `export_all (200,000), entry 2 (60,000)`. `show` makes a name fit for where it is printed.
 */
export function largestNamed(largest: readonly LargestTool[], show: (name: string) => string = (name) => name): string {
  return largest
    .slice(0, 3)
    .map((t) => `${show(t.name ?? `entry ${t.index + 1}`)} (${formatCount(t.chars)})`)
    .join(", ");
}

/**
 * The leader's sentence for a listing past the bound (SPEC §7): the total and the bound (or,
 * when reading stopped, the bound it passed and where it stopped), and the largest tools.
 */
export function listingTooLargeMessage(app: string, chars: number, limit: number, stopped: boolean, largest: readonly LargestTool[], sizes?: readonly number[]): string {
  // Where reading stopped is no size: the limit it passed is said, and where it stopped in brackets.
  const size = stopped ? `pass the limit of ${formatCount(limit)} characters (reading stopped at ${formatCount(chars)})` : `come to ${formatCount(chars)} characters, over the limit of ${formatCount(limit)}`;
  const { named: top, tie } = sizes === undefined ? { named: largest, tie: null } : largestSummary(largest, sizes);
  const named = largestNamed(top);
  const tail =
    tie === null
      ? named === ""
        ? ""
        : `; the largest tools are ${named}`
      : tie.all
        ? `; ${tieWords(tie)}`
        : `; the largest tools are ${named === "" ? "" : `${named}, then `}${tieWords(tie)}`;
  return `${app} is unavailable: its tools ${size}${tail}.`;
}
