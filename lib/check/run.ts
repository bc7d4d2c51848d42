import "server-only";
import pLimit, { type LimitFunction } from "p-limit";
import type { AppListing } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import type { ReadOptions } from "@/lib/mcp/read-app";
import { readLiveApp } from "@/lib/mcp/read-app";
import { checkInPool } from "./engine-pool";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";

/** Live apps read at once by this process, whatever the number of requests (SPEC §10). */
export const LIVE_CONCURRENCY = 64;

const shared = globalThis as typeof globalThis & { __theoremLiveReads?: LimitFunction };
const liveReads = (shared.__theoremLiveReads ??= pLimit(LIVE_CONCURRENCY));

/** Reads one app by URL within the process's 64 reads at once. */
export function readLive(app: { name: string; url: string; headers?: Record<string, string> }, options: ReadOptions = {}): Promise<AppListing> {
  return liveReads(() => readLiveApp(app, options));
}

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
          : await readLive({ name: app.name, url: app.url ?? "", headers: app.headers }, options);
      options.onRead?.(index, listing);
      return listing;
    }),
  );
  return checkInPool(listings, resolveTheorem(request.theorem));
}
