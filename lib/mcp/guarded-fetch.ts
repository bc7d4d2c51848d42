import "server-only";
import { pipeline, Readable, Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import zlib from "node:zlib";
import type { FetchLike } from "@modelcontextprotocol/client";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { EVENT_BYTE_LIMIT, RESPONSE_BYTE_LIMIT } from "@/lib/engine/limits";
import type { UnavailableCode } from "@/lib/schemas/check";
import { bareHost, checkAddress, refusedUrl, type AllowList, type Resolver } from "./address";
import { refusedReason } from "./sentences";
import { ToolsScanner } from "./listing-scan";

const MAX_REDIRECTS = 5;
/** A `WWW-Authenticate` is kept up to this many characters: a longer one names no usable sign-in. */
const CHALLENGE_CHARS = 8192;

type BoundKind = "response" | "event" | "listing";

/** The entries of an answer cut short at the listing bound, and their characters. */
interface Scanned {
  entries: unknown[];
  chars: number;
}

/**
 * Why the guard refused or stopped a request. `reason` is the end of a sentence
 * ("…: <reason>."); the reader adds the app's name and, for bounds, the phase.
 */
export class GuardError extends Error {
  constructor(
    readonly code: UnavailableCode,
    readonly reason: string,
    readonly bound?: { kind: BoundKind; limit: number },
    readonly scanned?: Scanned,
    /** A 403 `insufficient_scope` challenge (RFC 6750 §3.1): the scope the app asked for, as it said it (step-up, SPEC §17). */
    readonly insufficientScope?: string,
    /** A 401's or 403's `WWW-Authenticate` as the app sent it (`""` when it sent none): where it signs in (SPEC §18). */
    readonly challenge?: string,
  ) {
    super(reason);
    this.name = "GuardError";
  }
}

/**
 * What of a 401's or 403's `WWW-Authenticate` says where the app signs in (SPEC §18), and nothing
 * else: `Bearer resource_metadata="…", scope="…"` as far as it named them (`""` for no Bearer
 * challenge). Its other words (an `error_description` may quote the credential refused) are not
 * kept, nor is a part holding a value the request sent (`sent`).
 */
export function signInChallenge(header: string | undefined, sent: readonly string[] = []): string {
  if (header === undefined || !/^\s*bearer(\s|$)/i.test(header)) return "";
  const rest = header.slice(0, CHALLENGE_CHARS).replace(/^\s*\S+/, " ");
  // A header's value, and each word of it (`Bearer <token>`: the token).
  const secrets = sent.flatMap((value) => [value, ...value.split(/\s+/)]).filter((secret) => secret.length >= 8);
  const parts = ["resource_metadata", "scope"].flatMap((name) => {
    const found = new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:"([^"]*)"|([^\\s,]*))`, "i").exec(rest);
    const value = found?.[1] ?? found?.[2];
    if (value === undefined || !/^[\x20-\x7e]*$/.test(value) || value.includes("\\") || secrets.some((secret) => value.includes(secret))) return [];
    return [`${name}="${value}"`];
  });
  return parts.length === 0 ? "Bearer" : `Bearer ${parts.join(", ")}`;
}

/** The `scope` a `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` asks for; null for any other challenge. */
export function insufficientScopeOf(header: string | undefined): string | null {
  if (header === undefined || header.length > 8192 || !/^\s*(bearer|dpop)\s/i.test(header)) return null;
  const param = (name: string) => new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:"([^"]*)"|([^\\s,]*))`, "i").exec(header.replace(/^\s*\S+/, " "));
  const error = param("error");
  if ((error?.[1] ?? error?.[2]) !== "insufficient_scope") return null;
  const scope = param("scope");
  const asked = (scope?.[1] ?? scope?.[2] ?? "").split(/\s+/).filter((s) => s !== "");
  // RFC 6749 §3.3's scope-token characters only: anything else is no scope to ask a server for.
  if (asked.length === 0 || asked.length > 50 || !asked.every((s) => /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/.test(s))) return null;
  return asked.join(" ");
}

