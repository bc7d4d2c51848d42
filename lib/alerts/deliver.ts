import "server-only";
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { sendMail, smtpConfigured } from "@/lib/auth/invitations";
import { transaction, type Conn } from "@/lib/db/client";
import { alertOutbox } from "@/lib/db/tables";
import { errorField, logger } from "@/lib/log";
import { deliverHooks } from "./webhooks";
import { CLAIM_STALE_MS } from "./claims";

/**
 * Delivers the outbox (SPEC §28): each pending mail is claimed in a transaction of its own (one
 * instance wins it), then sent through `SMTP_URL`, or, without it, written to the log and kept in
 * the outbox (`logged`). A claim older than `CLAIM_STALE_MS` (its instance stopped mid-delivery,
 * or the send failed) is taken again: no mail is lost.
 */

const BATCH = 50;

type Mail = typeof alertOutbox.$inferSelect;

const claimable = (now: number) => and(eq(alertOutbox.state, "pending"), or(isNull(alertOutbox.claimedAt), lt(alertOutbox.claimedAt, now - CLAIM_STALE_MS)));

/** Claims up to a batch of pending mails (`ids`: only those), each for this instance alone. */
async function claim(db: Conn, now: number, ids?: readonly string[]): Promise<Mail[]> {
  return transaction(db, async (tx) => {
    const where = ids === undefined ? claimable(now) : and(claimable(now), inArray(alertOutbox.id, [...ids]));
    const found = await tx.select({ id: alertOutbox.id }).from(alertOutbox).where(where).limit(BATCH);
    if (found.length === 0) return [];
    // The condition again in the update: of two instances, the one that updates first takes each mail.
    return tx
      .update(alertOutbox)
      .set({ claimedAt: now })
      .where(
        and(
          claimable(now),
          inArray(
            alertOutbox.id,
            found.map((row) => row.id),
          ),
        ),
      )
      .returning();
  });
}

async function deliverOne(db: Conn, mail: Mail): Promise<void> {
  if (!smtpConfigured()) {
    logger.info({ org: mail.org, event: mail.event, to: mail.to, subject: mail.subject, link: mail.link }, "Alert not mailed (no SMTP_URL): kept in the organisation's outbox");
    await db.update(alertOutbox).set({ state: "logged", attempts: mail.attempts + 1 }).where(eq(alertOutbox.id, mail.id));
    return;
  }
  try {
    await sendMail(mail.to, mail.subject, mail.body);
    await db.update(alertOutbox).set({ state: "sent", sentAt: Date.now(), attempts: mail.attempts + 1, error: null }).where(eq(alertOutbox.id, mail.id));
  } catch (error) {
    // Left claimed: taken again once the claim is stale.
    logger.warn({ org: mail.org, event: mail.event, err: errorField(error) }, "Alert mail not sent; it is tried again");
    await db.update(alertOutbox).set({ attempts: mail.attempts + 1, error: error instanceof Error ? error.message.slice(0, 500) : "not sent" }).where(eq(alertOutbox.id, mail.id));
  }
}

/** Delivers what is pending (`ids`: only those); answers how many mails were claimed. */
export async function deliverOutbox(db: Conn, ids?: readonly string[], now = Date.now()): Promise<number> {
  const mails = await claim(db, now, ids);
  for (const mail of mails) await deliverOne(db, mail);
  return mails.length;
}

/** The waits before each try to deliver mails just written: their transaction may not have committed at the first. */
const SOON_MS = [0, 200, 1000, 5000];

/**
 * Runs `deliver` (answering whether it claimed anything) once the caller's transaction has
 * committed: tried at once and a few times after (a PostgreSQL transaction may still be open),
 * until it claims; what is left is the sweep's (`startOutboxSweep`).
 */
export function deliverSoon(deliver: () => Promise<boolean>, step = 0): void {
  const wait = SOON_MS[step];
  if (wait === undefined) return;
  const timer = setTimeout(() => {
    deliver()
      .then((claimed) => {
        if (!claimed) deliverSoon(deliver, step + 1);
      })
      .catch((error: unknown) => logger.warn({ err: errorField(error) }, "Alert delivery failed; it is tried again"));
  }, wait);
  timer.unref();
}

/** Delivers whatever is pending every `everyMs` (mails and webhook messages left by a stopped instance, or not sent): answers how to stop it. */
export function startOutboxSweep(db: Conn, everyMs = 10_000): () => void {
  const timer = setInterval(() => {
    Promise.all([deliverOutbox(db), deliverHooks(db)]).catch((error: unknown) => logger.warn({ err: errorField(error) }, "Alert delivery failed; it is tried again"));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
