import { describe, expect, it } from "vitest";
import { sentOrderButton } from "./sent-order";

describe("the order button of what the assistant is sent", () => {
  it.each([
    [false, "Sorted in the order sent", "Sorted in the order sent: sort largest first"],
    [true, "Sorted by size, largest first", "Sorted by size, largest first: show in the order sent"],
  ])("largest first %s: labelled with the order shown (%j), named with what a click does", (largestFirst, label, name) => {
    const words = sentOrderButton(largestFirst);
    expect(words).toEqual({ label, name });
    // The name begins with the label seen, so a person who says what they see reaches it (WCAG 2.5.3).
    expect(words.name.startsWith(words.label)).toBe(true);
  });
});
