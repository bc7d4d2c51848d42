import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";
import { Deadline, NoTransport } from "./read-errors";

// The one way the reader (read-app.ts) and the tool call (call-tool.ts) open and end an MCP
// session with an app, over the guarded fetch they each hold.

const CLIENT_INFO = { name: "theorem-connections", version: "0.1.0" };
/** The SDK's own result schemas would reject a bad entry or answer; callers take the result as sent. */
export const ANY_RESULT = z.unknown();
/** Requests go through `request`, never `callTool`: no output schema is compiled or checked, so no client builds its own Ajv. */
const NO_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "This client does not check output schemas." }),
};
const CLIENT_OPTIONS = { capabilities: {}, jsonSchemaValidator: NO_VALIDATION };
/** A failed stream is a failed read: the SDK is not to reconnect on its own. */
const NO_RETRY = { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 };
/** How long ending a session (its DELETE) may take. */
export const TERMINATE_TIMEOUT_MS = 1000;

/** `work`, or the first of: a `Deadline` after `ms`, or `stop` (a guard stop, a garbled message) rejecting. */
export async function within<T>(ms: number, work: Promise<T>, stop: Promise<never>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Deadline()), ms)));
  try {
    return await Promise.race([work, late, stop]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ConnectTo {
  url: string;
  headers?: Record<string, string>;
  fetch: FetchLike;
  timeoutMs: number;
  /** Each client as it is made (the fallback replaces the first), with its transport: the caller closes the last. */
  opened(client: Client, transport: Transport): void;
  /** Watches a client's errors before it connects. */
  onClientError(e: Error): void;
  /** The caller already knows why connecting failed (a guard stop): nothing is to be tried or wrapped. */
  stopped(): boolean;
  /** Wraps a transport before the client uses it. */
  wrap?: (transport: Transport) => Transport;
}

/**
 * MCP `initialize` over Streamable HTTP; on a 4xx to its POST, over the older HTTP+SSE (MCP's
 * backwards compatibility: an older server offers an event stream at GET). When that fails
 * too, `NoTransport` with both reasons.
 */
export async function connectWithFallback(to: ConnectTo): Promise<Client> {
  const url = new URL(to.url);
  const requestInit: RequestInit = { headers: to.headers ?? {} };
  const open = async (transport: Transport) => {
    const client = new Client(CLIENT_INFO, CLIENT_OPTIONS);
    client.onerror = to.onClientError;
    const wrapped = to.wrap?.(transport) ?? transport;
    to.opened(client, wrapped);
    await client.connect(wrapped, { timeout: to.timeoutMs + 1000 });
    return client;
  };
  let status: number;
  try {
    return await open(new StreamableHTTPClientTransport(url, { fetch: to.fetch, requestInit, reconnectionOptions: NO_RETRY }));
  } catch (e) {
    if (to.stopped() || !(e instanceof StreamableHTTPError) || e.code === undefined || e.code < 400 || e.code > 499) throw e;
    status = e.code;
  }
  try {
    return await open(new SSEClientTransport(url, { fetch: to.fetch, requestInit }));
  } catch (e) {
    if (to.stopped()) throw e;
    throw new NoTransport(status, e);
  }
}

/**
 * Ends the MCP session `transport` holds (DELETE with its id), bounded by TERMINATE_TIMEOUT_MS;
 * null when there is none to end (the older transport, or no session id).
 */
export function terminateSession(fetch: FetchLike, url: string, headers: Record<string, string> | undefined, transport: Transport | null): Promise<void> | null {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return null;
  const sent: Record<string, string> = { ...headers, "mcp-session-id": transport.sessionId };
  if (transport.protocolVersion !== undefined) sent["mcp-protocol-version"] = transport.protocolVersion;
  return fetch(url, { method: "DELETE", headers: sent, signal: AbortSignal.timeout(TERMINATE_TIMEOUT_MS) })
    .then((r) => r.body?.cancel())
    .catch(() => {});
}
