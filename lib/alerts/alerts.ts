import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/audit-log";
import { dashboardOrigins } from "@/lib/auth/origins";
import { databaseOf, orgTransaction, runPrepared, type Conn } from "@/lib/db/client";
import { newestFirstIn } from "@/lib/db/dialect";
import { alertMarks, alertOutbox, appAlertStates, apps, checkResults, member, orgAlerts, organization, user } from "@/lib/db/tables";
import { InvalidError } from "@/lib/errors";
import { ALERT_EVENT_WORDS, ALERT_EVENTS, alertEvent, outboxEvent, outboxState, type AlertEvent, type AlertsUpdate, type AlertsView, type OutboxMail } from "@/lib/schemas/alerts";
import { deliverOutbox, deliverSoon } from "./deliver";
import { deliverHooks, queueHookMessages } from "./webhooks";

/**
 * The organisation's alerts (SPEC §28): which events are told, to whom, how; each event told
 * writes one mail per recipient into the outbox in the transaction that stores what happened, so
 * an event is told once however many instances run, and no mail is lost when one stops (the
 * outbox is delivered after the commit, lib/alerts/deliver.ts).
 */

interface StoredAlerts {
  off: Set<AlertEvent>;
  recipients: string[] | null;
  email: boolean;
  hosts: string[];
}

const jsonArray = (text: string | null): string[] | null => {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null;
};

async function storedAlerts(db: Conn, org: string): Promise<StoredAlerts> {
  const [row] = await db.select().from(orgAlerts).where(eq(orgAlerts.org, org)).limit(1);
  if (row === undefined) return { off: new Set(), recipients: null, email: true, hosts: [] };
  const off = new Set((jsonArray(row.eventsOff) ?? []).flatMap((name) => (alertEvent.safeParse(name).success ? [name as AlertEvent] : [])));
  return { off, recipients: jsonArray(row.recipients), email: row.email, hosts: jsonArray(row.hosts) ?? [] };
}

/** The organisation's members: account id, email, role, in the order they joined. */
export async function membersOf(db: Conn, org: string): Promise<{ id: string; email: string; role: string }[]> {
  return db
    .select({ id: user.id, email: user.email, role: member.role })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(organization.slug, org))
    .orderBy(asc(member.createdAt));
}

/** Who is mailed: the chosen members still members, or every leader. */
function mailedOf(members: { id: string; email: string; role: string }[], chosen: string[] | null): { id: string; email: string }[] {
  const mailed = chosen === null ? members.filter((m) => m.role === "leader") : members.filter((m) => chosen.includes(m.id));
  return mailed.map(({ id, email }) => ({ id, email }));
}

function viewOf(stored: StoredAlerts, members: { id: string; email: string; role: string }[]): AlertsView {
  return {
    events: Object.fromEntries(ALERT_EVENTS.map((event) => [event, !stored.off.has(event)])) as Record<AlertEvent, boolean>,
    recipients: { chosen: stored.recipients, mailed: mailedOf(members, stored.recipients) },
    channels: { email: stored.email },
    hosts: stored.hosts,
  };
}

export async function alertsOf(db: Conn, org: string): Promise<AlertsView> {
  return viewOf(await storedAlerts(db, org), await membersOf(db, org));
}

/** Whether the organisation tells `event` (every event is on until a leader turns it off). */
export async function eventOn(db: Conn, org: string, event: AlertEvent): Promise<boolean> {
  return !(await storedAlerts(db, org)).off.has(event);
}

/** The hosts the organisation chose (SPEC §22 ids), whose problems `host.problems` tells: none unless a leader chose some. */
export async function chosenHosts(db: Conn, org: string): Promise<string[]> {
  return (await storedAlerts(db, org)).hosts;
}

/** A leader's change to the alerts, with its audit entry, in one transaction. Recipients must be members (422 naming the field). */
export async function changeAlerts(db: Conn, org: string, update: AlertsUpdate, actor: { id: string; email: string }): Promise<AlertsView> {
  return orgTransaction(db, org, async (tx) => {
    const before = await storedAlerts(tx, org);
    const members = await membersOf(tx, org);
    const off = new Set(before.off);
    for (const [event, on] of Object.entries(update.events ?? {}) as [AlertEvent, boolean | undefined][]) {
      if (on === true) off.delete(event);
      else if (on === false) off.add(event);
    }
    let recipients = before.recipients;
    if (update.recipients !== undefined) {
      const unknown = (update.recipients ?? []).filter((id) => !members.some((m) => m.id === id));
      if (unknown.length > 0) throw new InvalidError(`recipients: ${unknown.length === 1 ? "one is" : `${unknown.length} are`} not a member of this organisation.`, [{ path: ["recipients"], message: "Choose members of this organisation." }]);
      recipients = update.recipients === null ? null : [...new Set(update.recipients)];
    }
    const email = update.channels?.email ?? before.email;
    const hosts = update.hosts ?? before.hosts;
    const after: StoredAlerts = { off, recipients, email, hosts };
    const details: Record<string, unknown> = {};
    const turnedOn = ALERT_EVENTS.filter((e) => before.off.has(e) && !off.has(e));
    const turnedOff = ALERT_EVENTS.filter((e) => !before.off.has(e) && off.has(e));
    if (turnedOn.length > 0) details["on"] = turnedOn;
    if (turnedOff.length > 0) details["off"] = turnedOff;
    if (JSON.stringify(before.recipients) !== JSON.stringify(recipients)) details["recipients"] = { from: mailedOf(members, before.recipients).map((m) => m.email), to: mailedOf(members, recipients).map((m) => m.email) };
    if (email !== before.email) details["email"] = { from: before.email, to: email };
    if (JSON.stringify(hosts) !== JSON.stringify(before.hosts)) details["hosts"] = { from: before.hosts, to: hosts };
    if (Object.keys(details).length > 0) {
      const values = { eventsOff: JSON.stringify(ALERT_EVENTS.filter((e) => off.has(e))), recipients: recipients === null ? null : JSON.stringify(recipients), email, hosts: JSON.stringify(hosts) };
      await tx.insert(orgAlerts).values({ org, ...values }).onConflictDoUpdate({ target: orgAlerts.org, set: values });
      await recordAudit(tx, { org, actor, action: "alerts.changed", details });
    }
    return viewOf(after, members);
  });
}

