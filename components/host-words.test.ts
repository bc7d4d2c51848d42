import { describe, expect, it } from "vitest";
import { hostProblemCode } from "@/lib/schemas/hosts";
import { hostProblemBadge, readChosenHosts, sourceLink } from "./host-words";

describe("host problem badges", () => {
  it.each(hostProblemCode.options)("%s has its own label", (code) => {
    const badge = hostProblemBadge(code);
    expect(badge.label.length).toBeGreaterThan(3);
    expect(badge.tone).toBe(code === "description-cut" ? "amber" : "red");
  });

  it("labels differ", () => {
    const labels = hostProblemCode.options.map((c) => hostProblemBadge(c).label);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe("the chosen hosts kept in the browser", () => {
  it.each([
    [null, []],
    ["", []],
    ["not json", []],
    ['{"a":1}', []],
    ['["claude-code","theorem"]', ["theorem", "claude-code"]],
    ['["cursor","gemini","gemini",3]', ["gemini"]],
  ])("%j → %j", (raw, chosen) => {
    expect(readChosenHosts(raw)).toEqual(chosen);
  });
});

describe("a profile's source", () => {
  it("links the page it begins with", () => {
    expect(sourceLink("https://github.com/a/b/issues/1 (names)")).toEqual({ href: "https://github.com/a/b/issues/1", text: "https://github.com/a/b/issues/1 (names)" });
    expect(sourceLink("docs/rules.md in this repository").href).toBeNull();
    expect(sourceLink("javascript:alert(1)").href).toBeNull();
  });
});
