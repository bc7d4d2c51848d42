/**
 * The apps of `npm run bench:live`, served from a process of their own (as remote apps are):
 * one app of 1,000 tools in pages of 100 in each protocol era (2025, and 2026-07-28 only), and
 * 50 apps of 100 tools that each answer after a delay of 50–250 ms. Prints their URLs as one
 * JSON line; stops when its stdin closes.
 */
import { madeTools, pagedServer, startSdkApp } from "./sdk-apps";
import { modern, modernResult, result, sendJson, sleep, startRawApp } from "./raw-apps";

const BIG_TOOLS = 1000;
const BIG_PAGE = 100;
const SLOW_APPS = 50;
const slowDelay = (i: number) => 50 + Math.round((200 * i) / (SLOW_APPS - 1));

const big = await startSdkApp(pagedServer(madeTools(BIG_TOOLS), BIG_PAGE));
// The same listing from an app of the 2026-07-28 revision only: server/discover, then pages with their cache hint.
const bigTools = madeTools(BIG_TOOLS);
const bigModern = await startRawApp(
  modern({
    initialize: (res, id) => sendJson(res, { jsonrpc: "2.0", id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } } }, 400),
    list: (res, id, _page, params) => {
      const from = Number(params["cursor"] ?? 0);
      const next = from + BIG_PAGE < BIG_TOOLS ? String(from + BIG_PAGE) : undefined;
      sendJson(res, modernResult(id, { tools: bigTools.slice(from, from + BIG_PAGE), ttlMs: 600_000, cacheScope: "public", ...(next === undefined ? {} : { nextCursor: next }) }));
    },
  }),
);
const slow = await Promise.all(
  Array.from({ length: SLOW_APPS }, (_, i) => {
    const tools = madeTools(100, `app${i}`);
    return startRawApp({
      initialize: async (res, id) => {
        await sleep(slowDelay(i));
        sendJson(res, result(id, { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: `app${i}`, version: "1" } }));
      },
      list: async (res, id) => {
        await sleep(slowDelay(i));
        sendJson(res, result(id, { tools }));
      },
    });
  }),
);
process.stdout.write(`${JSON.stringify({ big: big.url, bigModern: bigModern.url, slow: slow.map((a) => a.url) })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void Promise.all([big.close(), bigModern.close(), ...slow.map((a) => a.close())]).then(() => process.exit(0));
});
