import type { AppListing } from "@/lib/engine/check";
import { checkHosts, jsonBytes } from "@/lib/engine/hosts";
import { isObject } from "@/lib/json-text";
import type { CheckResult } from "@/lib/schemas/check";
import { profilesOf } from "@/lib/schemas/hosts";

/**
 * `result` with the answer of each host `ids` names (SPEC §22), as `POST /api/check` and
 * `theorem-check --host` give it; `result` as it is when none were asked for. The schemas are
 * measured from the listings the check was made of, and only for a host that bounds them.
 */
export function withHosts(result: CheckResult, listings: readonly Pick<AppListing, "entries">[], ids: readonly string[] | undefined): CheckResult {
  if (ids === undefined) return result;
  const schemaBytes = (app: number, tool: number) => {
    const entry = listings[app]?.entries[tool];
    return isObject(entry) ? jsonBytes(entry["inputSchema"]) : undefined;
  };
  return { ...result, hosts: checkHosts(result.apps, profilesOf(ids), { schemaBytes }) };
}
