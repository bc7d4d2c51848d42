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
    expect(summary.counts).toEqual({ tools: 5, included: 2, runsFreely: 1, asksFirst: 1, leftOut: 3, waiting: 1 });
  });
});
