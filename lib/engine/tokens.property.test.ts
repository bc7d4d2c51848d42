import canonicalize from "canonicalize";
import fc from "fast-check";
import { countTokens as libraryCount } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens, nameTokens, promptTokens, sentText, sentTool } from "./tokens";
import { WHOLE_NAME_MAX } from "./whole-name";

// The library's own count of the whole text, special tokens' text as ordinary text.
const counted = (text: string) => libraryCount(text, { disallowedSpecial: new Set() });

const odd = fc.constantFrom("😀", "👩‍👩‍👧", "🇸🇦", "你好", "世界", "مرحبا", "שלום", "\u200b", "\u200d", "\u202e", "\u{E0041}", "é", "e\u0301", "\n", "\r\n", "\t", " ", "  ", '"', "\\", "/", "<|endoftext|>", "<IMPORTANT>", "'s", "123", "\u0000", "\ud800", ":", "\":\"", "a", "Z");
const text = fc.oneof(fc.string({ unit: "binary", maxLength: 60 }), fc.array(odd, { maxLength: 30 }).map((parts) => parts.join("")), fc.string({ unit: odd, maxLength: 40 }));
const schema: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant("object"), properties: fc.dictionary(text, fc.record({ type: fc.constantFrom("string", "number"), description: text }, { requiredKeys: ["type"] }), { maxKeys: 8 }), required: fc.array(text, { maxLength: 3 }) }, { requiredKeys: ["type"] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const tool = fc.record({ name: fc.string({ minLength: 1, maxLength: 20 }), description: fc.oneof(text, fc.constant(undefined), fc.jsonValue({ maxDepth: 1 })), inputSchema: schema, title: text }, { requiredKeys: ["name", "inputSchema"] });

// Whole names as SPEC §1–§2 make them: a short name (`[a-z][a-z0-9_]*`), `_`, the sanitised tool name, cut at 64.
const shortName = fc.tuple(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"), fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789_"), maxLength: 19 })).map(([first, rest]) => first + rest);
const sanitised = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"), minLength: 1, maxLength: 70 });
const wholeName = fc.tuple(shortName, sanitised).map(([short, name]) => `${short}_${name}`.slice(0, WHOLE_NAME_MAX));

describe("o200k_base counts of a tool as sent (SPEC §21)", () => {
  it("adds up: the prefix counted once per tool plus the whole name's share is the count of the whole text", () => {
    fc.assert(
      fc.property(tool, wholeName, (entry, whole) => {
        const whole_text = canonicalize(sentTool(entry, whole))!;
        expect(sentText(entry, whole)).toBe(whole_text);
        expect(promptTokens(entry)! + nameTokens(whole)).toBe(counted(whole_text));
      }),
      { numRuns: 2000 },
    );
  });

  it("counts a tool whose keys come sorted, written as JSON writes it, as its canonical text", () => {
    // Objects rebuilt with their keys in order: JSON.stringify then writes what RFC 8785 writes,
    // which the count takes as it is (lib/engine/tokens.ts `writtenCanonically`).
    const sorted = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === "object" ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])])) : value;
    fc.assert(
      fc.property(tool, wholeName, (entry, whole) => {
        const tidy = { ...entry, description: sorted(entry.description), inputSchema: sorted(entry.inputSchema) };
        expect(promptTokens(tidy)! + nameTokens(whole)).toBe(counted(canonicalize(sentTool(tidy, whole))!));
      }),
      { numRuns: 1000 },
    );
  });

  it("counts as the library does, long pieces included", () => {
    const long = fc.tuple(odd, fc.integer({ min: 200, max: 1500 })).map(([unit, n]) => unit.repeat(n));
    fc.assert(
      fc.property(fc.array(fc.oneof(text, long), { maxLength: 4 }), (parts) => {
        const all = parts.join("");
        expect(countTokens(all)).toBe(counted(all));
      }),
      { numRuns: 100 },
    );
  });
});
