import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, gte, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { recordAudit } from "@/lib/audit/audit-log";
import { orgTransaction, transaction, type Conn } from "@/lib/db/client";
import { dashboardOrigins } from "@/lib/auth/origins";
import { alertOutbox, alertWebhookAttempts, alertWebhookMessages, alertWebhooks, member, organization, user } from "@/lib/db/tables";
import { CONNECT_TIMEOUT_MS } from "@/lib/engine/limits";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { errorField, logger } from "@/lib/log";
import { allowListFromEnv, neverReadable, systemResolver, type Resolver } from "@/lib/mcp/address";
import { guardedFetch } from "@/lib/mcp/guarded-fetch";
import { alertEvent, WEBHOOK_OFF, type AlertEvent, type WebhookAttempt, type WebhookCreate, type WebhookUpdate, type WebhookView } from "@/lib/schemas/alerts";
import { shownUrl, querySecrets } from "@/lib/redact";
import { decryptSecret, encryptSecret, isEncrypted } from "@/lib/secrets";
import { CLAIM_STALE_MS } from "./claims";

/**
 * The organisation's alert webhooks (SPEC §28): Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, signed by the `standardwebhooks` library) posted
 * through §10's guarded fetch. Each event writes one message per hook in its own transaction
 * (none lost when an instance stops); each attempt is logged (`{at, status, ms}`, never the secret).
 */

const eventsOf = (text: string): AlertEvent[] => {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.flatMap((v) => (alertEvent.safeParse(v).success ? [v as AlertEvent] : [])) : [];
};

/** A hook's address as stored: encrypted when a query parameter is a secret (SPEC §10), else as given. */
const storedUrl = (url: string) => (querySecrets(url).length > 0 ? encryptSecret(url) : url);
const plainUrl = (stored: string) => (isEncrypted(stored) ? decryptSecret(stored) : stored);

const viewOf = (row: typeof alertWebhooks.$inferSelect): WebhookView => ({
  id: row.id,
  url: shownUrl(plainUrl(row.url)),
  events: eventsOf(row.events),
  createdAt: new Date(row.createdAt).toISOString(),
  on: row.offAt === null,
  off: row.offAt === null ? null : { at: new Date(row.offAt).toISOString(), reason: row.offReason ?? "Switched off." },
});

/** The hooks of the organisation, oldest first: never their secrets. */
export async function webhooksOf(db: Conn, org: string): Promise<WebhookView[]> {
  const rows = await db.select().from(alertWebhooks).where(eq(alertWebhooks.org, org)).orderBy(alertWebhooks.createdAt);
  return rows.map(viewOf);
}

/**
 * Makes a hook (leaders): a refused address is refused (422 with §10's reason, on `url`); answers
 * its signing secret (`whsec_` + base64) this once, stored encrypted; audited with the change.
 */
export async function createWebhook(db: Conn, org: string, input: WebhookCreate, actor: { id: string; email: string }, resolve: Resolver = systemResolver): Promise<WebhookView & { secret: string }> {
  const reason = await neverReadable(input.url, resolve, allowListFromEnv());
  if (reason !== null) {
    const message = `This webhook could never be delivered: ${reason}.`;
    throw new InvalidError(message, [{ path: ["url"], message }]);
  }
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const row = { id: randomUUID(), org, url: storedUrl(input.url), events: JSON.stringify([...new Set(input.events)]), secret: encryptSecret(secret), createdAt: Date.now(), createdBy: actor.id, offAt: null, offReason: null };
  await orgTransaction(db, org, async (tx) => {
    await tx.insert(alertWebhooks).values(row);
    await recordAudit(tx, { org, actor, action: "alerts.changed", details: { webhook: { added: new URL(input.url).origin, events: eventsOf(row.events) } } });
  });
  return { ...viewOf(row), secret };
}

async function requireHook(db: Conn, org: string, id: string): Promise<typeof alertWebhooks.$inferSelect> {
  const [row] = await db
    .select()
    .from(alertWebhooks)
    .where(and(eq(alertWebhooks.org, org), eq(alertWebhooks.id, id)))
    .limit(1);
  if (row === undefined) throw new NotFoundError("There is no such webhook here.");
  return row;
}

