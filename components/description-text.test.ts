import { describe, expect, it } from "vitest";
import { descriptionStart } from "./description-text";

describe("the start of a long description, before Show more", () => {
  it("shows a short one whole", () => {
    expect(descriptionStart("Reads a page.", 20)).toBeNull();
  });
  it("cuts where a sentence ends", () => {
    expect(descriptionStart("First sentence here. Second sentence that goes on and on.", 36)).toBe("First sentence here. …");
  });
  it("else between words, never mid-word", () => {
    expect(descriptionStart("one two three four five six seven eight nine ten", 30)).toBe("one two three four five six…");
  });
});
