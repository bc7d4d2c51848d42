import type { ServerResponse } from "node:http";
import { afterAll, describe, it } from "vitest";
import { parseAllowList } from "./address";
import { CONNECT_TIMEOUT_MS, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import { readLiveApp } from "./read-app";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ZooApp } from "@/test/apps/http";
import { startSdkApp } from "@/test/apps/sdk-apps";
import type { Answer } from "@/test/apps/raw-apps";
import { drip, result, sendJson, sleep, startRawApp } from "@/test/apps/raw-apps";

// Slow apps run side by side (describe.concurrent): the file takes about as long as its slowest case.
const allow = parseAllowList("127.0.0.1");
const TOLERANCE_MS = 1000;
const apps: ZooApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

/** Reads an app, timing it, and counts the server's sockets still open a moment after. */
async function timedRead(initialize: Answer | undefined, list: Answer | undefined) {
  const app = await startRawApp({ initialize, list });
  apps.push(app);
  const started = performance.now();
  const listing = await readLiveApp({ name: "Slow", url: app.url }, { allow });
  return { listing, took: performance.now() - started, app };
}

const answerAfter =
  (ms: number, value: unknown): Answer =>
  async (res, id) => {
    await sleep(ms);
    if (!res.destroyed) sendJson(res, result(id, value));
  };

const eventStream = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" });

describe.concurrent("deadlines", () => {
  it("gives up connecting at 3 s when initialize answers after 3.5 s", { timeout: 10_000 }, async ({ expect }) => {
    const { listing, took } = await timedRead(answerAfter(3500, { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "z", version: "1" } }), undefined);
    expect(listing.unavailable).toEqual({ code: "connect-timeout", message: "Slow is unavailable: it did not finish connecting (MCP initialize) within 3 s." });
    expect(listing.timings).toBeNull();
    expect(took).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(CONNECT_TIMEOUT_MS + TOLERANCE_MS);
  });

  it("gives up listing at 8 s when tools/list answers after 9 s", { timeout: 15_000 }, async ({ expect }) => {
    const { listing, took } = await timedRead(undefined, answerAfter(9000, { tools: [] }));
    expect(listing.unavailable).toEqual({ code: "list-timeout", message: "Slow is unavailable: it did not list all its tools within 8 s (0 tools in 0 pages before the deadline)." });
    expect(listing.timings?.listMs).toBeGreaterThanOrEqual(LIST_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(LIST_TIMEOUT_MS + TOLERANCE_MS);
  });

  it("keeps the pages read before the list deadline", { timeout: 15_000 }, async ({ expect }) => {
    const { listing, took } = await timedRead(undefined, async (res, id, page) => {
      if (page > 1) await sleep(9000);
      if (!res.destroyed) sendJson(res, result(id, { tools: [{ name: `t${page}` }], nextCursor: `c${page}` }));
    });
    expect(listing.unavailable?.code).toBe("list-timeout");
    expect(listing.unavailable?.message).toContain("(1 tool in 1 page before the deadline)");
    expect(listing.entries).toEqual([{ name: "t1" }]);
    expect(took).toBeLessThan(LIST_TIMEOUT_MS + TOLERANCE_MS);
  });

  it("ends the session of an app that timed out", { timeout: 15_000 }, async ({ expect }) => {
    const stuck = await startSdkApp(() => {
      const server = new Server({ name: "stuck", version: "1" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => {
        await sleep(9000);
        return { tools: [] };
      });
      return server;
    });
    apps.push(stuck);
    const listing = await readLiveApp({ name: "Stuck", url: stuck.url }, { allow });
    expect(listing.unavailable?.code).toBe("list-timeout");
    await expect.poll(() => stuck.seen.filter((s) => s.startsWith("DELETE")).length, { timeout: 2000 }).toBe(1);
    expect(stuck.openSessions()).toBe(0);
  });

  it("gives up on an app that drips a byte every 500 ms", { timeout: 15_000 }, async ({ expect }) => {
    const { listing, took } = await timedRead(undefined, (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      void drip(res, " ", 500);
    });
    expect(listing.unavailable?.code).toBe("list-timeout");
    expect(took).toBeLessThan(LIST_TIMEOUT_MS + TOLERANCE_MS);
  });

  it("gives up on an initialize that drips, at the connect deadline", { timeout: 10_000 }, async ({ expect }) => {
    const { listing, took } = await timedRead((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      void drip(res, " ", 500);
    }, undefined);
    expect(listing.unavailable?.code).toBe("connect-timeout");
    expect(took).toBeLessThan(CONNECT_TIMEOUT_MS + TOLERANCE_MS);
  });

  it("gives up on an endless event stream that never answers", { timeout: 15_000 }, async ({ expect }) => {
    let closed = false;
    const { listing, took } = await timedRead(undefined, (res) => {
      eventStream(res);
      res.on("close", () => (closed = true));
      void drip(res, 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"still here"}}\n\n', 5);
    });
    expect(listing.unavailable?.code).toBe("list-timeout");
    expect(took).toBeLessThan(LIST_TIMEOUT_MS + TOLERANCE_MS);
    await expect.poll(() => closed, { timeout: 1000 }).toBe(true); // the socket was aborted, not left open
  });
});
