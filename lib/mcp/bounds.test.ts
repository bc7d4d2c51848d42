import { afterAll, describe, expect, it } from "vitest";
import { parseAllowList } from "./address";
import { EVENT_BYTE_LIMIT, RESPONSE_BYTE_LIMIT } from "@/lib/engine/limits";
import { readLiveApp } from "./read-app";
import type { ZooApp } from "@/test/apps/http";
import type { Answer } from "@/test/apps/raw-apps";
import { gzipBomb, hugeListing, result, sendJson, startRawApp, stream } from "@/test/apps/raw-apps";

// One case at a time: each measures the memory it needs, which side-by-side cases would blur.
const allow = parseAllowList("127.0.0.1");
const MiB = 1024 * 1024;
/** Peak growth allowed while reading a body that stops at 16 MiB (reading 50 MiB whole would pass it). */
const HEAP_BOUND = 48 * MiB;
const RSS_BOUND = 96 * MiB;
const apps: ZooApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

/** Reads an app whose tools/list is `list`, sampling memory every 10 ms; growth is the peak less the start. */
async function measuredRead(list: Answer) {
  const app = await startRawApp({
    list: async (res, id, page, params) => {
      if (page > 1) return sendJson(res, result(id, { tools: [] }));
      await list(res, id, page, params);
    },
  });
  apps.push(app);
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 10);
  const started = performance.now();
  const listing = await readLiveApp({ name: "Huge", url: app.url }, { allow });
  const took = performance.now() - started;
  clearInterval(sampler);
  if (process.env["SHOW_MEMORY"]) console.log(`took ${Math.round(took)} ms, rss +${Math.round((peakRss - before.rss) / MiB)} MiB, heap +${Math.round((peakHeap - before.heapUsed) / MiB)} MiB`);
  return { listing, took, rssGrowth: peakRss - before.rss, heapGrowth: peakHeap - before.heapUsed };
}

describe("bounded reading", () => {
  it("stops a 50 MiB answer at 16 MiB, at once, with memory flat", { timeout: 20_000 }, async () => {
    const { listing, took, rssGrowth, heapGrowth } = await measuredRead(async (res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      await stream(res, hugeListing(id, 50 * MiB));
    });
    expect(listing.unavailable).toEqual({
      code: "listing-too-large",
      message: "Huge is unavailable: one answer to its tools/list was too large: one answer passed 16 MiB (16,777,216 bytes), so reading stopped, before any tool was read.",
    });
    expect(took).toBeLessThan(8000);
    expect(heapGrowth).toBeLessThan(HEAP_BOUND);
    expect(rssGrowth).toBeLessThan(RSS_BOUND);
  });

  it("stops a gzip bomb as it inflates (1 GiB inflated, about 1 MiB sent)", { timeout: 20_000 }, async () => {
    const { listing, took, rssGrowth, heapGrowth } = await measuredRead(async (res, id) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      await stream(res, gzipBomb(id, 1024 * MiB));
    });
    expect(listing.unavailable?.code).toBe("listing-too-large");
    expect(listing.unavailable?.message).toContain(`one answer passed 16 MiB (${RESPONSE_BYTE_LIMIT.toLocaleString("en-US")} bytes)`);
    expect(took).toBeLessThan(8000);
    expect(heapGrowth).toBeLessThan(HEAP_BOUND);
    expect(rssGrowth).toBeLessThan(RSS_BOUND);
  });

  it("stops one streamed event past 4 MiB", { timeout: 20_000 }, async () => {
    const { listing, took, heapGrowth } = await measuredRead(async (res, id) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: message\ndata: ");
      await stream(res, hugeListing(id, 10 * MiB));
    });
    expect(listing.unavailable).toEqual({
      code: "listing-too-large",
      message: `Huge is unavailable: one answer to its tools/list was too large: one streamed event passed 4 MiB (${EVENT_BYTE_LIMIT.toLocaleString("en-US")} bytes), so reading stopped, before any tool was read.`,
    });
    expect(took).toBeLessThan(8000);
    expect(heapGrowth).toBeLessThan(HEAP_BOUND);
  });

  it("stops a 15 MiB page of small tools at the listing limit, without reading the rest", { timeout: 20_000 }, async () => {
    let written = 0;
    const { listing, took, heapGrowth } = await measuredRead(async (res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      const tool = (i: number) => JSON.stringify({ name: `tool_${i}`, description: "d".repeat(200), inputSchema: { type: "object" } });
      await stream(
        res,
        (function* () {
          yield `{"jsonrpc":"2.0","id":${id},"result":{"tools":[${tool(0)}`;
          for (let i = 1; written < 15 * MiB; i++) {
            const chunk = `,${tool(i)}`;
            written += chunk.length;
            yield chunk;
          }
          yield "]}}";
        })(),
      );
    });
    expect(listing.stopped).toBe(true);
    expect(listing.charsRead).toBeGreaterThan(250_000);
    expect(listing.charsRead).toBeLessThan(250_300);
    expect(written).toBeLessThan(15 * MiB); // the server was cut off, not read to the end
    expect(took).toBeLessThan(2000);
    expect(heapGrowth).toBeLessThan(HEAP_BOUND);
  });

  it("reads a 10 MiB answer, under the bound, whole", { timeout: 20_000 }, async () => {
    const { listing } = await measuredRead(async (res, id) => {
      res.writeHead(200, { "content-type": "application/json" });
      await stream(res, hugeListing(id, 10 * MiB));
    });
    // Read, then too large by the character count, which the engine words.
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(1);
    expect(listing.charsRead).toBeGreaterThan(10 * MiB);
  });
});
