import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { checkInPool, INLINE_ENTRIES } from "./engine-pool";

const tools = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, annotations: { readOnlyHint: i % 2 === 0 } }));

describe("naming listings read already", () => {
  it("answers what the engine answers, few entries or many", { timeout: 60_000 }, async () => {
    for (const count of [3, INLINE_ENTRIES + 1, 5000]) {
      const listings = [{ name: "Rota", entries: tools(count) }, { name: "rota", entries: tools(2) }];
      expect(await checkInPool(listings, resolveTheorem(undefined))).toEqual(checkListings(listings, resolveTheorem(undefined)));
    }
  });

  // How long this thread pauses meanwhile is a figure of the machine: `npm run bench:pool` measures it.
  it("names 100,000 entries in the pool, every app and tool answered", { timeout: 60_000 }, async () => {
    const listings = Array.from({ length: 10 }, (_, i) => ({ name: `App ${i}`, entries: tools(10_000) }));
    const result = await checkInPool(listings, resolveTheorem(undefined));
    expect(result.apps.map((a) => [a.tools.length, a.tools.at(-1)?.wholeName])).toEqual(listings.map((_, i) => [10_000, `app_${i}_tool_9999`]));
    expect(result).toEqual(checkListings(listings, resolveTheorem(undefined)));
  });
});
