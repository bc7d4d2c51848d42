import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { parseAllowList } from "./address";
import type { ReadOptions } from "./read-app";
import { cacheHintOf, MAX_TTL_MS, readLiveApp } from "./read-app";
import { startHttp } from "@/test/apps/http";
import { DISCOVERED, modern, modernResult, result, sendJson, sleep, startRawApp, type RawBehaviour } from "@/test/apps/raw-apps";
import { cursorServer, goodServer, madeTools, pagedServer, startOldSseApp, startSdkApp } from "@/test/apps/sdk-apps";
import { calendarServer, cursorV2Server, startV2App } from "@/test/apps/v2-apps";
import { zooClosedAfterAll } from "@/test/apps/zoo";

const LOOPBACK: ReadOptions = { allow: parseAllowList("127.0.0.1") };
/** A deadline past any test's own timeout: a read under it ends for its own reason, never at the deadline. */
const NEVER_MS = 10 * 60_000;
const zoo = zooClosedAfterAll();

describe("a listing's cache hint, as the app said it", () => {
  it.each([
    ["ten minutes, public", { ttlMs: 600_000, cacheScope: "public" }, true, { ttlMs: 600_000, scope: "public" }],
    ["no ttlMs: valid for no time", { cacheScope: "public" }, true, { ttlMs: 0, scope: "public" }],
    ["a negative ttlMs: no time", { ttlMs: -5, cacheScope: "private" }, true, { ttlMs: 0, scope: "private" }],
    ["a huge ttlMs: a day at most", { ttlMs: 1e15, cacheScope: "public" }, true, { ttlMs: MAX_TTL_MS, scope: "public" }],
    ["a ttlMs that is not a number", { ttlMs: "600000", cacheScope: "public" }, true, { ttlMs: 0, scope: "public" }],
    ["a fraction, rounded down", { ttlMs: 1500.9 }, true, { ttlMs: 1500, scope: "private" }],
    ["an unknown scope reads as private", { ttlMs: 1000, cacheScope: "everyone" }, true, { ttlMs: 1000, scope: "private" }],
    ["a 2025 answer has none", {}, false, null],
  ])("%s", (_what, result, modern, expected) => {
    expect(cacheHintOf({ tools: [], ...result }, modern)).toEqual(expected);
  });
});

describe("a listing's cursors (SPEC §10): at most 100 pages, and never a cursor twice", () => {
  const eras = [
    ["2025", (next: (page: number) => string) => startSdkApp(cursorServer(next))],
    ["2026-07-28 only", (next: (page: number) => string) => startV2App(cursorV2Server(next), "strict")],
  ] as const;
  const listRequests = (seen: readonly string[]) => seen.filter((s) => s.endsWith("tools/list")).length;

  it.each(eras)("an endless cursor (%s) gets 100 tools/list requests, then the app is invalid-listing", { timeout: 20_000 }, async (_era, start) => {
    const app = await zoo(start((page) => `c${page}`));
    const listing = await readLiveApp({ name: "Endless", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: "Endless is unavailable: its tools/list went on past 100 pages (100 tools so far), so reading stopped." });
    expect(listRequests(app.seen)).toBe(100);
  });

  it.each(eras)("a cursor given again (%s) stops the read at once, without asking for it twice", { timeout: 10_000 }, async (_era, start) => {
    const app = await zoo(start((page) => ["a", "b", "c", "b"][page - 1] ?? "never"));
    const listing = await readLiveApp({ name: "Loop", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: 'Loop is unavailable: page 4 of its tools/list gives the cursor "b" again, so the listing would never end.' });
    expect(listRequests(app.seen)).toBe(4);
  });
});

