import type http from "node:http";
import zlib from "node:zlib";
import type { Handler, ZooApp } from "./http";
import { startHttp } from "./http";

/**
 * Apps that misbehave on purpose, written on plain node:http so each can break the protocol
 * its own way. A behaviour answers one JSON-RPC request; everything else is answered as a
 * small, correct server would.
 */
export type Answer = (res: http.ServerResponse, id: number, page: number, params: Record<string, unknown>) => void | Promise<void>;

export interface RawBehaviour {
  /** The answer to `server/discover` (SPEC §18); none: "Method not found", as a 2025 server says. */
  discover?: Answer;
  initialize?: Answer;
  list?: Answer;
  /** The answer to `tools/call` (the try of a tool, SPEC §14). */
  call?: Answer;
  /** Any request at all, before the JSON-RPC dispatch (status codes, redirects). */
  http?: Handler;
}

const INITIALIZED = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "zoo", version: "1.0.0" } };

export function sendJson(res: http.ServerResponse, message: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(message));
}

export const result = (id: number, value: unknown) => ({ jsonrpc: "2.0", id, result: value });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes the chunks, waiting for the socket to drain, until done or the client goes. */
export async function stream(res: http.ServerResponse, chunks: Iterable<Buffer | string>): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed || res.writableEnded) return;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

/** A stream that writes `one` every `everyMs` until the client goes (no end). */
export async function drip(res: http.ServerResponse, one: string, everyMs: number): Promise<void> {
  while (!res.destroyed && !res.writableEnded) {
    res.write(one);
    await sleep(everyMs);
  }
}

export async function startRawApp(behaviour: RawBehaviour): Promise<ZooApp> {
  let page = 0;
  return startHttp(async (req, res, body) => {
    if (behaviour.http !== undefined) {
      await behaviour.http(req, res, body);
      if (res.headersSent || res.writableEnded) return;
    }
    if (req.method === "DELETE") return void res.writeHead(200).end();
    if (req.method !== "POST") return void res.writeHead(405).end();
    const msg = body as { id?: number; method?: string; params?: Record<string, unknown> } | undefined;
    if (msg === undefined || msg.method === undefined) return void res.writeHead(400).end();
    if (msg.id === undefined) return void res.writeHead(202).end();
    const params = msg.params ?? {};
    if (msg.method === "server/discover" && behaviour.discover !== undefined) return behaviour.discover(res, msg.id, 0, params);
    if (msg.method === "initialize") {
      if (behaviour.initialize !== undefined) return behaviour.initialize(res, msg.id, 0, params);
      return sendJson(res, result(msg.id, INITIALIZED), 200);
    }
    if (msg.method === "tools/list") {
      page++;
      if (behaviour.list !== undefined) return behaviour.list(res, msg.id, page, params);
      return sendJson(res, result(msg.id, { tools: [] }));
    }
    if (msg.method === "tools/call" && behaviour.call !== undefined) return behaviour.call(res, msg.id, 0, params);
    sendJson(res, { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
  });
}

/** What a 2026-07-28 server answers to `server/discover` (as the v2 server SDK does). */
export const DISCOVERED = { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, resultType: "complete", ttlMs: 0, cacheScope: "private", _meta: { "io.modelcontextprotocol/serverInfo": { name: "zoo", version: "1.0.0" } } };

/** A 2026-07-28 result: it carries `resultType` (the v2 client refuses one without). */
export const modernResult = (id: number, value: Record<string, unknown>) => result(id, { resultType: "complete", ...value });

/** A modern app's behaviour: answers `server/discover`, then lists as `list` says (the zoo's hostile listings in the 2026-07-28 era). */
export const modern = (behaviour: RawBehaviour): RawBehaviour => ({ discover: (res, id) => sendJson(res, result(id, DISCOVERED)), ...behaviour });

/** A JSON-RPC answer to tools/list `bytes` long: a tools array whose one tool's description fills it. */
export function* hugeListing(id: number, bytes: number): Generator<string> {
  yield `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"huge","inputSchema":{"type":"object"},"description":"`;
  const block = "x".repeat(64 * 1024);
  for (let sent = 0; sent < bytes; sent += block.length) yield block;
  yield `"}]}}`;
}

/** A gzip body that inflates to about `inflated` bytes of JSON whitespace after the start of an answer. */
export function* gzipBomb(id: number, inflated: number): Generator<Buffer> {
  yield zlib.gzipSync(`{"jsonrpc":"2.0","id":${id},"result":{"tools":[`);
  const mib = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
  for (let i = 0; i < inflated / (1024 * 1024); i++) yield mib;
  yield zlib.gzipSync("]}}");
}

/** An app that lists `tools` on one page and answers every tools/call with `call`. */
export function callableApp(tools: readonly object[], call: Answer): RawBehaviour {
  return { list: (res, id) => sendJson(res, result(id, { tools })), call };
}

/** A JSON-RPC answer to tools/call `bytes` long (about): one text content of that many `x`, sent 64 KiB at a time. */
export function* hugeAnswer(id: number, bytes: number): Generator<string> {
  yield `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`;
  const block = "x".repeat(64 * 1024);
  for (let sent = 0; sent < bytes; sent += block.length) yield block;
  yield `"}]}}`;
}

/** One SSE event carrying a JSON-RPC message. */
export const sseEvent = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
