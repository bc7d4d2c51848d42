import "server-only";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline, Readable, Transform } from "node:stream";
import zlib from "node:zlib";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { UnavailableCode } from "@/lib/schemas/check";
import type { AllowList, ResolvedAddress, Resolver } from "./address";
import { bareHost, literalAddress, refusedClass } from "./address";

/** SPEC §7: one JSON-RPC answer and one streamed event, counted as decoded (after gzip) UTF-8 bytes. */
export const RESPONSE_BYTE_LIMIT = 16 * 1024 * 1024;
export const EVENT_BYTE_LIMIT = 4 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

export type BoundKind = "response" | "event";

/**
 * Why the guard refused or stopped a request. `reason` is the end of a sentence
 * ("…: <reason>."); the reader adds the app's name and, for bounds, the phase.
 */
export class GuardError extends Error {
  constructor(
    readonly code: UnavailableCode,
    readonly reason: string,
    readonly bound?: { kind: BoundKind; limit: number },
  ) {
    super(reason);
    this.name = "GuardError";
  }
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
}

export interface GuardedFetch {
  fetch: FetchLike;
  /** Destroys every socket the guard opened. */
  destroy: () => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const MiB = 1024 * 1024;

/**
 * A `fetch` for the SDK transports that reaches only public unicast addresses (or those the
 * allow-list names), connects to the very address it checked, follows redirects by hand
 * (each hop checked again), refuses 401/403 without following any sign-in URL, and stops
 * a body the moment it passes a bound.
 */
export function guardedFetch(options: GuardOptions): GuardedFetch {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
  };
  const responseLimit = options.responseByteLimit ?? RESPONSE_BYTE_LIMIT;
  const eventLimit = options.eventByteLimit ?? EVENT_BYTE_LIMIT;
  const privateHeaders = new Set([...(options.privateHeaders ?? []).map((h) => h.toLowerCase()), "authorization", "cookie"]);

  const stop = (error: GuardError): never => {
    options.onStop(error);
    throw error;
  };

