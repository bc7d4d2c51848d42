import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";
import type { AppListing } from "@/lib/engine/check";
import { entryChars, formatCount, largestNamed, largestTools } from "@/lib/engine/listing-size";
import type { Unavailable } from "@/lib/schemas/check";
import { CONNECT_TIMEOUT_MS, LISTING_CHAR_LIMIT, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import { isObject } from "@/lib/json-text";
import type { AllowList, Resolver } from "./address";
import { allowListFromEnv, systemResolver } from "./address";
import { GuardError, guardedFetch } from "./guarded-fetch";
import { clip, count, seconds } from "./sentences";

/** A cap on pages, so an endless cursor ends even when it is fast. */
export const MAX_PAGES = 1000;
const TERMINATE_TIMEOUT_MS = 1000;

export interface LiveApp {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface ReadOptions {
  resolve?: Resolver;
  /** Private addresses that may be reached; default: `CHECK_ALLOW_HOSTS`. */
  allow?: AllowList;
  /** Milliseconds for the timings (default `performance.now`). */
  clock?: () => number;
  connectTimeoutMs?: number;
  listTimeoutMs?: number;
  maxPages?: number;
  responseByteLimit?: number;
  eventByteLimit?: number;
}

const CLIENT_INFO = { name: "theorem-connections", version: "0.1.0" };
/** The SDK's own tools/list schema would reject a bad entry; the engine salvages them, so take the result as sent. */
const ANY_RESULT = z.unknown();
/** Checks never call a tool, so no output schema is ever checked: spares each client building its own Ajv. */
const NO_TOOL_CALLS: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "This client only lists tools." }),
};
const CLIENT_OPTIONS = { capabilities: {}, jsonSchemaValidator: NO_TOOL_CALLS };
const CLOSED = new Error("The check of this app is over.");
const NO_RETRY = { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 };

type Phase = "connect" | "list";

/** A reason to stop, already worded for the leader. */
class Stop extends Error {
  constructor(readonly unavailable: Unavailable) {
    super(unavailable.message);
  }
}

class Deadline extends Error {}

/** An answer that is not a JSON-RPC message the client can route. */
function isGarbled(e: unknown): boolean {
  if (e instanceof SyntaxError) return true;
  if (e instanceof Error && e.name === "ZodError") return true;
  return e instanceof Error && /^(Received a response for an unknown message ID|Unknown message type)/.test(e.message);
}


/**
 * Reads one live app's listing over MCP (Streamable HTTP, falling back to the older
 * HTTP+SSE transport on a 4xx): `initialize` within 3 s, every `tools/list` page within
 * 8 s, each byte through the guarded fetch. Never throws: a failure is the listing's
 * `unavailable`, with the tools read so far. The client is closed and the session ended
 * in every outcome.
 */
