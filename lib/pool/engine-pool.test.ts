import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { promptTokens } from "@/lib/engine/tokens";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { result, sendJson, startRawApp } from "@/test/apps/raw-apps";
import { checkInPool, connectDeadlineForTests, INLINE_ENTRIES, readInPool } from "./engine-pool";

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
  it("gives reads the connect deadline a test sets, and SPEC §7's 3 s again once it is unset", { timeout: 30_000 }, async () => {
    // Never answers initialize: every read of it ends at its connect deadline.
    const silent = await serveMcpApp({ name: "Silent", tools: [{ name: "wait", inputSchema: { type: "object" } }], initializeDelayMs: 10 * 60_000 });
    try {
      connectDeadlineForTests(200);
      const quick = await readInPool({ name: "Silent", url: silent.url }, "127.0.0.1");
      expect(quick.unavailable?.code).toBe("connect-timeout");
      expect(quick.unavailable?.message).toContain("within 0.2 s");
      connectDeadlineForTests(null);
      const spec = await readInPool({ name: "Silent", url: silent.url }, "127.0.0.1");
      expect(spec.unavailable?.message).toContain("within 3 s");
    } finally {
      connectDeadlineForTests(null);
      await silent.close();
    }
  });

  it("reads an app again after it closed the connections its last read left open", { timeout: 20_000 }, async () => {
    // An app that closes the connections a read left idle once that read has answered, sooner than
    // its Keep-Alive says. Not on a timer: on a busy machine a read's own requests can be that far
    // apart, and a close between them is another test (a close during a read).
    const idle = new Set<Socket>();
    const open = new Set<Socket>();
    let closing = false;
    const app = await startRawApp({
      http: (req, res) => {
        const socket = req.socket;
        idle.delete(socket);
        if (!open.has(socket)) socket.once("close", () => open.delete(socket));
        open.add(socket);
        res.on("finish", () => (closing ? socket.destroy() : idle.add(socket)));
      },
      list: (res, id) => sendJson(res, result(id, { tools: [{ name: "clock_in", inputSchema: { type: "object" } }] })),
    });
    try {
      for (let i = 0; i < 3; i++) {
        closing = false;
        const listing = await readInPool({ name: "Closing", url: app.url }, "127.0.0.1");
        expect(listing.unavailable).toBeNull();
        expect(listing.entries).toHaveLength(1);
        // The app closes what the read left idle, while the pool's thread has nothing to do.
        closing = true;
        for (const socket of idle) socket.destroy();
        idle.clear();
        await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0);
      }
    } finally {
      await app.close();
    }
  });

  it("counts a tool's tokens where it is read, 200,000 zero-width characters or emoji of it, and none of an unavailable app", { timeout: 60_000 }, async () => {
    const schema = { type: "object" };
    const odd = [
      { name: "zero_width", description: "\u200b".repeat(200_000), inputSchema: schema },
      { name: "emoji", description: "😀".repeat(100_000), inputSchema: schema },
    ];
    // Past SPEC §7's 250,000 characters together: unavailable, so nothing of it is ever sent.
    const huge = [
      { name: "a", description: "😀".repeat(65_000), inputSchema: schema },
      { name: "b", description: "\u200b".repeat(130_000), inputSchema: schema },
      { name: "c", description: "x".repeat(130_000), inputSchema: schema },
    ];
    const apps = await Promise.all([serveMcpApp({ name: "Zero", tools: [odd[0]!] }), serveMcpApp({ name: "Emoji", tools: [odd[1]!] }), serveMcpApp({ name: "Huge", tools: huge })]);
    const names = ["Zero", "Emoji", "Huge"];
    try {
      const [zero, emoji, big] = await Promise.all(apps.map((app, i) => readInPool({ name: names[i]!, url: app.url }, "127.0.0.1")));
      expect(zero!.promptTokens).toEqual([promptTokens(odd[0])]);
      expect(emoji!.promptTokens).toEqual([promptTokens(odd[1])]);
      expect(checkListings([big!], resolveTheorem(undefined)).apps[0]!.status).toBe("unavailable");
      expect(big!.promptTokens).toBeUndefined();
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});


describe("token counts shared by the pool's threads (issue 55)", () => {
  it("counts a check's tools once: the same body again is answered from the counts its first made in a worker, the same answer", { timeout: 60_000 }, async () => {
    const { processTokenCounts } = await import("@/lib/cache/token-counts");
    const { checkRequestInPool } = await import("./engine-pool");
    // Texts no other test counts, 600 tools: past INLINE_ENTRIES and PARSED_HERE_BYTES, checked in a worker thread.
    const stamp = `${process.pid}-${Date.now()}`;
    const apps = Array.from({ length: 6 }, (_, a) => ({ name: `App ${a}`, tools: Array.from({ length: 100 }, (_, i) => ({ name: `tool_${i}`, description: `Tool ${i} of app ${a} (${stamp}).`, inputSchema: { type: "object" } })) }));
    const body = new TextEncoder().encode(JSON.stringify({ apps }));
    const text = async (answer: Awaited<ReturnType<typeof checkRequestInPool>>) => (answer.kind === "answer" ? Buffer.concat(answer.chunks).toString("utf8") : JSON.stringify(answer));
    const before = processTokenCounts().stats();
    const first = await text(await checkRequestInPool(body));
    const middle = processTokenCounts().stats();
    const again = await text(await checkRequestInPool(body));
    const after = processTokenCounts().stats();
    // The worker's counts are in this thread's table: the same memory.
    expect(middle.misses - before.misses).toBe(600);
    expect(middle.stores - before.stores).toBe(600);
    expect(after.hits - middle.hits).toBe(600);
    expect(after.misses).toBe(middle.misses);
    expect(again).toBe(first);
    const tokens = (JSON.parse(first) as { apps: { listing: { tokens: number } }[] }).apps.map((a) => a.listing.tokens);
    expect(tokens.every((n) => n > 0)).toBe(true);
    // And this thread, checking the same tools, counts none of them.
    const listings = apps.map((a) => ({ name: a.name, entries: a.tools }));
    checkListings(listings, resolveTheorem(undefined));
    expect(processTokenCounts().stats().hits - after.hits).toBe(600);
  });
});
