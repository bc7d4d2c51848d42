import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import o200k, { countTokens as libraryCount } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { pieceEnd, stickySplit } from "./o200k-pieces";
import { countTokens } from "./tokens";

// The encoding's own split expression, as gpt-tokenizer 4.0.0 runs it.
const expression = (o200k as unknown as { bytePairEncodingCoreProcessor: { tokenSplitRegex: RegExp } }).bytePairEncodingCoreProcessor.tokenSplitRegex;
const split = stickySplit(expression);
const expressionPieces = (text: string) => Array.from(text.matchAll(new RegExp(expression.source, "gu")), (m) => m[0]);
function ourPieces(text: string): string[] {
  const out: string[] = [];
  for (let pos = 0; pos < text.length; ) {
    const end = pieceEnd(text, pos, split);
    expect(end).toBeGreaterThan(pos);
    out.push(text.slice(pos, end));
    pos = end;
  }
  return out;
}
const counted = (text: string) => libraryCount(text, { disallowedSpecial: new Set() });

// Every class the expression tells apart, each side of ASCII: small and capital letters (and the
// other letters and marks, which both alternatives take), numbers, the spaces of \s, line ends,
// the contractions, and what is none of these.
const units = [
  ..."abcxyzABCXYZ0123456789 \t\v\f\r\n'\"\\/:{}[],.-_!?<>|#@$%^&*()+=~`;",
  "\u0000", "\u0001", "\u001f", "\u007f", "'s", "'S", "'t", "'re", "'RE", "'ve", "'m", "'ll", "'Ll", "'d", "'x",
  "é", "É", "ǅ", "ʰ", "ª", "休", "ا", "\u0301", "\u0903", "²", "½", "٣", "Ⅻ", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u3000", "\ufeff", "\u0085",
  "—", "«", "»", "’", "😀", "👩‍👩‍👧", "\ud800", "\udc00", "ſ", "K",
];
const unit = fc.constantFrom(...units);
const text = fc.oneof(fc.string({ unit, maxLength: 60 }), fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: fc.constantFrom(..." \t\r\naA1'.é\u00a0"), maxLength: 30 }));

describe("o200k_base's pieces found by ASCII, where ASCII decides (SPEC §21)", () => {
  it("are the split expression's pieces, one by one, for any text", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(ourPieces(t)).toEqual(expressionPieces(t));
      }),
      { numRuns: 20_000 },
    );
  });

  it("are the expression's pieces, and count as the library counts, for each of the project's documents", () => {
    const docs = readdirSync("docs").filter((f) => f.endsWith(".md"));
    const texts = [...docs.map((f) => readFileSync(join("docs", f), "utf8")), readFileSync("README.md", "utf8"), readFileSync("lib/engine/tokens.ts", "utf8")];
    expect(texts.length).toBeGreaterThan(3);
    for (const t of texts) {
      expect(ourPieces(t)).toEqual(expressionPieces(t));
      expect(countTokens(t)).toBe(counted(t));
    }
  });

  it.each([
    ["a contraction after capitals", "DON'T", ["DON'T"]],
    ["a capital run before a small letter", "McDonald's iPhone", ["Mc", "Donald's", " i", "Phone"]],
    ["numbers three at a time", "12345", ["123", "45"]],
    ["punctuation before a name, kept apart", '":"get_user"}', ['":"', "get", "_user", '"}']],
    ["spaces before a word leave it the last", "a   b", ["a", "  ", " b"]],
    ["line ends with the spaces before them", "a \n\n  b", ["a", " \n\n", " ", " b"]],
    ["a letter past ASCII, by the expression", "caf\u00e9s", ["cafés"]],
  ])("%s", (_, t, pieces) => {
    expect(ourPieces(t)).toEqual(pieces);
    expect(expressionPieces(t)).toEqual(pieces);
  });
});
