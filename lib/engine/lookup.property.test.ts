import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkListings, type AppListing, type TheoremNames } from "./check";
import { lookup, lookupIndex, type LookupApp } from "./lookup";

// Names, titles and queries that share pieces, in several cases and scripts (a dotted İ and a
// final Σ change length or form when lower-cased), so substrings match across tools and apps.
const piece = fc.constantFrom("clock", "_in", "Clock", "İ", "ΑΣ", "σ", "report", "a", "_", "-", " ", "x", "\u0000", "é");
const text = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(""));
const entry = fc.record({ name: text, title: fc.option(text, { nil: undefined }) }, { requiredKeys: ["name"] });
const app: fc.Arbitrary<AppListing> = fc.record({
  name: fc.constantFrom("Attendance", "attendance", "Clock", "Reports", "Calendar"),
  entries: fc.array(entry, { maxLength: 8 }),
  unavailable: fc.option(fc.constant({ code: "connect-failed" as const, message: "It refused the connection." }), { freq: 5 }),
});
const theorem: TheoremNames = { connections: ["calendar"], tools: ["attendance_clock_in"] };

describe("the lookup through its index", () => {
  it("answers exactly what the lookup without it answers: hits, their order, the total and the sentence", () => {
    fc.assert(
      fc.property(fc.array(app, { maxLength: 5 }), fc.array(fc.boolean(), { maxLength: 5 }), fc.oneof(text.filter((q) => q !== ""), fc.constantFrom("attendance_clock_in", "attendance_2_clock_in", "clock", "CLOCK_IN", "calendar_2_x", "i̇")), (apps, unread, q) => {
        const check = checkListings(apps, theorem);
        const list: LookupApp[] = apps.map((a, i) => ({ id: `app-${i}`, name: a.name, personal: i % 2 === 1, check: unread[i] === true ? null : check.apps[i]! }));
        expect(lookup(q, list, theorem, [], lookupIndex(list))).toEqual(lookup(q, list, theorem));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the first hundred hits and counts them all when more match", () => {
    const many: AppListing[] = [{ name: "Clock", entries: Array.from({ length: 250 }, (_, i) => ({ name: `tick_${i}` })) }];
    const check = checkListings(many, theorem);
    const list: LookupApp[] = [{ id: "a", name: "Clock", personal: false, check: check.apps[0]! }];
    const answer = lookup("clock_tick_1", list, theorem, [], lookupIndex(list));
    expect(answer).toEqual(lookup("clock_tick_1", list, theorem));
    expect(answer.total).toBe(111);
    expect(answer.hits[0]?.tool.wholeName).toBe("clock_tick_1");
  });
});
