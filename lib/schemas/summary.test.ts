import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { summaryOf } from "./summary";

const theorem = { connections: [], tools: ["a_taken"] };

describe("the list's summary of a check", () => {
  it("keeps every field but the tools, and counts them as the row says them", () => {
    const [check] = checkListings(
      [
        {
          name: "A",
          entries: [
            { name: "read", annotations: { readOnlyHint: true } },
            { name: "write" },
            { name: "taken" },
            { name: "new", annotations: { readOnlyHint: true } },
            { nope: true },
          ],
          awaitingReview: [3],
        },
      ],
      theorem,
    ).apps;
    const summary = summaryOf(check!);
    expect(summary).not.toHaveProperty("tools");
    expect(summary).toMatchObject({ shortName: "a", status: "available", listing: check!.listing });
    expect(summary.counts).toEqual({ tools: 5, included: 2, runsFreely: 1, asksFirst: 1, leftOut: 3, waiting: 1, blocked: 0, madeToAskFirst: 0 });
  });

  it("counts the leader's say (SPEC §19): tools blocked, and tools made to ask first", () => {
    const by = { id: "u", email: "lead@x.test" };
    const [check] = checkListings(
      [
        {
          name: "A",
          entries: [{ name: "read", annotations: { readOnlyHint: true } }, { name: "write" }, { name: "wipe" }, { name: "drop" }],
          settings: [
            { name: "read", setting: "ask-first", by, at: null },
            { name: "wipe", setting: "blocked", by, at: null },
            { name: "drop", setting: "blocked", by, at: null },
            { name: "gone", setting: "blocked", by, at: null },
          ],
        },
      ],
      theorem,
    ).apps;
    expect(summaryOf(check!).counts).toMatchObject({ included: 2, runsFreely: 0, asksFirst: 2, leftOut: 2, blocked: 2, madeToAskFirst: 1 });
  });
});
