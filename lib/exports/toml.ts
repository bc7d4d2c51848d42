/**
 * The little TOML the exports write (SPEC §26: Codex's `config.toml`, Gemini CLI's policy file),
 * and a reader of that same subset: tables and arrays of tables with quoted or bare keys, and
 * values that are strings, integers, booleans, one-line arrays of strings and inline tables of
 * strings. No TOML parser is among the dependencies; this reads what `toml.ts` writes, no more.
 */

/** A TOML basic string: JSON's escapes, which TOML shares, with DEL escaped too (TOML forbids it raw). */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, "\\u007F");
}

/** A key: bare when TOML allows it bare, else quoted. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

export const tomlArray = (values: readonly string[]) => `[${values.map(tomlString).join(", ")}]`;
export const tomlInline = (entries: readonly [string, string][]) => `{ ${entries.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(", ")} }`;

type TomlValue = string | number | boolean | string[] | TomlTable | TomlTable[];
export interface TomlTable {
  [key: string]: TomlValue;
}

/** Reads the subset above; throws on anything else (a test then fails, rather than reading it wrong). */
export function parseToml(text: string): TomlTable {
  const root: TomlTable = {};
  let current = root;
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`TOML: ${why} at ${at} in ${JSON.stringify(text.slice(at, at + 40))}`);
  };
  const ws = () => {
    while (at < text.length && (text[at] === " " || text[at] === "\t")) at++;
  };
  const str = (): string => {
    if (text[at] !== '"') fail("a string");
    let end = at + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
    const raw = text.slice(at, end + 1);
    at = end + 1;
    return JSON.parse(raw) as string;
  };
  const key = (): string => {
    ws();
    if (text[at] === '"') return str();
    const m = /^[A-Za-z0-9_-]+/.exec(text.slice(at));
    if (m === null) return fail("a key");
    at += m[0].length;
    return m[0];
  };
  const path = (): string[] => {
    const keys = [key()];
    ws();
    while (text[at] === ".") {
      at++;
      keys.push(key());
      ws();
    }
    return keys;
  };
  const value = (): TomlValue => {
    ws();
    const c = text[at];
    if (c === '"') return str();
    if (c === "[") {
      at++;
      const items: string[] = [];
      for (;;) {
        ws();
        if (text[at] === "]") break;
        items.push(str());
        ws();
        if (text[at] === ",") at++;
      }
      at++;
      return items;
    }
    if (c === "{") {
      at++;
      const table: TomlTable = {};
      for (;;) {
        ws();
        if (text[at] === "}") break;
        const k = key();
        ws();
        if (text[at] !== "=") fail("=");
        at++;
        ws();
        table[k] = str();
        ws();
        if (text[at] === ",") at++;
      }
      at++;
      return table;
    }
    const m = /^(true|false|-?[0-9]+)/.exec(text.slice(at));
    if (m === null) return fail("a value");
    at += m[0].length;
    return m[0] === "true" ? true : m[0] === "false" ? false : Number(m[0]);
  };
  const descend = (keys: string[], from: TomlTable): TomlTable => {
    let t = from;
    for (const k of keys) {
      const next = t[k];
      if (next === undefined) t = t[k] = {};
      else if (Array.isArray(next)) t = next[next.length - 1] as TomlTable;
      else if (typeof next === "object") t = next;
      else fail(`${k} is not a table`);
    }
    return t;
  };
  while (at < text.length) {
    ws();
    const c = text[at];
    if (c === "\n" || c === "\r") {
      at++;
      continue;
    }
    if (c === "#") {
      while (at < text.length && text[at] !== "\n") at++;
      continue;
    }
    if (c === "[" && text[at + 1] === "[") {
      at += 2;
      const keys = path();
      if (text.slice(at, at + 2) !== "]]") fail("]]");
      at += 2;
      const parent = descend(keys.slice(0, -1), root);
      const last = keys[keys.length - 1]!;
      const list = (parent[last] ??= []) as TomlTable[];
      if (!Array.isArray(list)) fail(`${last} is not an array of tables`);
      list.push((current = {}));
      continue;
    }
    if (c === "[") {
      at++;
      const keys = path();
      if (text[at] !== "]") fail("]");
      at++;
      current = descend(keys, root);
      continue;
    }
    const keys = path();
    if (text[at] !== "=") fail("=");
    at++;
    const v = value();
    const parent = descend(keys.slice(0, -1), current);
    const last = keys[keys.length - 1]!;
    if (last in parent) fail(`${last} is defined twice`);
    parent[last] = v;
    ws();
    if (text[at] === "#") while (at < text.length && text[at] !== "\n") at++;
    if (at < text.length && text[at] !== "\n" && text[at] !== "\r") fail("the end of the line");
  }
  return root;
}
