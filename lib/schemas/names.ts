import type { z } from "zod";

/**
 * Names people give (an organisation, an app, a key, a group, a display name) are shown to
 * others: SPEC §10 refuses in them what would hide or reorder text, or what a database cannot
 * store (PostgreSQL refuses NUL in text). One check, added to each name's schema with `plainName`.
 */

/** Control characters (C0, DEL, C1) and the bidirectional controls U+200E/F, U+202A–E, U+2066–9. */
const HIDDEN = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** A surrogate that is not half of a pair (with the `u` flag a pair reads as one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The first character of `value` a name may not contain, as `U+XXXX`, or null. */
function hiddenCharacter(value: string): string | null {
  const found = HIDDEN.exec(value) ?? LONE_SURROGATE.exec(value);
  if (found === null) return null;
  return `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * `schema` refusing hidden characters (SPEC §10), with a message naming the one found:
 * `plainName(z.string().max(100))`; `what` says what it is when it is shown but not a name (`A version`).
 */
export function plainName<S extends z.ZodString>(schema: S, what = "A name"): S {
  return schema.refine((value) => hiddenCharacter(value) === null, {
    error: (issue) =>
      `${what} may not contain control characters, bidirectional controls or unpaired surrogates (it has ${hiddenCharacter(String(issue.input)) ?? "one"}).`,
  });
}

/**
 * `schema` refusing NUL (U+0000), for text a request gives that is stored or looked up beside
 * names (ids, URLs, tool names, query parameters): PostgreSQL's text cannot hold it, so it is a
 * 422 naming the field on both dialects, never the database's error.
 */
export function storable<S extends z.ZodString>(schema: S): S {
  return schema.refine((value) => !value.includes("\u0000"), { error: "This may not contain a NUL character (U+0000)." });
}
