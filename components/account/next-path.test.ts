import { describe, expect, it } from "vitest";
import { safeNext } from "./next-path";

describe("safeNext", () => {
  it.each([
    ["/orgs/demo/connections", "/orgs/demo/connections"],
    ["/invite/abc?x=1", "/invite/abc?x=1"],
    ["//evil.test", "/"],
    ["/\\evil.test", "/"],
    ["https://evil.test/", "/"],
    ["javascript:alert(1)", "/"],
    ["orgs/demo", "/"],
    ["/a\nb", "/"],
    ["", "/"],
    [undefined, "/"],
    [["/a", "/b"], "/"],
  ])("%j → %s", (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it("uses the fallback given", () => {
    expect(safeNext(undefined, "/orgs/new")).toBe("/orgs/new");
  });
});
