import { describe, expect, it } from "vitest";
import type { GroupSettingsView } from "@/lib/schemas/groups";
import { accessWords, groupToolNames, hiddenWhy } from "./group-words";

const sales = { id: "g1", name: "Sales" };
const support = { id: "g2", name: "Support" };

describe("accessWords", () => {
  it.each([
    ["everyone" as const, "Everyone in the organisation"],
    [{ groups: [sales] }, "Only Sales"],
    [{ groups: [sales, support] }, "Only Sales, Support"],
    [{ groups: [] }, "No one: the groups it was for were removed"],
  ])("%j → %s", (access, words) => {
    expect(accessWords(access)).toBe(words);
  });
});

describe("hiddenWhy", () => {
  it.each([
    [[sales, support], "is only for Sales, Support."],
    [[support], "is only for Support."],
    [[], "is for no group now: the groups it was for were removed."],
  ])("%j → %s", (onlyFor, words) => {
    expect(hiddenWhy(onlyFor)).toBe(words);
  });
});

describe("groupToolNames", () => {
  const setting = (name: string, listed: boolean) => ({ name, setting: "blocked" as const, by: { id: "m1", email: "leader@acme.test" }, at: "2026-12-06T04:00:00.000Z", listed });
  const groups: GroupSettingsView = [
    { ...sales, tools: [setting("delete_shift", true), setting("old_tool", false)] },
    { ...support, tools: [setting("old_tool", false), setting("gone_too", false)] },
  ];

  it("offers the listed tools in the app's order, then each tool a group set that the app no longer lists, once", () => {
    expect(groupToolNames(["my_shifts", null, "delete_shift"], groups)).toEqual(["my_shifts", "delete_shift", "old_tool", "gone_too"]);
  });

  it("offers only the listed tools when no group set one", () => {
    expect(groupToolNames(["a", "b"], [])).toEqual(["a", "b"]);
  });
});