/** One event as it is told. */
export interface AlertFact {
  org: string;
  event: AlertEvent;
  app?: { id: string; name: string };
  /** Who or what it is about when it is no app (a person's address): named in the mail's subject. */
  about?: string;
  /** More for a webhook's `data` (the tools held, the person, the problems): never a secret. */
  data?: Record<string, unknown>;
  /** What happened, in a sentence. */
  what: string;
  /** Since when (ms). */
  since: number;
  /** The page that fixes it (a path under the dashboard). */
  path: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Tells an event: one message per webhook that takes it and one mail per recipient into the
 * outbox, in the caller's transaction (nothing when the event is off; no mail when email is).
 * Delivery begins once the transaction has committed. Answers how many mails were written.
 */
export async function tellEvent(tx: Conn, fact: AlertFact, now = Date.now()): Promise<number> {
  const stored = await storedAlerts(tx, fact.org);
  if (stored.off.has(fact.event)) return 0;
  const link = `${dashboardOrigins()[0]}${fact.path}`;
  const db = databaseOf(tx);
  const messages = await queueHookMessages(tx, fact.org, fact.event, { ...(fact.app === undefined ? {} : { app: fact.app }), ...fact.data, what: fact.what, since: iso(fact.since), link }, now);
  if (messages.length > 0) deliverSoon(async () => (await deliverHooks(db, messages)).length > 0);
  if (!stored.email) return 0;
  const mailed = mailedOf(await membersOf(tx, fact.org), stored.recipients);
  if (mailed.length === 0) return 0;
  const named = fact.app?.name ?? fact.about;
  const subject = `${ALERT_EVENT_WORDS[fact.event]}${named === undefined ? "" : `: ${named}`}`;
  const body = `${fact.what}\nSince: ${iso(fact.since)}\nWhat fixes it: ${link}\n`;
  const rows = mailed.map((to) => ({
    id: randomUUID(),
    org: fact.org,
    event: fact.event,
    appId: fact.app?.id ?? null,
    appName: fact.app?.name ?? null,
    to: to.email,
    subject,
    body,
    link,
    since: fact.since,
    createdAt: now,
  }));
  await tx.insert(alertOutbox).values(rows);
  const ids = rows.map((row) => row.id);
  deliverSoon(async () => (await deliverOutbox(db, ids)) > 0);
  return rows.length;
}

/**
 * After storing a read of `app` (in the same transaction): tells `app.unavailable` at its second
 * unavailable read in a row, once until it is available again, and `app.available` at its first
 * available read after. The decision is the stored state's (`app_alert_states`, its primary key
 * taken or given up inside the transaction), so two instances never both tell it. An available
 * read (nearly every read) costs one statement: giving up the app's state, where there is one.
 */
export async function noteRead(tx: Conn, read: { id: string; app: string; checkedAt: number }, unavailable: boolean): Promise<void> {
  if (!unavailable) {
    // Only where this read was stored (the app not moved or gone meanwhile).
    const build = () =>
      tx
        .delete(appAlertStates)
        .where(and(eq(appAlertStates.app, sql.placeholder("app")), sql`exists (select 1 from ${checkResults} where ${checkResults.id} = ${sql.placeholder("read")})`))
        .returning();
    const [was] = await runPrepared(tx, "theorem_alert_available", build, { app: read.app, read: read.id });
    if (was === undefined) return;
    const app = await orgAppOf(tx, read.app);
    if (app !== null) await tellEvent(tx, { org: app.org, event: "app.available", app: app.ref, what: `${app.ref.name} is available again (it was unavailable since ${iso(was.downSince)}).`, since: read.checkedAt, path: app.path });
    return;
  }
  const recent = await tx
    .select({ id: checkResults.id, unavailable: checkResults.unavailable, checkedAt: checkResults.checkedAt })
    .from(checkResults)
    .where(eq(checkResults.app, read.app))
    .orderBy(...newestFirstIn(tx))
    .limit(2);
  // Not stored (the app moved or went meanwhile), or an older read stored late: nothing changes.
  if (recent[0]?.id !== read.id || recent[0].unavailable === null) return;
  const before = recent[1];
  if (before === undefined || before.unavailable === null) return;
  const app = await orgAppOf(tx, read.app);
  if (app === null) return;
  const taken = await tx.insert(appAlertStates).values({ app: read.app, downSince: before.checkedAt, toldAt: read.checkedAt }).onConflictDoNothing().returning();
  if (taken.length === 0) return;
  const reason = reasonOf(recent[0].unavailable);
  await tellEvent(tx, { org: app.org, event: "app.unavailable", app: app.ref, what: `${app.ref.name} was unavailable at its last two reads${reason === null ? "" : `: ${reason}`}.`, since: before.checkedAt, path: app.path });
}

/** Which event told about what: an app's id, a person's account id, or `*` (the whole list). */
export interface MarkKey {
  org: string;
  event: AlertEvent;
  subject: string;
}

const markWhere = (key: MarkKey) => and(eq(alertMarks.org, key.org), eq(alertMarks.event, key.event), eq(alertMarks.subject, key.subject));

/** What `key`'s event last told about its subject (null: nothing, or it has passed since). */
export async function markOf(tx: Conn, key: MarkKey): Promise<{ value: string; since: number } | null> {
  const [row] = await tx.select({ value: alertMarks.value, since: alertMarks.since }).from(alertMarks).where(markWhere(key)).limit(1);
  return row ?? null;
}

/**
 * Stores that `key`'s event is told about `value` (from `since`), in the caller's transaction:
 * true when this write made it so (no mark, or another value), false when it was so already. The
 * write takes the row (its primary key), so of two instances storing the same news one is told it.
 */
export async function setMark(tx: Conn, key: MarkKey, value: string, since: number): Promise<boolean> {
  const written = await tx
    .insert(alertMarks)
    .values({ ...key, value, since })
    .onConflictDoUpdate({ target: [alertMarks.org, alertMarks.event, alertMarks.subject], set: { value, since }, setWhere: sql`${alertMarks.value} <> ${value}` })
    .returning({ subject: alertMarks.subject });
  return written.length > 0;
}

/** Gives up `key`'s mark (what it told has passed): the next occurrence is told again. */
export async function clearMark(tx: Conn, key: MarkKey): Promise<void> {
  await tx.delete(alertMarks).where(markWhere(key));
}

/** The subjects `event` has marks for in the organisation. */
export async function markedSubjects(tx: Conn, org: string, event: AlertEvent): Promise<Set<string>> {
  const rows = await tx.select({ subject: alertMarks.subject }).from(alertMarks).where(and(eq(alertMarks.org, org), eq(alertMarks.event, event)));
  return new Set(rows.map((row) => row.subject));
}

/** An organisation's app as an alert names it, or null for a person's own app (theirs to watch, SPEC §12) or one gone. */
export async function orgAppOf(tx: Conn, id: string): Promise<{ org: string; ref: { id: string; name: string }; path: string } | null> {
  const [row] = await tx.select({ org: apps.org, name: apps.name, owner: apps.owner }).from(apps).where(eq(apps.id, id)).limit(1);
  if (row === undefined || row.owner !== null) return null;
  return { org: row.org, ref: { id, name: row.name }, path: `/orgs/${encodeURIComponent(row.org)}/connections/${encodeURIComponent(id)}` };
}

/** The stored reason an app was unavailable, in its own words, when it has one. */
function reasonOf(text: string): string | null {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null) return null;
  const message = (value as { message?: unknown }).message;
  return typeof message === "string" ? message : null;
}

