import { describe, expect, it } from "vitest";
import type { PersonChange } from "@/lib/schemas/preview";
import { changeSentence, personLine } from "./confirm-change-words";

const person = (id: string, change: Partial<PersonChange> = {}): PersonChange => ({
  id,
  email: `${id}@example.test`,
  gains: [],
  loses: [],
  renamed: [],
  nowAsksFirst: [],
  nowRunsFreely: [],
  tokens: { before: 100, after: 100 },
  ...change,
});

describe("what a change would do, in the confirm dialog's words", () => {
  const loses4 = { loses: ["a_1", "a_2", "a_3", "a_4"] };
  it.each([
    ["nobody", [], "Nobody's tools change."],
    ["three people losing the same four tools: counted once each", [person("a", loses4), person("b", loses4), person("c", loses4)], "3 people lose 4 tools."],
    [
      "a loss and a rename for one of them",
      [person("a", loses4), person("b", loses4), person("c", { ...loses4, renamed: [{ from: "calendar_add", to: "calendar_2_add" }] })],
      "3 people lose 4 tools; for 1, calendar_add becomes calendar_2_add.",
    ],
    ["one person gaining one tool", [person("a", { gains: ["rota_swap"] })], "1 person gains 1 tool."],
    [
      "a rename for all of several people",
      [person("a", { renamed: [{ from: "x_a", to: "x_2_a" }] }), person("b", { renamed: [{ from: "x_a", to: "x_2_a" }] })],
      "For all of them, x_a becomes x_2_a.",
    ],
    ["tools that now ask first", [person("a", { nowAsksFirst: ["rota_my_shifts"] }), person("b", { nowAsksFirst: ["rota_my_shifts"] })], "For 2 people, 1 tool now asks first."],
    ["tools that now run without asking", [person("a", { nowRunsFreely: ["r_a", "r_b"] })], "For 1 person, 2 tools now run without asking."],
    [
      "more renames than are named",
      [person("a", { renamed: ["p", "q", "r", "s", "t"].map((n) => ({ from: `${n}_x`, to: `${n}_2_x` })) })],
      "For 1, p_x becomes p_2_x; for 1, q_x becomes q_2_x; for 1, r_x becomes r_2_x; 2 more renames.",
    ],
  ])("%s", (_why, people, sentence) => {
    expect(changeSentence({ people, unchanged: 0, exports: [] })).toBe(sentence);
  });

  it("says one person's change in a line, with their tokens", () => {
    expect(personLine(person("a", { loses: ["rota_swap"], renamed: [{ from: "c_a", to: "c_2_a" }], tokens: { before: 1200, after: 900 } }))).toBe("loses rota_swap; c_a becomes c_2_a; tokens 1,200 → 900");
  });
});
