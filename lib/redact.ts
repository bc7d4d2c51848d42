import type { AppListing } from "@/lib/engine/check";
import { entryChars } from "@/lib/engine/listing-size";

/**
 * Secrets (SPEC §10) as they show: header values, OAuth tokens and URL query parameters named
 * like secrets are `…` in whatever an app's text, an answer or the audit log would repeat.
 */

/** What a secret shows as. */
const HIDDEN = "…";

/** Secrets shorter than this are not looked for (a two-letter header value would blank every word it appears in). */
const SHORTEST = 4;

/** A query parameter whose name says it holds a secret (SPEC §10): `api_key`, `access_token`, `sig`, `X-Amz-Signature` */
const SECRET_PARAM = /token|key|secret|password|auth|sig|code/i;

/** Whether a URL query parameter of this name is a secret. */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

/** The values looked for: each secret, and for `Bearer <token>` the token alone; long enough, longest first. */
function wordsOf(secrets: readonly string[]): string[] {
  const words = new Set<string>();
  for (const secret of secrets) {
    for (const value of [secret, secret.replace(/^bearer\s+/i, "")]) if (value.trim().length >= SHORTEST) words.add(value);
  }
  return [...words].sort((a, b) => b.length - a.length);
}

/** Whether `text` could hold one of `words`, whole or cut short (a quick test before the work of taking them out). */
const mayHold = (text: string, words: readonly string[]) => words.some((word) => text.includes(word.slice(0, SHORTEST)));

/**
 * `text` with every secret in it replaced by `…`: whole, and cut short at the end of a quote
 * (`bad token abc…` where the app's words were cut). For `Bearer <token>` the token alone too.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of wordsOf(secrets)) {
    out = out.split(secret).join(HIDDEN);
    // A quote cut inside the secret ends in "…": its beginning goes too.
    for (let cut = secret.length - 1; cut >= SHORTEST; cut--) {
      const start = secret.slice(0, cut);
      if (out.includes(`${start}${HIDDEN}`)) out = out.split(`${start}${HIDDEN}`).join(HIDDEN);
    }
  }
  return out;
}

/** The words as JSON writes them inside its quotes. */
const quotedWords = (words: readonly string[]) => words.map((word) => JSON.stringify(word).slice(1, -1));

/** A JSON string literal (its quotes and escapes included). */
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

/**
 * JSON data (an answer, a tool as listed) with every secret in its strings, keys included,
 * replaced by `…`; the value itself when none is there. Numbers and the JSON's own words are
 * never touched, whatever a secret looks like.
 */
export function redactJson<T>(value: T, secrets: readonly string[]): T {
  const words = wordsOf(secrets);
  if (words.length === 0) return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return value; // deeper than JSON goes: not text anything shows
  }
  const quoted = quotedWords(words);
  if (text === undefined || !mayHold(text, quoted)) return value;
  const redacted = text.replace(STRING_LITERAL, (literal) => (mayHold(literal, quoted) ? redactSecrets(literal, quoted) : literal));
  if (redacted === text) return value;
  try {
    return JSON.parse(redacted) as T;
  } catch {
    // A secret that began inside an escape (`\n…`): each string taken out as it reads.
    return JSON.parse(text, (_key, v: unknown) => (typeof v === "string" ? redactSecrets(v, secrets) : v)) as T;
  }
}

/**
 * A read's listing without the secrets it was read with (its header values, token and the URL's
 * query secrets), should the app's reason or its tools repeat them. Entries changed are measured again.
 */
export function redactListing<L extends AppListing>(listing: L, secrets: readonly string[]): L {
  const words = wordsOf(secrets);
  if (words.length === 0) return listing;
  let out = listing;
  if (listing.unavailable != null) {
    const message = redactSecrets(listing.unavailable.message, secrets);
    if (message !== listing.unavailable.message) out = { ...out, unavailable: { ...listing.unavailable, message } };
  }
  // One look at the whole listing first: most never repeat what they were sent (1,000 tools: under a millisecond).
  if (!mayHold(entriesText(listing.entries), quotedWords(words))) return out;
  const entries = listing.entries.map((entry) => redactJson(entry, secrets));
  if (entries.some((entry, i) => entry !== listing.entries[i])) {
    const sizes = listing.entrySizes?.length === entries.length ? listing.entrySizes.map((size, i) => (entries[i] === listing.entries[i] ? size : entryChars(entries[i]))) : undefined;
    out = { ...out, entries, ...(sizes !== undefined ? { entrySizes: sizes } : {}) };
  }
  return out;
}

