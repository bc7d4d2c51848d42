import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_APPS, DEMO_BASE_PORT, demoBasePort, startDemoApps, type DemoApps } from "./demo-apps";

/** Listens on 127.0.0.1:`port`, or answers null when it is taken. */
function hold(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
const release = (servers: readonly (Server | null)[]) => Promise.all(servers.map((s) => new Promise<void>((resolve) => (s === null ? resolve() : s.close(() => resolve())))));

/** The first of as many loopback ports in a row as there are demo apps, all free a moment ago. */
async function freeRun(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const held = await Promise.all(DEMO_APPS.map((_, i) => hold(base + i)));
    await release(held);
    if (held.every((s) => s !== null)) return base;
  }
  throw new Error("No run of free ports.");
}

const port = (url: string) => Number(new URL(url).port);
let running: DemoApps[] = [];
let holders: Server[] = [];
afterEach(async () => {
  await Promise.all(running.map((d) => d.close()));
  await release(holders);
  running = [];
  holders = [];
});
const start = async (base: number) => {
  const demo = await startDemoApps("127.0.0.1", undefined, base);
  running.push(demo);
  return demo;
};

describe("the demo apps' addresses", () => {
  it("keeps each app's address from one start to the next: its place after the first port", async () => {
    const base = await freeRun();
    const first = await start(base);
    expect(first.apps.map((a) => port(a.url))).toEqual(DEMO_APPS.map((_, i) => base + i));
    expect(first.moved).toEqual([]);
    await first.close();
    running = [];
    const again = await start(base);
    expect(again.apps.map((a) => a.url)).toEqual(first.apps.map((a) => a.url));
  });

  it("moves an app whose port another program holds to a free one, and says so; the others keep theirs", async () => {
    const base = await freeRun();
    const planner = DEMO_APPS.findIndex((a) => a.key === "planner");
    const taken = await hold(base + planner);
    holders.push(taken!);
    const demo = await start(base);
    const moved = demo.apps[planner]!;
    expect(port(moved.url)).not.toBe(base + planner);
    expect(demo.moved).toEqual([{ key: "planner", name: "Planner", wanted: base + planner, url: moved.url }]);
    expect(demo.apps.filter((_, i) => i !== planner).map((a) => port(a.url))).toEqual(DEMO_APPS.flatMap((_, i) => (i === planner ? [] : [base + i])));
    // The moved app answers MCP at its new address.
    const answer = await fetch(moved.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }) });
    expect(answer.status).toBeLessThan(500);
  });

  it("takes free ports, different each time, with 0 (the tests' own demo)", async () => {
    const demo = await start(0);
    expect(demo.moved).toEqual([]);
    expect(new Set(demo.apps.map((a) => port(a.url))).size).toBe(DEMO_APPS.length);
  });

  it.each([
    [undefined, DEMO_BASE_PORT],
    ["", DEMO_BASE_PORT],
    ["4100", 4100],
    ["0", 0],
  ])("reads THEOREM_DEMO_PORT %j as %i", (value, base) => {
    expect(demoBasePort(value)).toBe(base);
  });

  it.each(["http", "-1", "3.5", "65535"])("refuses THEOREM_DEMO_PORT %j, saying what it takes", (value) => {
    expect(() => demoBasePort(value)).toThrow(/^THEOREM_DEMO_PORT is .*: give the first of 6 ports in a row \(1–65530\), or 0 for free ports\.$/);
  });
});