describe("both protocol eras (SPEC §18)", () => {
  const calendarTools = ["list_events", "create_event", "render_week", "confirm_delete"];

  it.each(["strict", "default"] as const)("reads a v2 app (%s) in the 2026-07-28 era: server/discover, then tools/list, no session", { timeout: 10_000 }, async (era) => {
    const app = await zoo(startV2App(() => calendarServer({ cache: { ttlMs: 600_000, cacheScope: "public" } }), era));
    const listing = await readLiveApp({ name: "V2 Calendar", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries.map((e) => (e as { name: string }).name)).toEqual(calendarTools);
    expect(listing.protocol).toBe("2026-07-28");
    expect(listing.cache).toEqual({ ttlMs: 600_000, scope: "public" });
    expect(app.seen).toEqual(["POST /mcp server/discover", "POST /mcp tools/list"]);
  });

  it("says private, with no time, for a modern app without cache hints", { timeout: 10_000 }, async () => {
    const app = await zoo(startV2App(() => calendarServer(), "strict"));
    const listing = await readLiveApp({ name: "V2 Calendar", url: app.url }, LOOPBACK);
    expect(listing.cache).toEqual({ ttlMs: 0, scope: "private" });
  });

  it("reads a v1 app in the 2025 era after its answer to server/discover, with no cache hint", { timeout: 10_000 }, async () => {
    const app = await zoo(startSdkApp(goodServer));
    const listing = await readLiveApp({ name: "Attendance", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.protocol).toBe("2025-11-25");
    expect(listing.cache).toBeNull();
    expect(app.seen.slice(0, 2)).toEqual(["POST /mcp server/discover", "POST /mcp initialize"]);
  });
});

describe("what server/discover may answer (SPEC §18)", () => {
  const rpcError = (id: number, code: number, message: string, data?: unknown) => ({ jsonrpc: "2.0", id, error: { code, message, data } });

  it("reads a 2025 server that answers server/discover with a page of HTML, the 2025 way", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ discover: (res) => void res.writeHead(200, { "content-type": "text/html" }).end("<h1>Welcome</h1>"), list: (res, id) => sendJson(res, result(id, { tools: [{ name: "a" }] })) }));
    const listing = await readLiveApp({ name: "Html", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.protocol).toBe("2025-06-18");
    expect(app.seen.filter((s) => s.endsWith("initialize"))).toHaveLength(1);
  });

  it("reads a 2025 server whose answer to server/discover is not JSON at all", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ discover: (res) => void res.writeHead(200, { "content-type": "application/json" }).end("{not json"), list: (res, id) => sendJson(res, result(id, { tools: [{ name: "a" }] })) }));
    const listing = await readLiveApp({ name: "Garbled", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.protocol).toBe("2025-06-18");
  });

  it("says what an app offering only revisions we do not speak offered", { timeout: 10_000 }, async () => {
    const app = await zoo(
      startRawApp({
        discover: (res, id) => sendJson(res, result(id, { ...DISCOVERED, supportedVersions: ["2027-03-01"] })),
        initialize: (res, id) => sendJson(res, rpcError(id, -32022, "Unsupported protocol version", { supported: ["2027-03-01"], requested: "2025-11-25" }), 400),
      }),
    );
    const listing = await readLiveApp({ name: "Future", url: app.url }, LOOPBACK);
    expect(listing.unavailable?.code).toBe("connect-failed");
    expect(listing.unavailable?.message).toMatch(/^Future is unavailable: it offers only the MCP revision "2027-03-01", which this dashboard does not speak \(it speaks 2026-07-28, 2025-11-25/);
  });

  it("says so when a modern-only server offers only a later modern revision at the probe", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ discover: (res, id) => sendJson(res, rpcError(id, -32022, "Unsupported protocol version", { supported: ["2027-03-01"], requested: "2026-07-28" }), 400) }));
    const listing = await readLiveApp({ name: "Future", url: app.url }, LOOPBACK);
    expect(listing.unavailable?.message).toMatch(/^Future is unavailable: it offers only the MCP revision "2027-03-01"/);
  });

  it("a discover answer that lies (claims 2026-07-28, then wants a 2025 session) is its tools/list error, not a crash", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ discover: (res, id) => sendJson(res, result(id, DISCOVERED)), list: (res, id) => sendJson(res, rpcError(id, -32000, "Bad Request: Server not initialized"), 400) }));
    const listing = await readLiveApp({ name: "Liar", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: "Liar is unavailable: it answered tools/list with an error: Bad Request: Server not initialized (code -32000)." });
    expect(listing.protocol).toBe("2026-07-28");
  });

  it("a slow server/discover is the connect deadline, which covers discovery and the fallback together", { timeout: 10_000 }, async () => {
    // Discovery answers well after the deadline: a read that waited for it (or gave the fallback a
    // deadline of its own) would come back connected, however busy the machine (timers fire in order).
    const app = await zoo(startRawApp({ discover: async (res, id) => {
      await sleep(2000);
      if (!res.destroyed) sendJson(res, result(id, DISCOVERED));
    } }));
    const listing = await readLiveApp({ name: "Slow", url: app.url }, { ...LOOPBACK, connectTimeoutMs: 300 });
    expect(listing.unavailable).toEqual({ code: "connect-timeout", message: "Slow is unavailable: it did not finish connecting (MCP initialize) within 0.3 s." });
    expect(listing.timings).toBeNull();
    expect(app.seen).toEqual(["POST /mcp server/discover"]);
  });

  it("reads the hostile zoo's listings in the 2026-07-28 era too: a repeated cursor", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp(modern({ list: (res, id, page) => sendJson(res, modernResult(id, { tools: [{ name: `t${page}` }], nextCursor: "a" })) })));
    const listing = await readLiveApp({ name: "Loop", url: app.url }, LOOPBACK);
    expect(listing.protocol).toBe("2026-07-28");
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: 'Loop is unavailable: page 2 of its tools/list gives the cursor "a" again, so the listing would never end.' });
  });

  it("takes entries the SDK would reject (no name, a schema that is not one) as listed, in the 2026-07-28 era", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp(modern({ list: (res, id) => sendJson(res, modernResult(id, { tools: [{ name: 5 }, { name: "ok", inputSchema: { type: "nonsense" } }, "text"], ttlMs: -1, cacheScope: "public" })) })));
    const listing = await readLiveApp({ name: "Odd", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(3);
    expect(listing.cache).toEqual({ ttlMs: 0, scope: "public" });
  });

  it("reads a modern page without resultType as complete, and without ttlMs as valid for no time", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp(modern({ list: (res, id) => sendJson(res, result(id, { tools: [{ name: "a" }] })) })));
    const listing = await readLiveApp({ name: "Bare", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toEqual([{ name: "a" }]);
    expect(listing.cache).toEqual({ ttlMs: 0, scope: "private" });
  });
});

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
    await expect.poll(() => good.seen.filter((s) => s.startsWith("DELETE")).length, { timeout: 10_000 }).toBe(1);
    expect(good.openSessions()).toBe(0);
  });

  it("reads every page of a paginated listing", { timeout: 10_000 }, async () => {
    const paged = await zoo(startSdkApp(pagedServer(madeTools(15), 3), { json: true }));
    const listing = await readLiveApp({ name: "Paged", url: paged.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(15);
    expect(paged.seen.filter((s) => s.endsWith("tools/list"))).toHaveLength(5);
    // Each entry's size as it was measured on its page, which the engine then takes as it is (SPEC §7).
    expect(listing.entrySizes).toEqual(listing.entries.map((e) => Array.from(JSON.stringify(e)).length));
    expect(listing.charsRead).toBe(listing.entrySizes!.reduce((a, b) => a + b, 0));
  });

  it("falls back to the older HTTP+SSE transport when the POST gets a 4xx", { timeout: 10_000 }, async () => {
    const old = await zoo(startOldSseApp(goodServer));
    const listing = await readLiveApp({ name: "Old", url: old.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toHaveLength(3);
    expect(old.seen.slice(0, 2)).toEqual(["POST /sse server/discover", "POST /sse initialize"]);
    expect(old.seen).toContain("GET /sse");
    expect(listing.protocol).toMatch(/^2025-/);
    expect(listing.cache).toBeNull();
  });
});

describe("apps that break the protocol", () => {
  it("keeps an invalid entry as received, for the engine to leave out", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: [{ name: 7 }, { name: "ok", inputSchema: { type: "object" } }] })) }));
    const listing = await readLiveApp({ name: "Mixed", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toEqual([{ name: 7 }, { name: "ok", inputSchema: { type: "object" } }]);
  });

  it.each([
    ["invalid JSON", (res: ServerResponse) => void res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{"tools":[{'), "is not valid JSON"],
    ["a wrong JSON-RPC shape", (res: ServerResponse, id: number) => sendJson(res, { jsonrpc: "2.0", id, tools: [] }), "is not a JSON-RPC response"],
    ["invalid JSON in an event", (res: ServerResponse) => void res.writeHead(200, { "content-type": "text/event-stream" }).end("event: message\ndata: {nope\n\n"), "is not valid JSON"],
  ])("says when tools/list is answered with %s", { timeout: 10_000 }, async (_what, answer, why) => {
    const app = await zoo(startRawApp({ list: answer }));
    // Said at once, not at the deadline: with no deadline within the test's time, only the bad answer can end the read.
    const listing = await readLiveApp({ name: "Broken", url: app.url }, { ...LOOPBACK, listTimeoutMs: NEVER_MS });
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: `Broken is unavailable: its answer to tools/list ${why}.` });
  });

  it("reads a gzip-encoded answer", { timeout: 10_000 }, async () => {
    const app = await zoo(
      startRawApp({
        list: (res, id) => void res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(JSON.stringify(result(id, { tools: [{ name: "zipped" }] })))),
      }),
    );
    const listing = await readLiveApp({ name: "Zipped", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toEqual([{ name: "zipped" }]);
  });

  it("says when tools/list has no tools array", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: "all of them" })) }));
    const listing = await readLiveApp({ name: "Odd", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: "Odd is unavailable: page 1 of its tools/list has no `tools` array." });
  });

  it("stops an endless cursor at the page cap", { timeout: 30_000 }, async () => {
    const app = await zoo(startRawApp({ list: (res, id, page) => sendJson(res, result(id, { tools: [{ name: `t${page}` }], nextCursor: `c${page}` })) }));
    // The page cap ends the read, not the list deadline (none within the test's time), however long 50 pages take.
    const listing = await readLiveApp({ name: "Endless", url: app.url }, { ...LOOPBACK, maxPages: 50, listTimeoutMs: NEVER_MS });
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: "Endless is unavailable: its tools/list went on past 50 pages (50 tools so far), so reading stopped." });
    expect(listing.entries).toHaveLength(50);
    expect(app.seen.filter((s) => s.endsWith("tools/list"))).toHaveLength(50);
  });

  it("stops at a repeated cursor", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ list: (res, id, page) => sendJson(res, result(id, { tools: [{ name: `t${page}` }], nextCursor: page === 1 ? "a" : page === 2 ? "b" : "a" })) }));
    const listing = await readLiveApp({ name: "Loop", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "invalid-listing", message: 'Loop is unavailable: page 3 of its tools/list gives the cursor "a" again, so the listing would never end.' });
    expect(listing.entries).toHaveLength(3);
  });

  it("says when the URL is not an MCP server", { timeout: 10_000 }, async () => {
    const app = await zoo(startHttp((_req, res) => void res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>")));
    const listing = await readLiveApp({ name: "Site", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({
      code: "connect-failed",
      message:
        "Site is unavailable: it is not an MCP server at this URL: it answered neither MCP way: server/discover (2026-07-28) with HTTP 404 (text/html), initialize (2025) with HTTP 404 (text/html), and the older event stream (GET) failed too (HTTP 404).",
    });
    expect(listing.timings).toBeNull();
  });

  it("says when a page answers with HTML", { timeout: 10_000 }, async () => {
    const app = await zoo(startHttp((_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<h1>Hello</h1>")));
    const listing = await readLiveApp({ name: "Site", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "connect-failed", message: "Site is unavailable: it is not an MCP server: it answered initialize with text/html, not JSON or an event stream." });
  });

  it("says when nothing answers at the address", { timeout: 10_000 }, async () => {
    const gone = await startHttp(() => {});
    await gone.close();
    const listing = await readLiveApp({ name: "Gone", url: gone.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "connect-failed", message: `Gone is unavailable: nothing answers at 127.0.0.1:${gone.port} (connection refused).` });
  });
});

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

describe.skipIf(!hasOpenssl)("TLS", () => {
  it("says when an https app's certificate is not trusted", { timeout: 15_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "zoo-tls-"));
    try {
      const made = spawnSync(
        "openssl",
        ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1"],
        { timeout: 10_000 },
      );
      expect(made.status).toBe(0);
      const server = https.createServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (_req, res) => res.end());
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const listing = await readLiveApp({ name: "Secure", url: `https://127.0.0.1:${port}/mcp` }, LOOPBACK);
        expect(listing.unavailable).toEqual({
          code: "connect-failed",
          message: "Secure is unavailable: its TLS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT).",
        });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the listing size", () => {
  /** `count` tools of exactly `each` characters as SPEC §7 counts them. */
  const tools = (count: number, each: number, prefix = "t") =>
    Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, description: "d".repeat(each - `{"name":"${prefix}${i}","description":""}`.length) }));

  it("stops a 300,000-character listing inside its one page, at the first tool past the limit", { timeout: 10_000 }, async () => {
    const listed = tools(30, 10_000);
    const app = await zoo(startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: listed })) }));
    const listing = await readLiveApp({ name: "Big", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull(); // the engine says why, from what was read
    expect(listing.stopped).toBe(true);
    expect(listing.entries).toEqual(listed.slice(0, 26));
    expect(listing.charsRead).toBe(260_000);
    const check = checkListings([listing], { connections: [], tools: [] }).apps[0]!;
    expect(check.unavailable).toEqual({
      code: "listing-too-large",
      message: "Big is unavailable: its tools pass the limit of 250,000 characters (reading stopped at 260,000); none stands out: all 26 tools are 10,000 characters each.",
    });
  });

  it("stops a listing streamed as an event (the SDK's own server) the same way", { timeout: 10_000 }, async () => {
    const app = await zoo(startSdkApp(pagedServer(madeTools(2000), 2000)));
    const listing = await readLiveApp({ name: "Streamed", url: app.url }, LOOPBACK);
    expect(listing.stopped).toBe(true);
    expect(listing.charsRead).toBeGreaterThan(250_000);
    expect(listing.charsRead).toBeLessThan(251_000);
    expect(listing.entries.length).toBeLessThan(2000);
    expect(listing.entries[0]).toEqual(madeTools(1)[0]);
  });

  it("reads a listing of exactly the limit whole", { timeout: 10_000 }, async () => {
    const listed = tools(25, 10_000);
    const app = await zoo(startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: listed })) }));
    const listing = await readLiveApp({ name: "Full", url: app.url }, LOOPBACK);
    expect(listing.stopped).toBe(false);
    expect(listing.entries).toHaveLength(25);
    expect(checkListings([listing], { connections: [], tools: [] }).apps[0]!.status).toBe("available");
  });

  it("stops at the limit on a later page, and asks for no page after it", { timeout: 10_000 }, async () => {
    const app = await zoo(startRawApp({ list: (res, id, page) => sendJson(res, result(id, { tools: tools(15, 10_000, `p${page}t`), nextCursor: `c${page}` })) }));
    const listing = await readLiveApp({ name: "Pages", url: app.url }, LOOPBACK);
    expect(app.seen.filter((s) => s.endsWith("tools/list"))).toHaveLength(2);
    expect(listing.stopped).toBe(true);
    const check = checkListings([listing], { connections: [], tools: [] }).apps[0]!;
    expect(check.unavailable?.message).toMatch(/^Pages is unavailable: its tools pass the limit of 250,000 characters \(reading stopped at 260,000\); none stands out: all 26 tools are 10,000 characters each\.$/);
  });
});

