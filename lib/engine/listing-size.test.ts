import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePoints, entryChars, formatCount, largestSummary, largestTools, listingTooLargeMessage } from "./listing-size";

const deepArray = (depth: number, leaf: unknown = 1): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const deepObject = (depth: number): unknown => {
  let v: unknown = { é: "😀" };
  for (let i = 0; i < depth; i++) v = { k: v, n: null };
  return v;
};

describe("codePoints", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["é", 1],
    ["e\u0301", 2],
    ["😀", 1],
    ["a😀b😀", 4],
    ["\uD800", 1], // a lone surrogate is one code point
    ["\uDC00\uD800", 2], // low then high: not a pair
  ])("%j has %i", (text, n) => {
    expect(codePoints(text)).toBe(n);
    expect(codePoints(text)).toBe(Array.from(text).length);
  });
});

describe("entryChars (SPEC §7)", () => {
  it("counts the code points of JSON.stringify(entry), not UTF-16 units", () => {
    const entry = { name: "clock_in", title: "Pointage 😀🕐", description: "Café" };
    const text = JSON.stringify(entry);
    expect(entryChars(entry)).toBe(Array.from(text).length);
    expect(entryChars(entry)).toBe(text.length - 2);
  });

  it.each([null, 3, "x", true, [], {}, [1, "😀"], { a: undefined, b: () => 1 }])("measures %j as JSON.stringify does", (entry) => {
    expect(entryChars(entry)).toBe(Array.from(JSON.stringify(entry)).length);
  });

  const reference = (v: unknown) => {
    const text = JSON.stringify(v);
    return text === undefined ? 0 : Array.from(text).length;
  };

  it.each([
    ["escapes", { 'k"\\': 'a"b\\c\n\r\t\b\f\u0000\u001f\u007f' }],
    ["lone surrogates", { "\uD800": ["\uDC00", "x\uD83D", "\uDE00y", "😀"] }],
    // long strings (24 units or more) are measured by the regular expression alone
    ["long strings with every kind of special", ["Why, in a sentence — shown to the person (e.g. « congé », 休暇, 😀).", `${"x".repeat(30)}a"b\\c\n\u0001😀\uD800\uDC00\uDC00\uD83D`, `${"😀".repeat(20)}\uD83D`, `\uDE00${"y".repeat(40)}\uD83D\uDE00`]],
    ["numbers", [0, -0, 1, -1, 9, 10, 99, 100, 1.5, -0.25, 1e-7, 1e15, 1e21, 2 ** 53, -(2 ** 60), Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity]],
    ["skipped values", [undefined, () => 1, Symbol("s"), { a: undefined, b: () => 1, c: Symbol("s"), d: 1 }]],
    ["holes", [1, , 3]],
    ["a Date (toJSON)", { when: new Date(0) }],
    ["a Map and a Set", [new Map([[1, 2]]), new Set([1])]],
    ["a boxed string", [Object("x") as object]],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { a: 1 })],
    ["an own __proto__ key", JSON.parse('{"__proto__": {"x": [1]}, "constructor": "c"}') as unknown],
    ["nested empties", { a: [], b: {}, c: [[], [{}]] }],
  ])("measures %s exactly as JSON.stringify writes them", (_what, value) => {
    expect(entryChars(value)).toBe(reference(value));
  });

  it("measures an own toJSON as JSON.stringify calls it", () => {
    const value = { a: 1, inner: { toJSON: () => "x", b: [1, 2, 3] } };
    expect(entryChars(value)).toBe(reference(value));
    expect(entryChars({ toJSON: "not a function", a: 1 })).toBe(reference({ toJSON: "not a function", a: 1 }));
  });

  it("stays exact when the shared prototypes were changed", () => {
    const value = { name: "t", tags: ["a", "b"], inner: { x: 1 } };
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto["polluted"] = "yes"; // enumerable, inherited by every object: JSON.stringify skips it
      expect(entryChars(value)).toBe(reference(value));
      delete proto["polluted"];
      Object.defineProperty(Array.prototype, "toJSON", { value: () => "arr", configurable: true });
      expect(entryChars(value)).toBe(reference(value));
    } finally {
      delete proto["polluted"];
      delete (Array.prototype as unknown as Record<string, unknown>)["toJSON"];
    }
    expect(entryChars(value)).toBe(reference(value));
  });

  it("measures any JSON value exactly as JSON.stringify writes it", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.string({ unit: "binary" }), fc.string({ unit: "binary", minLength: 24, maxLength: 200 }), (value, text, long) => {
        expect(entryChars(value)).toBe(reference(value));
        expect(entryChars({ [text]: text })).toBe(reference({ [text]: text }));
        expect(entryChars([long])).toBe(reference([long]));
      }),
      { numRuns: 300 },
    );
  });

  it("counts an escaped lone surrogate as the six characters JSON writes", () => {
    expect(entryChars("\uD800")).toBe('"\\ud800"'.length);
  });

  it("measures an entry too deep for JSON.stringify by walking it, to the same count", () => {
    const mixed = (depth: number): unknown => {
      let v: unknown = "😀";
      for (let i = 0; i < depth; i++) v = [v, undefined, { a: undefined, b: "é", f: () => 1 }, () => 2];
      return v;
    };
    for (const make of [(d: number) => deepArray(d, "😀"), deepObject, mixed]) {
      // the size grows by the same amount each level: find it where JSON.stringify still works
      const at = (d: number) => Array.from(JSON.stringify(make(d))).length;
      const perLevel = at(2) - at(1);
      expect(at(50)).toBe(at(0) + 50 * perLevel);
      const depth = 200_000;
      expect(() => JSON.stringify(make(depth))).toThrow(RangeError);
      expect(entryChars(make(depth))).toBe(at(0) + depth * perLevel);
    }
  });
});