/** The organisation's outbox, newest first (leaders): never a secret (a mail holds none). */
export async function outboxOf(db: Conn, org: string, limit = 200): Promise<OutboxMail[]> {
  const rows = await db.select().from(alertOutbox).where(eq(alertOutbox.org, org)).orderBy(desc(alertOutbox.createdAt), desc(alertOutbox.id)).limit(limit);
  return rows.flatMap((row): OutboxMail[] => {
    const event = outboxEvent.safeParse(row.event);
    const state = outboxState.safeParse(row.state);
    if (!event.success || !state.success) return [];
    return [
      {
        id: row.id,
        at: iso(row.createdAt),
        event: event.data,
        app: row.appId === null ? null : { id: row.appId, name: row.appName ?? "" },
        to: row.to,
        subject: row.subject,
        body: row.body,
        link: row.link,
        since: iso(row.since),
        state: state.data,
        sentAt: row.sentAt === null ? null : iso(row.sentAt),
      },
    ];
  });
}

/** Whether the outbox holds mail for the organisation not yet sent (a test's and the page's question). */
export async function pendingCount(db: Conn, org: string): Promise<number> {
  const rows = await db.select({ id: alertOutbox.id }).from(alertOutbox).where(and(eq(alertOutbox.org, org), eq(alertOutbox.state, "pending")));
  return rows.length;
}
