import "server-only";
import type { AppListing } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { checkInPool, readInPool } from "./engine-pool";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";

export interface RunOptions {
  /** Called as each app has been read (in the order reads end), before any name is given. */
  onRead?: (index: number, listing: AppListing) => void;
  /** Private addresses checks may reach, as `CHECK_ALLOW_HOSTS` names them (default: that variable). */
  allowHosts?: string;
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
          : await readInPool({ name: app.name, url: app.url ?? "", ...(app.headers ? { headers: app.headers } : {}) }, options.allowHosts);
      options.onRead?.(index, listing);
      return listing;
    }),
  );
  return checkInPool(listings, resolveTheorem(request.theorem));
}
