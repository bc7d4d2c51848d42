import http from "node:http";
import type { AddressInfo } from "node:net";

/** A test app the tests start themselves, on 127.0.0.1 and a free port. */
export interface ZooApp {
  /** The app's MCP URL. */
  url: string;
  port: number;
  /** Requests seen, as `METHOD path` (and the JSON-RPC method when there was one). */
  seen: string[];
  /** For each `tools/call`, the `Mcp-Param-*` headers it came with (names lower-cased), where the app records them. */
  callHeaders?: Record<string, string>[];
  close: () => Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => void | Promise<void>;

/** Reads a request body (small: the client's JSON-RPC messages) as JSON, or undefined. */
async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `Mcp-Param-*` headers of a request (SEP-2243), names lower-cased as Node gives them. */
export function paramHeaders(req: http.IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => e[0].startsWith("mcp-param-") && typeof e[1] === "string"));
}

export function rpcMethod(body: unknown): string | undefined {
  return typeof body === "object" && body !== null && "method" in body ? String((body).method) : undefined;
}

/** Starts a plain node:http server; `close` ends every open connection too, so no test waits on a stuck socket. */
export async function startHttp(handler: Handler, path = "/mcp"): Promise<ZooApp> {
  const seen: string[] = [];
  const callHeaders: Record<string, string>[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const method = rpcMethod(body);
      seen.push(`${req.method} ${req.url}${method === undefined ? "" : ` ${method}`}`);
      if (method === "tools/call") callHeaders.push(paramHeaders(req));
      try {
        await handler(req, res, body);
      } catch {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    seen,
    callHeaders,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Listens on `port` when it is free, else on a port the system picks (EADDRINUSE only: any other
 * error is thrown). 0 asks for a picked port at once. Answers the port listened on.
 */
export async function listenPreferring(server: http.Server, host: string, port: number): Promise<number> {
  const attempt = (p: number) =>
    new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => {
        server.off("listening", listening);
        reject(error);
      };
      const listening = () => {
        server.off("error", failed);
        resolve();
      };
      server.once("error", failed);
      server.once("listening", listening);
      server.listen(p, host);
    });
  try {
    await attempt(port);
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    await attempt(0);
  }
  return (server.address() as AddressInfo).port;
}
