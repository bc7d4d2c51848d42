import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolTitle } from "./title";
import { labelFromName, splitWords } from "./words";

describe("splitWords", () => {
  it.each([
    ["getUserByID", ["get", "User", "By", "ID"]],
    ["ORDER-ID", ["ORDER", "ID"]],
    ["clock_in", ["clock", "in"]],
    ["user_id", ["user", "id"]],
    ["  a  b ", ["a", "b"]],
    ["__x--y__", ["x", "y"]],
    ["", []],
  ])("%j → %j", (name, words) => {
    expect(splitWords(name)).toEqual(words);
  });
});

describe("splitWords agrees with the rule as a regular expression", () => {
  const reference = (name: string) =>
    name
      .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
      .split(/[_\-\s]+/u)
      .filter((w) => w.length > 0);

  it("for any name, ASCII or not", () => {
    const unit = fc.oneof(fc.constantFrom("a", "B", "_", "-", " ", "\t", "\v", "1", "é", "É", "\u00a0"), fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit }), fc.string({ unit: "binary" })), (name) => {
        expect(splitWords(name)).toEqual(reference(name));
      }),
      { numRuns: 500 },
    );
  });
});

describe("labelFromName (SPEC §3)", () => {
  it.each([
    ["clock_in", "Clock in"],
    ["getUserByID", "Get user by ID"],
    ["my-hours", "My hours"],
    ["team hours", "Team hours"],
    ["ORDER_ID", "ORDER ID"],
    ["sendSMS", "Send SMS"],
    ["Export", "Export"],
    // only lower→upper changes split (SPEC §3): a word with a lower-case letter is lower-cased
    ["HTTPRequest", "Httprequest"],
    ["listV2Items", "List v2items"],
    ["élan_vital", "Élan vital"],
    ["___", "___"], // no words: the name as it is
  ])("%j → %j", (name, label) => {
    expect(labelFromName(name)).toBe(label);
  });

  it("capitalises an astral first letter whole", () => {
    expect(labelFromName("\u{10428}x")).toBe("\u{10400}x"); // Deseret small → capital
  });
});

describe("toolTitle (SPEC §3)", () => {
  it("takes title first", () => {
    expect(toolTitle({ name: "clock_in", title: "Clock in now" }, { title: "Other" })).toEqual({ title: "Clock in now", from: "title" });
  });

  it("takes annotations.title when title is missing, empty or not a string", () => {
    for (const title of [undefined, "", "   ", 3, null, ["x"]]) {
      expect(toolTitle({ name: "clock_in", title }, { title: "Punch in" })).toEqual({ title: "Punch in", from: "annotations" });
    }
  });

  it("makes one from the name when neither is usable", () => {
    expect(toolTitle({ name: "clock_in" }, null)).toEqual({ title: "Clock in", from: "name" });
    expect(toolTitle({ name: "getUserByID", title: "" }, { title: "" })).toEqual({ title: "Get user by ID", from: "name" });
    expect(toolTitle({ name: "getUserByID" }, { title: 42 })).toEqual({ title: "Get user by ID", from: "name" });
  });

  it("trims the title", () => {
    expect(toolTitle({ name: "x", title: "  My hours \n" }, null)).toEqual({ title: "My hours", from: "title" });
  });
});