  async function checkedAddress(url: URL): Promise<ResolvedAddress> {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      stop(new GuardError("address-refused", `${url.protocol} URLs are not fetched, only http and https`));
    }
    if (url.username !== "" || url.password !== "") {
      stop(new GuardError("address-refused", "its URL holds a user name or password, which are not sent"));
    }
    const host = bareHost(url);
    let addresses: ResolvedAddress[];
    const literal = literalAddress(host);
    if (literal !== null) {
      addresses = [literal];
    } else {
      try {
        addresses = await options.resolve(host);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return stop(new GuardError("connect-failed", `the name ${host} could not be found (DNS${code ? `: ${code}` : ""})`));
      }
      if (addresses.length === 0) stop(new GuardError("connect-failed", `the name ${host} has no address (DNS)`));
    }
    for (const { address } of addresses) {
      const refused = refusedClass(address, host, options.allow);
      if (refused !== null) {
        const named = address === host ? `${address} is ${refused}` : `${host} resolves to ${address}, ${refused}`;
        stop(new GuardError("address-refused", `${named}, which checks do not reach`));
      }
    }
    return addresses[0]!;
  }

  function send(url: URL, address: ResolvedAddress, method: string, headers: Headers, body: Buffer | undefined, signal: AbortSignal): Promise<http.IncomingMessage> {
    const lookup: LookupFunction = (_host, opts, callback) => {
      if (opts.all) callback(null, [{ address: address.address, family: address.family }]);
      else callback(null, address.address, address.family);
    };
    const secure = url.protocol === "https:";
    const outgoing: Record<string, string> = {};
    headers.forEach((value, key) => (outgoing[key] = value));
    if (!("accept-encoding" in outgoing)) outgoing["accept-encoding"] = "gzip, deflate, br";
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        {
          hostname: bareHost(url),
          port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method,
          headers: outgoing,
          agent: secure ? agents.https : agents.http,
          lookup,
          signal,
        },
        resolve,
      );
      request.on("error", (e) => reject(networkError(e, url, signal)));
      request.end(body);
    });
  }

  /** Decodes (gzip, deflate, br) and counts the body as it streams; past a bound it is destroyed. */
  function bodyOf(response: http.IncomingMessage, signal: AbortSignal): ReadableStream<Uint8Array> {
    const encoding = (response.headers["content-encoding"] ?? "identity").toLowerCase().trim();
    const decoder =
      encoding === "gzip" || encoding === "x-gzip"
        ? zlib.createGunzip()
        : encoding === "deflate"
          ? zlib.createInflate()
          : encoding === "br"
            ? zlib.createBrotliDecompress()
            : null;
    const isEventStream = (response.headers["content-type"] ?? "").toLowerCase().includes("text/event-stream");
    const counter = isEventStream ? eventCounter(eventLimit) : byteCounter(responseLimit);
    const stages: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = decoder === null ? [response, counter] : [response, decoder, counter];
    const onAbort = () => response.destroy(new GuardError("connect-failed", "reading was stopped"));
    signal.addEventListener("abort", onAbort, { once: true });
    pipeline(stages as [NodeJS.ReadableStream, NodeJS.WritableStream], (error) => {
      signal.removeEventListener("abort", onAbort);
      if (error instanceof GuardError && error.bound !== undefined) options.onStop(error);
    });
    return Readable.toWeb(counter) as ReadableStream<Uint8Array>;
  }

  async function guarded(input: string | URL, init?: RequestInit): Promise<Response> {
    let url = new URL(input);
    let method = (init?.method ?? "GET").toUpperCase();
    const headers = new Headers(init?.headers);
    let body = await bodyBytes(init?.body);
    const signal = init?.signal ? AbortSignal.any([options.signal, init.signal]) : options.signal;
    for (let hop = 0; ; hop++) {
      signal.throwIfAborted();
      const address = await checkedAddress(url);
      const response = await send(url, address, method, headers, body, signal).catch((e: unknown) => {
        if (e instanceof GuardError) options.onStop(e);
        throw e;
      });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location !== undefined) {
        response.destroy();
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
      if (status === 401 || status === 403) {
        response.destroy();
        stop(new GuardError("auth-required", `it asks to sign in (HTTP ${status}); give its credentials as headers to check it`));
      }
      return toResponse(response, signal);
    }
  }

  function toResponse(response: http.IncomingMessage, signal: AbortSignal): Response {
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 599) {
      response.destroy();
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
      response.resume();
      return new Response(null, { status, statusText: response.statusMessage, headers });
    }
    return new Response(bodyOf(response, signal), { status, statusText: response.statusMessage, headers });
  }

  return {
    fetch: guarded,
    destroy: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

async function bodyBytes(body: RequestInit["body"]): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  return Buffer.from(await new Response(body).arrayBuffer());
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

function networkError(e: Error, url: URL, signal: AbortSignal): Error {
  if (signal.aborted || e instanceof GuardError) return e;
  const code = (e as NodeJS.ErrnoException).code ?? "";
  const where = url.port === "" ? bareHost(url) : `${bareHost(url)}:${url.port}`;
  if (code === "ECONNREFUSED") return new GuardError("connect-failed", `nothing answers at ${where} (connection refused)`);
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

/** Counts every byte of a plain body. */
function byteCounter(limit: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > limit) done(tooLarge("response", limit));
      else done(null, chunk);
    },
  });
}

/** Counts the bytes of the lines of one event (up to the blank line that ends it). */
function eventCounter(limit: number): Transform {
  let eventBytes = 0;
  let lineBytes = 0;
  let afterCR = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === 10 && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = b === 13;
        if (b === 10 || b === 13) {
          if (lineBytes === 0) eventBytes = 0;
          lineBytes = 0;
        } else {
          lineBytes++;
          eventBytes++;
        }
      }
      if (eventBytes > limit) done(tooLarge("event", limit));
      else done(null, chunk);
    },
  });
}
