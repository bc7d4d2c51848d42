import "server-only";
import { and, eq, isNull, lte, sql, type SQL } from "drizzle-orm";
import { transaction, type Conn } from "@/lib/db/client";
import { amongClaimed } from "@/lib/db/dialect";
import { apps, checkResults } from "@/lib/db/tables";
import { newestFirstIn } from "@/lib/db/dialect";
import { errorField, logger } from "@/lib/log";
import { recheckForSchedule } from "@/lib/orgs/rechecks";
import type { OrgContext } from "@/lib/orgs/context";
import { recheckInterval } from "@/lib/orgs/limits";

/**
 * Scheduled re-checks (SPEC §11), the embedded default: every app is read again every
 * `THEOREM_RECHECK_MINUTES` (60; 0 turns it off; fractions allowed), spread over the interval,
 * one read per app at a time (each goes through the organisation's lock, as a leader's re-check
 * does). The next due time is stored, so a restart carries on where the last run left off.
 */

/** The longest a read is put off, whatever the app asked or however often it failed (SPEC §18). */
export const MAX_WAIT_MS = 24 * 60 * 60 * 1000;
/** Every due time moves by up to this share either way, so that apps read together drift apart. */
export const JITTER = 0.1;
/**
 * The least share of an interval between the end of an app's read and its next due time. A read
 * that ended late (its job waited behind others on a busy machine) would otherwise find its next
 * place in the spread already past, or moments away, and be read again at once: two reads in a
 * second, where SPEC §11 says one an interval. A busy machine reads less, never more.
 */
export const REST = 0.5;

type DueWhy = "interval" | "app-asked" | "back-off";

interface NextDue {
  at: number;
  why: DueWhy;
  /** Scheduled reads failed in a row, this one counted. */
  failedReads: number;
}

/**
 * When an app is read next after a scheduled read at `now` (SPEC §18): after the interval; later,
 * when its listing said a `ttlMs` longer than the interval (at most a day); after 1, 2, 4…
 * intervals (at most a day) while its reads fail, counting this one. Each wait moves by ±10 %.
 * `random` is in [0, 1); `slot` is the next place in the spread the claim gave the app. At the
 * interval, the app keeps its place in the spread: the first of its places (`slot`, then one
 * interval after another), moved, that is at least `REST` of an interval after `now`.
 */
export function nextDue(read: { ok: boolean; ttlMs: number | null }, failedBefore: number, interval: number, now: number, random: () => number = Math.random, slot: number | null = null): NextDue {
  let wait: number;
  let why: DueWhy;
  let failedReads = 0;
  if (!read.ok) {
    failedReads = failedBefore + 1;
    wait = Math.min(interval * 2 ** Math.min(failedReads - 1, 30), MAX_WAIT_MS);
    why = "back-off";
  } else if (read.ttlMs !== null && read.ttlMs > interval) {
    wait = Math.min(read.ttlMs, MAX_WAIT_MS);
    why = "app-asked";
  } else {
    // Its own place in the spread (the slot the claim gave it), moved as any due time is; a place
    // that a late read has passed, or nearly, is skipped for the next.
    const shift = Math.round(interval * JITTER * (2 * random() - 1));
    const at = (slot ?? now + interval) + shift;
    const earliest = now + Math.round(interval * REST);
    const skipped = at >= earliest ? 0 : Math.ceil((earliest - at) / interval);
    return { at: at + skipped * interval, why: "interval", failedReads };
  }
  const jitter = 1 + JITTER * (2 * random() - 1);
  return { at: now + Math.round(wait * jitter), why, failedReads };
}

/**
 * After a scheduled read of `app`: its next due time from its newest read, as `nextDue` says.
 * Committed "deferred", as the read it follows (lib/db/client.ts `Durability`): a power cut that
 * loses it leaves the time its claim set, one interval on.
 */
export async function planAfterRead(db: Conn, app: string, interval: number, now: number, random: () => number = Math.random): Promise<NextDue | null> {
  return transaction(db, async (tx) => {
    const [row] = await tx.select({ failedReads: apps.failedReads, slot: apps.nextCheckAt }).from(apps).where(eq(apps.id, app)).limit(1);
    if (row === undefined) return null;
    const [read] = await tx
      .select({ unavailable: checkResults.unavailable, cacheTtlMs: checkResults.cacheTtlMs })
      .from(checkResults)
      .where(eq(checkResults.app, app))
      .orderBy(...newestFirstIn(tx))
      .limit(1);
    if (read === undefined) return null;
    const next = nextDue({ ok: read.unavailable === null, ttlMs: read.cacheTtlMs }, row.failedReads, interval, now, random, row.slot);
    await tx.update(apps).set({ nextCheckAt: next.at, nextCheckWhy: next.why, failedReads: next.failedReads }).where(eq(apps.id, app));
    return next;
  }, { durability: "deferred" });
}

