import "server-only";
import type { AppListing } from "@/lib/engine/check";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";

/** What the engine is given for one run of the command line: the apps as read, and the request's own choices. */
export interface EngineInput {
  listings: AppListing[];
  theorem: CheckRequest["theorem"];
  riskyText: CheckRequest["riskyText"];
  hosts: CheckRequest["hosts"];
}

let loading: ReturnType<typeof load> | undefined;
const load = async () => {
  const [{ checkListings }, { resolveTheorem }, { withHosts }] = await Promise.all([import("@/lib/engine/check"), import("@/lib/engine/theorem"), import("@/lib/hosts-check")]);
  return { checkListings, resolveTheorem, withHosts };
};

/**
 * The engine, loaded once, when a check runs: its tokenizer's ranks and host profiles are most of
 * what the command line loads, and `--help` or bad usage never needs them.
 */
export const loadEngine = () => (loading ??= load());

/** The check of a run (SPEC §8, §22), as `POST /api/check` makes it. */
export async function runEngine({ listings, theorem, riskyText, hosts }: EngineInput): Promise<CheckResult> {
  const { checkListings, resolveTheorem, withHosts } = await loadEngine();
  return withHosts(checkListings(listings, resolveTheorem(theorem), riskyText === undefined ? {} : { riskyText }), listings, hosts);
}
