import { describe, expect, it } from "vitest";
import { checkListings, type AppListing } from "./check";
import { changesTools, diffTools, heldTools, type HeldTool, type ToolsDiff } from "./people-diff";

const held = (app: string, tool: string, wholeName: string, policy: HeldTool["policy"] = "asks-first", tokens = 10): HeldTool => ({ app, tool, wholeName, policy, tokens });
const none: Omit<ToolsDiff, "tokens"> = { gains: [], loses: [], renamed: [], nowAsksFirst: [], nowRunsFreely: [] };

describe("what a change does to one person's tools (SPEC §23)", () => {
  const swap = held("rota", "swap", "rota_swap");
  const add = held("cal", "add", "calendar_add", "runs-freely");
  const cases: { why: string; before: HeldTool[]; after: HeldTool[]; diff: Omit<ToolsDiff, "tokens">; changes: boolean }[] = [
    { why: "nothing changes", before: [swap, add], after: [swap, add], diff: none, changes: false },
    { why: "a blocked tool is lost", before: [swap, add], after: [add], diff: { ...none, loses: ["rota_swap"] }, changes: true },
    { why: "an unblocked tool is gained", before: [add], after: [swap, add], diff: { ...none, gains: ["rota_swap"] }, changes: true },
    {
      why: "the same app's tool under a new whole name is renamed, not lost and gained",
      before: [add],
      after: [held("cal", "add", "calendar_2_add", "runs-freely")],
      diff: { ...none, renamed: [{ from: "calendar_add", to: "calendar_2_add" }] },
      changes: true,
    },
    {
      why: "another app's tool taking a freed whole name is a loss and a gain",
      before: [held("a", "delete_shift", "rota_delete_shift")],
      after: [held("b", "shift", "rota_delete_shift")],
      diff: { ...none, gains: ["rota_delete_shift"], loses: ["rota_delete_shift"] },
      changes: true,
    },
    { why: "a kept tool that now asks first", before: [add], after: [{ ...add, policy: "asks-first" }], diff: { ...none, nowAsksFirst: ["calendar_add"] }, changes: true },
    { why: "a kept tool that now runs freely", before: [swap], after: [{ ...swap, policy: "runs-freely" }], diff: { ...none, nowRunsFreely: ["rota_swap"] }, changes: true },
    {
      why: "renamed and asking first at once: named under its new name",
      before: [add],
      after: [held("cal", "add", "calendar_2_add", "asks-first")],
      diff: { ...none, renamed: [{ from: "calendar_add", to: "calendar_2_add" }], nowAsksFirst: ["calendar_2_add"] },
      changes: true,
    },
    { why: "a tool of the same name in another app is another tool", before: [held("a", "x", "one_x")], after: [held("b", "x", "one_x")], diff: { ...none, gains: ["one_x"], loses: ["one_x"] }, changes: true },
  ];
  it.each(cases)("$why", ({ before, after, diff, changes }) => {
    const found = diffTools(before, after);
    expect({ ...found, tokens: undefined }).toEqual({ ...diff, tokens: undefined });
    expect(changesTools(found)).toBe(changes);
  });

  it("sums each side's tokens", () => {
    expect(diffTools([held("a", "x", "a_x", "asks-first", 7), held("a", "y", "a_y", "asks-first", 5)], [held("a", "x", "a_x", "asks-first", 7)]).tokens).toEqual({ before: 12, after: 7 });
  });
});

describe("the tools a person is sent, from their check", () => {
  const tool = (name: string, annotations: Record<string, unknown> = {}) => ({ name, inputSchema: { type: "object" }, annotations });
  const listings: AppListing[] = [
    { name: "Rota", entries: [tool("swap"), tool("my_shifts", { readOnlyHint: true }), tool("swap")], settings: [{ name: "my_shifts", setting: "blocked", by: null, at: null }] },
    { name: "Rota", entries: [tool("swap")], unavailable: { code: "connect-timeout", message: "down" } },
    { name: "Diary", entries: [tool("read", { readOnlyHint: true })] },
  ];
  it("lists included tools only, with their app, name, policy and tokens", () => {
    const found = heldTools(checkListings(listings, { connections: [], tools: [] }), ["rota", "rota-2", "diary"]);
    expect(found.map(({ app, tool, wholeName, policy }) => [app, tool, wholeName, policy])).toEqual([
      ["rota", "swap", "rota_swap", "asks-first"],
      ["diary", "read", "diary_read", "runs-freely"],
    ]);
    expect(found.every((t) => t.tokens > 0)).toBe(true);
  });
});