/**
 * A leader's change to a hook (its events; switched on again after it was switched off, or off),
 * audited with the change. Switched on, it takes new events again; what was dropped stays dropped.
 */
export async function changeWebhook(db: Conn, org: string, id: string, update: WebhookUpdate, actor: { id: string; email: string }): Promise<WebhookView> {
  return orgTransaction(db, org, async (tx) => {
    const before = await requireHook(tx, org, id);
    const set: Partial<typeof alertWebhooks.$inferInsert> = {};
    const details: Record<string, unknown> = { changed: new URL(plainUrl(before.url)).origin };
    const events = update.events === undefined ? null : [...new Set(update.events)];
    if (events !== null && JSON.stringify(events) !== JSON.stringify(eventsOf(before.events))) {
      set.events = JSON.stringify(events);
      details["events"] = { from: eventsOf(before.events), to: events };
    }
    if (update.on === true && before.offAt !== null) {
      Object.assign(set, { offAt: null, offReason: null });
      details["on"] = true;
    } else if (update.on === false && before.offAt === null) {
      Object.assign(set, { offAt: Date.now(), offReason: `Switched off by ${actor.email}.` });
      details["on"] = false;
    }
    if (Object.keys(set).length === 0) return viewOf(before);
    const [after] = await tx.update(alertWebhooks).set(set).where(eq(alertWebhooks.id, id)).returning();
    if (update.on === false) await dropPending(tx, id);
    await recordAudit(tx, { org, actor, action: "alerts.changed", details: { webhook: details } });
    return viewOf(after!);
  });
}

/** Removes a hook (leaders), its messages and delivery log with it; audited. */
export async function removeWebhook(db: Conn, org: string, id: string, actor: { id: string; email: string }): Promise<void> {
  await orgTransaction(db, org, async (tx) => {
    const hook = await requireHook(tx, org, id);
    await tx.delete(alertWebhooks).where(eq(alertWebhooks.id, id));
    await recordAudit(tx, { org, actor, action: "alerts.changed", details: { webhook: { removed: new URL(plainUrl(hook.url)).origin } } });
  });
}

/** A hook switched off takes no message still waiting. */
const dropPending = (tx: Conn, hook: string) =>
  tx
    .update(alertWebhookMessages)
    .set({ state: "dropped" })
    .where(and(eq(alertWebhookMessages.hook, hook), eq(alertWebhookMessages.state, "pending")));

/** A hook's delivery log, newest first: `{at, status, ms}` per attempt. */
export async function attemptsOf(db: Conn, org: string, id: string, limit = 200): Promise<WebhookAttempt[]> {
  await requireHook(db, org, id);
  const rows = await db.select().from(alertWebhookAttempts).where(eq(alertWebhookAttempts.hook, id)).orderBy(desc(alertWebhookAttempts.at)).limit(limit);
  return rows.map((row) => ({ at: new Date(row.at).toISOString(), status: row.status, ms: row.ms }));
}

/** Writes one message per hook that takes `type`, in the caller's transaction; answers their ids. */
export async function queueHookMessages(tx: Conn, org: string, type: AlertEvent | "test", data: Record<string, unknown>, now = Date.now(), only?: string): Promise<string[]> {
  const hooks = (await tx.select().from(alertWebhooks).where(eq(alertWebhooks.org, org))).filter((hook) => (only === undefined ? type !== "test" && hook.offAt === null && eventsOf(hook.events).includes(type) : hook.id === only));
  if (hooks.length === 0) return [];
  const rows = hooks.map((hook) => ({ id: `msg_${randomUUID()}`, hook: hook.id, body: JSON.stringify({ type, timestamp: new Date(now).toISOString(), data }), createdAt: now }));
  await tx.insert(alertWebhookMessages).values(rows);
  return rows.map((row) => row.id);
}