export interface GuardOptions {
  resolve: Resolver;
  allow: AllowList;
  /** Aborting it ends every request of this app at once (sockets destroyed). */
  signal: AbortSignal;
  /** Told of every refusal or stop, even where the SDK swallows the error it throws. */
  onStop: (error: GuardError) => void;
  /** Header names the app's owner gave: never sent to another origin after a redirect. */
  privateHeaders?: readonly string[];
  responseByteLimit?: number;
  eventByteLimit?: number;
  /**
   * Characters the listing may still take (SPEC §7). Given, each answer to `tools/list` is
   * measured as it streams and cut off at the first entry past it.
   */
  listingBudget?: () => number;
  /**
   * Given, asked about every request body: a watch for the answer to it (a tool call's), told of
   * each of its events and given a stage its decoded body passes through after it is counted.
   */
  watchAnswer?: (requestBody: string | Buffer | undefined) => AnswerWatch | null;
  /**
   * Answer 401 and 403 as they came instead of stopping: the OAuth flow (lib/oauth) reads a
   * 401's `WWW-Authenticate` and a token endpoint's error body. A read of tools never sets it.
   */
  answerUnauthorized?: boolean;
  /**
   * Answer redirects as they came instead of following them: the sign-in doctor (lib/oauth/doctor.ts)
   * follows a sign-in's redirects hop by hop. Not `redirect: "manual"` of a request: the MCP SDK
   * asks that of every request it follows itself, and a read must still have each hop checked here.
   */
  answerRedirects?: boolean;
}

/** How one answer is followed (see `watchAnswer`). */
interface AnswerWatch {
  /** An event of the answer's stream ended, with its bytes. */
  onEvent?: (bytes: number) => void;
  /** A stage after the counter, given the answer's status and type: what it passes on is what the transport reads. */
  stage?: (answer: { eventStream: boolean; status: number; contentType: string }) => Transform | null;
}

interface GuardedFetch {
  fetch: FetchLike;
  /** Ends every request of this guard still under way (their sockets are destroyed) and refuses any more. */
  end: () => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);
const DECODERS = new Map<string, () => Transform>(Object.entries({ gzip: zlib.createGunzip, "x-gzip": zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress }));
const MiB = 1024 * 1024;

/** Connections to one origin at most, for all reads and calls at once (a read holds two or three; SPEC §10 allows 64 reads at once). */
const CONNECTIONS_PER_ORIGIN = 256;
/**
 * How long an idle kept-alive connection waits for the next request: 4 s when the app's answer
 * says nothing, else the `Keep-Alive: timeout` it says less 2 s (undici's margin), at most 10 s.
 */
const KEEP_ALIVE_MS = 4_000;
const KEEP_ALIVE_MAX_MS = 10_000;
/** Address rules (allow-lists) with an agent of their own at one time, per resolver; in practice one: CHECK_ALLOW_HOSTS. */
const AGENTS_PER_RESOLVER = 4;

/**
 * The undici `Agent` of an address rule: every connection it opens is checked first, and made to
 * the very address checked; a redirect or a name that now resolves elsewhere is refused.
 */
function guardAgent(resolve: Resolver, allow: AllowList): Agent {
  const connect = buildConnector({});
  return new Agent({
    connections: CONNECTIONS_PER_ORIGIN,
    // The reader's and the tool call's deadlines bound every wait: undici's own would cut an event stream short.
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MAX_MS,
    connect: (to, callback) => {
      checkAddress(new URL(`${to.protocol}//${to.host ?? to.hostname}`), resolve, allow).then(
        (verdict) => (verdict.ok ? connect({ ...to, hostname: verdict.address.address }, callback) : callback(new GuardError(verdict.code, verdict.reason), null)),
        (e: Error) => callback(e, null),
      );
    },
  });
}

/** The agents, by resolver and then by address rule (`allowKey`), oldest first. */
const agents = new WeakMap<Resolver, Map<string, Agent>>();

/** An allow-list as text: two lists that allow the same share an agent. */
function allowKey(allow: AllowList): string {
  return JSON.stringify([[...allow.names].map(([name, ports]) => [name, ports === null ? null : [...ports]]), allow.ranges.map(([address, bits, port]) => [address.toString(), bits, port])]);
}

/**
 * One agent for every guard with the same resolver and address rule, so a connection an app
 * kept alive serves the next read of that app (a re-check, Try after its form, the next app of
 * the same server), as one HTTP client's would: a new connection costs about as much as two
 * requests. Only idle connections are shared, for a few seconds; what a guard has under way ends
 * with it (`end`). The connection is to the address checked when it was opened.
 */
