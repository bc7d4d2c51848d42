import "server-only";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/client";
import { LISTING_CHAR_LIMIT } from "@/lib/engine/limits";
import { entryChars, formatCount, largestNamed, largestTools } from "@/lib/engine/listing-size";
import { isObject } from "@/lib/json-text";
import type { Unavailable } from "@/lib/schemas/check";
import type { TryRefusalCode } from "@/lib/schemas/try";
import { CutShortError, NotJsonError } from "./answer-reducer";
import { GuardError } from "./guarded-fetch";
import { clip, count, seconds } from "./sentences";
import { plural, pluralWord } from "@/lib/plural";

// Why a live app could not be read (SPEC §7), or why a call of one of its tools failed (SPEC
// §14), in the one sentence shown: one classifier of what was thrown, for reads and calls alike.
// Pure: the reader or caller hands over what was thrown and what it knew; nothing here does I/O.

export type ReadPhase = "connect" | "list";

/** The deadlines and the page cap a read runs under. */
export interface ReadBounds {
  connectTimeoutMs: number;
  listTimeoutMs: number;
  maxPages: number;
}

/** What the reader knew when it stopped. */
export interface ReadKnown {
  app: string;
  bounds: ReadBounds;
  /** Every entry read so far, as received. */
  entries: readonly unknown[];
  /** Their characters as SPEC §7 counts them. */
  chars: number;
  /** Pages of tools/list answered. */
  pages: number;
  /** The guarded fetch's first stop: the SDK may swallow it and throw something else. */
  guardStop: GuardError | null;
}

/** The deadline of the phase passed. */
export class Deadline extends Error {}

type ListingFault = { kind: "too-many-pages" } | { kind: "no-tools-array" } | { kind: "cursor-not-string" } | { kind: "cursor-repeated"; cursor: string };

/** A page of tools/list that leaves no usable listing (the last page read is `ReadKnown.pages`). */
export class BadListing extends Error {
  constructor(readonly fault: ListingFault) {
    super(fault.kind);
  }
}

/** What an app answered to `server/discover` or `initialize`: its status, type and first bytes. */
export interface EraAnswer {
  method: "server/discover" | "initialize";
  status: number;
  contentType: string;
  head: string;
}

/**
 * Streamable HTTP's `initialize` POST got the 4xx `status` (after `server/discover` gave no modern
 * answer), and the older event stream (GET) then failed with `second`; `answers` are what the
 * app answered on the way.
 */
export class NoTransport extends Error {
  constructor(
    readonly status: number,
    readonly second: unknown,
    readonly answers: readonly EraAnswer[] = [],
  ) {
    super(`HTTP ${status}, then the event stream failed`);
  }
}

/** The SDK's error for a JSON-RPC error answer (v2 `ProtocolError`, the v1 `McpError` renamed). */
const isRpcError = (e: unknown): e is ProtocolError => e instanceof ProtocolError;
/** The transport's error for an HTTP status it does not take (v2 `SdkHttpError`). */
const httpStatus = (e: unknown): number | null => (e instanceof SdkHttpError && typeof e.status === "number" ? e.status : null);
/** The transport's error for an answer neither JSON nor an event stream: its content type. */
function unexpectedType(e: unknown): string | null {
  if (!(e instanceof SdkError) || e.code !== SdkErrorCode.ClientHttpUnexpectedContent) return null;
  const type = isObject(e.data) ? e.data["contentType"] : undefined;
  return typeof type === "string" ? type : (/Unexpected content type: (.*)$/.exec(e.message)?.[1] ?? "");
}
/** The connection closed before the answer came. */
const closedEarly = (e: unknown) => (e instanceof SdkError && e.code === SdkErrorCode.ConnectionClosed) || (isRpcError(e) && e.code === -32000 && /Connection closed/i.test(e.message));
/** The socket went away mid-answer (fetch's `terminated`, a reset, a broken pipe), as its code or, failing one, its message says. */
function lostMidway(e: unknown): boolean {
  const cause = e instanceof Error && isObject(e.cause) ? e.cause["code"] : undefined;
  if (typeof cause === "string" && /^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/.test(cause)) return true;
  return /terminated|aborted|socket|ECONNRESET|EPIPE|other side closed/i.test(messageOf(e));
}

