import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "./plural";

describe("plural", () => {
  it.each([
    [0, "0 tools"],
    [1, "1 tool"],
    [2, "2 tools"],
    [1.5, "1.5 tools"],
    [1200, "1,200 tools"],
  ])("says %d as %s", (n, said) => {
    expect(plural(n, "tool")).toBe(said);
  });

  it("takes an irregular plural, and gives the word alone for a sentence's verb", () => {
    expect(plural(2, "entry", "entries")).toBe("2 entries");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(pluralWord(1, "is", "are")).toBe("is");
    expect(pluralWord(3, "is", "are")).toBe("are");
  });
});
