import "server-only";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { FetchLike, JSONRPCMessage, jsonSchemaValidator, ReconnectionScheduler, Transport } from "@modelcontextprotocol/client";
import { Deadline, NoTransport, type EraAnswer } from "./read-errors";

// The one way the reader (read-app.ts) and the tool call (call-tool.ts) open and end an MCP
// connection to an app, over the guarded fetch they each hold (SPEC §18: the v2 client,
// `server/discover` first, the 2025 `initialize` and the older HTTP+SSE after).

const CLIENT_INFO = { name: "theorem-connections", version: "0.1.0" };
/** Requests go through `request`, never `callTool`: no output schema is compiled or checked, so no client builds its own Ajv. */
const NO_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "This client does not check output schemas." }),
};
/** The modern era's multi-round answers come back to the caller (Try shows them as a form): the client fulfils none itself. */
const CLIENT_OPTIONS = { capabilities: {}, jsonSchemaValidator: NO_VALIDATION, inputRequired: { autoFulfill: false } };
/** A failed stream is a failed read: the SDK is not to reconnect on its own. */
const NO_RETRY = { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 };
/** How long ending a session (its DELETE) may take. */
export const TERMINATE_TIMEOUT_MS = 1000;
/** Bytes of an answer to server/discover or initialize kept to say what it answered. */
const PEEK_BYTES = 16 * 1024;

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

interface ConnectTo {
  url: string;
  headers?: Record<string, string>;
  fetch: FetchLike;
  timeoutMs: number;
  /** Each client as it is made (a fallback replaces the first), with its transport: the caller closes the last. */
  opened(client: Client, transport: Transport): void;
  /** Watches a client's errors before it connects. */
  onClientError(e: Error): void;
  /** The caller already knows why connecting failed (a guard stop): nothing is to be tried or wrapped. */
  stopped(): boolean;
  /** Wraps a transport before the client uses it. */
  wrap?: (transport: Transport) => Transport;
  /**
   * A call's event stream closed after a priming event may be resumed (SEP-1699: GET with
   * `Last-Event-ID` after the app's `retry:`), at most this many times; a read never resumes.
   */
  resumeStreams?: number;
  /** When a resume waits for the app's `retry:` (default: a timer; tests pass their own clock). */
  reconnectionScheduler?: ReconnectionScheduler;
}

/** The JSON-RPC method of a request body, when it is one of those whose answers say which era a server speaks. */
function eraMethod(body: unknown): "server/discover" | "initialize" | null {
  if (typeof body !== "string" || body.length > 64 * 1024) return null;
  if (body.includes('"server/discover"')) return "server/discover";
  if (body.includes('"initialize"')) return "initialize";
  return null;
}

/**
 * A fetch that keeps what the app answered to server/discover and initialize (status, type and
 * the first bytes, as they pass: nothing more is read), so that a failure can say it.
 */
