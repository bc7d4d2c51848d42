// The demo organisation's apps: real MCP servers (Streamable HTTP, stateless) on loopback,
// each showing one state of the Connections check. `npm start` runs them beside the
// dashboard (bundled by scripts/build-worker.mjs); tests and benchmarks use `serveMcpApp`
// to start servers of their own.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listenPreferring } from "./http";
import { calendarServer, startV2App } from "./v2-apps";

const MAX_REQUEST_BYTES = 1024 * 1024;

export interface McpAppOptions {
  name: string;
  tools: object[];
  /** Holds the answer to `initialize` back. */
  initializeDelayMs?: number;
  /** Answers 401 to requests without this header value. */
  requireHeader?: { name: string; value: string };
  host?: string;
  port?: number;
  /** When `port` is taken, listen on a free one instead of failing (the demo's fixed ports). */
  orAnyPort?: boolean;
}

export interface ServedApp {
  url: string;
  close: () => Promise<void>;
}

/**
 * Serves one MCP app whose `tools/list` answers exactly `tools` (so a test or the demo can
 * list anything, even what the SDK's own schemas would not produce).
 */
export async function serveMcpApp({ name, tools, initializeDelayMs = 0, requireHeader, host = "127.0.0.1", port = 0, orAnyPort = false }: McpAppOptions): Promise<ServedApp> {
  const pending = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return void res.writeHead(404).end();
    if (requireHeader && req.headers[requireHeader.name.toLowerCase()] !== requireHeader.value) {
      return void res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthorized" }));
    }
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();

    const body = await readBody(req);
    if (body === undefined) return void res.writeHead(400).end();
    const messages = Array.isArray(body) ? body : [body];
    if (initializeDelayMs > 0 && messages.some((m: unknown) => (m as { method?: unknown } | null)?.method === "initialize")) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, initializeDelayMs);
        pending.add(timer);
        req.socket.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (req.socket.destroyed) return;
    }

    // Stateless: one server and transport per request, as the SDK's stateless example does.
    const mcp = new McpServer({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    mcp.server.setRequestHandler(CallToolRequestSchema, (request) => ({
      content: [{ type: "text", text: `${name} ran ${request.params.name} (a demo: nothing changed).` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  if (orAnyPort) await listenPreferring(server, host, port);
  else {
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve(undefined));
    });
  }
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The demo app has no TCP address.");
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${hostInUrl}:${address.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(bytes);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

// ---- The demo organisation ----

const attendanceTools = [
  {
    name: "clock_in",
    title: "Clock in",
    description: "Records that you started work, with the hours you plan to work today.",
    inputSchema: {
      type: "object",
      properties: {
        hours: { type: "number", title: "Hours", description: "Hours you plan to work today." },
        employee_id: { type: "string", description: "Who clocks in; yourself when left out." },
      },
      required: ["hours"],
    },
    annotations: { destructiveHint: false, openWorldHint: true },
  },
  {
    name: "my_hours",
    title: "My hours",
    description: "The hours you worked this week, day by day.",
    inputSchema: { type: "object", properties: { week: { type: "string", title: "Week", description: "ISO week, such as 2026-W49." } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: "team_hours",
    title: "Team hours",
    description: "The hours your team worked this week, person by person.",
    inputSchema: {
      type: "object",
      properties: { team_id: { type: "string", format: "uuid" }, week: { type: "string", title: "Week" } },
    },
    annotations: { readOnlyHint: true },
  },
];

const calendarTools = [
  {
    name: "list_events",
    title: "List events",
    description: "Events of the shared office calendar between two dates.",
    inputSchema: { type: "object", properties: { from: { type: "string", format: "date" }, to: { type: "string", format: "date" } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: "book_room",
    description: "Books a meeting room.",
    inputSchema: {
      type: "object",
      properties: { room: { type: "string", title: "Room" }, start: { type: "string", title: "Start" }, minutes: { type: "integer", title: "Minutes" } },
      required: ["room", "start", "minutes"],
    },
  },
  {
    // Support is asked why `calendar_add_event` is missing: Theorem's own Calendar makes this one `calendar_2_add_event`.
    name: "add_event",
    title: "Add event",
    description: "Adds an event to the shared office calendar.",
    inputSchema: {
      type: "object",
      properties: { eventId: { type: "string" }, title: { type: "string", title: "Title" }, date: { type: "string", format: "date", title: "Date" } },
      required: ["title", "date"],
    },
    annotations: { destructiveHint: false, openWorldHint: false },
  },
];

const memoryTools = [
  {
    // `memory` + `save` comes out as Theorem's own `memory_save`: left out of what the model sees.
    name: "save",
    title: "Save a note",
    description: "Saves a note to the team's shared memory.",
    inputSchema: { type: "object", properties: { text: { type: "string", title: "Note" } }, required: ["text"] },
    annotations: { destructiveHint: false, openWorldHint: false },
  },
  {
    name: "search_notes",
    title: "Search notes",
    description: "Finds the team's notes that mention some words.",
    inputSchema: { type: "object", properties: { words: { type: "string", title: "Words" } }, required: ["words"] },
    annotations: { readOnlyHint: true },
  },
];

/** A catalogue of 320 products, each its own tool with a long description: well past 250,000 characters. */
function catalogueTools() {
  const blurb = "Looks up this product's price, stock in each warehouse, supplier and delivery times. ".repeat(10);
  return Array.from({ length: 320 }, (_, i) => ({
    name: `product_${String(i + 1).padStart(3, "0")}`,
    title: `Product ${i + 1}`,
    description: blurb,
    inputSchema: { type: "object", properties: { warehouse: { type: "string", title: "Warehouse" } } },
    annotations: { readOnlyHint: true },
  }));
}

/**
 * The demo apps in connection order. `key` is stable across starts (the seed upserts by it);
 * each one shows a state: all fine, a short name taken (`calendar_2`, Theorem has its own
 * Calendar), a listing too large, a connection too slow, a whole name taken by Theorem's tools,
 * and one app of the 2026-07-28 revision only (the v2 server SDK, strict), whose list stays valid
 * 10 minutes for everyone and which has a tool for its own view.
 */
export const DEMO_APPS: { key: string; name: string; tools: object[]; initializeDelayMs?: number; modern?: true }[] = [
  { key: "attendance", name: "Attendance", tools: attendanceTools },
  { key: "calendar", name: "Calendar", tools: calendarTools },
  { key: "catalogue", name: "Product Catalogue", tools: catalogueTools() },
  { key: "slow-reports", name: "Slow Reports", tools: [attendanceTools[1]!], initializeDelayMs: 4500 },
  { key: "memory", name: "Memory", tools: memoryTools },
  { key: "planner", name: "Planner", tools: [], modern: true },
];

export interface DemoApps {
  apps: { key: string; name: string; url: string }[];
  /** The apps that could not have their own port (another program held it), and the port each wanted. */
  moved: { key: string; name: string; wanted: number; url: string }[];
  close: () => Promise<void>;
}

/** The first of the demo apps' fixed loopback ports, when `THEOREM_DEMO_PORT` does not name another. */
export const DEMO_BASE_PORT = 3101;

/**
 * The demo apps' first port from `THEOREM_DEMO_PORT`: a port for the first app, the next ones for
 * the others in order (DEMO_BASE_PORT when unset); `0` asks for free ports, different on each start.
 * Anything else is not a port: an error saying so.
 */
export function demoBasePort(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEMO_BASE_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port + DEMO_APPS.length - 1 > 65_535) {
    throw new Error(`THEOREM_DEMO_PORT is ${JSON.stringify(value)}: give the first of ${DEMO_APPS.length} ports in a row (1–${65_535 - DEMO_APPS.length + 1}), or 0 for free ports.`);
  }
  return port;
}

/**
 * Starts every demo app on loopback. With `basePort`, each keeps one address across starts, the
 * app's place in DEMO_APPS after it (`basePort` + 0 … 5), so an app a person connected to a demo
 * app's URL still reads it after a restart; a port another program holds is replaced by a free
 * one, and said in `moved` (the seed then moves the demo organisation's app there). Without it
 * (0, the tests), every app takes a free port, so that two instances never collide.
 * `slowConnectMs`, when given, is how long Slow Reports takes to answer initialize in place of its
 * 4.5 s: for a test that gives its reads longer than SPEC §7's 3 s to connect.
 */
export async function startDemoApps(host = "127.0.0.1", slowConnectMs?: number, basePort = 0): Promise<DemoApps> {
  const wanted = (i: number) => (basePort === 0 ? 0 : basePort + i);
  // One after another: each app takes its own port before the next asks for one, so a free port
  // the system picks for a moved app can never be a later app's own.
  const served: { url: string; close: () => Promise<void> }[] = [];
  try {
    for (const [i, app] of DEMO_APPS.entries()) {
      served.push(
        app.modern
          ? await startV2App(() => calendarServer({ cache: { ttlMs: 10 * 60_000, cacheScope: "public" } }), "strict", host, wanted(i))
          : await serveMcpApp({ ...app, host, port: wanted(i), orAnyPort: true, ...(app.initializeDelayMs !== undefined && slowConnectMs !== undefined ? { initializeDelayMs: slowConnectMs } : {}) }),
      );
    }
  } catch (error) {
    await Promise.all(served.map((s) => s.close()));
    throw error;
  }
  const apps = DEMO_APPS.map((app, i) => ({ key: app.key, name: app.name, url: served[i]!.url }));
  return {
    apps,
    moved: apps.flatMap((app, i) => (basePort !== 0 && Number(new URL(app.url).port) !== wanted(i) ? [{ ...app, wanted: wanted(i) }] : [])),
    close: async () => {
      await Promise.all(served.map((s) => s.close()));
    },
  };
}

// `npx tsx test/apps/demo-apps.ts`: serve the demo apps alone and print where they are.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const demo = await startDemoApps(process.env.HOST ?? "127.0.0.1", undefined, demoBasePort(process.env.THEOREM_DEMO_PORT));
  console.log(JSON.stringify(demo.apps.map(({ key, name, url }) => ({ key, name, url })), null, 2));
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void demo.close().then(() => process.exit(0)));
}
