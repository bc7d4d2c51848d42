import "server-only";
import { createHash } from "node:crypto";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Db } from "@/lib/db/client";
import { rateLimiter } from "@/lib/db/dialect";
import { LimitError } from "@/lib/errors";

/**
 * Failed sign-ins, 10 a minute per client address and 10 a minute per account (by the address
 * signed into, whether or not it has an account). A sign-in that succeeds costs nothing, so
 * people sharing a machine (the demo's three accounts in turn) never wait. Counted in the
 * database, as the check budget is, so that the count holds across instances.
 */
const SIGN_IN_FAILURES_PER_MINUTE = 10;

type Limiters = { db: Db; address: RateLimiterAbstract; account: RateLimiterAbstract };
const cache = globalThis as typeof globalThis & { __theoremSignInLimiters?: Limiters };

function limiters(db: Db): Limiters {
  const current = cache.__theoremSignInLimiters;
  if (current?.db === db) return current;
  const make = (keyPrefix: string) => rateLimiter(db, { keyPrefix, points: SIGN_IN_FAILURES_PER_MINUTE, duration: 60 });
  const made = { db, address: make("sign-in-address"), account: make("sign-in-account") };
  cache.__theoremSignInLimiters = made;
  return made;
}

/** What one attempt holds until its answer is known. */
interface SignInAttempt {
  held: { limiter: RateLimiterAbstract; key: string }[];
}

/**
 * Holds one failure's place for an attempt from `address` at `email` before it is tried (so that
 * attempts sent at once are bounded too), or throws the 429 with `Retry-After` when either has
 * failed 10 times in the last minute.
 */
export async function startSignIn(db: Db, address: string, email: string): Promise<SignInAttempt> {
  const set = limiters(db);
  // The address signed into is kept as its hash: the limits table never holds who signs in.
  const account = createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex");
  const attempt: SignInAttempt = { held: [] };
  for (const [limiter, key] of [
    [set.address, address],
    [set.account, account],
  ] as const) {
    try {
      await limiter.consume(key, 1);
      attempt.held.push({ limiter, key });
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      // The refused attempt itself is no failure: what the other limiter holds for it is given back.
      await endSignIn(attempt, true);
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new LimitError(`Too many failed sign-ins: wait a minute and try again (in ${seconds} s).`, seconds);
    }
  }
  return attempt;
}

/** Settles an attempt: a success gives its places back; a failure keeps them for the minute. */
export async function endSignIn(attempt: SignInAttempt, succeeded: boolean): Promise<void> {
  if (!succeeded) return;
  for (const { limiter, key } of attempt.held) await limiter.reward(key, 1);
  attempt.held = [];
}