function sharedAgent(resolve: Resolver, allow: AllowList): Agent {
  let byRule = agents.get(resolve);
  if (byRule === undefined) agents.set(resolve, (byRule = new Map()));
  const key = allowKey(allow);
  let agent = byRule.get(key);
  if (agent === undefined) {
    agent = guardAgent(resolve, allow);
    byRule.set(key, agent);
    if (byRule.size > AGENTS_PER_RESOLVER) {
      const [oldestKey, oldest] = byRule.entries().next().value as [string, Agent];
      byRule.delete(oldestKey);
      // Its requests under way finish; its idle connections close.
      void oldest.close().catch(() => {});
    }
  }
  return agent;
}

/** Why a guard's requests stop once it is ended. */
const ENDED = new Error("This app's requests were ended.");

/**
 * A `fetch` for the SDK transports that reaches only public unicast addresses (or those the
 * allow-list names), through the shared agent of its address rule (`sharedAgent`). Redirects
 * are followed by hand (each hop's URL checked, the owner's headers kept from other origins);
 * 401/403 are refused without following any sign-in URL, and a body is stopped the moment it
 * passes a bound.
 */
export function guardedFetch(options: GuardOptions): GuardedFetch {
  const agent = sharedAgent(options.resolve, options.allow);
  const ended = new AbortController();
  const guardSignal = AbortSignal.any([options.signal, ended.signal]);
  const responseLimit = options.responseByteLimit ?? RESPONSE_BYTE_LIMIT;
  const eventLimit = options.eventByteLimit ?? EVENT_BYTE_LIMIT;
  const privateHeaders = new Set([...(options.privateHeaders ?? []).map((h) => h.toLowerCase()), "authorization", "cookie"]);

  const stop = (error: GuardError): never => {
    options.onStop(error);
    throw error;
  };

  /** One request; aborting `signal` cancels it, or, once answered, stops its body with "reading was stopped". */
  async function send(url: URL, method: string, headers: Headers, body: string | Buffer | undefined, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    const abort = new AbortController();
    let answered = false;
    const onAbort = () => abort.abort(answered ? new GuardError("connect-failed", "reading was stopped") : signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method, headers: Object.fromEntries(headers), body, signal: abort.signal });
      answered = true;
      response.body.once("close", () => signal.removeEventListener("abort", onAbort));
      return response;
    } catch (e) {
      signal.removeEventListener("abort", onAbort);
      const error = networkError(e as Error, url, signal);
      if (error instanceof GuardError) options.onStop(error);
      throw error;
    }
  }

  /** Decodes (gzip, deflate, br) and counts the body as it streams; past a bound it is destroyed. */
  function bodyOf(response: Dispatcher.ResponseData, listsTools: boolean, watch: AnswerWatch | null): ReadableStream<Uint8Array> {
    const header = (name: string) => String(response.headers[name] ?? "");
    const decoder = DECODERS.get(header("content-encoding").toLowerCase().trim())?.() ?? null;
    const isEventStream = header("content-type").toLowerCase().includes("text/event-stream");
    const budget = listsTools && options.listingBudget !== undefined ? options.listingBudget() : null;
    const scanner = budget === null ? null : new ToolsScanner(budget);
    const counter = isEventStream ? eventCounter(eventLimit, scanner, watch?.onEvent) : byteCounter(responseLimit, scanner);
    const stage = watch?.stage?.({ eventStream: isEventStream, status: response.statusCode, contentType: header("content-type") }) ?? null;
    const stages: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = decoder === null ? [response.body, counter] : [response.body, decoder, counter];
    if (stage !== null) stages.push(stage);
    pipeline(stages as [NodeJS.ReadableStream, NodeJS.WritableStream], (error) => {
      if (error instanceof GuardError && error.bound !== undefined) options.onStop(error);
    });
    return Readable.toWeb(stage ?? counter) as ReadableStream<Uint8Array>;
  }

  async function guarded(input: string | URL, init?: RequestInit): Promise<Response> {
    let url = new URL(input);
    let method = (init?.method ?? "GET").toUpperCase();
    const headers = new Headers(init?.headers);
    if (!headers.has("accept-encoding")) headers.set("accept-encoding", "gzip, deflate, br");
    let body = await bodyBytes(init?.body);
    const signal = init?.signal ? AbortSignal.any([guardSignal, init.signal]) : guardSignal;
    for (let hop = 0; ; hop++) {
      signal.throwIfAborted();
      const refused = refusedUrl(url);
      if (refused !== null) stop(new GuardError("address-refused", refused));
      const response = await send(url, method, headers, body, signal);
      const status = response.statusCode;
      const location = response.headers["location"];
      if (REDIRECTS.has(status) && typeof location === "string" && options.answerRedirects !== true) {
        drop(response);
        if (hop === MAX_REDIRECTS) stop(new GuardError("connect-failed", `it redirected more than ${MAX_REDIRECTS} times`));
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return stop(new GuardError("connect-failed", `it redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`));
        }
        if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          headers.delete("content-type");
        }
        if (next.origin !== url.origin) for (const name of privateHeaders) headers.delete(name);
        url = next;
        continue;
      }
      if ((status === 401 || status === 403) && options.answerUnauthorized !== true) {
        const header = response.headers["www-authenticate"];
        const challenge = (Array.isArray(header) ? header[0] : header) ?? "";
        const scope = status === 403 ? insufficientScopeOf(challenge) : null;
        drop(response);
        const said = signInChallenge(challenge, [...privateHeaders].flatMap((name) => headers.get(name) ?? []));
        if (scope !== null) stop(new GuardError("auth-required", `it needs more permission than its sign-in gives (HTTP 403, insufficient_scope: it asks for the scope ${JSON.stringify(scope.slice(0, 200))})`, undefined, undefined, scope, said));
        stop(new GuardError("auth-required", `it asks to sign in (HTTP ${status}); give its credentials as headers to check it`, undefined, undefined, undefined, said));
      }
      return toResponse(response, listsTools(body), options.watchAnswer?.(body) ?? null);
    }
  }

  function toResponse(response: Dispatcher.ResponseData, listsTools: boolean, watch: AnswerWatch | null): Response {
    const { statusCode: status, statusText } = response;
    if (status > 599) {
      drop(response);
      stop(new GuardError("connect-failed", `it answered with HTTP status ${status}`));
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined || name === "content-encoding" || name === "content-length") continue;
      try {
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      } catch {
        // a header the WHATWG Headers cannot hold is of no use to the transports
      }
    }
    if (NULL_BODY.has(status)) {
      response.body.resume();
      return new Response(null, { status, statusText, headers });
    }
    return new Response(bodyOf(response, listsTools, watch), { status, statusText, headers });
  }

  return {
    fetch: guarded,
    end: () => ended.abort(ENDED),
  };
}