/** Pending, due (its next attempt's time come), and not claimed by an instance still at it. */
const claimable = (now: number) =>
  and(
    eq(alertWebhookMessages.state, "pending"),
    or(isNull(alertWebhookMessages.nextAt), lte(alertWebhookMessages.nextAt, now)),
    or(isNull(alertWebhookMessages.claimedAt), lt(alertWebhookMessages.claimedAt, now - CLAIM_STALE_MS)),
  );

/** The first retry of a failed message: within 30 s (this wait, then at most the sweep's 10 s); each after waits twice as long, for 24 h (SPEC §28). */
export const FIRST_RETRY_MS = 20_000;
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * When the attempt after a message's `attempts`-th, failed at `failedAt`, is due: the first retry
 * FIRST_RETRY_MS after, each next twice as long after; the last at 24 h from when it was written.
 * Null once an attempt at or past 24 h has failed: the message has failed.
 */
export function nextAttemptAt(createdAt: number, attempts: number, failedAt: number): number | null {
  const until = createdAt + RETRY_FOR_MS;
  if (failedAt >= until) return null;
  return Math.min(failedAt + FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), until);
}

/** How a retry is queued beside the stored schedule: pg-boss's job, on PostgreSQL (lib/schedule/jobs.ts); none on SQLite, where the sweep picks due messages. */
type RetryQueue = (message: string, at: number) => Promise<void>;
let retryQueue: RetryQueue | null = null;

/** Queues each retry through `queue` from now on (null: no more); answers how to stop. */
export function retryThrough(queue: RetryQueue | null): () => void {
  retryQueue = queue;
  return () => {
    if (retryQueue === queue) retryQueue = null;
  };
}

const leadersOf = (db: Conn, org: string) =>
  db
    .select({ email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(organization.slug, org), eq(member.role, "leader")));

/**
 * A message has failed for 24 h. Unless the hook answered another message well meanwhile, it is
 * switched off, its waiting messages dropped, and its organisation's leaders mailed through the
 * outbox, in one transaction: the instance whose update switches it off writes the mails, so they
 * are written once.
 */
async function switchOffIfFailing(db: Conn, message: typeof alertWebhookMessages.$inferSelect, status: number | null, now: number): Promise<void> {
  const [delivered] = await db
    .select({ id: alertWebhookAttempts.id })
    .from(alertWebhookAttempts)
    .where(and(eq(alertWebhookAttempts.hook, message.hook), gte(alertWebhookAttempts.at, message.createdAt), gte(alertWebhookAttempts.status, 200), lt(alertWebhookAttempts.status, 300)))
    .limit(1);
  if (delivered !== undefined) return;
  const reason = `Its deliveries failed for 24 hours (the last ${status === null ? "had no answer" : `was answered ${status}`}).`;
  await transaction(db, async (tx) => {
    const [hook] = await tx
      .update(alertWebhooks)
      .set({ offAt: now, offReason: reason })
      .where(and(eq(alertWebhooks.id, message.hook), isNull(alertWebhooks.offAt)))
      .returning();
    if (hook === undefined) return;
    await dropPending(tx, hook.id);
    const origin = new URL(plainUrl(hook.url)).origin;
    const link = `${dashboardOrigins()[0]}/orgs/${encodeURIComponent(hook.org)}/alerts`;
    const leaders = await leadersOf(tx, hook.org);
    if (leaders.length === 0) return;
    await tx.insert(alertOutbox).values(
      leaders.map((leader) => ({
        id: randomUUID(),
        org: hook.org,
        event: WEBHOOK_OFF,
        appId: null,
        appName: null,
        to: leader.email,
        subject: `A webhook was switched off: ${origin}`,
        body: `The webhook to ${origin} was switched off. ${reason}\nSince: ${new Date(message.createdAt).toISOString()}\nWhat fixes it (switch it on again): ${link}\n`,
        link,
        since: message.createdAt,
        createdAt: now,
      })),
    );
    logger.warn({ org: hook.org, hook: hook.id }, "A webhook failed for 24 hours and was switched off; its leaders are mailed");
  });
}