/** The transport's event stream broke mid-answer: the SDK says so only in a plain Error's message, with no code or data to read. */
export const streamDisconnected = (e: Error) => /^SSE stream disconnected/.test(e.message);

/** An answer that is not a JSON-RPC message the client can route. */
export function isGarbled(e: unknown): boolean {
  if (e instanceof SyntaxError) return true;
  if (e instanceof Error && e.name === "ZodError") return true;
  return e instanceof Error && /^(Received a response for an unknown message ID|Unknown message type)/.test(e.message);
}

/**
 * The reason a read stopped, worded for the leader: what was thrown, in which phase, with what
 * was known. A deadline names the one in force; a bound passed while listing, the tools read.
 */
export function describeReadError(error: unknown, phase: ReadPhase, known: ReadKnown): Unavailable {
  const name = known.app;
  if (error instanceof BadListing) return { code: "invalid-listing", message: `${name} is unavailable: ${faultText(error.fault, known)}.` };
  if (error instanceof Deadline) return timedOut(phase, known);
  const guardStop = known.guardStop ?? (error instanceof GuardError ? error : null);
  if (guardStop !== null) return stoppedByGuard(guardStop, phase, known);
  if (error instanceof NoTransport) {
    // A garbled answer or an MCP error from the event stream says more than "not an MCP server".
    if (isGarbled(error.second) || isRpcError(error.second)) return answerFailed(error.second, phase, name);
    return { code: "connect-failed", message: noTransportText(name, error) };
  }
  const offered = offeredRevisions(error);
  if (offered !== null) return { code: "connect-failed", message: revisionsText(name, offered) };
  return answerFailed(error, phase, name);
}

/** The modern revision the client negotiates through `server/discover` (the SDK exports only its 2025 list). */
const MODERN_REVISION = "2026-07-28";
/** The revisions this dashboard speaks, newest first. */
export const SPOKEN_REVISIONS: readonly string[] = [...new Set([MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS])].sort().reverse();

/** The revisions an answer offers (a discover result's `supportedVersions`, a -32022 error's `supported`), when it names any. */
function revisionsIn(value: unknown): string[] | null {
  if (!isObject(value)) return null;
  const list = value["supportedVersions"] ?? value["supported"];
  return Array.isArray(list) && list.length > 0 && list.every((v) => typeof v === "string") ? (list) : null;
}

/** What an app offered when every revision it named is one this dashboard does not speak; null otherwise. */
function offeredRevisions(error: unknown): string[] | null {
  const found: string[] = [];
  if (isRpcError(error) && error.code === -32022) found.push(...(revisionsIn(error.data) ?? []));
  if (error instanceof NoTransport) {
    for (const answer of error.answers) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.head);
      } catch {
        continue;
      }
      if (!isObject(parsed)) continue;
      found.push(...(revisionsIn(parsed["result"]) ?? []), ...(isObject(parsed["error"]) ? (revisionsIn(parsed["error"]["data"]) ?? []) : []));
    }
  }
  const offered = [...new Set(found)];
  return offered.length > 0 && offered.every((v) => !SPOKEN_REVISIONS.includes(v)) ? offered : null;
}

/** An app that speaks only revisions this dashboard does not: the sentence naming them. */
function revisionsText(name: string, offered: readonly string[]): string {
  const list = offered.slice(0, 5).map((v) => JSON.stringify(clip(v, 40)));
  const them = `${list.join(", ")}${offered.length > 5 ? ` and ${formatCount(offered.length - 5)} more` : ""}`;
  return `${name} is unavailable: it offers only the MCP ${pluralWord(offered.length, "revision")} ${them}, which this dashboard does not speak (it speaks ${SPOKEN_REVISIONS.join(", ")}).`;
}

/** One answer as a sentence names it: `HTTP 400`, `HTTP 200 (text/html)`, `HTTP 400 (the error "…", code -32600)`. */
function answerText(answer: { status: number; contentType: string; head: string }): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.head);
  } catch {
    parsed = undefined;
  }
  const error = isObject(parsed) && isObject(parsed["error"]) ? parsed["error"] : null;
  if (error !== null && typeof error["message"] === "string") return `HTTP ${answer.status} (the error ${JSON.stringify(clip(error["message"], 80))}, code ${String(error["code"])})`;
  const type = answer.contentType.split(";")[0]?.trim() ?? "";
  return type === "" || /json|event-stream/i.test(type) ? `HTTP ${answer.status}` : `HTTP ${answer.status} (${clip(type, 60)})`;
}

