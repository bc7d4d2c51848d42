import canonicalize from "canonicalize";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens, nameTokens, promptTokens, sentText } from "./tokens";

// Each fixture's count is made here with the tokenizer itself: the encoded tokens of the text as sent.
const encoded = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;

const largeSchema = {
  type: "object",
  properties: Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`field_${i}`, { type: i % 2 === 0 ? "string" : "integer", description: `The ${i}th field of the record, as the ledger keeps it.` }])),
  required: ["field_0", "field_1"],
};

const cases: [string, Record<string, unknown>, string, string][] = [
  ["emoji", { name: "cheer", description: "Sends 🎉🎉 and 👩‍👩‍👧 to the team 🇸🇦", inputSchema: { type: "object" } }, "chat_cheer", '{"description":"Sends 🎉🎉 and 👩‍👩‍👧 to the team 🇸🇦","inputSchema":{"type":"object"},"name":"chat_cheer"}'],
  ["CJK", { name: "翻译", description: "把文本翻译成日本語のテキスト", inputSchema: { type: "object", properties: { 文本: { type: "string" } } } }, "lang___", '{"description":"把文本翻译成日本語のテキスト","inputSchema":{"properties":{"文本":{"type":"string"}},"type":"object"},"name":"lang___"}'],
  ["RTL", { name: "hadir", description: "يسجل الحضور \u202bשלום\u202c", inputSchema: { type: "object" } }, "app_hadir", '{"description":"يسجل الحضور \u202bשלום\u202c","inputSchema":{"type":"object"},"name":"app_hadir"}'],
  ["no description", { name: "ping", title: "Ping", annotations: { readOnlyHint: true }, inputSchema: { type: "object" } }, "web_ping", '{"inputSchema":{"type":"object"},"name":"web_ping"}'],
  ["a large schema", { name: "ledger_put", description: "Writes a record.", inputSchema: largeSchema }, "ledger_put", canonicalize({ name: "ledger_put", description: "Writes a record.", inputSchema: largeSchema })!],
];

describe("a tool as sent, in characters and o200k_base tokens (SPEC §21)", () => {
  it.each(cases)("%s", (_, entry, whole, text) => {
    expect(sentText(entry, whole)).toBe(text);
    expect(promptTokens(entry)! + nameTokens(whole)).toBe(encoded(text));
    expect(countTokens(text)).toBe(encoded(text));
  });

  it("counts nothing for an entry that is not a tool", () => {
    expect(promptTokens({ description: "no name" })).toBeNull();
    expect(promptTokens("tool")).toBeNull();
  });

  it("counts a schema nested too deep for a recursive writer, as canonical JSON", () => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < 20_000; i++) schema = { items: schema };
    expect(promptTokens({ name: "deep", inputSchema: schema })).toBe(encoded(`{"inputSchema":${'{"items":'.repeat(20_000)}{"type":"string"}${"}".repeat(20_000)},"name":"`));
    expect(promptTokens({ name: "shallow", inputSchema: { b: [1, "x", null], a: 1e21 } })).toBe(encoded(canonicalize({ inputSchema: { b: [1, "x", null], a: 1e21 }, name: "" })!.slice(0, -2)));
  });

  it.each([
    ["one repeated emoji", "😀"],
    ["zero-width characters", "\u200b"],
  ])("counts a 200,000-character description of %s", (_, unit) => {
    const description = unit.repeat(200_000 / unit.length);
    expect(promptTokens({ name: "x", description, inputSchema: {} })).toBe(countTokens(`{"description":"${description}","inputSchema":{},"name":"`));
    expect(countTokens(description)).toBeGreaterThan(1000);
  });
});