/** The entries as JSON text, or each one's where the whole is deeper than JSON.stringify goes. */
function entriesText(entries: readonly unknown[]): string {
  try {
    return JSON.stringify(entries);
  } catch {
    return entries.map((entry) => {
      try {
        return JSON.stringify(entry) ?? "";
      } catch {
        return "";
      }
    }).join(",");
  }
}

/** A URL cut into what comes before its query, the query's `name=value` pairs as written, and its fragment. */
function splitUrl(url: string): { head: string; pairs: string[]; tail: string } {
  const hash = url.indexOf("#");
  const tail = hash === -1 ? "" : url.slice(hash);
  const body = hash === -1 ? url : url.slice(0, hash);
  const mark = body.indexOf("?");
  if (mark === -1) return { head: body, pairs: [], tail };
  return { head: body.slice(0, mark + 1), pairs: body.slice(mark + 1).split("&"), tail };
}

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
};

/** A pair's name (decoded) and value (as written), or null for a pair with no `=`. */
function pairOf(pair: string): { name: string; value: string } | null {
  const eq = pair.indexOf("=");
  return eq === -1 ? null : { name: decoded(pair.slice(0, eq)), value: pair.slice(eq + 1) };
}

/** Whether a value written in a URL is the `…` a shown URL holds (as typed, or as a browser encodes it). */
const isHidden = (value: string) => value === HIDDEN || value.toUpperCase() === "%E2%80%A6";

/** The values of the URL's secret query parameters, as written and decoded (`?api_key=a%2Fb` → `a%2Fb`, `a/b`). */
export function querySecrets(url: string): string[] {
  const found = new Set<string>();
  for (const pair of splitUrl(url).pairs) {
    const p = pairOf(pair);
    if (p === null || p.value === "" || isHidden(p.value) || !isSecretParam(p.name)) continue;
    found.add(p.value);
    found.add(decoded(p.value));
  }
  return [...found];
}

/** The URL as answers, the audit log and the list show it: each secret query parameter's value `…`, the rest as given. */
export function shownUrl(url: string): string {
  const { head, pairs, tail } = splitUrl(url);
  if (pairs.length === 0) return url;
  const shown = pairs.map((pair) => {
    const p = pairOf(pair);
    return p === null || p.value === "" || !isSecretParam(p.name) ? pair : `${pair.slice(0, pair.indexOf("=") + 1)}${HIDDEN}`;
  });
  return `${head}${shown.join("&")}${tail}`;
}

/**
 * The URL to read, from one given with `…` in place of a secret query parameter's value (a
 * shown URL, edited): each `…` takes the value of the parameter of that name (the same
 * occurrence) in `stored`, the URL as last given. Null when a `…` has no value to take.
 */
export function filledUrl(given: string, stored: string | null): string | null {
  const { head, pairs, tail } = splitUrl(given);
  const known = new Map<string, string[]>();
  for (const pair of stored === null ? [] : splitUrl(stored).pairs) {
    const p = pairOf(pair);
    if (p !== null) known.set(p.name, [...(known.get(p.name) ?? []), p.value]);
  }
  const used = new Map<string, number>();
  const filled: string[] = [];
  for (const pair of pairs) {
    const p = pairOf(pair);
    if (p === null || !isSecretParam(p.name)) {
      filled.push(pair);
      continue;
    }
    const nth = used.get(p.name) ?? 0;
    used.set(p.name, nth + 1);
    if (!isHidden(p.value)) {
      filled.push(pair);
      continue;
    }
    const value = known.get(p.name)?.[nth];
    if (value === undefined || isHidden(value)) return null;
    filled.push(`${pair.slice(0, pair.indexOf("=") + 1)}${value}`);
  }
  return pairs.length === 0 ? given : `${head}${filled.join("&")}${tail}`;
}

/** Every secret a read or try of `app` is sent with: its header values (a token among them) and its URL's query secrets. */
export function secretsOf(app: { url?: string | undefined; headers?: Readonly<Record<string, string>> | undefined }): string[] {
  return [...Object.values(app.headers ?? {}), ...(app.url === undefined ? [] : querySecrets(app.url))];
}
