import "server-only";
import type { AppListing } from "@/lib/engine/check";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import type { ReadOptions } from "@/lib/mcp/read-app";
import { readLiveApp } from "@/lib/mcp/read-app";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";

/** Live apps read at once: a check of N apps takes about as long as its slowest. */
export const LIVE_CONCURRENCY = 64;

export interface RunOptions extends ReadOptions {
  concurrency?: number;
  /** Called as each app has been read (in the order reads end), before any name is given. */
  onRead?: (index: number, listing: AppListing) => void;
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of `items`. */
async function mapPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Runs a check request: reads each app's listing (inline, or live over MCP, many at once)
 * and hands them all, in connection order, to the engine.
 */
export async function runCheck(request: CheckRequest, options: RunOptions = {}): Promise<CheckResult> {
  const listings = await mapPool(request.apps, options.concurrency ?? LIVE_CONCURRENCY, async (app, index): Promise<AppListing> => {
    const listing =
      app.tools !== undefined ? { name: app.name, entries: app.tools } : await readLiveApp({ name: app.name, url: app.url ?? "", headers: app.headers }, options);
    options.onRead?.(index, listing);
    return listing;
  });
  return checkListings(listings, resolveTheorem(request.theorem));
}