describe("sign-in", () => {
  it("says a 401 asks for sign-in, and never fetches the URL the app names", { timeout: 10_000 }, async () => {
    const metadata = await zoo(startHttp((_req, res) => sendJson(res, { authorization_servers: ["http://127.0.0.1:1"] })));
    const app = await zoo(
      startHttp((_req, res) =>
        void res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${metadata.url}"` }).end(),
      ),
    );
    const listing = await readLiveApp({ name: "Locked", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({
      code: "auth-required",
      message: "Locked is unavailable: it asks to sign in (HTTP 401); give its credentials as headers to check it.",
    });
    expect(app.seen).toEqual(["POST /mcp server/discover"]);
    expect(metadata.seen).toEqual([]);
  });

  it("sends the headers given for the app", { timeout: 10_000 }, async () => {
    const app = await zoo(
      startRawApp({ http: (req, res) => void (req.headers["authorization"] !== "Bearer s3cret" && res.writeHead(403).end()) }),
    );
    const listing = await readLiveApp({ name: "Keyed", url: app.url, headers: { Authorization: "Bearer s3cret" } }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    const refused = await readLiveApp({ name: "Keyed", url: app.url }, LOOPBACK);
    expect(refused.unavailable?.code).toBe("auth-required");
  });
});

describe("addresses", () => {
  it("refuses a redirect to an address that is not allowed, before connecting", { timeout: 10_000 }, async () => {
    const target = await zoo(startRawApp({}));
    const app = await zoo(startHttp((_req, res) => void res.writeHead(307, { location: `http://127.0.0.2:${target.port}/mcp` }).end()));
    const listing = await readLiveApp({ name: "Hop", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "address-refused", message: "Hop is unavailable: 127.0.0.2 is a loopback address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers." });
    expect(target.seen).toEqual([]);
  });

  it("follows a redirect to an allowed address, checking it again", { timeout: 10_000 }, async () => {
    const target = await zoo(startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: [{ name: "here" }] })) }));
    const app = await zoo(startHttp((_req, res) => void res.writeHead(308, { location: target.url }).end()));
    const listing = await readLiveApp({ name: "Hop", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(listing.entries).toEqual([{ name: "here" }]);
  });

  it("does not send the app's headers to another origin it redirects to", { timeout: 10_000 }, async () => {
    const heard: (string | string[] | undefined)[] = [];
    const target = await zoo(
      startRawApp({
        http: (req) => void heard.push(req.headers["x-api-key"]),
        list: (res, id) => sendJson(res, result(id, { tools: [{ name: "there" }] })),
      }),
    );
    const app = await zoo(startHttp((_req, res) => void res.writeHead(307, { location: target.url }).end()));
    const listing = await readLiveApp({ name: "Hop", url: app.url, headers: { "X-Api-Key": "s3cret" } }, LOOPBACK);
    expect(listing.unavailable).toBeNull();
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.every((h) => h === undefined)).toBe(true);
  });

  it("stops a redirect loop after 5 redirects", { timeout: 10_000 }, async () => {
    const app = await zoo(startHttp((req, res) => void res.writeHead(307, { location: `/mcp/${(req.url ?? "").length}` }).end()));
    const listing = await readLiveApp({ name: "Loop", url: app.url }, LOOPBACK);
    expect(listing.unavailable).toEqual({ code: "connect-failed", message: "Loop is unavailable: it redirected more than 5 times." });
    expect(app.seen).toHaveLength(6);
  });

  it("refuses a name that resolves to a loopback address unless the operator allows the name", { timeout: 10_000 }, async () => {
    const good = await zoo(startSdkApp(goodServer));
    const url = good.url.replace("127.0.0.1", "attendance.zoo.test");
    const resolve = async (host: string) => (host === "attendance.zoo.test" ? [{ address: "127.0.0.1", family: 4 as const }] : []);
    const refused = await readLiveApp({ name: "Named", url }, { resolve, allow: parseAllowList("") });
    expect(refused.unavailable).toEqual({
      code: "address-refused",
      message: "Named is unavailable: attendance.zoo.test resolves to 127.0.0.1, a loopback address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers.",
    });
    expect(good.seen).toEqual([]);
    const allowed = await readLiveApp({ name: "Named", url }, { resolve, allow: parseAllowList("attendance.zoo.test") });
    expect(allowed.unavailable).toBeNull();
    expect(allowed.entries).toHaveLength(3);
  });

  it("connects to the address it checked, and refuses the name once it resolves elsewhere (DNS rebinding)", { timeout: 10_000 }, async () => {
    const good = await zoo(startSdkApp(goodServer));
    const url = good.url.replace("127.0.0.1", "flip.zoo.test");
    let answer = "127.0.0.1";
    const resolve = async () => [{ address: answer, family: 4 as const }];
    const options: ReadOptions = { resolve, allow: parseAllowList("127.0.0.1") };
    // No other resolver knows flip.zoo.test: read at all, it was read at the address checked.
    const first = await readLiveApp({ name: "Flip", url }, options);
    expect(first.unavailable).toBeNull();
    const seen = good.seen.length;
    answer = "10.1.2.3";
    const second = await readLiveApp({ name: "Flip", url }, options);
    expect(second.unavailable).toEqual({
      code: "address-refused",
      message: "Flip is unavailable: flip.zoo.test resolves to 10.1.2.3, a private address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers.",
    });
    expect(good.seen).toHaveLength(seen);
  });

  it.each([
    ["2025", (list: RawBehaviour) => list],
    ["2026-07-28 only", modern],
  ] as const)("reads an app (%s) again over the connections its last read left open, but never under another address rule", { timeout: 10_000 }, async (_era, era) => {
    const sockets = new Set<unknown>();
    const app = await zoo(
      startRawApp(
        era({
          http: (req) => void sockets.add(req.socket),
          list: (res, id) => sendJson(res, modernResult(id, { tools: [{ name: "clock_in", inputSchema: { type: "object" } }] })),
        }),
      ),
    );
    const read = async (allow: string) => {
      const listing = await readLiveApp({ name: "Kept", url: app.url }, { allow: parseAllowList(allow) });
      expect(listing.unavailable).toBeNull();
      return sockets.size;
    };
    const first = await read("127.0.0.1");
    expect(first).toBeGreaterThan(0);
    // The same rule (written anew, as each check reads CHECK_ALLOW_HOSTS): no new connection.
    expect(await read("127.0.0.1")).toBe(first);
    // Another rule that also allows it opens connections of its own, checked under that rule.
    expect(await read(`127.0.0.1:${app.port}`)).toBeGreaterThan(first);
  });

  it("opens an allowed address on the port the operator names, and no other", { timeout: 10_000 }, async () => {
    const good = await zoo(startSdkApp(goodServer));
    const allowed = await readLiveApp({ name: "Demo", url: good.url }, { allow: parseAllowList(`127.0.0.1:${good.port}`) });
    expect(allowed.unavailable).toBeNull();
    const other = good.port === 65535 ? good.port - 1 : good.port + 1;
    const refused = await readLiveApp({ name: "Demo", url: good.url }, { allow: parseAllowList(`127.0.0.1:${other}`) });
    expect(refused.unavailable).toEqual({ code: "address-refused", message: "Demo is unavailable: 127.0.0.1 is a loopback address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers." });
  });

  it("refuses a name when any of its addresses is not public", { timeout: 10_000 }, async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 as const },
      { address: "10.1.2.3", family: 4 as const },
    ];
    const listing = await readLiveApp({ name: "Split", url: "http://split.zoo.test/mcp" }, { resolve, allow: parseAllowList("") });
    expect(listing.unavailable).toEqual({
      code: "address-refused",
      message: "Split is unavailable: split.zoo.test resolves to 10.1.2.3, a private address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers.",
    });
  });

  it.each([
    ["http://2130706433:PORT/mcp", "127.0.0.1 is a loopback address"],
    ["http://0x7f.1:PORT/mcp", "127.0.0.1 is a loopback address"],
    ["http://127.1:PORT/mcp", "127.0.0.1 is a loopback address"],
    ["http://[::ffff:127.0.0.1]:PORT/mcp", "::ffff:7f00:1 is a loopback address"],
    ["http://[::1]:PORT/mcp", "::1 is a loopback address"],
    ["http://0:PORT/mcp", "0.0.0.0 is an unspecified address"],
    ["http://user:pw@127.0.0.1:PORT/mcp", "its URL holds a user name or password, which are not sent"],
  ])("refuses %s", { timeout: 10_000 }, async (url, why) => {
    const good = await zoo(startSdkApp(goodServer));
    const listing = await readLiveApp({ name: "Literal", url: url.replace("PORT", String(good.port)) }, { allow: parseAllowList("") });
    expect(listing.unavailable?.code).toBe("address-refused");
    expect(listing.unavailable?.message).toBe(`Literal is unavailable: ${why}${why.startsWith("its URL") ? "" : why.includes("loopback") ? `, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers` : `, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS`}.`);
    expect(good.seen).toEqual([]);
  });
});
