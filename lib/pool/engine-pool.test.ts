import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { result, sendJson, startRawApp } from "@/test/apps/raw-apps";
import { checkInPool, INLINE_ENTRIES, readInPool } from "./engine-pool";

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

describe("reads in the pool", () => {
  it("reads an app again after it closed the connections its last read left open", { timeout: 20_000 }, async () => {
    // An app that closes a connection left idle for 500 ms, sooner than its Keep-Alive says.
    const idle = new Map<unknown, NodeJS.Timeout>();
    const open = new Set<unknown>();
    const app = await startRawApp({
      http: (req, res) => {
        clearTimeout(idle.get(req.socket));
        if (!open.has(req.socket)) req.socket.once("close", () => open.delete(req.socket));
        open.add(req.socket);
        res.on("finish", () => idle.set(req.socket, setTimeout(() => req.socket.destroy(), 500)));
      },
      list: (res, id) => sendJson(res, result(id, { tools: [{ name: "clock_in", inputSchema: { type: "object" } }] })),
    });
    try {
      for (let i = 0; i < 3; i++) {
        const listing = await readInPool({ name: "Closing", url: app.url }, "127.0.0.1");
        expect(listing.unavailable).toBeNull();
        expect(listing.entries).toHaveLength(1);
        // The app closes what the read left idle, while the pool's thread has nothing to do.
        await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0);
      }
    } finally {
      for (const timer of idle.values()) clearTimeout(timer);
      await app.close();
    }
  });
});
