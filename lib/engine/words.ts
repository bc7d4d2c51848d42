const ASCII = /^[\x00-\x7f]*$/;

/**
 * Splits a name into words at `_`, `-`, white space and lower→upper case changes:
 * `getUserByID` → `get`, `User`, `By`, `ID`; `ORDER-ID` → `ORDER`, `ID`.
 */
export function splitWords(name: string): string[] {
  if (!ASCII.test(name)) return splitUnicodeWords(name);
  // The same split for the usual ASCII name, without regular expressions (the hot path).
  const words: string[] = [];
  let start = -1;
  let prevLower = false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x5f || c === 0x2d || c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      if (start >= 0) words.push(name.slice(start, i));
      start = -1;
      prevLower = false;
      continue;
    }
    if (start < 0) start = i;
    else if (prevLower && c >= 0x41 && c <= 0x5a) {
      words.push(name.slice(start, i));
      start = i;
    }
    prevLower = c >= 0x61 && c <= 0x7a;
  }
  if (start >= 0) words.push(name.slice(start));
  return words;
}

function splitUnicodeWords(name: string): string[] {
  return name
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[_\-\s]+/u)
    .filter((w) => w.length > 0);
}

const allCapitals = /^(?=.*\p{Lu})[\p{Lu}\p{N}]+$/u;

/**
 * Makes a label from a name (SPEC §3): words lower-cased except all-capital ones, first
 * letter capitalised. `clock_in` → `Clock in`; `getUserByID` → `Get user by ID`.
 */
export function labelFromName(name: string): string {
  const words = splitWords(name).map((w) => (allCapitals.test(w) ? w : w.toLowerCase()));
  const text = words.join(" ");
  if (text.length === 0) return name;
  const first = String.fromCodePoint(text.codePointAt(0)!);
  return first.toUpperCase() + text.slice(first.length);
}

const MEMO_MAX = 10_000;

/**
 * Remembers a pure function of a name for names that repeat across tools (argument names
 * such as `id` or `note`); forgets everything once it holds 10,000 names.
 */
export function memoByName<V>(fn: (name: string) => V): (name: string) => V {
  const cache = new Map<string, V>();
  return (name) => {
    let v = cache.get(name);
    if (v === undefined) {
      v = fn(name);
      if (cache.size >= MEMO_MAX) cache.clear();
      cache.set(name, v);
    }
    return v;
  };
}
