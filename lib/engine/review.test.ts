import { describe, expect, it } from "vitest";
import { newTools } from "@/lib/schemas/orgs";
import { holdsBack, toolsThatWait } from "./review";

const change = {
  added: [{ name: "plain_new", fingerprint: "a", risk: "medium" as const, why: ["new-tool" as const] }],
  changed: [
    { name: "reworded", fields: ["description" as const], effects: [], fingerprints: { from: "b", to: "c" }, risk: "low" as const, why: ["reworded" as const] },
    { name: "poisoned", fields: ["description" as const], effects: [], fingerprints: { from: "d", to: "e" }, risk: "high" as const, why: ["instructions-to-assistant" as const] },
  ],
};

describe("which new and changed tools wait, by mode (SPEC §11, §20)", () => {
  it.each([
    ["available", []],
    ["wait-for-review", ["plain_new", "reworded", "poisoned"]],
    ["wait-if-risky", ["poisoned"]],
  ] as const)("%s: %j wait", (mode, waiting) => {
    expect([...toolsThatWait(mode, change)].sort()).toEqual([...waiting].sort());
  });

  it.each(newTools.options)("every mode is decided: %s", (mode) => {
    expect(() => toolsThatWait(mode, change)).not.toThrow();
    expect(holdsBack(mode)).toBe(mode !== "available");
  });
});