describe("largestTools", () => {
  const t = (index: number, chars: number) => ({ index, name: `t${index}`, chars });

  it("keeps the five largest, biggest first, ties in listing order", () => {
    const tools = [t(0, 5), t(1, 50), t(2, 7), t(3, 50), t(4, 1), t(5, 90), t(6, 7), t(7, 7), t(8, 2)];
    expect(largestTools(tools).map((x) => x.index)).toEqual([5, 1, 3, 2, 6]);
  });

  it("returns all when there are fewer", () => {
    expect(largestTools([t(0, 1), t(1, 3)]).map((x) => x.index)).toEqual([1, 0]);
    expect(largestTools([])).toEqual([]);
  });

  it("agrees with a full sort on many tools", () => {
    const tools = Array.from({ length: 2000 }, (_, i) => t(i, (i * 7919) % 1009));
    const sorted = [...tools].sort((a, b) => b.chars - a.chars || a.index - b.index).slice(0, 5);
    expect(largestTools(tools)).toEqual(sorted);
  });
});

describe("listingTooLargeMessage (SPEC §7)", () => {
  it("says the total, the bound and the largest tools", () => {
    const msg = listingTooLargeMessage("Attendance", 312_345, 250_000, false, [
      { index: 3, name: "export_all", chars: 200_000 },
      { index: 0, name: null, chars: 60_000 },
      { index: 1, name: "b", chars: 10 },
      { index: 2, name: "c", chars: 9 },
    ]);
    expect(msg).toBe(
      "Attendance is unavailable: its tools come to 312,345 characters, over the limit of 250,000; the largest tools are export_all (200,000), entry 1 (60,000), b (10).",
    );
  });

  it("counts tools that tie instead of naming some of them arbitrarily", () => {
    const same = Array.from({ length: 240 }, () => 1044);
    const five = largestTools(same.map((chars, index) => ({ index, name: `item_${index}`, chars })));
    expect(listingTooLargeMessage("Catalogue", 250_560, 250_000, false, five, same)).toBe(
      "Catalogue is unavailable: its tools come to 250,560 characters, over the limit of 250,000; none stands out: all 240 tools are 1,044 characters each.",
    );
    const sizes = [200_000, ...same];
    const top = largestTools(sizes.map((chars, index) => ({ index, name: index === 0 ? "export_all" : `item_${index}`, chars })));
    expect(listingTooLargeMessage("Catalogue", 450_560, 250_000, false, top, sizes)).toBe(
      "Catalogue is unavailable: its tools come to 450,560 characters, over the limit of 250,000; the largest tools are export_all (200,000), then 240 tools of 1,044 characters each.",
    );
  });

  it("says the limit it passed, and where reading stopped, when reading stopped: no total claimed", () => {
    expect(listingTooLargeMessage("A", 250_452, 250_000, true, [])).toBe(
      "A is unavailable: its tools pass the limit of 250,000 characters (reading stopped at 250,452).",
    );
  });

  it("formats counts with thousands separators", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
  });
});

describe("largestSummary", () => {
  const tools = (sizes: number[]) => largestTools(sizes.map((chars, index) => ({ index, name: `t${index}`, chars })));

  it.each([
    ["distinct sizes: all named", [5, 4, 3, 2, 1, 0], ["t0", "t1", "t2", "t3", "t4"], null],
    ["a tie wholly named: all named", [5, 4, 3, 2, 2, 1], ["t0", "t1", "t2", "t3", "t4"], null],
    ["a tie cut at the fifth: counted", [5, 4, 2, 2, 2, 2, 1], ["t0", "t1"], { count: 4, chars: 2, all: false }],
    ["every tool the same: none named", [7, 7, 7], [], { count: 3, chars: 7, all: true }],
    ["one tool: named", [7], ["t0"], null],
    ["no tool", [], [], null],
  ])("%s", (_, sizes, named, tie) => {
    const summary = largestSummary(tools(sizes), sizes);
    expect(summary.named.map((t) => t.name)).toEqual(named);
    expect(summary.tie).toEqual(tie);
  });
});
