import http from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ZooApp } from "./http";
import { listenPreferring, paramHeaders, rpcMethod } from "./http";

// Apps of the 2026-07-28 era, served by the v2 server SDK as a team starting today would ship them
// (SPEC §18): `createMcpHandler` per request, strict (`legacy: "reject"`, modern only) or default
// (`"stateless"`: it answers 2025 clients too).

type Era = "strict" | "default";

interface V2Options {
  /** `legacy: "reject"` (modern only) or the default, which also answers 2025 clients. */
  era?: Era;
  /** The `tools/list` cache hint; none: the SDK's own (`ttlMs: 0`, `private`). */
  cache?: { ttlMs: number; cacheScope: "public" | "private" };
  /** Tools to register besides the calendar's own. */
  extra?: (server: McpServer) => void;
}

/** A calendar of three tools, one of them (`render_week`) for the app's own view only (MCP Apps). */
export function calendarServer(options: V2Options = {}): McpServer {
  const server = new McpServer({ name: "v2-calendar", version: "1.0.0" }, options.cache === undefined ? {} : { cacheHints: { "tools/list": options.cache } });
  const ok = async () => ({ content: [{ type: "text" as const, text: "ok" }] });
  server.registerTool("list_events", { title: "List events", description: "Lists the events of a day.", inputSchema: z.object({ day: z.string() }), annotations: { readOnlyHint: true } }, ok);
  server.registerTool(
    "create_event",
    { title: "Create event", description: "Creates an event.", inputSchema: z.object({ title: z.string(), eventId: z.string().optional() }), annotations: { destructiveHint: false } },
    ok,
  );
  server.registerTool(
    "render_week",
    { title: "Render week", description: "Draws the week in the app's own view.", inputSchema: z.object({ week: z.number() }), _meta: { ui: { visibility: ["app"] } } },
    ok,
  );
  server.registerTool("confirm_delete", { title: "Delete with confirmation", description: "Deletes an event after asking.", inputSchema: z.object({ eventId: z.string() }) }, async ({ eventId }, ctx) => {
    const answer = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, "confirm");
    if (answer?.confirm !== true) {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Delete event ${eventId}?`, requestedSchema: z.object({ confirm: z.boolean() }) }) } });
    }
    return { content: [{ type: "text" as const, text: `Deleted ${eventId}.` }] };
  });
  options.extra?.(server);
  return server;
}

/** `cursorServer` of sdk-apps.ts on the v2 server SDK: page `n` lists one tool and gives `nextCursor(n)`. */
export function cursorV2Server(nextCursor: (page: number) => string): () => McpServer {
  let page = 0;
  return () => {
    const server = new McpServer({ name: "v2-cursors", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.server.setRequestHandler("tools/list", () => {
      page++;
      return { tools: [{ name: `t${page}`, inputSchema: { type: "object" as const } }], nextCursor: nextCursor(page) };
    });
    return server;
  };
}

/**
 * A tool whose parameters are mirrored into headers (SEP-2243): `region`, `days` and `metric` as
 * `Mcp-Param-Region`, `-Days` and `-Metric`. The v2 server SDK refuses a call of the 2026-07-28
 * era whose headers are missing or differ from its arguments, so an answer is proof they were sent.
 */
export function weatherTools(server: McpServer): void {
  const inputSchema = z.object({
    region: z.string().meta({ "x-mcp-header": "Region" }),
    days: z.number().int().min(1).max(14).meta({ "x-mcp-header": "Days" }),
    metric: z.boolean().optional().meta({ "x-mcp-header": "Metric" }),
    note: z.string().optional(),
  });
  server.registerTool("forecast", { title: "Forecast", description: "The weather of the coming days.", inputSchema, annotations: { readOnlyHint: true } }, async ({ region, days, metric }) => ({
    content: [{ type: "text" as const, text: `${days} days in ${region}${metric === true ? ", metric" : ""}.` }],
  }));
  server.registerTool(
    "score",
    { title: "Score", description: "Its header is on a number: never called.", inputSchema: z.object({ points: z.number().meta({ "x-mcp-header": "Points" }) }) },
    async () => ({ content: [{ type: "text" as const, text: "called" }] }),
  );
}

/** A tool that asks again however it is answered: only Try's count of rounds ends it (SPEC §18). */
export function askingTools(server: McpServer): void {
  server.registerTool("ask_again", { title: "Ask again", description: "Never satisfied.", inputSchema: z.object({}) }, async (_args, ctx) => {
    const seen = Object.keys(ctx.mcpReq.inputResponses ?? {}).length;
    return inputRequired({ inputRequests: { more: inputRequired.elicit({ message: `Once more (${seen} answered)?`, requestedSchema: z.object({ ok: z.boolean() }) }) }, requestState: `state-${seen}` });
  });
}

/** Serves `make` through `createMcpHandler` on 127.0.0.1 and a free port, path `/mcp`. */
/** `port`: the one wanted (another when it is taken, `listenPreferring`); 0, a free one. */
export async function startV2App(make: () => McpServer, era: Era = "default", host = "127.0.0.1", port = 0): Promise<ZooApp> {
  const handler = createMcpHandler(() => make(), era === "strict" ? { legacy: "reject" } : {});
  const node = toNodeHandler(handler);
  const seen: string[] = [];
  const callHeaders: Record<string, string>[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const method = rpcMethod(body);
      seen.push(`${req.method} ${req.url}${method === undefined ? "" : ` ${method}`}`);
      if (method === "tools/call") callHeaders.push(paramHeaders(req));
      void Promise.resolve(node(req, res, body)).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
  });
  await listenPreferring(server, host, port);
  const { port: listened, address, family } = server.address() as AddressInfo;
  return {
    url: `http://${family === "IPv6" ? `[${address}]` : address}:${listened}/mcp`,
    port: listened,
    seen,
    callHeaders,
    close: async () => {
      await handler.close?.().catch(() => {});
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
