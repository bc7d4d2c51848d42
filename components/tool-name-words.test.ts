import { describe, expect, it } from "vitest";
import { leftOutCode } from "@/lib/schemas/check";
import { noWholeNameWords } from "./tool-name-words";

describe("why a tool is shown by its listed name (SPEC §25)", () => {
  it.each([
    ["blocked", "blocked: no whole name"],
    ["risky-text", "blocked for risky text: no whole name"],
    ["app-only", "for the app's own view: no whole name"],
    ["invalid-header", "invalid header: no whole name"],
    ["invalid", "not a tool: no whole name"],
  ] as const)("%s: %s", (code, words) => {
    expect(noWholeNameWords({ leftOut: { code, message: "" } })).toBe(words);
  });

  it.each(leftOutCode.options)("says something for every left-out code: %s", (code) => {
    expect(noWholeNameWords({ leftOut: { code, message: "" } })).toMatch(/no whole name$/);
  });
});
