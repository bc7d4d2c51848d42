/** A JSON object: an object that is neither null nor an array. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Where a JSON text broke, from the position V8 reports: 1-based line and column. */
export function jsonErrorAt(text: string, message: string): { position: number; line: number; column: number } | undefined {
  const m = /position (\d+)/.exec(message);
  let position: number;
  if (m) position = Number(m[1]);
  else if (/end of JSON input|Unterminated/i.test(message)) position = text.length;
  // V8 (Node 20+) names no position for `Unexpected token 'x', "…" is not valid JSON`: find it
  else if (/Unexpected token/i.test(message)) position = firstBadPosition(text);
  else return undefined;
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return { position, line, column };
}

type JsonParse = { ok: true; value: unknown } | { ok: false; message: string; at?: { position: number; line: number; column: number } };

/** Parses JSON text, saying where it broke when it is not JSON. */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = jsonErrorAt(text, message);
    return at === undefined ? { ok: false, message } : { ok: false, message, at };
  }
}

/** The sentence for text that is not JSON: where it breaks, then V8's own words. */
export function notJsonSentence(failed: Extract<JsonParse, { ok: false }>): string {
  const where = failed.at ? `line ${failed.at.line}, column ${failed.at.column}` : "an unknown place";
  return `Not valid JSON: it breaks at ${where} (${failed.message}).`;
}

/**
 * Where JSON text first breaks, for V8 messages that give no position (`Unexpected token 'x',
 * "…" is not valid JSON`): a small scanner of the JSON grammar, iterative so any depth is fine.
 * Returns the offset of the first character that cannot continue a JSON text.
 */
function firstBadPosition(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const stack: ("[" | "{")[] = [];
  // states: value, after-value, key (after `{` or `,` in an object), colon
  let want: "value" | "first-value" | "after" | "key" | "first-key" | "colon" = "value";
  for (;;) {
    ws();
    if (i >= text.length) return i;
    const c = text[i]!;
    if (want === "value" || want === "first-value") {
      if (want === "first-value" && c === "]") {
        stack.pop();
        i++;
        want = "after";
      } else if (c === "{") {
        stack.push("{");
        i++;
        want = "first-key";
      } else if (c === "[") {
        stack.push("[");
        i++;
        want = "first-value";
      } else if (c === '"') {
        const end = stringEnd(text, i);
        if (end < 0) return -end - 1;
        i = end;
        want = "after";
      } else if (c === "-" || (c >= "0" && c <= "9")) {
        const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
        if (m === null) return i + 1;
        i += m[0].length;
        want = "after";
      } else {
        for (const word of ["true", "false", "null"]) {
          if (word[0] === c) {
            for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) return i + k;
            i += word.length;
            want = "after";
            break;
          }
        }
        if (want !== "after") return i;
      }
    } else if (want === "after") {
      const top = stack[stack.length - 1];
      if (top === undefined) return i; // something after the whole value
      if (c === ",") {
        i++;
        want = top === "[" ? "value" : "key";
      } else if ((c === "]" && top === "[") || (c === "}" && top === "{")) {
        stack.pop();
        i++;
      } else return i;
    } else if (want === "key" || want === "first-key") {
      if (want === "first-key" && c === "}") {
        stack.pop();
        i++;
        want = "after";
      } else if (c === '"') {
        const end = stringEnd(text, i);
        if (end < 0) return -end - 1;
        i = end;
        want = "colon";
      } else return i;
    } else {
      if (c !== ":") return i;
      i++;
      want = "value";
    }
  }
}

/** The offset after a JSON string starting at `start`, or -(bad offset)-1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -i - 1;
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -(i + 2) - 1;
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else return -(i + 1) - 1;
    }
  }
  return -text.length - 1;
}

/**
 * How deep the arrays and objects of JSON text nest (`[]` is 1, `{"a":[1]}` 2), in one pass
 * that skips strings; text that is not JSON still gets a number (its brackets outside strings).
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if ((c === 0x7d || c === 0x5d) && depth > 0) depth--;
  }
  return deepest;
}
