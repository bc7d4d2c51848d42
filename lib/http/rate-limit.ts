import "server-only";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getDb, type Db } from "@/lib/db/client";
import { rateLimiter } from "@/lib/db/dialect";
import { LimitError } from "@/lib/errors";

/**
 * SPEC §10's check budget: per account `THEOREM_CHECKS_PER_MINUTE` (120), per client address
 * for requests without an account `THEOREM_ANON_CHECKS_PER_MINUTE` (60). A request spends one,
 * plus one per app it reads by URL. Counted in the database (rate-limiter-flexible), so that
 * the budget holds across instances.
 */

interface CheckBudget {
  perAccount: number;
  perAddress: number;
}

function perMinute(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value.trim() === "" ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

function checkBudgetFromEnv(env = process.env): CheckBudget {
  return { perAccount: perMinute(env.THEOREM_CHECKS_PER_MINUTE, 120), perAddress: perMinute(env.THEOREM_ANON_CHECKS_PER_MINUTE, 60) };
}

/** What one request costs. */
export const checkCost = (urlApps: number) => 1 + urlApps;

const MIB = 1024 * 1024;
/**
 * What a request without an account pays for its body (SPEC §21): one check per started MiB, so
 * a stranger's 12 MiB inline check costs 12 of the address's budget, not one.
 */
export const bodyCost = (bytes: number) => Math.max(1, Math.ceil(bytes / MIB));

type Limiters = { db: Db; budget: CheckBudget; account: RateLimiterAbstract; address: RateLimiterAbstract };
const cache = globalThis as typeof globalThis & { __theoremCheckLimiters?: Limiters; __theoremRecheckAllLimiter?: { db: Db; perMinute: number; limiter: RateLimiterAbstract } };

function limiters(db: Db, budget: CheckBudget): Limiters {
  const current = cache.__theoremCheckLimiters;
  if (current !== undefined && current.db === db && current.budget.perAccount === budget.perAccount && current.budget.perAddress === budget.perAddress) return current;
  const made = {
    db,
    budget,
    account: rateLimiter(db, { keyPrefix: "account", points: budget.perAccount, duration: 60 }),
    address: rateLimiter(db, { keyPrefix: "address", points: budget.perAddress, duration: 60 }),
  };
  cache.__theoremCheckLimiters = made;
  return made;
}

/** The organisations' budget of reads by "re-check all", `perMinute` each. */
function recheckAllLimiter(db: Db, perMinute: number): RateLimiterAbstract {
  const current = cache.__theoremRecheckAllLimiter;
  if (current !== undefined && current.db === db && current.perMinute === perMinute) return current.limiter;
  const limiter = rateLimiter(db, { keyPrefix: "recheck-all", points: perMinute, duration: 60 });
  cache.__theoremRecheckAllLimiter = { db, perMinute, limiter };
  return limiter;
}

/** Spends `cost` of the caller's budget, or throws the `LimitError` (lib/api/errors.ts answers it 429 with `Retry-After`). */
export async function spendChecks(db: Db, who: { account: string } | { address: string }, cost: number, budget = checkBudgetFromEnv()): Promise<void> {
  const set = limiters(db, budget);
  const [limiter, key, limit] = "account" in who ? [set.account, who.account, budget.perAccount] : [set.address, who.address, budget.perAddress];
  try {
    await limiter.consume(key, cost);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    const [whose, counts] =
      "account" in who
        ? ["this account", "a request counts one, plus one per app read by URL"]
        : ["this address (sign in for more)", "a request without an account counts one per started MiB of its body, plus one per app read by URL"];
    throw new LimitError(`Too many checks: ${whose} may read ${limit} a minute (${counts}). Try again in ${seconds} s.`, seconds);
  }
}

/**
 * What an organisation route that reads apps spends from the actor's budget, declared on its
 * wrapper (`withOrg(action, handler, { reads })`, lib/auth/workspace.ts): one, plus one per app
 * it reads (connect, edit, re-check one app, start its sign-in, try a tool read one). The names
 * of the other apps come from what is stored, so their number costs nothing.
 */
export async function spendOrgChecks(account: string, apps: number): Promise<void> {
  await spendChecks(getDb(), { account }, checkCost(apps));
}

/**
 * "Re-check all" spends one of the account's budget, whatever the number of apps (so that any
 * organisation the product allows can re-check all with the default budget), and its `apps`
 * reads from the organisation's own budget of `readsPerMinute` (lib/orgs/limits.ts
 * `RECHECK_ALL_READS_PER_MINUTE`): what bounds the reads it makes is the organisation, not the account.
 */
export async function spendRecheckAll(who: { account: string; org: string }, apps: number, readsPerMinute: number): Promise<void> {
  const db = getDb();
  await spendChecks(db, { account: who.account }, checkCost(0));
  try {
    await recheckAllLimiter(db, readsPerMinute).consume(who.org, Math.max(1, apps));
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new LimitError(`This organisation's apps were re-checked all together too often: at most ${readsPerMinute} reads a minute. Try again in ${seconds} s.`, seconds);
  }
}
