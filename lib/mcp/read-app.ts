import "server-only";
import type { AppListing } from "@/lib/engine/check";
import type { ListingCache } from "@/lib/schemas/check";
import { CONNECT_TIMEOUT_MS, LISTING_CHAR_LIMIT, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import { entryChars } from "@/lib/engine/listing-size";
import { isObject } from "@/lib/json-text";
import type { AllowList, Resolver } from "./address";
import { negotiatedRevision, type RawChannel } from "./connect";
import type { ReadBounds, ReadPhase } from "./read-errors";
import { BadListing, describeReadError } from "./read-errors";
import { McpSession, type LiveApp } from "./session";

export type { LiveApp } from "./session";

/** Pages of tools/list a read follows (SPEC §10): it bounds the requests an endless cursor gets, not the tools (a page may hold any number). */
const MAX_PAGES = 100;

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

/** The deadlines and page cap a read runs under: the options', else SPEC §7's. */
export function readBounds(options: ReadOptions): ReadBounds {
  return {
    connectTimeoutMs: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    listTimeoutMs: options.listTimeoutMs ?? LIST_TIMEOUT_MS,
    maxPages: options.maxPages ?? MAX_PAGES,
  };
}

/** The listing as read so far: every entry as received, each one's characters and their sum (SPEC §7), the pages answered. */
export interface Progress {
  entries: unknown[];
  sizes: number[];
  chars: number;
  pages: number;
  /** The first page's cache hint (2026-07-28 era), as it said it. */
  cache: ListingCache | null;
}

/** Nothing read yet. */
export const noProgress = (): Progress => ({ entries: [], sizes: [], chars: 0, pages: 0, cache: null });

/** A day: the longest a listing's `ttlMs` is taken at (SPEC §18). */
export const MAX_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The cache hint of a `tools/list` page (SEP-2549): `ttlMs` (a whole number of milliseconds, at
 * most a day; negative or missing: 0) and `cacheScope` (missing or unknown: private, the safe
 * reading). Null for a 2025 answer, which carries neither.
 */
export function cacheHintOf(result: Record<string, unknown>, modern: boolean): ListingCache | null {
  const ttl = result["ttlMs"];
  const scope = result["cacheScope"];
  if (!modern && ttl === undefined && scope === undefined) return null;
  const ttlMs = typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? Math.min(Math.floor(ttl), MAX_TTL_MS) : 0;
  return { ttlMs, scope: scope === "public" ? "public" : "private" };
}

/**
 * Reads pages of tools/list into `read`, ending at the page cap, a repeated cursor or a bad page
 * (`BadListing`), or once `enough` says so of the page's entries (Try: the tool is found). True
 * when it stopped past the size bound with pages to come.
 */
export async function listTools(channel: RawChannel, modern: boolean, read: Progress, bounds: Pick<ReadBounds, "maxPages">, enough?: (entries: readonly unknown[]) => boolean): Promise<boolean> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    if (read.pages === bounds.maxPages) throw new BadListing({ kind: "too-many-pages" });
    const result = await channel.request("tools/list", cursor === undefined ? {} : { cursor });
    read.pages++;
    const tools = isObject(result) ? result["tools"] : undefined;
    if (!Array.isArray(tools)) throw new BadListing({ kind: "no-tools-array" });
    if (read.pages === 1) read.cache = cacheHintOf(result as Record<string, unknown>, modern);
    for (const entry of tools) {
      const chars = entryChars(entry);
      read.entries.push(entry);
      read.sizes.push(chars);
      read.chars += chars;
    }
    const next = (result as Record<string, unknown>)["nextCursor"];
    if (next === undefined || next === null || enough?.(tools) === true) return false;
    if (read.chars > LISTING_CHAR_LIMIT) return true; // the engine says "more than"
    if (typeof next !== "string") throw new BadListing({ kind: "cursor-not-string" });
    if (seen.has(next)) throw new BadListing({ kind: "cursor-repeated", cursor: next });
    seen.add(next);
    cursor = next;
  }
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
  const bounds = readBounds(options);
  const read = noProgress();
  const session = new McpSession(app, { ...options, listingBudget: () => LISTING_CHAR_LIMIT - read.chars });
  const start = clock();
  let connected: { connectMs: number; listStart: number } | null = null;
  const revision = () => (connected === null ? null : negotiatedRevision(session.client));
  const timings = () => (connected === null ? null : { connectMs: connected.connectMs, listMs: clock() - connected.listStart });
  try {
    const client = await session.within(bounds.connectTimeoutMs, session.open(bounds.connectTimeoutMs));
    connected = { connectMs: clock() - start, listStart: clock() };
    const stopped = await session.within(bounds.listTimeoutMs, listTools(session.channel!, client.getProtocolEra() === "modern", read, bounds));
    return { name: app.name, entries: read.entries, entrySizes: read.sizes, unavailable: null, timings: timings(), stopped, charsRead: read.chars, protocol: negotiatedRevision(client), cache: read.cache };
  } catch (e) {
    const cut = session.guardStop?.scanned;
    if (cut !== undefined) {
      // Stopped inside a page at the first entry past the bound: the engine says "more than".
      return { name: app.name, entries: [...read.entries, ...cut.entries], unavailable: null, timings: timings(), stopped: true, charsRead: read.chars + cut.chars, protocol: revision(), cache: read.cache };
    }
    const phase: ReadPhase = connected === null ? "connect" : "list";
    const unavailable = describeReadError(e, phase, { app: app.name, bounds, ...read, guardStop: session.guardStop });
    const scope = session.guardStop?.insufficientScope;
    const challenge = session.guardStop?.challenge;
    return {
      name: app.name,
      entries: read.entries,
      entrySizes: read.sizes,
      unavailable,
      timings: timings(),
      charsRead: read.chars,
      protocol: revision(),
      cache: read.cache,
      ...(scope !== undefined ? { insufficientScope: scope } : {}),
      ...(challenge !== undefined ? { challenge } : {}),
    };
  } finally {
    await session.close();
  }
}