/** Neither era nor transport would talk: the sentence for the app `name`, with what it answered each way. */
function noTransportText(name: string, error: NoTransport): string {
  const offered = offeredRevisions(error);
  if (offered !== null) return revisionsText(name, offered);
  const second = error.second instanceof SseError && error.second.code !== undefined ? `HTTP ${error.second.code}` : clip(messageOf(error.second).replace(/^SSE error: /, ""), 120);
  const discover = error.answers.find((a) => a.method === "server/discover");
  const initialize = error.answers.find((a) => a.method === "initialize");
  const modern = discover === undefined ? "" : ` server/discover (2026-07-28) with ${answerText(discover)},`;
  const legacy = initialize === undefined ? `HTTP ${error.status}` : answerText(initialize);
  return `${name} is unavailable: it is not an MCP server at this URL: it answered neither MCP way:${modern} initialize (2025) with ${legacy}, and the older event stream (GET) failed too (${second}).`;
}

function faultText(fault: ListingFault, known: ReadKnown): string {
  const page = `page ${known.pages} of its tools/list`;
  switch (fault.kind) {
    case "too-many-pages":
      return `its tools/list went on past ${formatCount(known.bounds.maxPages)} pages (${count(known.entries.length, "tool", "tools")} so far), so reading stopped`;
    case "no-tools-array":
      return `${page} has no \`tools\` array`;
    case "cursor-not-string":
      return `${page} gives a \`nextCursor\` that is not a string`;
    case "cursor-repeated":
      return `${page} gives the cursor ${JSON.stringify(clip(fault.cursor, 60))} again, so the listing would never end`;
    default: {
      const never: never = fault;
      return never;
    }
  }
}

function timedOut(phase: ReadPhase, known: ReadKnown): Unavailable {
  const name = known.app;
  if (phase === "connect") {
    return { code: "connect-timeout", message: `${name} is unavailable: it did not finish connecting (MCP initialize) within ${seconds(known.bounds.connectTimeoutMs)}.` };
  }
  const read = `${count(known.entries.length, "tool", "tools")} in ${count(known.pages, "page", "pages")}`;
  return { code: "list-timeout", message: `${name} is unavailable: it did not list all its tools within ${seconds(known.bounds.listTimeoutMs)} (${read} before the deadline).` };
}

function stoppedByGuard(stop: GuardError, phase: ReadPhase, known: ReadKnown): Unavailable {
  const name = known.app;
  if (stop.bound === undefined) return { code: stop.code, message: `${name} is unavailable: ${stop.reason}.` };
  if (phase === "connect") return { code: "connect-failed", message: `${name} is unavailable: while connecting, ${stop.reason}.` };
  const { entries } = known;
  const named = largestNamed(largestTools(entries.map((entry, index) => ({ index, name: isObject(entry) && typeof entry["name"] === "string" ? entry["name"] : null, chars: entryChars(entry) }))));
  const before =
    entries.length === 0
      ? "before any tool was read"
      : `the ${count(entries.length, "tool", "tools")} read before it ${pluralWord(entries.length, "comes", "come")} to ${formatCount(known.chars)} characters (the limit is ${formatCount(LISTING_CHAR_LIMIT)})${named === "" ? "" : `; the largest are ${named}`}`;
  return { code: "listing-too-large", message: `${name} is unavailable: one answer to its tools/list was too large: ${stop.reason}, ${before}.` };
}

