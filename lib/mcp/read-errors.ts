import "server-only";
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { LISTING_CHAR_LIMIT } from "@/lib/engine/limits";
import { entryChars, formatCount, largestNamed, largestTools } from "@/lib/engine/listing-size";
import { isObject } from "@/lib/json-text";
import type { Unavailable } from "@/lib/schemas/check";
import { GuardError } from "./guarded-fetch";
import { clip, count, seconds } from "./sentences";

// Why a live app could not be read, in the one sentence the leader is shown (SPEC §7).
// Pure: the reader hands over what was thrown and what it knew; nothing here does I/O.

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

export type ListingFault = { kind: "too-many-pages" } | { kind: "no-tools-array" } | { kind: "cursor-not-string" } | { kind: "cursor-repeated"; cursor: string };

/** A page of tools/list that leaves no usable listing (the last page read is `ReadKnown.pages`). */
export class BadListing extends Error {
  constructor(readonly fault: ListingFault) {
    super(fault.kind);
  }
}

/** Streamable HTTP's POST got the 4xx `status`, and the older event stream (GET) then failed with `second`. */
export class NoTransport extends Error {
  constructor(
    readonly status: number,
    readonly second: unknown,
  ) {
    super(`HTTP ${status}, then the event stream failed`);
  }
}

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
    if (isGarbled(error.second) || error.second instanceof McpError) return answerFailed(error.second, phase, name);
    return { code: "connect-failed", message: noTransportText(name, error) };
  }
  return answerFailed(error, phase, name);
}

/** Neither transport would talk: the sentence for the app `name`. */
export function noTransportText(name: string, error: NoTransport): string {
  const second = error.second instanceof SseError && error.second.code !== undefined ? `HTTP ${error.second.code}` : clip(messageOf(error.second), 120);
  return `${name} is unavailable: it is not an MCP server at this URL: it answered the MCP request with HTTP ${error.status}, and the older event stream (GET) failed too (${second}).`;
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
      : `the ${count(entries.length, "tool", "tools")} read before it come${entries.length === 1 ? "s" : ""} to ${formatCount(known.chars)} characters (the limit is ${formatCount(LISTING_CHAR_LIMIT)})${named === "" ? "" : `; the largest are ${named}`}`;
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
  const text = messageOf(e);
  if (/protocol version is not supported/.test(text)) return { code: "connect-failed", message: `${name} is unavailable: ${clip(text, 160)}.` };
  return { code, message: `${name} is unavailable: reading its ${what} failed (${clip(text, 160)}).` };
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
