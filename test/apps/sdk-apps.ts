import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ZooApp } from "./http";
import { startHttp } from "./http";

type AnyServer = McpServer | Server;

/** Serves MCP over Streamable HTTP with the SDK's own server transport, one session per client. */
export async function startSdkApp(
  makeServer: () => AnyServer,
  options: { json?: boolean; requireHeader?: { name: string; value: string } } = {},
): Promise<ZooApp & { openSessions: () => number }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const app = await startHttp(async (req, res, body) => {
    const needed = options.requireHeader;
    if (needed !== undefined && req.headers[needed.name.toLowerCase()] !== needed.value) return void res.writeHead(401).end();
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known !== undefined) return known.handleRequest(req, res, body);
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "No session" } }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: options.json ?? false,
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await makeServer().connect(transport);
    await transport.handleRequest(req, res, body);
  });
  return { ...app, openSessions: () => sessions.size };
}

/** A well-made app: three tools through McpServer, as a real app would declare them. */
export function goodServer(): McpServer {
  const server = new McpServer({ name: "attendance", version: "1.0.0" });
  const ok = async () => ({ content: [{ type: "text" as const, text: "ok" }] });
  server.registerTool("clock_in", { title: "Clock in", description: "Records arrival.", inputSchema: { employeeId: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false } }, ok);
  server.registerTool("list_shifts", { title: "List shifts", description: "Lists shifts.", inputSchema: { week: z.number() }, annotations: { readOnlyHint: true } }, ok);
  server.registerTool("delete_shift", { description: "Deletes a shift.", inputSchema: { shiftId: z.string() }, annotations: { destructiveHint: true } }, ok);
  return server;
}

/** Many tools, made from a number (for the pages test and the benchmark): about 200 characters each. */
export function madeTools(count: number, prefix = "tool"): Tool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}_${i}`,
    title: `Tool ${i}`,
    description: `Does thing ${i}.`,
    inputSchema: { type: "object" as const, properties: { id: { type: "string", description: "Which one" } }, required: ["id"] },
    annotations: { readOnlyHint: i % 2 === 0 },
  }));
}

/** A low-level SDK server that lists `tools` in pages of `pageSize`, with `nextCursor`. */
export function pagedServer(tools: readonly Tool[], pageSize: number): () => Server {
  return () => {
    const server = new Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const from = Number(request.params?.cursor ?? 0);
      const page = tools.slice(from, from + pageSize);
      const next = from + pageSize < tools.length ? String(from + pageSize) : undefined;
      return next === undefined ? { tools: page } : { tools: page, nextCursor: next };
    });
    return server;
  };
}

/** A low-level SDK server whose tools/list page `n` (from 1, counted over every session) lists one tool and gives `nextCursor(n)`. */
export function cursorServer(nextCursor: (page: number) => string): () => Server {
  let page = 0;
  return () => {
    const server = new Server({ name: "cursors", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      page++;
      return { tools: [{ name: `t${page}`, inputSchema: { type: "object" as const } }], nextCursor: nextCursor(page) };
    });
    return server;
  };
}

/** The 2025 twin of v2-apps.ts's `weatherTools`: `forecast` mirrors `region`, `days` and `metric` into headers (SEP-2243), `score` declares one on a number. */
export function weatherServer(): Server {
  const server = new Server({ name: "weather", version: "1.0.0" }, { capabilities: { tools: {} } });
  const tools: Tool[] = [
    {
      name: "forecast",
      title: "Forecast",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" }, days: { type: "integer", "x-mcp-header": "Days" }, metric: { type: "boolean", "x-mcp-header": "Metric" }, note: { type: "string" } },
        required: ["region", "days"],
      },
      annotations: { readOnlyHint: true },
    },
    { name: "score", title: "Score", inputSchema: { type: "object", properties: { points: { type: "number", "x-mcp-header": "Points" } } } },
  ];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // The arguments as they came, so a test sees what was sent (a null as null).
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: "text", text: `called ${request.params.name} with ${JSON.stringify(request.params.arguments ?? {})}` }] }));
  return server;
}

/** An app of the older HTTP+SSE transport (GET /sse for events, POST /messages), as 2024-11-05 servers are. */
export async function startOldSseApp(makeServer: () => AnyServer): Promise<ZooApp> {
  const sessions = new Map<string, SSEServerTransport>();
  return startHttp(async (req, res, body) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      await makeServer().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport !== undefined) {
      return transport.handlePostMessage(req, res, body);
    }
    res.writeHead(405).end();
  }, "/sse");
}

/**
 * The tools the try tests call (SPEC §14), served by the SDK's own McpServer: a 1 KiB answer, progress
 * notifications, the tool's own error, a slow tool, structured content with an image, and one whose
 * arguments the form and the route check (`clock_in`: a number of hours, an employee ID hidden from the card).
 */
export function tryServer(): McpServer {
  const server = new McpServer({ name: "try-zoo", version: "1.0.0" });
  server.registerTool("kilobyte", { title: "One kilobyte", description: "Answers 1 KiB of text.", annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: "text" as const, text: "k".repeat(1024) }],
  }));
  server.registerTool(
    "clock_in",
    {
      title: "Clock in",
      description: "Records arrival.",
      inputSchema: { hours: z.number().min(0).max(24), employee_id: z.string().optional(), note: z.string().optional() },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    async ({ hours, note }) => ({ content: [{ type: "text" as const, text: `Clocked in for ${hours} hours${note ? ` (${note})` : ""}.` }] }),
  );
  server.registerTool("steps", { title: "Steps", inputSchema: { steps: z.number().int().min(1).max(50) } }, async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps } });
    }
    return { content: [{ type: "text" as const, text: `${steps} steps done` }] };
  });
  server.registerTool("fails", { title: "Fails", description: "Answers its own error." }, async () => ({
    content: [{ type: "text" as const, text: "No employee 42 here: <b>not HTML</b>" }],
    isError: true,
  }));
  server.registerTool("slow", { title: "Slow", inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return { content: [{ type: "text" as const, text: "finally" }] };
  });
  server.registerTool("report", { title: "Report", outputSchema: { rows: z.array(z.object({ day: z.string(), hours: z.number() })) } }, async () => ({
    content: [
      { type: "text" as const, text: "Two days." },
      { type: "image" as const, data: Buffer.alloc(300, 7).toString("base64"), mimeType: "image/png" },
      { type: "resource_link" as const, uri: "https://example.test/report.csv", name: "report.csv", mimeType: "text/csv" },
    ],
    structuredContent: { rows: [{ day: "Mon", hours: 8 }, { day: "Tue", hours: 7.5 }] },
  }));
  return server;
}