/** Ends an answer that is not read (undici calls that an abort, an error no one waits for). */
const drop = (response: Dispatcher.ResponseData) => void response.body.on("error", () => {}).destroy();

/** The request body: a string stays one (undici then writes it with the headers in one write). */
async function bodyBytes(body: RequestInit["body"]): Promise<string | Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  return Buffer.from(await new Response(body).arrayBuffer());
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;
/** undici's codes for a socket the app closed and a connect that timed out, named as the sentences name them. */
const UNDICI_CODES: Record<string, string> = { UND_ERR_SOCKET: "ECONNRESET", UND_ERR_CONNECT_TIMEOUT: "ETIMEDOUT" };

function networkError(e: Error, url: URL, signal: AbortSignal): Error {
  if (signal.aborted || e instanceof GuardError) return e;
  const raw = (e as NodeJS.ErrnoException).code ?? "";
  const code = UNDICI_CODES[raw] ?? raw;
  const where = url.port === "" ? bareHost(url) : `${bareHost(url)}:${url.port}`;
  if (code === "ECONNREFUSED") return new GuardError("connect-failed", refusedReason(where));
  if (TLS_CODES.test(code)) return new GuardError("connect-failed", `its TLS certificate was not accepted (${code})`);
  if (code === "ECONNRESET" || code === "EPIPE") return new GuardError("connect-failed", `${where} closed the connection (${code})`);
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "ETIMEDOUT") return new GuardError("connect-failed", `${where} cannot be reached (${code})`);
  return new GuardError("connect-failed", `the connection to ${where} failed (${code || e.message})`);
}

const tooLarge = (kind: BoundKind, limit: number) =>
  new GuardError(
    "listing-too-large",
    kind === "response"
      ? `one answer passed ${limit / MiB} MiB (${limit.toLocaleString("en-US")} bytes), so reading stopped`
      : `one streamed event passed ${limit / MiB} MiB (${limit.toLocaleString("en-US")} bytes), so reading stopped`,
    { kind, limit },
  );

