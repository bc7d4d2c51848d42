import { describe, expect, it } from "vitest";
import { riskWhy } from "@/lib/schemas/orgs";
import { effectText, fieldsText, shortHash, whyText, whyWords } from "./change-words";

describe("changes in words", () => {
  it("names the fields", () => {
    expect(fieldsText(["title", "annotations", "other"])).toBe("title, behaviour hints (annotations), other fields");
  });

  it.each([
    [{ what: "policy", from: "runs-freely", to: "asks-first" }, "It now asks first (before: runs freely)."],
    [{ what: "runsTogether", from: "true", to: "false" }, "It now runs alone, not together with other tools."],
    [{ what: "runsTogether", from: "false", to: "true" }, "It now runs together with other tools."],
    [{ what: "wholeName", from: "rota_swap", to: "rota_2_swap" }, "Its whole name is now rota_2_swap (was rota_swap)."],
    [{ what: "card", from: "Swap: Colleague", to: "Swap: Colleague · Reason" }, "Its approval card now reads “Swap: Colleague · Reason” (was “Swap: Colleague”)."],
    [{ what: "leftOut", from: null, to: "theorem-tool" }, "It is now left out (theorem-tool)."],
    [{ what: "leftOut", from: "name-taken", to: null }, "It is no longer left out."],
  ] as const)("%j", (effect, text) => {
    expect(effectText(effect)).toBe(text);
  });

  it.each(riskWhy.options)("says why a change has its risk: %s", (why) => {
    expect(whyText(why)).toMatch(/^[a-z]/);
  });

  it("leads with the highest reasons, as given", () => {
    expect(whyWords(["policy-loosened", "instructions-to-assistant"])).toBe("now runs without asking, words aimed at the assistant");
  });

  it("shortens a hash to 12 characters", () => {
    expect(shortHash("a".repeat(64))).toBe("a".repeat(12));
  });
});
