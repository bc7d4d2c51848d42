import { monitorEventLoopDelay } from "node:perf_hooks";
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

  it("names 100,000 entries off this thread: no pause over 250 ms", { timeout: 60_000 }, async () => {
    const listings = Array.from({ length: 10 }, (_, i) => ({ name: `App ${i}`, entries: tools(10_000) }));
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const result = await checkInPool(listings, resolveTheorem(undefined));
    delay.disable();
    expect(result.apps).toHaveLength(10);
    expect(delay.max / 1e6).toBeLessThan(250);
  });
});
