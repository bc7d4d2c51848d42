import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { Conn } from "@/lib/db/client";
import { apps, checkResults, organization } from "@/lib/db/schema";
import type { AppCheck, CheckAppInput } from "@/lib/schemas/check";
import type { CheckRecord, Org, StoredApp } from "@/lib/schemas/orgs";
import { orgSlug } from "@/lib/schemas/orgs";
import { decryptSecret } from "@/lib/secrets";

/** The stored rows of one organisation, read and written synchronously (better-sqlite3). */

export type AppRow = typeof apps.$inferSelect;
export interface NewCheck {
  id: string;
  app: string;
  checkedAt: number;
  durationMs: number;
  result: AppCheck;
}

/** Each app keeps its newest checks only: a record holds the whole result, which can be large. */
export const HISTORY_PER_APP = 50;

export function findOrg(db: Conn, slug: string): Org | undefined {
  if (!orgSlug.safeParse(slug).success) return undefined;
  return db.select({ slug: organization.slug, name: organization.name }).from(organization).where(eq(organization.slug, slug)).get();
}

export function requireOrg(db: Conn, slug: string): Org {
  const found = findOrg(db, slug);
  if (found === undefined) throw new ApiError("not-found", `There is no organisation "${slug}".`);
  return found;
}

/** Creates the organisation, or renames it when it exists. */
export function ensureOrg(db: Conn, slug: string, name: string): void {
  const valid = orgSlug.parse(slug);
  db.insert(organization)
    .values({ id: valid, slug: valid, name, createdAt: new Date() })
    .onConflictDoUpdate({ target: organization.slug, set: { name } })
    .run();
}

/** The organisation's apps in connection order: earliest first, ties broken by id. */
export function orgApps(db: Conn, org: string): AppRow[] {
  return db.select().from(apps).where(eq(apps.org, org)).orderBy(asc(apps.connectedAt), asc(apps.id)).all();
}

export function requireApp(db: Conn, org: string, id: string): AppRow {
  const row = db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id))).get();
  if (row === undefined) throw new ApiError("not-found", `The organisation "${org}" has no app "${id}".`);
  return row;
}

/** The stored header's value in the clear, or null; one that cannot be decrypted is not sent (the app then asks for it). */
function headerSecret(row: AppRow): string | null {
  if (row.headerValue === null) return null;
  try {
    return decryptSecret(row.headerValue);
  } catch (error) {
    console.error(`The stored header of app ${row.id} is not sent:`, error instanceof Error ? error.message : error);
    return null;
  }
}

/** How the check is asked about an app: by URL, with its header (decrypted only here, on its way to the app). */
export function checkInput(row: AppRow): CheckAppInput {
  const value = row.headerName === null ? null : headerSecret(row);
  const headers = row.headerName !== null && value !== null ? { [row.headerName]: value } : undefined;
  return { name: row.name, url: row.url, ...(headers ? { headers } : {}) };
}

const newestFirst = [desc(checkResults.checkedAt), desc(sql`${checkResults}.rowid`)] as const;

function toRecord(row: typeof checkResults.$inferSelect): CheckRecord {
  return {
    id: row.id,
    appId: row.app,
    checkedAt: new Date(row.checkedAt).toISOString(),
    durationMs: row.durationMs,
    result: JSON.parse(row.result) as AppCheck,
  };
}

export function latestCheck(db: Conn, appId: string): CheckRecord | null {
  const row = db.select().from(checkResults).where(eq(checkResults.app, appId)).orderBy(...newestFirst).limit(1).get();
  return row === undefined ? null : toRecord(row);
}

/** The API's view of an app: the header's value never leaves the server. */
export function toStoredApp(db: Conn, row: AppRow): StoredApp {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    header: row.headerName === null ? null : { name: row.headerName, set: row.headerValue !== null && row.headerValue !== "" },
    connectedAt: new Date(row.connectedAt).toISOString(),
    lastCheck: latestCheck(db, row.id),
  };
}

/** Stores one check's records (skipping apps removed meanwhile) and trims each app's history. */
export function insertChecks(db: Conn, records: NewCheck[]): void {
  db.transaction((tx) => {
    for (const record of records) {
      const exists = tx.select({ id: apps.id }).from(apps).where(eq(apps.id, record.app)).get();
      if (exists === undefined) continue;
      tx.insert(checkResults).values({ ...record, result: JSON.stringify(record.result) }).run();
      tx.run(sql`DELETE FROM ${checkResults} WHERE ${checkResults.app} = ${record.app} AND rowid NOT IN (
        SELECT rowid FROM ${checkResults} WHERE ${checkResults.app} = ${record.app}
        ORDER BY ${checkResults.checkedAt} DESC, rowid DESC LIMIT ${HISTORY_PER_APP})`);
    }
  });
}

/** Checks newest first: of one app, or of every app of the organisation. */
export function checkHistory(db: Conn, where: { org: string; app?: string }, limit: number): CheckRecord[] {
  const rows = db
    .select({ record: checkResults })
    .from(checkResults)
    .innerJoin(apps, eq(apps.id, checkResults.app))
    .where(where.app === undefined ? eq(apps.org, where.org) : and(eq(apps.org, where.org), eq(apps.id, where.app)))
    .orderBy(...newestFirst)
    .limit(limit)
    .all();
  return rows.map((r) => toRecord(r.record));
}
