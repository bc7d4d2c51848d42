import "server-only";
import pLimit, { type LimitFunction } from "p-limit";
import type { AppListing } from "@/lib/engine/check";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import type { ReadOptions } from "@/lib/mcp/read-app";
import { readLiveApp } from "@/lib/mcp/read-app";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";

/** Live apps read at once by this process, whatever the number of requests (SPEC §10). */
export const LIVE_CONCURRENCY = 64;

const shared = globalThis as typeof globalThis & { __theoremLiveReads?: LimitFunction };
const liveReads = (shared.__theoremLiveReads ??= pLimit(LIVE_CONCURRENCY));

export interface RunOptions extends ReadOptions {
  /** Called as each app has been read (in the order reads end), before any name is given. */
  onRead?: (index: number, listing: AppListing) => void;
}

/**
 * Runs a check request: reads each app's listing (inline, or live over MCP, many at once)
 * and hands them all, in connection order, to the engine.
 */
export async function runCheck(request: CheckRequest, options: RunOptions = {}): Promise<CheckResult> {
  const listings = await Promise.all(
    request.apps.map(async (app, index): Promise<AppListing> => {
      const listing =
        app.tools !== undefined
          ? { name: app.name, entries: app.tools }
          : await liveReads(() => readLiveApp({ name: app.name, url: app.url ?? "", headers: app.headers }, options));
      options.onRead?.(index, listing);
      return listing;
    }),
  );
  return checkListings(listings, resolveTheorem(request.theorem));
}