/** What the app answered instead of initialize or tools/list, or how reading it failed. */
function answerFailed(e: unknown, phase: ReadPhase, name: string): Unavailable {
  const what = phase === "connect" ? "initialize" : "tools/list";
  const code = phase === "connect" ? "connect-failed" : "invalid-listing";
  if (isGarbled(e)) {
    const why = e instanceof SyntaxError ? "is not valid JSON" : "is not a JSON-RPC response";
    return { code, message: `${name} is unavailable: ${phase === "connect" ? "it is not an MCP server: " : ""}its answer to ${what} ${why}.` };
  }
  const type = unexpectedType(e);
  if (type !== null) {
    return { code: "connect-failed", message: `${name} is unavailable: it is not an MCP server: it answered ${what} with ${clip(type, 80)}, not JSON or an event stream.` };
  }
  const status = httpStatus(e);
  if (status !== null) {
    const probe = e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed;
    return { code: "connect-failed", message: `${name} is unavailable: it answered ${probe ? "server/discover" : what} with HTTP ${status}.` };
  }
  if (closedEarly(e)) return { code: "connect-failed", message: `${name} is unavailable: the connection closed before it answered ${what}.` };
  if (isRpcError(e)) return { code, message: `${name} is unavailable: it answered ${what} with an error: ${clip(e.message, 160)} (code ${e.code}).` };
  const text = messageOf(e);
  if (/protocol version is not supported/.test(text)) return { code: "connect-failed", message: `${name} is unavailable: ${clip(text, 160)}.` };
  return { code, message: `${name} is unavailable: reading its ${what} failed (${clip(text, 160)}).` };
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What a tool call knew when it failed (lib/mcp/call-tool.ts). */
interface CallKnown {
  app: string;
  tool: string;
  /** The call's own deadline passed (and nothing else had stopped the session first). */
  timedOut: boolean;
  callTimeoutMs: number;
  /** The answer's bytes and events read so far. */
  bytes: number;
  events: number;
  /** How the session itself saw the answer end, when it did: its event stream ended, or its connection dropped. */
  ended: "stream-ended" | "dropped" | null;
}

const MiB = 1024 * 1024;
const mib = (limit: number) => `${formatCount(limit / MiB)} MiB (${limit.toLocaleString("en-US")} bytes)`;

/** Why a call of a tool failed, worded for the one trying it (SPEC §14): `failure` is the session's first stop, else what the call threw. */
export function describeCallError(failure: unknown, known: CallKnown): { code: TryRefusalCode; message: string } {
  const { app: name, tool } = known;
  const read = plural(known.bytes, "byte");
  if (known.timedOut) return { code: "call-timeout", message: `${name} did not answer the call of ${tool} within ${seconds(known.callTimeoutMs)}, so it was stopped (${read} read).` };
  if (failure instanceof GuardError) {
    if (failure.bound?.kind === "event") return { code: "event-too-large", message: `One streamed event of ${name}'s answer passed ${mib(failure.bound.limit)}, so reading stopped.` };
    if (failure.bound !== undefined) return { code: "answer-too-large", message: `${name}'s answer passed ${mib(failure.bound.limit)}, so reading stopped.` };
    return { code: failure.code, message: `${name} is unavailable: ${failure.reason}.` };
  }
  if (failure instanceof NotJsonError) return { code: "invalid-answer", message: `${name}'s answer to the call is not JSON: ${failure.message}.` };
  if (failure instanceof CutShortError || known.ended === "dropped") return { code: "connection-dropped", message: `${name} closed the connection before its answer was complete (${read} read).` };
  if (known.ended === "stream-ended") return { code: "connection-dropped", message: `${name} ended its event stream without answering the call (${plural(known.events, "event")}, ${read}).` };
  if (isGarbled(failure)) return { code: "invalid-answer", message: `${name}'s answer to the call ${failure instanceof SyntaxError ? "is not valid JSON" : "is not a JSON-RPC response"}.` };
  const type = unexpectedType(failure);
  if (type !== null) return { code: "invalid-answer", message: `${name} answered the call with ${clip(type, 80)}, not JSON or an event stream.` };
  const status = httpStatus(failure);
  if (status !== null) return { code: "call-failed", message: `${name} answered the call with HTTP ${status}.` };
  if (closedEarly(failure)) return { code: "connection-dropped", message: `${name} closed the connection before it answered the call (${read} read).` };
  if (isRpcError(failure)) {
    return { code: "call-failed", message: `${name} answered the call with an error, not a result: ${clip(failure.message.replace(/^MCP error -?\d+: /, ""), 300)} (code ${failure.code}).` };
  }
  if (lostMidway(failure)) return { code: "connection-dropped", message: `${name} closed the connection before its answer was complete (${read} read).` };
  return { code: "call-failed", message: `The call of ${tool} failed: ${clip(messageOf(failure), 200)}.` };
}
