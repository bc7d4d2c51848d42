import { describe, expect, it } from "vitest";
import { jsonErrorAt, parseJson, jsonDepth } from "./json-text";

describe("parseJson", () => {
  it("parses JSON text", () => {
    expect(parseJson('{"a": [1, "é"]}')).toEqual({ ok: true, value: { a: [1, "é"] } });
    expect(parseJson("null")).toEqual({ ok: true, value: null });
  });

  it.each([
    ['{"a":1', 1, 7],
    ['[1,2', 1, 5],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3],
    ['{"a":1,}', 1, 8],
    ['{} x', 1, 4],
    ['"\\q"', 1, 3],
    ['{"a" 1}', 1, 6],
    ['{"a":"abc', 1, 10],
    ["", 1, 1],
    ["nul", 1, 4],
    ["\n\n[", 3, 2],
  ])("says where %j breaks: line %i, column %i", (text, line, column) => {
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.at).toMatchObject({ line, column });
    expect(parsed.message.length).toBeGreaterThan(0);
  });

  it("counts the position in the text, so a line's column restarts after each new line", () => {
    const text = '[\n1,\n2,\n]';
    const parsed = parseJson(text);
    if (parsed.ok) throw new Error("expected a failure");
    if (parsed.at !== undefined) {
      expect(text.slice(0, parsed.at.position).split("\n")).toHaveLength(parsed.at.line);
    }
  });
});

describe("jsonErrorAt", () => {
  it("reads V8's position", () => {
    expect(jsonErrorAt('{"a":1', "Expected ',' or '}' after property value in JSON at position 6")).toEqual({ position: 6, line: 1, column: 7 });
    expect(jsonErrorAt('{\n"a":1', "Expected ',' or '}' after property value in JSON at position 7")).toEqual({ position: 7, line: 2, column: 6 });
  });

  it("puts an early end at the end of the text", () => {
    expect(jsonErrorAt("[1,\n", "Unexpected end of JSON input")).toEqual({ position: 4, line: 2, column: 1 });
  });

  it("gives no place for a message without one", () => {
    expect(jsonErrorAt("x", "Something else")).toBeUndefined();
  });
});

describe("positions V8 does not give", () => {
  it.each([
    ['{"a":}', 1, 6],
    ['{\n "a": 1,\n "b": x\n}', 3, 7],
    ["[1,]", 1, 4],
    ['{"apps": [{"name": "A", "tools": nope}]}', 1, 35],
  ])("%j breaks at line %i, column %i", (text, line, column) => {
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.at).toMatchObject({ line, column });
  });
});

describe("jsonDepth", () => {
  it.each([
    ["1", 0],
    ["[]", 1],
    ['{"a":[1,{"b":2}]}', 3],
    ['{"a":"[[[[{{{{"}', 1],
    ['["\\"[[[", []]', 2],
    ["[[]][[[]]]", 3],
    ["]]]][", 1],
  ])("%s nests %i deep", (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });

  it("counts 100,000 levels in one pass", () => {
    expect(jsonDepth("[".repeat(100_000) + "]".repeat(100_000))).toBe(100_000);
  });
});
