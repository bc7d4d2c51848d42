import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entryChars } from "@/lib/engine/listing-size";
import { ToolsScanner } from "./listing-scan";

/** Writes every non-ASCII character as a `\u` escape, as some servers do (surrogate pairs as two). */
const escapeAll = (text: string) => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Feeds `text` to a scanner in pieces cut at `cuts`. */
function scan(text: string, cuts: number[], budget = Infinity, lazy = false): ToolsScanner {
  const scanner = new ToolsScanner(budget, lazy);
  let from = 0;
  for (const cut of [...cuts.map((c) => Math.floor(c * text.length))].sort((a, b) => a - b)) {
    scanner.push(text.slice(from, cut));
    from = cut;
  }
  scanner.push(text.slice(from));
  return scanner;
}

const answer = (tools: unknown[], indent: number) => JSON.stringify({ jsonrpc: "2.0", id: 3, result: { tools, nextCursor: "x" } }, null, indent);

describe("measuring entries as the answer streams", () => {
  it("counts each entry exactly as the engine does, however the text is cut, spaced or escaped", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }), { maxLength: 8 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (tools, cuts, indent, escaped) => {
          const text = answer(tools, indent);
          const scanner = scan(escaped ? escapeAll(text) : text, cuts);
          const parsed = JSON.parse(text) as { result: { tools: unknown[] } };
          expect(scanner.entries.map((e) => JSON.parse(e) as unknown)).toEqual(parsed.result.tools);
          expect(scanner.chars).toBe(parsed.result.tools.reduce((sum: number, t) => sum + entryChars(t), 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts numbers as JSON.stringify writes them, and strings with every kind of escape", () => {
    const text = String.raw`{"jsonrpc":"2.0","id":1,"result":{"tools":[1E9, -0, 1.50, 1e400, "a\/b\"c\\\n\u0001\u00e9\ud83d\ude00\ud800x😀é", {"k" : [true,false,null]}]}}`;
    const scanner = scan(text, [0.3, 0.7]);
    const tools = (JSON.parse(text) as { result: { tools: unknown[] } }).result.tools;
    expect(scanner.entries).toHaveLength(6);
    expect(scanner.chars).toBe(tools.reduce((sum: number, t) => sum + entryChars(t), 0));
  });

  it("says to stop at the first entry past the budget that another follows", () => {
    const tools = Array.from({ length: 10 }, (_, i) => ({ name: `t${i}`, description: "x".repeat(100) }));
    const each = entryChars(tools[0]);
    const scanner = scan(answer(tools, 0), [], each * 3 + 1);
    expect(scanner.past).toBe(true);
    expect(scanner.entries).toHaveLength(4);
    expect(scanner.chars).toBe(each * 4);
  });

  it("lets the last entry end the answer without a stop", () => {
    const tools = [{ name: "a" }, { name: "b" }];
    const scanner = scan(answer(tools, 0), [], 1);
    expect(scanner.past).toBe(true); // a comma follows the first, past the budget of 1
    const alone = scan(answer([{ name: "a" }], 0), [], 1);
    expect(alone.past).toBe(false);
    expect(alone.entries).toHaveLength(1);
  });

  it("holds a short answer unscanned, and scans it all once it could pass the budget", () => {
    const tools = Array.from({ length: 50 }, (_, i) => ({ name: `t${String(i).padStart(2, "0")}`, description: "x".repeat(100) }));
    const text = answer(tools, 0);
    const each = entryChars(tools[0]);
    const roomy = scan(text, [0.2, 0.5], text.length * 6, true);
    expect(roomy.entries).toEqual([]); // could not pass: not measured
    const tight = scan(text, [0.2, 0.5], each * 40, true);
    expect(tight.past).toBe(true);
    expect(tight.entries).toHaveLength(41);
    expect(tight.chars).toBe(each * 41);
  });

  it("holds an answer no longer than the budget unscanned, unless a number with an exponent could make it longer", () => {
    const tools = Array.from({ length: 50 }, (_, i) => ({ name: `t${String(i).padStart(2, "0")}`, description: "x".repeat(100) }));
    const text = answer(tools, 0);
    const held = scan(text, [0.2, 0.5], text.length, true);
    expect(held.entries).toEqual([]); // its entries come to less than its text: they cannot pass
    expect(held.past).toBe(false);
    // 9e20 is 21 characters as JSON.stringify writes it: 40 of them pass a budget the text is under
    const grown = [{ name: "big", sizes: Array.from({ length: 40 }, () => 9e20) }, { name: "next" }];
    const grownText = answer(grown, 0).replaceAll("900000000000000000000", "9e20");
    const budget = grownText.length + 10;
    expect(entryChars(grown[0])).toBeGreaterThan(budget);
    // each exponent whole, or each cut from its digit between two pieces
    for (const pieces of [[grownText], grownText.split(/(?=e20)/)]) {
      const scanner = new ToolsScanner(budget);
      pieces.forEach((piece) => scanner.push(piece));
      expect(scanner.past).toBe(true);
      expect(scanner.chars).toBe(entryChars(grown[0]));
    }
  });

  it("never finds entries longer than their text, in JSON without a number's exponent", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (tools, indent, escaped) => {
          const text = escaped ? escapeAll(answer(tools, indent)) : answer(tools, indent);
          fc.pre(!/[0-9][eE]/.test(text));
          const parsed = JSON.parse(text) as { result: { tools: unknown[] } };
          expect(parsed.result.tools.reduce((sum: number, t) => sum + entryChars(t), 0)).toBeLessThanOrEqual(text.length);
        },
      ),
      { numRuns: 300 },
    );
    // numbers as servers may write them, without an exponent: never longer as JSON.stringify writes them
    const literal = fc
      .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,40})$/), fc.option(fc.stringMatching(/^[0-9]{1,40}$/)))
      .map(([minus, whole, fraction]) => `${minus ? "-" : ""}${whole}${fraction === null ? "" : `.${fraction}`}`);
    fc.assert(
      fc.property(literal, (text) => {
        expect(entryChars(JSON.parse(text))).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 2000 },
    );
  });

  it("measures nothing outside result.tools", () => {
    const scanner = scan(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { tools: [{ name: "x" }], result: { tools: [1] } } }), []);
    expect(scanner.entries).toEqual([]);
    expect(scanner.chars).toBe(0);
  });
});
