import "server-only";
import { sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { NotFoundError } from "@/lib/errors";
import { deliverHooks, retryThrough } from "@/lib/alerts/webhooks";
import { oneAtATime, sqlExecutor, type Conn, type PostgresDb } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import { errorField, logger } from "@/lib/log";
import { recheckForSchedule } from "@/lib/orgs/rechecks";
import type { OrgContext } from "@/lib/orgs/context";
import { claimDue, every, planAfterRead, tickOf, type DueApp } from "./schedule";

/**
 * Scheduled re-checks on PostgreSQL (SPEC §16), whatever the number of instances: every instance
 * ticks, and a tick claims the apps due (lib/schedule/schedule.ts: a claim is a conditional update, so
 * an app due once is claimed by one instance once) and queues one job each on pg-boss. Any
 * instance's worker runs a job; a job that fails (the database, not the app: an app that cannot be
 * read is a read like any other) is retried with back-off; a job whose instance stopped mid-way
 * expires and is run again by another. An app has one job at most, queued or running: a claim
 * passes over an app whose job has not ended (`hasJob`), so a slow read is never doubled by the
 * next interval's; the queue's "stately" policy (one job per app in each state) backs that up.
 *
 * A claim and its job are one transaction: an instance killed between them leaves the app due.
 */

export const RECHECK_QUEUE = "theorem-recheck";
/** One job per app in each state (pg-boss's "stately"). */
const QUEUE_POLICY = "stately";

interface RecheckJob {
  org: string;
  app: string;
}

interface JobOptions {
  /** PostgreSQL's URL: pg-boss keeps its tables there, in the schema `pgboss`. */
  connectionString: string;
  /** Milliseconds between two reads of one app (THEOREM_RECHECK_MINUTES). */
  interval: number;
  tickMs?: number;
  /** How long a job may run before it counts as lost and is run again (seconds). */
  expireInSeconds?: number;
  /** The first retry's delay (seconds); each next one doubles, with jitter. */
  retryDelaySeconds?: number;
  retryLimit?: number;
  /** How often a worker asks for jobs, and how often expired jobs are looked for (seconds). */
  pollingIntervalSeconds?: number;
  maintenanceIntervalSeconds?: number;
  /** Reads a worker runs at once (THEOREM_RECHECK_READS_AT_ONCE, 5). */
  readsAtOnce?: number;
}

interface RecheckJobs {
  /** Claims what is due at `now` and queues it; answers the apps queued. */
  tick(now?: number): Promise<DueApp[]>;
  /**
   * Stops taking jobs and claiming apps; the jobs running finish first (up to `timeoutMs`, after
   * which they are left to expire and run elsewhere).
   */
  stop(timeoutMs?: number): Promise<void>;
}

/** Jobs a worker takes at once (its reads at once are `readsAtOnce`). */
const BATCH = 20;
/**
 * A tick claims apps in turns of `CLAIM` while apps are due and fewer than `BACKLOG` jobs wait in
 * the queue (every instance's): the workers, not the tick, set how fast due apps are read, and
 * what waits is never more than every worker takes in a few seconds (docs/capacity.md).
 */
const CLAIM = 50;
const BACKLOG = 400;

/** Runs `work` on every item, `atOnce` at a time. */
async function inTurns<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
}

/**
 * An app with a job queued, waiting to be retried, or running (pg-boss's states before
 * `completed`) is not claimed again until that job ends: an app has one job at most. A second
 * would do worse than read twice: pg-boss fetches a batch in one statement, and one job whose
 * app's other job is running breaks the queue's one-per-state rule ("stately"), so the whole
 * fetch comes back empty, every poll, until the running one ends. That is how a second instance
 * (or one stopped mid-read, whose jobs run until they expire) stopped the schedule.
 *
 * Asked in the words of pg-boss's own index of a stately queue's unfinished jobs (`job_i3`:
 * `state <= 'active' AND policy = 'stately'`, on name, state and singleton key), so that it reads
 * those few entries. As `state < 'completed'` it matched no index, and every claim read the
 * whole job table, finished jobs and all: 1.9 ms at 20,000 of them, against 0.13 ms.
 */
export const hasJob = sql`exists (select 1 from pgboss.job j where j.name = ${RECHECK_QUEUE} and j.state <= 'active' and j.policy = ${sql.raw(`'${QUEUE_POLICY}'`)} and coalesce(j.singleton_key, '') = ${apps.id})`;

/** A read's expiry: well past the 3 s + 8 s a read may take, and a sign-in's renewal. */
const EXPIRE_SECONDS = 120;

