import "server-only";
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import { transaction } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import { rereadApp, type OrgContext } from "./apps";
import { recheckInterval } from "./limits";

/**
 * Scheduled re-checks (SPEC §11), the embedded default: every app is read again every
 * `THEOREM_RECHECK_MINUTES` (60; 0 turns it off; fractions allowed), spread over the interval,
 * one read per app at a time (each goes through the organisation's lock, as a leader's re-check
 * does). The next due time is stored, so a restart carries on where the last run left off.
 */

/** Places every app not yet on the schedule somewhere in the next interval, so that reads spread out. */
export async function placeNewApps(ctx: OrgContext, interval: number, now: number, random: () => number = Math.random): Promise<void> {
  await transaction(ctx.db, async (tx) => {
    const unplaced = await tx.select({ id: apps.id }).from(apps).where(isNull(apps.nextCheckAt));
    for (const { id } of unplaced) await tx.update(apps).set({ nextCheckAt: now + Math.floor(random() * interval) }).where(eq(apps.id, id));
  });
}

/**
 * Re-checks the apps due at `now`, one after another, and answers how many were read. Each is
 * given its next due time before any is read, so that a read that fails or takes long is not
 * started again by the next tick, nor by a run beside this one.
 */
export async function runDue(ctx: OrgContext, interval: number, now: number, max = 50): Promise<number> {
  if (interval <= 0) return 0;
  await placeNewApps(ctx, interval, now);
  // Claimed all at once, before any is read: a second run at the same moment (in this process or
  // another instance) finds none of them due, as each is claimed only while still due.
  const due = await transaction(ctx.db, async (tx) => {
    const found = await tx
      .select({ id: apps.id, org: apps.org, nextCheckAt: apps.nextCheckAt })
      .from(apps)
      .where(lte(apps.nextCheckAt, now))
      .orderBy(asc(apps.nextCheckAt))
      .limit(max);
    const claimed: typeof found = [];
    for (const app of found) {
      // Keep its place in the spread: the next read is one interval after the one that was due.
      const next = Math.max((app.nextCheckAt ?? now) + interval, now + 1);
      const won = await tx
        .update(apps)
        .set({ nextCheckAt: next })
        .where(and(eq(apps.id, app.id), lte(apps.nextCheckAt, now)))
        .returning({ id: apps.id });
      if (won.length > 0) claimed.push(app);
    }
    return claimed;
  });
  let read = 0;
  for (const app of due) {
    try {
      await rereadApp(ctx, app.org, app.id);
      read++;
    } catch (error) {
      // Removed meanwhile, or the read itself broke: the app is tried again next interval.
      console.error(`The scheduled re-check of app ${app.id} failed:`, error instanceof Error ? error.message : error);
    }
  }
  return read;
}

/** Starts the schedule in this process: a tick every `tickMs` runs what is due (never two ticks at once). Answers a stop. */
export function startSchedule(ctx: OrgContext, interval = recheckInterval(), tickMs = Math.min(30_000, Math.max(1000, Math.floor(interval / 20)))): () => void {
  if (interval <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void runDue(ctx, interval, Date.now())
      .catch((error: unknown) => console.error("Scheduled re-checks failed:", error instanceof Error ? error.message : error))
      .finally(() => (running = false));
  }, tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
