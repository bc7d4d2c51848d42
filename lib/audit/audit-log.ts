import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Conn } from "@/lib/db/client";
import { auditEntries } from "@/lib/db/tables";
import type { AuditAction, AuditEntry, AuditQuery } from "@/lib/schemas/access";

/** What one change records (SPEC §9): who, what, when, and the app or member concerned. */
export interface AuditRecord {
  org: string;
  actor: { id: string; email: string };
  action: AuditAction;
  app?: { id: string; name: string };
  member?: { id: string; email: string };
  /** Never a secret: names of fields, roles, counts. */
  details?: Record<string, unknown>;
}

/** The ids of the entries written within `collectingAudit`'s work, by whatever writes them. */
const collected = new AsyncLocalStorage<string[]>();

/** Runs `work`, answering with the ids of the audit entries it wrote (to add details known only after it, `addAuditDetails`). */
export async function collectingAudit<T>(work: () => Promise<T>): Promise<{ value: T; ids: string[] }> {
  const ids: string[] = [];
  const value = await collected.run(ids, work);
  return { value, ids };
}

/** Adds `more` to the details of the entries `ids` (written in this same transaction `tx`). */
export async function addAuditDetails(tx: Conn, ids: readonly string[], more: Record<string, unknown>): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx.select({ id: auditEntries.id, details: auditEntries.details }).from(auditEntries).where(inArray(auditEntries.id, [...ids]));
  for (const row of rows) {
    const details = row.details === null ? {} : (JSON.parse(row.details) as Record<string, unknown>);
    await tx.update(auditEntries).set({ details: JSON.stringify({ ...details, ...more }) }).where(eq(auditEntries.id, row.id));
  }
}

export async function recordAudit(db: Conn, entry: AuditRecord, at = Date.now()): Promise<void> {
  const id = randomUUID();
  collected.getStore()?.push(id);
  await db
    .insert(auditEntries)
    .values({
      id,
      org: entry.org,
      at,
      actorId: entry.actor.id,
      actorEmail: entry.actor.email,
      action: entry.action,
      appId: entry.app?.id ?? null,
      appName: entry.app?.name ?? null,
      memberId: entry.member?.id ?? null,
      memberEmail: entry.member?.email ?? null,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    });
}

/** The organisation's entries, newest first, filtered by app or actor, paged with `before` (an ISO time). */
export async function auditEntriesOf(db: Conn, org: string, query: AuditQuery): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.org, org),
        query.app === undefined ? undefined : eq(auditEntries.appId, query.app),
        query.actor === undefined ? undefined : eq(auditEntries.actorId, query.actor),
        query.before === undefined ? undefined : lt(auditEntries.at, Date.parse(query.before)),
      ),
    )
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(query.limit);
  return rows.map((row) => ({
    at: new Date(row.at).toISOString(),
    actor: { id: row.actorId, email: row.actorEmail },
    action: row.action as AuditAction,
    ...(row.appId !== null ? { app: { id: row.appId, name: row.appName ?? "" } } : {}),
    ...(row.memberId !== null ? { member: { id: row.memberId, email: row.memberEmail ?? "" } } : {}),
    ...(row.details !== null ? { details: JSON.parse(row.details) as Record<string, unknown> } : {}),
  }));
}

/** How many of an action's newest entries `newestEntryAbout` looks through. */
const ABOUT_SCAN = 200;

/**
 * The newest entry of `action` (about `app`, when given) whose details `about` picks, among that
 * action's newest 200: who last changed a setting and when, for a decision shown where it holds
 * (SPEC §25). Null when none does.
 */
export async function newestEntryAbout(db: Conn, org: string, action: AuditAction, about: (details: Record<string, unknown>) => boolean, app?: string): Promise<AuditEntry | null> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.org, org), eq(auditEntries.action, action), app === undefined ? undefined : eq(auditEntries.appId, app)))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(ABOUT_SCAN);
  for (const row of rows) {
    const details = row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>);
    if (details === null || !about(details)) continue;
    return { at: new Date(row.at).toISOString(), actor: { id: row.actorId, email: row.actorEmail }, action, ...(row.appId !== null ? { app: { id: row.appId, name: row.appName ?? "" } } : {}), details };
  }
  return null;
}