export async function startRecheckJobs(ctx: OrgContext, options: JobOptions): Promise<RecheckJobs> {
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: "pgboss",
    application_name: "theorem-jobs",
    max: 4,
    // No cron schedules: the claim is the schedule.
    schedule: false,
    ...(options.maintenanceIntervalSeconds !== undefined ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds } : {}),
  });
  boss.on("error", (error: unknown) => logger.error({ err: errorField(error) }, "The job queue failed"));
  await boss.start();
  const queue: PgBoss.Queue = {
    name: RECHECK_QUEUE,
    policy: QUEUE_POLICY,
    retryLimit: options.retryLimit ?? 5,
    retryDelay: options.retryDelaySeconds ?? 10,
    retryBackoff: true,
    expireInSeconds: options.expireInSeconds ?? EXPIRE_SECONDS,
  };
  // Instances starting at once take turns (two creating the queue's tables at once deadlock).
  await oneAtATime(ctx.db as unknown as PostgresDb, "theorem:job-queue-setup", async () => {
    if ((await boss.getQueue(RECHECK_QUEUE)) === null) await boss.createQueue(RECHECK_QUEUE, queue);
    else await boss.updateQueue(RECHECK_QUEUE, queue);
  });

  // A worker waits its polling interval between fetches, even after a full one: it takes a batch
  // each time, read a few at once, and fails only the jobs that failed. Each job that ends well is
  // completed as it ends, not with its batch: an app's job still running keeps it from being claimed
  // (`hasJob`), so one slow read would otherwise hold back every app of its batch.
  const worker = await boss.work<RecheckJob>(RECHECK_QUEUE, { batchSize: Math.max(BATCH, 4 * (options.readsAtOnce ?? 5)), pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 }, async (jobs) => {
    await inTurns(jobs, options.readsAtOnce ?? 5, async (job) => {
      const { org, app } = job.data;
      try {
        await recheckForSchedule(ctx, org, app);
        await planAfterRead(ctx.db, app, options.interval, Date.now());
      } catch (error) {
        // An app removed since it was claimed has nothing to retry: its job completes.
        if (!(error instanceof NotFoundError)) {
          logger.warn({ org, app, job: job.id, err: errorField(error) }, "A scheduled re-check failed: it will be retried");
          await boss.fail(RECHECK_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) });
          return;
        }
      }
      await boss.complete(RECHECK_QUEUE, job.id);
    });
  });

  const tick = async (now = Date.now()): Promise<DueApp[]> => {
    const claimed: DueApp[] = [];
    for (;;) {
      const room = BACKLOG - ((await boss.getQueueSize(RECHECK_QUEUE)) ?? 0);
      const max = Math.min(CLAIM, room);
      if (max <= 0) break;
      const due = await claimDue(ctx, options.interval, now, {
        max,
        busy: hasJob,
        // One statement for every job.
        onClaimed: (tx, claimed) =>
          boss.insert(
            claimed.map((app) => ({ name: RECHECK_QUEUE, data: { org: app.org, app: app.id } satisfies RecheckJob, singletonKey: app.id })),
            { db: sqlExecutor(tx) },
          ),
      });
      claimed.push(...due);
      // This instance's worker fetches now rather than at its next poll.
      if (due.length > 0) boss.notifyWorker(worker);
      if (due.length < max) break;
    }
    return claimed;
  };
  const stopTicks = every(options.tickMs ?? tickOf(options.interval), tick, "Queuing scheduled re-checks failed");
  return {
    tick,
    async stop(timeoutMs = 30_000) {
      await stopTicks();
      // Graceful: no new job is fetched, and those running are waited for; past the timeout they
      // are failed, so that another instance retries them at once rather than after they expire.
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true, wait: true });
    },
  };
}

/** Webhook retries on PostgreSQL (SPEC §28 through §16's job queue): one job per retry, due when the message's next attempt is. */
export const WEBHOOK_RETRY_QUEUE = "theorem-webhook-retry";

interface WebhookRetryJob {
  message: string;
}

/**
 * Queues each webhook retry as a job on pg-boss, due at the time stored with the message
 * (lib/alerts/webhooks.ts `nextAttemptAt`), and runs those jobs: any instance's worker takes a
 * job when it is due and delivers its message, claimed as every delivery is (an instance whose
 * sweep took it first leaves the job nothing to do). The stored schedule stays the truth: a job
 * lost with its instance is taken by the 10 s sweep (lib/alerts/deliver.ts) once due.
 */
export async function startWebhookRetryJobs(db: Conn, options: { connectionString: string; pollingIntervalSeconds?: number; clock?: () => number }): Promise<{ stop(timeoutMs?: number): Promise<void> }> {
  const boss = new PgBoss({ connectionString: options.connectionString, schema: "pgboss", application_name: "theorem-webhooks", max: 2, schedule: false });
  boss.on("error", (error: unknown) => logger.error({ err: errorField(error) }, "The job queue failed"));
  await boss.start();
  await oneAtATime(db as unknown as PostgresDb, "theorem:job-queue-setup", async () => {
    if ((await boss.getQueue(WEBHOOK_RETRY_QUEUE)) === null) await boss.createQueue(WEBHOOK_RETRY_QUEUE, { name: WEBHOOK_RETRY_QUEUE, retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 120 });
  });
  await boss.work<WebhookRetryJob>(WEBHOOK_RETRY_QUEUE, { batchSize: 10, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async (jobs) => {
    await deliverHooks(
      db,
      jobs.map((job) => job.data.message),
      undefined,
      options.clock,
    );
  });
  const unset = retryThrough(async (message, at) => {
    // One job per message and attempt time: a message retried is queued once for each time.
    await boss.send(WEBHOOK_RETRY_QUEUE, { message } satisfies WebhookRetryJob, { startAfter: new Date(at), singletonKey: `${message}@${at}` });
  });
  return {
    async stop(timeoutMs = 30_000) {
      unset();
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true, wait: true });
    },
  };
}
