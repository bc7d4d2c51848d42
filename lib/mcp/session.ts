import "server-only";
import type { Client, FetchLike, ReconnectionScheduler, Transport } from "@modelcontextprotocol/client";
import type { AllowList, Resolver } from "./address";
import { allowListFromEnv, systemResolver } from "./address";
import { connectWithFallback, RawChannel, TERMINATE_TIMEOUT_MS, terminateSession, within } from "./connect";
import type { GuardError, GuardOptions } from "./guarded-fetch";
import { guardedFetch } from "./guarded-fetch";
import { isGarbled } from "./read-errors";

/**
 * One MCP session with an app, as reading (read-app.ts) and calling (call-tool.ts) both open it:
 * every byte through one guarded fetch (SPEC §10, with the app's headers kept from other origins),
 * the connection by `connectWithFallback` (SPEC §18's eras), each step raced against its deadline
 * and the first reason to stop, and in every outcome the client closed and the session ended.
 */

/** An app as it is read or called: its name (for the sentences), its URL and what it is sent. */
export interface LiveApp {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface SessionOptions {
  resolve?: Resolver;
  /** Private addresses that may be reached; default: `CHECK_ALLOW_HOSTS`. */
  allow?: AllowList;
  responseByteLimit?: number;
  eventByteLimit?: number;
  listingBudget?: GuardOptions["listingBudget"];
  watchAnswer?: GuardOptions["watchAnswer"];
  /** A call's event stream may be resumed this often (SEP-1699); a read never resumes. */
  resumeStreams?: number;
  reconnectionScheduler?: ReconnectionScheduler;
  /** Closing waits briefly for notifications under way (a call's cancellation); a read does not. */
  finishNotifications?: boolean;
  /** Besides a garbled message, a client error that ends the session: the reason to stop with, or null. */
  clientError?: (e: Error) => unknown;
}

const CLOSED = new Error("The session with this app is over.");

export class McpSession {
  readonly fetch: FetchLike;
  /** The client of the moment (a fallback replaces the first) and its transport: closed in every outcome. */
  client: Client | null = null;
  transport: Transport | null = null;
  /** Requests answered as the app sent them, once connected. */
  channel: RawChannel | null = null;
  /** The guard's first stop, kept: the SDK may swallow it and throw something else. */
  guardStop: GuardError | null = null;
  /** The first reason to stop: a guard stop, a garbled message, or what the caller `fail`ed with. */
  failure: unknown = null;
  private over = false;
  private trip: (e: unknown) => void = () => {};
  private readonly tripped = new Promise<never>((_, reject) => (this.trip = reject));
  private readonly master = new AbortController();
  private readonly guard;
  /** Notifications being sent (a cancellation, above all): closing waits for them, briefly. */
  private readonly sending = new Set<Promise<unknown>>();

  constructor(
    readonly app: LiveApp,
    private readonly options: SessionOptions = {},
  ) {
    this.tripped.catch(() => {});
    this.guard = guardedFetch({
      resolve: options.resolve ?? systemResolver,
      allow: options.allow ?? allowListFromEnv(),
      signal: this.master.signal,
      privateHeaders: Object.keys(app.headers ?? {}),
      responseByteLimit: options.responseByteLimit,
      eventByteLimit: options.eventByteLimit,
      ...(options.listingBudget !== undefined ? { listingBudget: options.listingBudget } : {}),
      ...(options.watchAnswer !== undefined ? { watchAnswer: options.watchAnswer } : {}),
      onStop: (e) => {
        if (this.over) return;
        this.guardStop ??= e;
        this.fail(e);
      },
    });
    this.fetch = this.guard.fetch;
  }

  /** Remembers the first reason to stop, and ends whatever is waiting. */
  fail(e: unknown): void {
    if (this.over || this.failure !== null) return;
    this.failure = e;
    this.trip(e);
  }

  /** The work, or the first of: its deadline (`Deadline`), a guard stop, a garbled message. */
  within<T>(ms: number, work: Promise<T>): Promise<T> {
    return within(ms, work, this.tripped);
  }

  /** Connects in the newest era both speak (lib/mcp/connect.ts); `timeoutMs` is the SDK's own bound, the caller races its deadline. */
  async open(timeoutMs: number): Promise<Client> {
    const client = await connectWithFallback({
      url: this.app.url,
      headers: this.app.headers,
      fetch: this.fetch,
      timeoutMs,
      onClientError: (e) => {
        if (isGarbled(e)) return this.fail(e);
        const reason = this.options.clientError?.(e);
        if (reason !== undefined && reason !== null) this.fail(reason);
      },
      stopped: () => this.failure !== null,
      ...(this.options.resumeStreams !== undefined ? { resumeStreams: this.options.resumeStreams } : {}),
      ...(this.options.reconnectionScheduler !== undefined ? { reconnectionScheduler: this.options.reconnectionScheduler } : {}),
      ...(this.options.finishNotifications === true ? { wrap: (transport: Transport) => this.tracked(transport) } : {}),
      opened: (opened, transport) => {
        this.client = opened;
        this.transport = transport;
      },
    });
    this.channel = new RawChannel(client, this.transport!);
    return client;
  }

  private tracked<T extends Transport>(transport: T): T {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const sent = send(message, options);
      if (!("id" in message)) {
        const settled = sent.catch(() => {});
        this.sending.add(settled);
        void settled.finally(() => this.sending.delete(settled));
      }
      return sent;
    };
    return transport;
  }

  /** Closes the client, then ends its MCP session (DELETE with its id) in the background, bounded, and ends its requests still under way (the connections it leaves idle serve the next read of the app for a few seconds). */
  async close(): Promise<void> {
    this.over = true;
    if (this.sending.size > 0) await Promise.race([Promise.all(this.sending), new Promise((r) => setTimeout(r, TERMINATE_TIMEOUT_MS / 2))]);
    await this.client?.close().catch(() => {});
    const release = () => {
      this.master.abort(CLOSED);
      this.guard.end();
    };
    const ending = terminateSession(this.fetch, this.app.url, this.app.headers, this.transport);
    if (ending === null) return release();
    void ending.finally(release);
  }
}
