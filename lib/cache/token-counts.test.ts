import { describe, expect, it } from "vitest";
import { countTokens, promptTokens, sentPrefix } from "@/lib/engine/tokens";
import { processTokenCounts, TokenCounts } from "./token-counts";

const tool = (i: number) => ({ name: `tool_${i}`, description: `Does thing ${i} — « ça », 休暇.`, inputSchema: { type: "object", properties: { [`field_${i}`]: { type: "string" } } } });

describe("token counts kept by their text's hash", () => {
  it("answers the tokenizer's own count, counted once: a repeat is a hit", () => {
    const tools = Array.from({ length: 50 }, (_, i) => tool(1_000_000 + i));
    const before = processTokenCounts().stats();
    const first = tools.map(promptTokens);
    const middle = processTokenCounts().stats();
    const again = tools.map((t) => promptTokens(structuredClone(t)));
    const after = processTokenCounts().stats();
    expect(first).toEqual(tools.map((t) => countTokens(sentPrefix(t))));
    expect(again).toEqual(first);
    expect(middle.misses - before.misses).toBe(50);
    expect(after.hits - middle.hits).toBe(50);
    expect(after.misses).toBe(middle.misses);
  });

  it("keys on the description and the schema, with whether each is there: another text is counted, not taken for the first", () => {
    const base = tool(2_000_000);
    const noDescription = { name: base.name, inputSchema: base.inputSchema };
    const variants = [base, { ...base, description: `${base.description} ` }, noDescription, { ...base, description: null }, { ...base, inputSchema: { type: "object" } }, { ...base, name: "renamed", title: "Another title" }];
    expect(variants.map(promptTokens)).toEqual(variants.map((v) => countTokens(sentPrefix(v))));
  });

  it("is bounded: a full table gives up old counts, and never answers a wrong one", () => {
    const table = new TokenCounts(new SharedArrayBuffer(16 + 28 * 4 * 2)); // two buckets of four slots of seven words
    expect(table.slots).toBe(8);
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    texts.forEach((text, i) => expect(table.get(text, () => ({ tokens: i, chars: 2 * i }))).toEqual({ tokens: i, chars: 2 * i }));
    texts.forEach((text, i) => expect(table.get(text, () => ({ tokens: i, chars: 2 * i }))).toEqual({ tokens: i, chars: 2 * i }));
    expect(texts.filter((text) => table.has(text)).length).toBeLessThanOrEqual(8);
    const { hits, misses } = table.stats();
    expect(hits).toBeLessThanOrEqual(8);
    expect(hits + misses).toBe(200);
  });
});
