import { describe, expect, it } from "vitest";
import { checkListings } from "./check";
import { descriptionNotes, LONG_DESCRIPTION_CHARS } from "./description";

const theorem = { connections: [], tools: [] };
const noteOf = (description: unknown) =>
  checkListings([{ name: "Docs", entries: [{ name: "read", inputSchema: { type: "object" }, description }] }], theorem).apps[0]!.tools[0]!.notes.find((n) => n.code === "description-long");

describe("a very long description gets a note (from 5,000 characters)", () => {
  it.each([
    ["a usual description", "Reads a page of the handbook.", undefined],
    ["one character short of the threshold", "a".repeat(LONG_DESCRIPTION_CHARS - 1), undefined],
    ["at the threshold", "a".repeat(LONG_DESCRIPTION_CHARS), "Its description is 5,000 characters long"],
    ["the 15,899 characters of the issue", "word ".repeat(3180).slice(0, 15_899), "Its description is 15,899 characters long"],
    ["counted in code points, as the listing's size is", "😀".repeat(LONG_DESCRIPTION_CHARS - 1), undefined],
    ["no description", undefined, undefined],
    ["a description that is not text", { text: "a".repeat(10_000) }, undefined],
  ])("%s", (_, description, start) => {
    const note = noteOf(description);
    if (start === undefined) expect(note).toBeUndefined();
    else expect(note?.message).toMatch(new RegExp(`^${start} \\(a note from 5,000\\): the assistant is sent all of it in every conversation\\.`));
  });

  it("is the only note it adds", () => {
    expect(descriptionNotes("a".repeat(6_000)).map((n) => n.code)).toEqual(["description-long"]);
  });
});
