/** Where a JSON text broke, from the position V8 reports: 1-based line and column. */
export function jsonErrorAt(text: string, message: string): { position: number; line: number; column: number } | undefined {
  const m = /position (\d+)/.exec(message);
  let position: number;
  if (m) position = Number(m[1]);
  else if (/end of JSON input|Unterminated/i.test(message)) position = text.length;
  else return undefined;
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return { position, line, column };
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; message: string; at?: { position: number; line: number; column: number } };

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
