import { describe, expect, it } from "vitest";
import { parseAllowList } from "./address";
import { readLiveApp } from "./read-app";
import type { OversizedKind } from "@/test/apps/bounds-apps";
import { oversizedApp } from "@/test/apps/bounds-apps";
import { startRawApp } from "@/test/apps/raw-apps";
import { zooClosedAfterAll } from "@/test/apps/zoo";

// What a listing past a bound does to the reader. What it costs in memory is measured by
// `npm run bench:bounds`, in processes of its own: this worker is shared by other tests.
const allow = parseAllowList("127.0.0.1");
const MiB = 1024 * 1024;
/** What the sockets between app and reader may hold past what was read: more, and the app was read on, not cut off. */
const SOCKET_SLACK = 16 * MiB;
const zoo = zooClosedAfterAll();

/** Reads the app of that kind; `written` is what the app got to hand to its socket. */
async function readOversized(kind: OversizedKind) {
  const oversized = oversizedApp(kind);
  const app = await zoo(startRawApp(oversized.behaviour));
  const listing = await readLiveApp({ name: "Huge", url: app.url }, { allow });
  return { listing, written: oversized.written() };
}

describe("bounded reading", () => {
  it("stops a 50 MiB answer at 16 MiB", { timeout: 20_000 }, async () => {
    const { listing, written } = await readOversized("answer");
    expect(listing.unavailable).toEqual({
      code: "listing-too-large",
      message: "Huge is unavailable: one answer to its tools/list was too large: one answer passed 16 MiB (16,777,216 bytes), so reading stopped, before any tool was read.",
    });
    expect(listing.entries).toEqual([]);
    expect(written).toBeLessThan(16 * MiB + SOCKET_SLACK);
  });

  it("stops a gzip bomb as it inflates (1 GiB inflated, about 1 MiB sent)", { timeout: 20_000 }, async () => {
    const { listing } = await readOversized("bomb");
    expect(listing.unavailable).toEqual({
      code: "listing-too-large",
      message: "Huge is unavailable: one answer to its tools/list was too large: one answer passed 16 MiB (16,777,216 bytes), so reading stopped, before any tool was read.",
    });
    expect(listing.entries).toEqual([]);
  });

  it("stops one streamed event past 4 MiB", { timeout: 20_000 }, async () => {
    const { listing, written } = await readOversized("event");
    expect(listing.unavailable).toEqual({
      code: "listing-too-large",
      message: "Huge is unavailable: one answer to its tools/list was too large: one streamed event passed 4 MiB (4,194,304 bytes), so reading stopped, before any tool was read.",
    });
    expect(listing.entries).toEqual([]);
    expect(written).toBeLessThan(4 * MiB + SOCKET_SLACK); // of 32 MiB
  });

  it("stops a 15 MiB page of small tools at the listing limit, without reading the rest", { timeout: 20_000 }, async () => {
    const { listing, written } = await readOversized("tools");
    expect(listing.unavailable).toBeNull(); // the engine words it, from what was read
    expect(listing.stopped).toBe(true);
    expect(listing.charsRead).toBeGreaterThan(250_000);
    expect(listing.charsRead).toBeLessThan(250_300);
    // The tools in the order sent, up to and including the first past the limit (SPEC §7's measure: ASCII, so code points are UTF-16 units).
    const sizes = listing.entries.map((entry) => JSON.stringify(entry).length);
    expect(listing.entries.map((entry) => (entry as { name: string }).name)).toEqual(sizes.map((_, i) => `tool_${i}`));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(listing.charsRead);
    expect(listing.charsRead! - sizes.at(-1)!).toBeLessThanOrEqual(250_000);
    expect(written).toBeLessThan(15 * MiB); // the server was cut off, not read to the end
  });

  it("reads a 10 MiB answer, under the bound, whole", { timeout: 20_000 }, async () => {
    const { listing, written } = await readOversized("under");
    // Read, then too large by the character count, which the engine words.
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(1);
    expect(listing.charsRead).toBeGreaterThan(10 * MiB);
    expect(written).toBeGreaterThan(10 * MiB);
  });
});
