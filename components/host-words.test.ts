import { describe, expect, it } from "vitest";
import { hostProblemCode, profilesOf } from "@/lib/schemas/hosts";
import { hostProblemBadge, hostToolNames, otherHostProfiles, readChosenHosts, sourceLink } from "./host-words";

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
    // Theorem is the check itself, never one of the other hosts: a stored choice of it is dropped.
    ['["claude-code","theorem"]', ["claude-code"]],
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

describe("the other hosts offered", () => {
  it("are every profile but Theorem's own", () => {
    const ids = otherHostProfiles().map((h) => h.id);
    expect(ids).not.toContain("theorem");
    expect(ids).toEqual(expect.arrayContaining(["openai-api", "vscode-copilot", "claude-code", "gemini", "copilot-cli", "windsurf"]));
  });
});

describe("each chosen host's names for an app's tools", () => {
  const long = `hr_${"x".repeat(61)}`;
  const tool = (index: number, name: string, included = true) => ({ index, name, wholeName: `hr_${name}`, included, description: null });
  const app = { shortName: "hr", tools: [tool(0, "clock_in"), tool(1, long), tool(2, "save", false)] };

  it("names each included tool as the host forms it, says which names it refuses, and gives a left-out tool none", () => {
    const names = hostToolNames(app, profilesOf(["claude-code", "openai-api", "gemini"]));
    expect([...names.keys()]).toEqual(["claude-code", "openai-api", "gemini"]);
    expect([...names.get("claude-code")!]).toEqual([
      [0, { name: "mcp__hr__clock_in", refused: null }],
      [1, { name: `mcp__hr__${long}`, refused: "name-too-long" }],
    ]);
    expect([...names.get("openai-api")!]).toEqual([
      [0, { name: "clock_in", refused: null }],
      [1, { name: long, refused: null }],
    ]);
    expect(names.get("gemini")!.get(0)).toEqual({ name: "hr__clock_in", refused: null });
  });

  it("says a name the host's pattern refuses", () => {
    const names = hostToolNames({ shortName: "hr", tools: [tool(0, "clock.in")] }, profilesOf(["openai-api"]));
    expect(names.get("openai-api")!.get(0)).toEqual({ name: "clock.in", refused: "name-not-allowed" });
  });

  it("has no column without a chosen host", () => {
    expect(hostToolNames(app, []).size).toBe(0);
  });
});