function watchingEra(fetch: FetchLike, answers: EraAnswer[]): FetchLike {
  return async (url, init) => {
    const method = eraMethod(init?.body);
    const response = await fetch(url, init);
    if (method === null) return response;
    const answer: EraAnswer = { method, status: response.status, contentType: response.headers.get("content-type") ?? "", head: "" };
    answers.push(answer);
    if (response.body === null) return response;
    const decoder = new TextDecoder();
    const peek = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (answer.head.length < PEEK_BYTES) answer.head += decoder.decode(chunk.subarray(0, PEEK_BYTES - answer.head.length), { stream: true });
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(peek), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The v2 SDK's answer to the probe that was neither modern nor a clean 2025 signal (a 5xx, HTML, a dropped probe). */
const probeFailed = (e: unknown) => e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed && !(e instanceof SdkHttpError && (e.status === 401 || e.status === 403));

/** A 4xx to the 2025 handshake's POST: the server may be of the older HTTP+SSE transport. */
const handshakeStatus = (e: unknown): number | null => (e instanceof SdkHttpError && typeof e.status === "number" && e.status >= 400 && e.status <= 499 ? e.status : null);

/**
 * Connects to an app in the newest era both speak: `server/discover` first (2026-07-28, no
 * session), else MCP `initialize` over Streamable HTTP (2025); a probe answered with neither
 * era's signal (a 5xx, a page of HTML) is followed by `initialize` all the same; on a 4xx to
 * that POST, the older HTTP+SSE (an older server offers an event stream at GET). When that
 * fails too, `NoTransport` with every answer.
 */
export async function connectWithFallback(to: ConnectTo): Promise<Client> {
  const url = new URL(to.url);
  const requestInit: RequestInit = { headers: to.headers ?? {} };
  const answers: EraAnswer[] = [];
  const fetch = watchingEra(to.fetch, answers);
  const open = async (transport: Transport, negotiate: "auto" | "legacy") => {
    const client = new Client(CLIENT_INFO, { ...CLIENT_OPTIONS, versionNegotiation: { mode: negotiate } });
    client.onerror = to.onClientError;
    const wrapped = to.wrap?.(transport) ?? transport;
    to.opened(client, wrapped);
    await client.connect(wrapped, { timeout: to.timeoutMs + 1000 });
    return client;
  };
  const reconnectionOptions = to.resumeStreams === undefined ? NO_RETRY : { ...NO_RETRY, maxRetries: to.resumeStreams };
  const streamable = () => new StreamableHTTPClientTransport(url, { fetch, requestInit, reconnectionOptions, ...(to.reconnectionScheduler ? { reconnectionScheduler: to.reconnectionScheduler } : {}) });
  let status: number | null;
  try {
    return await open(streamable(), "auto");
  } catch (e) {
    if (to.stopped()) throw e;
    status = handshakeStatus(e);
    if (status === null && !probeFailed(e)) throw e;
  }
  if (status === null) {
    try {
      return await open(streamable(), "legacy");
    } catch (e) {
      if (to.stopped()) throw e;
      status = handshakeStatus(e);
      if (status === null) throw e;
    }
  }
  try {
    return await open(new SSEClientTransport(url, { fetch: to.fetch, requestInit }), "legacy");
  } catch (e) {
    if (to.stopped()) throw e;
    throw new NoTransport(status, e, answers);
  }
}

/** A result as the app sent it, before the SDK's decoding (in the 2026-07-28 era it checks every tool against its schema). */
interface RawOptions {
  signal?: AbortSignal;
  /** Told of each `notifications/progress` for this request. */
  onprogress?: () => void;
  /** The request's event stream ended without its answer; default: the request fails as a closed connection. */
  onStreamEnd?: () => void;
  /** Headers of this request alone (a call's `Mcp-Param-*`, SEP-2243); the transport keeps its own (`Mcp-Method`, the session's) from being overridden. */
  headers?: Record<string, string>;
}

/** Far past the client's own ids (a counter from 0), and numbers, as many apps assume ids are. */
let rawIds = 1e12;

/**
 * Sends requests over a connected client's transport and takes their answers before the client
 * does, so that a `tools/list` page is read as listed (one bad entry is that entry's problem, not
 * the page's) and an `input_required` answer reaches Try as sent. In the 2026-07-28 era each
 * request carries the `_meta` envelope the client would add; in the 2025 era none is needed.
 */
export class RawChannel {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void; progress?: () => void; token: string }>();

  constructor(
    private readonly client: Client,
    private readonly transport: Transport,
  ) {
    const inner = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      if (this.take(message)) return;
      inner?.call(transport, message, extra);
    };
  }

  private take(message: JSONRPCMessage): boolean {
    const m = message as { id?: unknown; method?: string; params?: { progressToken?: unknown }; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (m.method === "notifications/progress") {
      const token = m.params?.progressToken;
      const waiting = [...this.pending.values()].find((p) => p.token === token);
      waiting?.progress?.();
      return waiting !== undefined;
    }
    if (typeof m.id !== "number") return false;
    const waiting = this.pending.get(m.id);
    if (waiting === undefined) return false;
    this.pending.delete(m.id);
    if (m.error !== undefined) waiting.reject(ProtocolError.fromError(m.error.code, m.error.message, m.error.data));
    else waiting.resolve(m.result);
    return true;
  }

  /** The client's `_meta` envelope in the 2026-07-28 era; none in 2025. */
  private envelope(): Record<string, unknown> {
    if (this.client.getProtocolEra() !== "modern") return {};
    // Questions to the person come back as forms (Try shows them: SPEC §18); 2025 apps get none.
    return { [PROTOCOL_VERSION_META_KEY]: this.client.getNegotiatedProtocolVersion(), [CLIENT_INFO_META_KEY]: CLIENT_INFO, [CLIENT_CAPABILITIES_META_KEY]: { elicitation: { form: {} } } };
  }

  /** The result of `method` as the app sent it; a JSON-RPC error rejects as the SDK's `ProtocolError`. */
  request(method: string, params: Record<string, unknown>, options: RawOptions = {}): Promise<unknown> {
    const id = ++rawIds;
    const token = `theorem-${id}`;
    const meta = { ...this.envelope(), ...(options.onprogress !== undefined ? { progressToken: token } : {}) };
    const message = { jsonrpc: "2.0" as const, id, method, params: { ...params, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) } };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, token, ...(options.onprogress !== undefined ? { progress: options.onprogress } : {}) });
      const drop = (e: unknown) => {
        if (this.pending.delete(id)) reject(e);
      };
      options.signal?.addEventListener(
        "abort",
        () => {
          // 2026-07-28: ending the request's stream is the cancellation; 2025: the app is told.
          if (this.pending.has(id) && this.client.getProtocolEra() !== "modern") {
            this.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: String(options.signal?.reason ?? "cancelled") } }).catch(() => {});
          }
          drop(options.signal?.reason);
        },
        { once: true },
      );
      this.transport
        .send(message, {
          ...(options.signal !== undefined ? { requestSignal: options.signal } : {}),
          ...(options.headers !== undefined ? { headers: options.headers } : {}),
          // Also told when the stream ends after its answer (then nothing is waiting), and not while it reconnects.
          onRequestStreamEnd: () =>
            setTimeout(() => {
              if (!this.pending.has(id)) return;
              if (options.onStreamEnd !== undefined) options.onStreamEnd();
              else drop(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"));
            }, 0),
        })
        .catch(drop);
    });
  }
}

/** The revision the client agreed with the app, or null when it never connected. */
export function negotiatedRevision(client: Client | null): string | null {
  return client?.getNegotiatedProtocolVersion() ?? null;
}

/**
 * Ends the MCP session `transport` holds (DELETE with its id), bounded by TERMINATE_TIMEOUT_MS;
 * null when there is none to end (the older transport, the 2026-07-28 era, or no session id).
 */
export function terminateSession(fetch: FetchLike, url: string, headers: Record<string, string> | undefined, transport: Transport | null): Promise<void> | null {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return null;
  const sent: Record<string, string> = { ...headers, "mcp-session-id": transport.sessionId };
  if (transport.protocolVersion !== undefined) sent["mcp-protocol-version"] = transport.protocolVersion;
  return fetch(url, { method: "DELETE", headers: sent, signal: AbortSignal.timeout(TERMINATE_TIMEOUT_MS) })
    .then((r) => r.body?.cancel())
    .catch(() => {});
}