/** Posts one message, signed, through the guarded fetch; logs the attempt and when the next is due. Answers the attempt. */
async function attempt(db: Conn, message: typeof alertWebhookMessages.$inferSelect, resolve: Resolver, clock: () => number): Promise<WebhookAttempt> {
  const [hook] = await db.select().from(alertWebhooks).where(eq(alertWebhooks.id, message.hook)).limit(1);
  const at = clock();
  const started = performance.now();
  let status: number | null = null;
  if (hook !== undefined) {
    const timestamp = new Date(at);
    const signature = new Webhook(decryptSecret(hook.secret)).sign(message.id, timestamp, message.body);
    const guard = guardedFetch({ resolve, allow: allowListFromEnv(), signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS * 3), onStop: () => {}, responseByteLimit: 64 * 1024 });
    try {
      const response = await guard.fetch(new URL(plainUrl(hook.url)), {
        method: "POST",
        headers: { "content-type": "application/json", "webhook-id": message.id, "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)), "webhook-signature": signature },
        body: message.body,
      });
      status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      // Refused again at delivery (SPEC §28), or no answer: logged with no status.
      logger.warn({ hook: hook.id, err: errorField(error) }, "Webhook not delivered; it is tried again");
    } finally {
      guard.end();
    }
  }
  const ms = Math.round(performance.now() - started);
  // Removed meanwhile: its messages and log went with it.
  if (hook === undefined) return { at: new Date(at).toISOString(), status, ms };
  const attempts = message.attempts + 1;
  await db.insert(alertWebhookAttempts).values({ id: randomUUID(), hook: message.hook, message: message.id, at, status, ms });
  if (status !== null && status >= 200 && status < 300) {
    await db.update(alertWebhookMessages).set({ state: "delivered", attempts, claimedAt: null }).where(eq(alertWebhookMessages.id, message.id));
  } else {
    const next = nextAttemptAt(message.createdAt, attempts, at);
    await db
      .update(alertWebhookMessages)
      .set(next === null ? { state: "failed", attempts, claimedAt: null } : { attempts, nextAt: next, claimedAt: null })
      .where(eq(alertWebhookMessages.id, message.id));
    if (next !== null) await retryQueue?.(message.id, next).catch((error: unknown) => logger.warn({ hook: message.hook, err: errorField(error) }, "A webhook's retry was not queued; the sweep takes it when due"));
    else await switchOffIfFailing(db, message, status, at);
  }
  return { at: new Date(at).toISOString(), status, ms };
}

/**
 * Delivers the messages due (`ids`: only those), each claimed by one instance; answers the
 * attempts made. `clock` is the time (a test's to move).
 */
export async function deliverHooks(db: Conn, ids?: readonly string[], resolve: Resolver = systemResolver, clock: () => number = Date.now): Promise<WebhookAttempt[]> {
  const now = clock();
  const claimed = await transaction(db, async (tx) => {
    const where = ids === undefined ? claimable(now) : and(claimable(now), inArray(alertWebhookMessages.id, [...ids]));
    const found = await tx.select({ id: alertWebhookMessages.id }).from(alertWebhookMessages).where(where).limit(50);
    if (found.length === 0) return [];
    // The condition again in the update: of two instances, the one that updates first takes each message.
    return tx
      .update(alertWebhookMessages)
      .set({ claimedAt: now })
      .where(
        and(
          claimable(now),
          inArray(
            alertWebhookMessages.id,
            found.map((row) => row.id),
          ),
        ),
      )
      .returning();
  });
  const attempts: WebhookAttempt[] = [];
  for (const message of claimed) attempts.push(await attempt(db, message, resolve, clock));
  return attempts;
}

/** Sends a test message to the hook now (leaders); answers the attempt. */
export async function testWebhook(db: Conn, org: string, id: string, resolve: Resolver = systemResolver): Promise<WebhookAttempt> {
  await requireHook(db, org, id);
  const ids = await transaction(db, (tx) => queueHookMessages(tx, org, "test", { message: "A test of this webhook." }, Date.now(), id));
  const [made] = await deliverHooks(db, ids, resolve);
  if (made === undefined) throw new InvalidError("The test could not be sent.");
  return made;
}
