import "server-only";
import { startOutboxSweep } from "@/lib/alerts/deliver";
import { closeDatabase, isPostgresUrl } from "@/lib/db/client";
import { errorField, logger } from "@/lib/log";
import { orgContext } from "@/lib/orgs/context";
import { startRecheckJobs, startWebhookRetryJobs } from "@/lib/schedule/jobs";
import { recheckInterval, recheckReadsAtOnce } from "@/lib/orgs/limits";
import { startSchedule } from "@/lib/schedule/schedule";
import { requestsDone, requestsUnderWay, startDraining } from "./drain";

/**
 * The server process's background work and its end (SPEC §16). Scheduled re-checks run as jobs
 * on PostgreSQL, or in this process on SQLite; so do webhook retries (SPEC §28), beside the sweep
 * that delivers what is due on either. On SIGTERM or SIGINT the process drains: health
 * answers 503 so a proxy stops sending it requests, no job or scheduled read is taken any more,
 * the requests and jobs under way finish (up to THEOREM_SHUTDOWN_SECONDS, 30), then it exits.
 * Next's own signal handling is turned off by `npm start` (NEXT_MANUAL_SIG_HANDLE), so that it
 * does not exit first.
 */

let stopBackground: (() => Promise<void>) | null = null;

const graceMs = (env = process.env) => {
  const seconds = Number(env.THEOREM_SHUTDOWN_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 30_000;
};

/** Starts the scheduled re-checks of this process, and the drain on SIGTERM and SIGINT. */
export async function startBackground(env = process.env): Promise<void> {
  const ctx = orgContext();
  const interval = recheckInterval();
  const url = env.DATABASE_URL ?? "";
  if (interval > 0 && isPostgresUrl(url)) {
    const jobs = await startRecheckJobs(ctx, { connectionString: url, interval, readsAtOnce: recheckReadsAtOnce() });
    stopBackground = () => jobs.stop(graceMs(env));
  } else {
    stopBackground = startSchedule(ctx, interval);
  }
  // SPEC §28: webhook retries are jobs on PostgreSQL; the sweep delivers what is due on either
  // dialect (on SQLite, every retry; mail left in the outbox by an instance stopped mid-delivery, or refused by SMTP).
  if (isPostgresUrl(url)) {
    const retries = await startWebhookRetryJobs(ctx.db, { connectionString: url });
    const before = stopBackground;
    stopBackground = async () => {
      await Promise.all([before(), retries.stop(graceMs(env))]);
    };
  }
  startOutboxSweep(ctx.db);
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutdown(signal));
}

/** Drains the process (see above), then exits. */
async function shutdown(signal: string): Promise<void> {
  if (!startDraining()) return;
  const grace = graceMs();
  // Whatever happens below (a log that cannot be written, a close that never answers), the process ends.
  setTimeout(() => process.exit(0), grace + 5_000).unref();
  logger.info({ signal, requests: requestsUnderWay(), graceMs: grace }, "Shutting down: no new jobs; finishing the requests and jobs under way");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), grace)));
  const drained = Promise.all([stopBackground?.(), requestsDone()]).then(() => "drained" as const);
  try {
    const how = await Promise.race([drained, late]);
    if (how === "late") logger.warn({ requests: requestsUnderWay() }, "Shutting down past the grace period: what is still running is cut short");
    await closeDatabase();
  } catch (error) {
    logger.error({ err: errorField(error) }, "Shutting down failed part-way");
  } finally {
    clearTimeout(timer);
    logger.info("Stopped");
    logger.flush();
    process.exit(0);
  }
}
