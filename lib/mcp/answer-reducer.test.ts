import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CutShortError, JsonReducer, NotJsonError, pathKey, type ReducerOptions } from "./answer-reducer";

const WIDE: ReducerOptions = { cutAt: Number.MAX_SAFE_INTEGER, keepBytes: Number.MAX_SAFE_INTEGER, skipDepth: 3 };

/** Feeds `text` in chunks cut at `cuts` (byte offsets) and answers the reduced text and the reducer. */
function reduce(text: string | Buffer, options: ReducerOptions = WIDE, cuts: number[] = []) {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const reducer = new JsonReducer(options);
  const at = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    out.push(reducer.push(bytes.subarray(from, cut)));
    from = cut;
  }
  reducer.end();
  return { text: Buffer.concat(out).toString("utf8"), reducer };
}

describe("JsonReducer", () => {
  it("passes any JSON on as the same value, however it is split", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (value, cuts, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const bytes = Buffer.from(text);
        expect(JSON.parse(reduce(text, WIDE, cuts.map((c) => c % (bytes.length + 1))).text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("cuts long strings, on whole characters and whole escapes, and stays JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 12 }), fc.array(fc.nat(), { maxLength: 6 }), (value, cutAt, cuts) => {
        const text = JSON.stringify(value);
        const { text: out } = reduce(text, { ...WIDE, cutAt }, cuts.map((c) => c % (text.length + 1)));
        const reduced: unknown = JSON.parse(out);
        // Every string is a prefix of the original (a character cut across chunks may end as U+FFFD).
        const check = (a: unknown, b: unknown): void => {
          if (typeof b === "string") {
            expect(typeof a).toBe("string");
            const kept = (a as string).replace(/\uFFFD$/, "");
            expect(b.startsWith(kept)).toBe(true);
          } else if (Array.isArray(b)) {
            expect((a as unknown[]).length).toBe(b.length);
            b.forEach((x, i) => check((a as unknown[])[i], x));
          } else if (typeof b === "object" && b !== null) {
            for (const k of Object.keys(a as object)) expect(Object.hasOwn(b, k) || Object.keys(b).some((key) => key.startsWith(k.replace(/\uFFFD$/, "")))).toBe(true);
          } else {
            expect(a).toEqual(b);
          }
        };
        // Against what the text says (JSON has no -0: the generated -0 reads back as 0).
        check(reduced, JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("records a cut string's path and decoded size", () => {
    const text = JSON.stringify({ result: { content: [{ type: "text", text: "é".repeat(100) + "\n" }] } });
    const { text: out, reducer } = reduce(text, { ...WIDE, cutAt: 11 });
    expect((JSON.parse(out) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe("ééééé");
    expect(reducer.cuts.get(pathKey(["result", "content", 0, "text"]))).toBe(201);
  });

  it("never passes half an escape", () => {
    const { text } = reduce(JSON.stringify({ s: 'ab"\u00e9' }).replace("é", "\\u00e9"), { ...WIDE, cutAt: 5 });
    expect(JSON.parse(text)).toEqual({ s: 'ab"' });
  });

  it("leaves out deep array items once past keepBytes, and counts them", () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ type: "text", text: `item ${i}` }));
    const text = JSON.stringify({ jsonrpc: "2.0", id: 3, result: { content: items, structuredContent: { rows: [1, 2, 3] } } });
    const { text: out, reducer } = reduce(text, { cutAt: 1000, keepBytes: 200, skipDepth: 3 }, [17, 100, 333]);
    const reduced = JSON.parse(out) as { id: number; result: { content: unknown[]; structuredContent: { rows: number[] } } };
    expect(reduced.id).toBe(3);
    expect(reduced.result.content.length).toBeGreaterThan(0);
    expect(reduced.result.content.length).toBeLessThan(100);
    expect(reduced.result.content).toEqual(items.slice(0, reduced.result.content.length));
    expect(reducer.skipped.get(pathKey(["result", "content"]))).toBe(100 - reduced.result.content.length);
    // Shallower arrays and objects keep everything.
    expect(reduced.result.structuredContent).toEqual({ rows: [] });
    expect(reducer.skipped.get(pathKey(["result", "structuredContent", "rows"]))).toBe(3);
  });

  it("measures the values at the paths it is asked to", () => {
    const structured = { a: [1, 2, { b: "c" }] };
    const text = `{"result":{"structuredContent":${JSON.stringify(structured)},"n":12}}`;
    const { reducer } = reduce(text, { ...WIDE, measure: [["result", "structuredContent"], ["result", "n"]] }, [20, 30]);
    expect(reducer.sizes.get(pathKey(["result", "structuredContent"]))).toBe(JSON.stringify(structured).length);
    expect(reducer.sizes.get(pathKey(["result", "n"]))).toBe(2);
  });

  it("reads a 17 MiB string passing on only its start", () => {
    const reducer = new JsonReducer({ cutAt: 64 * 1024, keepBytes: 256 * 1024, skipDepth: 3 });
    let out = reducer.push(Buffer.from('{"result":{"content":[{"type":"text","text":"')).length;
    const block = Buffer.alloc(1024 * 1024, 0x78);
    for (let i = 0; i < 17; i++) out += reducer.push(block).length;
    out += reducer.push(Buffer.from('"}]}}')).length;
    reducer.end();
    expect(out).toBeLessThan(65 * 1024);
    expect(reducer.cuts.get(pathKey(["result", "content", 0, "text"]))).toBe(17 * 1024 * 1024);
  });

  it.each([
    ["<html>", "expected a JSON value but found “<” at byte 1"],
    ['{"a" 1}', "expected “:” but found “1” at byte 6"],
    ['{"a":1,}', "expected a key (a string) but found “}” at byte 8"],
    ["[1 2]", "expected “,” or “]” but found “2” at byte 4"],
    ['{"a":1} x', "found “x” after the end of the JSON value at byte 9"],
    ['"\\q"', "found the escape “\\q”, which JSON does not have, at byte 3"],
    ["[nope]", "found “nope”, which is not a JSON value, at byte 2"],
  ])("refuses %s as not JSON", (text, message) => {
    expect(() => reduce(text)).toThrow(NotJsonError);
    expect(() => reduce(text)).toThrow(message);
  });

  it.each([[""], ['{"result":'], ['{"a":"unterminated'], ["[1,"]])("says %j ended before its JSON did", (text) => {
    expect(() => reduce(text)).toThrow(CutShortError);
  });
});
