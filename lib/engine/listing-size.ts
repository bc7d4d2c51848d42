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
 * A value nested too deep for `JSON.stringify` is measured by an iterative walk that
 * counts the same text.
 */
export function entryChars(entry: unknown): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(entry);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return deepJsonChars(entry);
  }
  return text === undefined ? 0 : codePoints(text);
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

export const LARGEST_COUNT = 5;

/** The largest tools by size, biggest first (ties: listing order), without sorting them all. */
export function largestTools(tools: readonly LargestTool[], count = LARGEST_COUNT): LargestTool[] {
  const top: LargestTool[] = [];
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

/**
 * The leader's sentence for a listing past the bound (SPEC §7): the total (or "more than N"
 * when reading stopped), the bound and the largest tools.
 */
export function listingTooLargeMessage(app: string, chars: number, limit: number, stopped: boolean, largest: readonly LargestTool[]): string {
  const total = stopped ? `more than ${formatCount(chars)}` : formatCount(chars);
  const named = largest
    .slice(0, 3)
    .map((t) => `${t.name ?? `entry ${t.index + 1}`} (${formatCount(t.chars)})`)
    .join(", ");
  const tail = named === "" ? "" : `; the largest tools are ${named}`;
  return `${app} is unavailable: its tools come to ${total} characters, over the limit of ${formatCount(limit)}${tail}.`;
}
