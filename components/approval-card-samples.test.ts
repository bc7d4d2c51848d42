import { describe, expect, it } from "vitest";
import { sampleFor, withSample } from "./approval-card-samples";

describe("the samples typed into an approval card", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])("finds no sample for %s until one is typed", (argument) => {
    expect(sampleFor({}, argument)).toBeUndefined();
    const typed = withSample({}, argument, "typed");
    expect(sampleFor(typed, argument)).toBe("typed");
    expect(sampleFor(typed, "other")).toBeUndefined();
  });

  it("keeps earlier samples and changes only the one typed", () => {
    const one = withSample({}, "date", "2024-01-01");
    const two = withSample(one, "hours", "8");
    expect(sampleFor(two, "date")).toBe("2024-01-01");
    expect(sampleFor(two, "hours")).toBe("8");
    expect(sampleFor(one, "hours")).toBeUndefined();
    expect(sampleFor(withSample(two, "date", ""), "date")).toBe("");
  });
});
