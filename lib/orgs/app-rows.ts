import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { NotFoundError, noOrgApp } from "@/lib/errors";
import { runPrepared, type Conn } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import type { CheckAppInput } from "@/lib/schemas/check";
import { logger } from "@/lib/log";
import { decryptSecret } from "@/lib/secrets";

/**
 * An organisation's apps as stored rows: finding them (its own, a person's, any), and what the
 * check is given of one (its URL and headers, decrypted only here).
 */

export type AppRow = typeof apps.$inferSelect;

/** The organisation's own apps in connection order: earliest first, ties broken by id. */
export async function orgApps(db: Conn, org: string): Promise<AppRow[]> {
  return db.select().from(apps).where(and(eq(apps.org, org), isNull(apps.owner))).orderBy(asc(apps.connectedAt), asc(apps.id));
}

/** Every app of the organisation, its own and its members' personal ones, in connection order. */
export async function allApps(db: Conn, org: string): Promise<AppRow[]> {
  return db.select().from(apps).where(eq(apps.org, org)).orderBy(asc(apps.connectedAt), asc(apps.id));
}

/** The newest connection time of any app of the organisation, personal ones included (0 when none). */
export async function lastConnectedAt(db: Conn, org: string): Promise<number> {
  const [row] = await db.select({ at: sql<string | number | null>`max(${apps.connectedAt})` }).from(apps).where(eq(apps.org, org));
  // PostgreSQL answers a bigint aggregate as text.
  return row?.at == null ? 0 : Number(row.at);
}

/** How many personal apps the person has in the organisation. */
export async function personalCount(db: Conn, org: string, person: string): Promise<number> {
  return db.$count(apps, and(eq(apps.org, org), eq(apps.owner, person)));
}

/** One of the organisation's own apps (never a personal one), or the 404. */
export async function requireApp(db: Conn, org: string, id: string): Promise<AppRow> {
  const build = () => db.select().from(apps).where(and(eq(apps.org, sql.placeholder("org")), eq(apps.id, sql.placeholder("id")), isNull(apps.owner))).limit(1);
  const [row] = await runPrepared(db, "theorem_require_app", build, { org, id });
  if (row === undefined) throw noOrgApp(org, id);
  return row;
}

/** One of the person's own personal apps, or the 404 (an org app, or someone else's, is not theirs). */
export async function requirePersonalApp(db: Conn, org: string, person: string, id: string): Promise<AppRow> {
  const [row] = await db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id), eq(apps.owner, person))).limit(1);
  if (row === undefined) throw new NotFoundError(`You have no personal app "${id}" here.`);
  return row;
}

/** Any app of the organisation, org or personal (for the schedule, which re-reads them all). */
export async function anyApp(db: Conn, org: string, id: string): Promise<AppRow | undefined> {
  const [row] = await db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id))).limit(1);
  return row;
}

/** Every personal app of the organisation, by owner, in connection order (for the lookup's "someone else's app"). */
export async function personalApps(db: Conn, org: string): Promise<AppRow[]> {
  return db
    .select()
    .from(apps)
    .where(and(eq(apps.org, org), sql`${apps.owner} IS NOT NULL`))
    .orderBy(asc(apps.connectedAt), asc(apps.id));
}

/** The stored header's value in the clear, or null; one that cannot be decrypted is not sent (the app then asks for it). */
function headerSecret(row: AppRow): string | null {
  if (row.headerValue === null) return null;
  try {
    return decryptSecret(row.headerValue);
  } catch (error) {
    logger.error({ org: row.org, app: row.id, err: error }, "The stored header of an app cannot be decrypted: it is not sent");
    return null;
  }
}

/** The URL to read, its query secrets in the clear (SPEC §10); one that cannot be decrypted is read as shown, with `…` (the app then refuses it). */
export function urlToRead(row: Pick<AppRow, "org" | "id" | "url" | "urlSecret">): string {
  if (row.urlSecret === null) return row.url;
  try {
    return decryptSecret(row.urlSecret);
  } catch (error) {
    logger.error({ org: row.org, app: row.id, err: error }, "The stored URL of an app cannot be decrypted: its query secrets are not sent");
    return row.url;
  }
}

/** How the check is asked about an app: by URL, with its header (both decrypted only here, on their way to the app). */
export function checkInput(row: AppRow): CheckAppInput {
  const value = row.headerName === null ? null : headerSecret(row);
  const more = moreHeaderSecrets(row);
  const headers = { ...more, ...(row.headerName !== null && value !== null ? { [row.headerName]: value } : {}) };
  return { name: row.name, url: urlToRead(row), ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

/** Headers beyond the first (SPEC §24), as stored: JSON `{name: encrypted value}`. */
export function moreHeaderNames(row: Pick<AppRow, "moreHeaders">): string[] {
  return row.moreHeaders === null ? [] : Object.keys(JSON.parse(row.moreHeaders) as Record<string, string>);
}

/** Headers beyond the first in the clear (each one that cannot be decrypted is not sent). */
function moreHeaderSecrets(row: AppRow): Record<string, string> {
  if (row.moreHeaders === null) return {};
  const clear: Record<string, string> = {};
  for (const [name, stored] of Object.entries(JSON.parse(row.moreHeaders) as Record<string, string>)) {
    const value = headerSecret({ ...row, headerValue: stored });
    if (value !== null) clear[name] = value;
  }
  return clear;
}