/** Places every app not yet on the schedule somewhere in the next interval, so that reads spread out. */
export async function placeNewApps(ctx: OrgContext, interval: number, now: number, random: () => number = Math.random): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const unplaced = await tx.select({ id: apps.id }).from(apps).where(isNull(apps.nextCheckAt));
    for (const { id } of unplaced) await tx.update(apps).set({ nextCheckAt: now + Math.floor(random() * interval) }).where(eq(apps.id, id));
  });
}

/** An app claimed for a scheduled re-check. */
export interface DueApp {
  id: string;
  org: string;
}

interface ClaimOptions {
  /** The most apps claimed at once (50). */
  max?: number;
  /** Runs in the claim's transaction with every app claimed (none: not called). */
  onClaimed?: (tx: Conn, apps: DueApp[]) => Promise<void>;
  /** True of an app (`apps.id`) whose read is still queued or running: it stays due, unclaimed, until that read has ended. */
  busy?: SQL;
}

/**
 * Claims up to `max` apps due at `now` and gives each its next due time, all at once, before any
 * is read (`onClaimed` runs inside the claim's transaction, with every app claimed): a read that
 * fails or takes long is not started again by the next tick, and a claim beside this one (in
 * this process or another instance) finds none of them due.
 *
 * One statement: the apps due are chosen, moved to their next slot and answered together; apps
 * another instance's claim holds are skipped rather than waited for (lib/db/dialect.ts
 * `amongClaimed`): claimed one by one, two instances' claims waited for each other, and the
 * reads' re-planning waited for both.
 */
export async function claimDue(ctx: OrgContext, interval: number, now: number, options: ClaimOptions = {}): Promise<DueApp[]> {
  const { max = 50, onClaimed, busy } = options;
  if (interval <= 0) return [];
  await placeNewApps(ctx, interval, now);
  // Whole milliseconds, as due times are stored.
  const intervalMs = Math.max(1, Math.round(interval));
  return transaction(ctx.db, async (tx) => {
    const due = sql`select ${apps.id} from ${apps} where ${apps.nextCheckAt} <= ${now}${busy === undefined ? sql`` : sql` and not ${busy}`} order by ${apps.nextCheckAt} limit ${max}`;
    // Keep its place in the spread: the next read is the first of its slots after now, so an app
    // overdue by several intervals (the server was down) is read once, not once per slot.
    const claimed = await tx
      .update(apps)
      .set({ nextCheckAt: sql`${apps.nextCheckAt} + ((cast(${now} as bigint) - ${apps.nextCheckAt}) / cast(${intervalMs} as bigint) + 1) * cast(${intervalMs} as bigint)` })
      // Chosen once, before any is moved (lib/db/dialect.ts: more than `max` apps were once claimed, 75 of 50 in lib/schedule/jobs.test.ts).
      .where(and(amongClaimed(tx, apps.id, due), lte(apps.nextCheckAt, now)))
      .returning({ id: apps.id, org: apps.org });
    // In the same transaction: what the claim hands on (the jobs) is stored with it, or neither is.
    if (claimed.length > 0) await onClaimed?.(tx, claimed);
    return claimed;
  });
}

/** Re-checks the apps due at `now`, one after another, and answers how many were read (the embedded default). */
export async function runDue(ctx: OrgContext, interval: number, now: number, max = 50, random: () => number = Math.random): Promise<number> {
  let read = 0;
  for (const app of await claimDue(ctx, interval, now, { max })) {
    try {
      await recheckForSchedule(ctx, app.org, app.id);
      await planAfterRead(ctx.db, app.id, interval, now, random);
      read++;
    } catch (error) {
      // Removed meanwhile, or the read itself broke: the app is tried again next interval.
      logger.error({ org: app.org, app: app.id, err: errorField(error) }, "A scheduled re-check failed");
    }
  }
  return read;
}

/** How often a process looks for due apps: a twentieth of the interval, between 1 s and 30 s. */
export const tickOf = (interval: number) => Math.min(30_000, Math.max(1000, Math.floor(interval / 20)));

/** Runs `tick` every `tickMs`, never two at once; answers a stop that waits for the running one. */
export function every(tickMs: number, tick: () => Promise<unknown>, what: string): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running !== null) return;
    running = tick()
      .catch((error: unknown) => logger.error({ err: errorField(error) }, what))
      .finally(() => (running = null));
  }, tickMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** Starts the embedded schedule in this process: a tick every `tickMs` reads what is due. Answers a stop. */
export function startSchedule(ctx: OrgContext, interval = recheckInterval(), tickMs = tickOf(interval)): () => Promise<void> {
  if (interval <= 0) return async () => {};
  return every(tickMs, () => runDue(ctx, interval, Date.now()), "Scheduled re-checks failed");
}