export async function readLiveApp(app: LiveApp, options: ReadOptions = {}): Promise<AppListing> {
  const clock = options.clock ?? (() => performance.now());
  const connectTimeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const listTimeout = options.listTimeoutMs ?? LIST_TIMEOUT_MS;
  const maxPages = options.maxPages ?? MAX_PAGES;
  const master = new AbortController();
  let finished = false;
  let failure: GuardError | null = null;
  let phase: Phase = "connect";
  let breakOff: (e: unknown) => void = () => {};
  const broken = new Promise<never>((_, reject) => (breakOff = reject));
  broken.catch(() => {});

  const entries: unknown[] = [];
  let chars = 0;
  let pages = 0;
  const guard = guardedFetch({
    resolve: options.resolve ?? systemResolver,
    allow: options.allow ?? allowListFromEnv(),
    signal: master.signal,
    privateHeaders: Object.keys(app.headers ?? {}),
    responseByteLimit: options.responseByteLimit,
    eventByteLimit: options.eventByteLimit,
    listingBudget: () => LISTING_CHAR_LIMIT - chars,
    onStop: (e) => {
      if (finished || failure !== null) return;
      failure = e;
      breakOff(e);
    },
  });

  let client: Client | null = null;
  let transport: Transport | null = null;

  /** The work, or the first of: its deadline, a guard stop, a garbled message. */
  async function within<T>(ms: number, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Deadline()), ms)));
    try {
      return await Promise.race([work, late, broken]);
    } finally {
      clearTimeout(timer);
    }
  }

  function watch(c: Client) {
    c.onerror = (e) => {
      if (isGarbled(e)) breakOff(e);
    };
  }

  async function connect(): Promise<void> {
    const url = new URL(app.url);
    const requestInit: RequestInit = { headers: app.headers ?? {} };
    client = new Client(CLIENT_INFO, CLIENT_OPTIONS);
    watch(client);
    transport = new StreamableHTTPClientTransport(url, { fetch: guard.fetch, requestInit, reconnectionOptions: NO_RETRY });
    let first: unknown;
    try {
      await client.connect(transport, { timeout: connectTimeout + 1000 });
      return;
    } catch (e) {
      if (failure !== null || !(e instanceof StreamableHTTPError) || e.code === undefined || e.code < 400 || e.code > 499) throw e;
      first = e;
    }
    // MCP's backwards compatibility: a 4xx to the POST means an older server, which offers an event stream at GET.
    client = new Client(CLIENT_INFO, CLIENT_OPTIONS);
    watch(client);
    transport = new SSEClientTransport(url, { fetch: guard.fetch, requestInit });
    try {
      await client.connect(transport, { timeout: connectTimeout + 1000 });
    } catch (e) {
      if (failure !== null || isGarbled(e) || e instanceof McpError) throw e;
      const status = (first as StreamableHTTPError).code;
      const second = e instanceof SseError && e.code !== undefined ? `HTTP ${e.code}` : clip(e instanceof Error ? e.message : String(e), 120);
      throw new Stop({
        code: "connect-failed",
        message: `${app.name} is unavailable: it is not an MCP server at this URL: it answered the MCP request with HTTP ${status}, and the older event stream (GET) failed too (${second}).`,
      });
    }
  }

  async function list(): Promise<boolean> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      if (pages === maxPages) {
        throw new Stop({
          code: "invalid-listing",
          message: `${app.name} is unavailable: its tools/list went on past ${formatCount(maxPages)} pages (${count(entries.length, "tool", "tools")} so far), so reading stopped.`,
        });
      }
      const result = await client!.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, ANY_RESULT, {
        timeout: listTimeout + 1000,
      });
      pages++;
      const tools = isObject(result) ? result["tools"] : undefined;
      if (!Array.isArray(tools)) {
        throw new Stop({
          code: "invalid-listing",
          message: `${app.name} is unavailable: page ${pages} of its tools/list has no \`tools\` array.`,
        });
      }
      for (const entry of tools) {
        entries.push(entry);
        chars += entryChars(entry);
      }
      const next = (result as Record<string, unknown>)["nextCursor"];
      if (next === undefined || next === null) return false;
      if (chars > LISTING_CHAR_LIMIT) return true; // past the bound with pages to come: the engine says "more than"
      if (typeof next !== "string") {
        throw new Stop({
          code: "invalid-listing",
          message: `${app.name} is unavailable: page ${pages} of its tools/list gives a \`nextCursor\` that is not a string.`,
        });
      }
      if (seen.has(next)) {
        throw new Stop({
          code: "invalid-listing",
          message: `${app.name} is unavailable: page ${pages} of its tools/list gives the cursor ${JSON.stringify(clip(next, 60))} again, so the listing would never end.`,
        });
      }
      seen.add(next);
      cursor = next;
    }
  }

  function describe(e: unknown): Unavailable {
    const name = app.name;
    const guardError: GuardError | null = failure ?? (e instanceof GuardError ? e : null);
    if (e instanceof Stop) return e.unavailable;
    if (e instanceof Deadline) {
      return phase === "connect"
        ? { code: "connect-timeout", message: `${name} is unavailable: it did not finish connecting (MCP initialize) within ${seconds(connectTimeout)}.` }
        : {
            code: "list-timeout",
            message: `${name} is unavailable: it did not list all its tools within ${seconds(listTimeout)} (${count(entries.length, "tool", "tools")} in ${count(pages, "page", "pages")} before the deadline).`,
          };
    }
    if (guardError !== null) {
      if (guardError.bound === undefined) return { code: guardError.code, message: `${name} is unavailable: ${guardError.reason}.` };
      if (phase === "connect") return { code: "connect-failed", message: `${name} is unavailable: while connecting, ${guardError.reason}.` };
      const largest = largestTools(entries.map((entry, index) => ({ index, name: isObject(entry) && typeof entry["name"] === "string" ? entry["name"] : null, chars: entryChars(entry) })));
      const named = largestNamed(largest);
      const before =
        entries.length === 0
          ? "before any tool was read"
          : `the ${count(entries.length, "tool", "tools")} read before it come${entries.length === 1 ? "s" : ""} to ${formatCount(chars)} characters (the limit is ${formatCount(LISTING_CHAR_LIMIT)})${named === "" ? "" : `; the largest are ${named}`}`;
      return { code: "listing-too-large", message: `${name} is unavailable: one answer to its tools/list was too large: ${guardError.reason}, ${before}.` };
    }
    const what = phase === "connect" ? "initialize" : "tools/list";
    const code = phase === "connect" ? "connect-failed" : "invalid-listing";
    if (isGarbled(e)) {
      const why = e instanceof SyntaxError ? "is not valid JSON" : "is not a JSON-RPC response";
      return { code, message: `${name} is unavailable: ${phase === "connect" ? "it is not an MCP server: " : ""}its answer to ${what} ${why}.` };
    }
    if (e instanceof StreamableHTTPError) {
      const type = /^Streamable HTTP error: Unexpected content type: (.*)$/.exec(e.message);
      if (type !== null) {
        return { code: "connect-failed", message: `${name} is unavailable: it is not an MCP server: it answered ${what} with ${clip(type[1] ?? "", 80)}, not JSON or an event stream.` };
      }
      return { code: "connect-failed", message: `${name} is unavailable: it answered ${what} with HTTP ${e.code}.` };
    }
    if (e instanceof McpError) {
      if (e.code === -32000 && /Connection closed/i.test(e.message)) {
        return { code: "connect-failed", message: `${name} is unavailable: the connection closed before it answered ${what}.` };
      }
      return { code, message: `${name} is unavailable: it answered ${what} with an error: ${clip(e.message, 160)} (code ${e.code}).` };
    }
    const text = e instanceof Error ? e.message : String(e);
    if (/protocol version is not supported/.test(text)) {
      return { code: "connect-failed", message: `${name} is unavailable: ${clip(text, 160)}.` };
    }
    return { code, message: `${name} is unavailable: reading its ${what} failed (${clip(text, 160)}).` };
  }

  async function shutdown(): Promise<void> {
    finished = true;
    const sessionId = transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined;
    const protocolVersion = transport instanceof StreamableHTTPClientTransport ? transport.protocolVersion : undefined;
    await (client as Client | null)?.close().catch(() => {});
    const release = () => {
      master.abort(CLOSED);
      guard.destroy();
    };
    if (sessionId === undefined) return release();
    // End the session (MCP: DELETE with its id), bounded, without holding up the check.
    const headers: Record<string, string> = { ...app.headers, "mcp-session-id": sessionId };
    if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
    void guard
      .fetch(app.url, { method: "DELETE", headers, signal: AbortSignal.timeout(TERMINATE_TIMEOUT_MS) })
      .then((r) => r.body?.cancel())
      .catch(() => {})
      .finally(release);
  }

  const start = clock();
  let connectMs: number | null = null;
  let listStart = 0;
  try {
    await within(connectTimeout, connect());
    connectMs = clock() - start;
    phase = "list";
    listStart = clock();
    const stopped = await within(listTimeout, list());
    return { name: app.name, entries, unavailable: null, timings: { connectMs, listMs: clock() - listStart }, stopped, charsRead: chars };
  } catch (e) {
    const timings = connectMs === null ? null : { connectMs, listMs: clock() - listStart };
    const cut = (failure as GuardError | null)?.scanned;
    if (cut !== undefined) {
      // Stopped inside a page at the first entry past the bound: the engine says "more than".
      return { name: app.name, entries: [...entries, ...cut.entries], unavailable: null, timings, stopped: true, charsRead: chars + cut.chars };
    }
    return { name: app.name, entries, unavailable: describe(e), timings, charsRead: chars };
  } finally {
    await shutdown();
  }
}
