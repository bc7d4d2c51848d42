import "server-only";
import type { AppListing } from "@/lib/engine/check";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { ApiError } from "@/lib/api/errors";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";

/**
 * Runs a check request: reads each app's listing (inline, or live over MCP) and hands them
 * all, in connection order, to the engine.
 */
export async function runCheck(request: CheckRequest): Promise<CheckResult> {
  const listings = request.apps.map((app): AppListing => {
    if (app.tools === undefined) {
      throw new ApiError("invalid-request", `"${app.name}" is given by URL: live checks come next; give its listing as \`tools\` for now.`);
    }
    return { name: app.name, entries: app.tools };
  });
  return checkListings(listings, resolveTheorem(request.theorem));
}
