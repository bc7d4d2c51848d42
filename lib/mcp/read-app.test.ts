import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowList } from "./address";
import type { ReadOptions } from "./read-app";
import { readLiveApp } from "./read-app";
import type { ZooApp } from "./zoo/http";
import { goodServer, madeTools, pagedServer, startOldSseApp, startSdkApp } from "./zoo/sdk-apps";

const LOOPBACK: ReadOptions = { allow: parseAllowList("127.0.0.1") };
const apps: ZooApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});
async function zoo<T extends ZooApp>(started: Promise<T>): Promise<T> {
  const app = await started;
  apps.push(app);
  return app;
}

describe("reading a live app", () => {
  let good: Awaited<ReturnType<typeof startSdkApp>>;
  beforeAll(async () => {
    good = await zoo(startSdkApp(goodServer));
  });

  it("reads a well-made app's tools as listed, with timings, and ends its session", { timeout: 10_000 }, async () => {
    const listing = await readLiveApp({ name: "Attendance", url: good.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries.map((e) => (e as { name: string }).name)).toEqual(["clock_in", "list_shifts", "delete_shift"]);
    expect(listing.timings?.connectMs).toBeGreaterThan(0);
    expect(listing.timings?.listMs).toBeGreaterThan(0);
    await expect.poll(() => good.seen.filter((s) => s.startsWith("DELETE")).length, { timeout: 2000 }).toBe(1);
    expect(good.openSessions()).toBe(0);
  });

  it("reads every page of a paginated listing", { timeout: 10_000 }, async () => {
    const paged = await zoo(startSdkApp(pagedServer(madeTools(15), 3), { json: true }));
    const listing = await readLiveApp({ name: "Paged", url: paged.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(15);
    expect(paged.seen.filter((s) => s.endsWith("tools/list"))).toHaveLength(5);
  });

  it("falls back to the older HTTP+SSE transport when the POST gets a 4xx", { timeout: 10_000 }, async () => {
    const old = await zoo(startOldSseApp(goodServer));
    const listing = await readLiveApp({ name: "Old", url: old.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(3);
    expect(old.seen[0]).toMatch(/^POST \/sse initialize$/);
    expect(old.seen).toContain("GET /sse");
  });
});
