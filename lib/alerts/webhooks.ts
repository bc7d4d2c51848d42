import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { recordAudit } from "@/lib/audit/audit-log";
import { orgTransaction, transaction, type Conn } from "@/lib/db/client";
import { alertWebhookAttempts, alertWebhookMessages, alertWebhooks } from "@/lib/db/tables";
import { CONNECT_TIMEOUT_MS } from "@/lib/engine/limits";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { errorField, logger } from "@/lib/log";
import { allowListFromEnv, neverReadable, systemResolver, type Resolver } from "@/lib/mcp/address";
import { guardedFetch } from "@/lib/mcp/guarded-fetch";
import { alertEvent, type AlertEvent, type WebhookAttempt, type WebhookCreate, type WebhookView } from "@/lib/schemas/alerts";
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

const viewOf = (row: typeof alertWebhooks.$inferSelect): WebhookView => ({ id: row.id, url: shownUrl(plainUrl(row.url)), events: eventsOf(row.events), createdAt: new Date(row.createdAt).toISOString() });

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
  const row = { id: randomUUID(), org, url: storedUrl(input.url), events: JSON.stringify([...new Set(input.events)]), secret: encryptSecret(secret), createdAt: Date.now(), createdBy: actor.id };
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

/** A hook's delivery log, newest first: `{at, status, ms}` per attempt. */
export async function attemptsOf(db: Conn, org: string, id: string, limit = 200): Promise<WebhookAttempt[]> {
  await requireHook(db, org, id);
  const rows = await db.select().from(alertWebhookAttempts).where(eq(alertWebhookAttempts.hook, id)).orderBy(desc(alertWebhookAttempts.at)).limit(limit);
  return rows.map((row) => ({ at: new Date(row.at).toISOString(), status: row.status, ms: row.ms }));
}

/** Writes one message per hook that takes `type`, in the caller's transaction; answers their ids. */
export async function queueHookMessages(tx: Conn, org: string, type: AlertEvent | "test", data: Record<string, unknown>, now = Date.now(), only?: string): Promise<string[]> {
  const hooks = (await tx.select().from(alertWebhooks).where(eq(alertWebhooks.org, org))).filter((hook) => (only === undefined ? type !== "test" && eventsOf(hook.events).includes(type) : hook.id === only));
  if (hooks.length === 0) return [];
  const rows = hooks.map((hook) => ({ id: `msg_${randomUUID()}`, hook: hook.id, body: JSON.stringify({ type, timestamp: new Date(now).toISOString(), data }), createdAt: now }));
  await tx.insert(alertWebhookMessages).values(rows);
  return rows.map((row) => row.id);
}

const claimable = (now: number) => and(eq(alertWebhookMessages.state, "pending"), or(isNull(alertWebhookMessages.claimedAt), lt(alertWebhookMessages.claimedAt, now - CLAIM_STALE_MS)));

/** The first retry of a failed message: within 30 s (this wait, then the sweep's turn every 10 s); each after waits twice as long, for 24 h (SPEC §28). */
export const FIRST_RETRY_MS = 20_000;
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;

async function attemptCount(db: Conn, message: string): Promise<number> {
  return (await db.select({ id: alertWebhookAttempts.id }).from(alertWebhookAttempts).where(eq(alertWebhookAttempts.message, message))).length;
}

/**
 * After the `attempts`-th failed attempt: the claim is set so that the message is claimable again
 * (`claimable`: a claim older than CLAIM_STALE_MS) once the next wait has passed; past 24 h it is `failed`.
 */
function retryAfterFailure(message: { createdAt: number }, attempts: number, now: number): { claimedAt?: number; state?: string } {
  const wait = FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1);
  if (now + wait - message.createdAt > RETRY_FOR_MS) return { state: "failed" };
  return { claimedAt: now + wait - CLAIM_STALE_MS };
}

/** Posts one message, signed, through the guarded fetch; logs the attempt. Answers the attempt. */
async function attempt(db: Conn, message: typeof alertWebhookMessages.$inferSelect, resolve: Resolver): Promise<WebhookAttempt> {
  const [hook] = await db.select().from(alertWebhooks).where(eq(alertWebhooks.id, message.hook)).limit(1);
  const started = Date.now();
  let status: number | null = null;
  if (hook !== undefined) {
    const timestamp = new Date();
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
  const ms = Date.now() - started;
  await db.insert(alertWebhookAttempts).values({ id: randomUUID(), hook: message.hook, message: message.id, at: started, status, ms });
  if (status !== null && status >= 200 && status < 300) await db.update(alertWebhookMessages).set({ state: "delivered" }).where(eq(alertWebhookMessages.id, message.id));
  else await db.update(alertWebhookMessages).set(retryAfterFailure(message, await attemptCount(db, message.id), started)).where(eq(alertWebhookMessages.id, message.id));
  return { at: new Date(started).toISOString(), status, ms };
}

/** Delivers pending messages (`ids`: only those), each claimed by one instance; answers the attempts made. */
export async function deliverHooks(db: Conn, ids?: readonly string[], resolve: Resolver = systemResolver, now = Date.now()): Promise<WebhookAttempt[]> {
  const claimed = await transaction(db, async (tx) => {
    const where = ids === undefined ? claimable(now) : and(claimable(now), inArray(alertWebhookMessages.id, [...ids]));
    const found = await tx.select({ id: alertWebhookMessages.id }).from(alertWebhookMessages).where(where).limit(50);
    if (found.length === 0) return [];
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
  for (const message of claimed) attempts.push(await attempt(db, message, resolve));
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
