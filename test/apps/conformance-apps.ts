import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ZooApp } from "./http";
import { startHttp } from "./http";
import { goodServer } from "./sdk-apps";

/**
 * Apps for the conformance suite's server scenarios (SPEC §27), on loopback: a well-made 2025 app
 * (the SDK's transport, a terminated session answered 404, requests naming another Host or
 * Origin refused), and one broken the way the field breaks them (an unknown session answered 400
 * with a made-up error code instead of 404; any Host let through).
 */
export async function startConformanceApp(options: { broken?: boolean; requireHeader?: { name: string; value: string } } = {}): Promise<ZooApp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = 0;
  const app = await startHttp(async (req, res, body) => {
    const needed = options.requireHeader;
    if (needed !== undefined && req.headers[needed.name.toLowerCase()] !== needed.value) return void res.writeHead(401).end();
    if (options.broken !== true) {
      const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
      const origin = req.headers.origin;
      if (!hosts.includes(req.headers.host ?? "") || (origin !== undefined && !hosts.some((h) => origin === `http://${h}`))) {
        return void res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Host or Origin not allowed" } }));
      }
    }
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known !== undefined) return known.handleRequest(req, res, body);
    if (typeof id === "string") {
      const [status, code] = options.broken === true ? [400, -32600] : [404, -32001];
      return void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message: "Session not found" } }));
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return void res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "No session" } }));
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await goodServer().connect(transport);
    await transport.handleRequest(req, res, body);
  });
  port = app.port;
  return app;
}
