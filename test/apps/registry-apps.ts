import { startHttp, type ZooApp } from "./http";

/**
 * A loopback MCP Registry (v0.1) for tests (SPEC §24): `entries` maps a server's name to its
 * versions (the last is latest), and a few names answer the ways a registry can go wrong.
 */

export interface RegistryServer extends ZooApp {
  /** The registry's base address (what a person types). */
  base: string;
  /** Versions of each server, the last being latest; tests may add to them. */
  entries: Map<string, object[]>;
}

/** Names that misbehave: an HTML page, 50 MB of JSON, a redirect to the cloud metadata address. */
export const HOSTILE = { html: "io.test/html", huge: "io.test/huge", redirect: "io.test/redirect" } as const;

const HUGE_BYTES = 50 * 1024 * 1024;

export async function startRegistry(entries: Record<string, object[]> = {}): Promise<RegistryServer> {
  const map = new Map(Object.entries(entries));
  const app = await startHttp((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const found = /^\/v0\.1\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(path);
    if (found === null) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
    const name = decodeURIComponent(found[1]!);
    const version = decodeURIComponent(found[2]!);
    if (name === HOSTILE.html) return void res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Sign in</title>");
    if (name === HOSTILE.redirect) return void res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (name === HOSTILE.huge) {
      // Streams until the client stops reading: it must stop at its bound, long before 50 MB.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      res.write('{"server":');
      const more = () => {
        while (sent < HUGE_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end("}");
      };
      res.on("error", () => {});
      return more();
    }
    const versions = map.get(name);
    const server = versions === undefined ? undefined : version === "latest" ? versions[versions.length - 1] : versions.find((v) => (v as { version?: string }).version === version);
    if (server === undefined) return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Server not found"}');
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ server, _meta: { "io.modelcontextprotocol.registry/official": { status: "active", isLatest: version === "latest" } } }));
  }, "/");
  return { ...app, base: `http://127.0.0.1:${app.port}`, entries: map };
}

/** A server.json (schema 2025-12-11) whose one remote is `url`, with the fields given over it. */
export function serverJsonFor(url: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name: "io.test/attendance",
    description: "Clock in and out.",
    version: "1.0.0",
    remotes: [{ type: "streamable-http", url }],
    ...over,
  };
}