/** Whether a request body is a JSON-RPC `tools/list` request. */
function listsTools(body: string | Buffer | undefined): boolean {
  if (body === undefined || body.length > 64 * 1024 || !body.includes("tools/list")) return false;
  try {
    return (JSON.parse(body.toString()) as { method?: unknown }).method === "tools/list";
  } catch {
    return false;
  }
}

/** The stop for a listing past its bound, with the entries measured before it. */
function listingStop(scanner: ToolsScanner): GuardError {
  const entries: unknown[] = [];
  for (const text of scanner.entries) {
    try {
      entries.push(JSON.parse(text));
    } catch {
      // not JSON after all: the entry is not counted
    }
  }
  return new GuardError("listing-too-large", "the listing passed its limit, so reading stopped", { kind: "listing", limit: 0 }, { entries, chars: scanner.chars });
}

/** Counts every byte of a plain body (and measures a tools/list answer as it streams). */
function byteCounter(limit: number, scanner: ToolsScanner | null): Transform {
  let bytes = 0;
  const text = new StringDecoder("utf8");
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > limit) return done(tooLarge("response", limit));
      if (scanner !== null) {
        scanner.push(text.write(chunk));
        if (scanner.past) return done(listingStop(scanner));
      }
      done(null, chunk);
    },
  });
}

const DATA_FIELD = Buffer.from("data");

/** Where the line that holds `from` ends (its CR or LF), or the end of the chunk. */
function lineEnd(chunk: Buffer, from: number): number {
  const lf = chunk.indexOf(10, from);
  const cr = chunk.indexOf(13, from);
  const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  return end < 0 ? chunk.length : end;
}

/**
 * Counts the bytes of the lines of one event (up to the blank line that ends it), and feeds
 * the data of each event to the scanner, one event (one message) at a time.
 */
function eventCounter(limit: number, scanner: ToolsScanner | null, onEvent?: (bytes: number) => void): Transform {
  let eventBytes = 0;
  let lineBytes = 0;
  let afterCR = false;
  // Per line: 0 reading the field name, 1 a field other than data, 2 data (a space may lead), 3 data.
  let state = 0;
  let field = 0; // bytes of the field name that match "data" so far (-1: not data)
  const text = new StringDecoder("utf8");
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let dataFrom = -1;
      const flushData = (to: number) => {
        if (scanner !== null && dataFrom >= 0 && to > dataFrom) scanner.push(text.write(chunk.subarray(dataFrom, to)));
        dataFrom = -1;
      };
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!;
        if (b === 10 && afterCR) {
          afterCR = false;
          continue;
        }
        if (state === 1 || state === 3) {
          // The rest of a line, at once.
          const end = lineEnd(chunk, i);
          if (end > i) {
            lineBytes += end - i;
            eventBytes += end - i;
            if (state === 3 && dataFrom < 0) dataFrom = i;
            afterCR = false;
            i = end - 1;
            continue;
          }
        }
        afterCR = b === 13;
        if (b === 10 || b === 13) {
          flushData(i);
          if (lineBytes === 0) {
            // An event that passed the bound and ended within one chunk is stopped all the same.
            if (eventBytes > limit) return done(tooLarge("event", limit));
            if (eventBytes > 0) onEvent?.(eventBytes);
            eventBytes = 0;
            scanner?.reset();
          } else if (state >= 2 || (state === 0 && field === 4)) {
            scanner?.push("\n");
          }
          lineBytes = 0;
          state = 0;
          field = 0;
          continue;
        }
        lineBytes++;
        eventBytes++;
        if (state === 0) {
          if (b === 0x3a /* : */) state = field === 4 ? 2 : 1;
          else field = field >= 0 && field < 4 && b === DATA_FIELD[field] ? field + 1 : -1;
        } else if (state === 2) {
          state = 3;
          if (b !== 0x20) dataFrom = i;
        } else if (state === 3 && dataFrom < 0) {
          dataFrom = i;
        }
      }
      if (state === 3) flushData(chunk.length);
      if (eventBytes > limit) return done(tooLarge("event", limit));
      if (scanner?.past === true) return done(listingStop(scanner));
      done(null, chunk);
    },
  });
}
