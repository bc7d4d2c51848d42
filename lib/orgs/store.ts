import "server-only";
import { and, asc, desc, eq, inArray, isNull, notInArray, or, sql } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { Conn } from "@/lib/db/client";
import { apps, checkResults, organization, orgSettings, snapshots, toolApprovals } from "@/lib/db/schema";
import type { AppListing } from "@/lib/engine/check";
import { fingerprint, snapshotOf } from "@/lib/engine/changes";
import { entryChars } from "@/lib/engine/listing-size";
import { appCheck, unavailable as unavailableSchema, type AppCheck, type CheckAppInput, type Unavailable } from "@/lib/schemas/check";
import type { NewTools, Org } from "@/lib/schemas/orgs";
import { orgSlug } from "@/lib/schemas/orgs";
import { decryptSecret } from "@/lib/secrets";
import { isObject } from "@/lib/json-text";

/** The stored rows of one organisation, read and written synchronously (better-sqlite3). */

export type AppRow = typeof apps.$inferSelect;
export type ReadRow = typeof checkResults.$inferSelect;

/** One read of one app, as the reader answered it. */
export interface NewRead {
  id: string;
  app: string;
  checkedAt: number;
  /** This app's own read. */
  durationMs: number;
  listing: AppListing;
}

/** Each app keeps its newest reads: a record is a few numbers and a snapshot's hash. */
export const HISTORY_PER_APP = 1000;

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

/**
 * The queries every answer about an organisation makes, prepared once per connection:
 * building a drizzle query costs more than running these (about 1 ms each for 50 apps).
 */
function preparedOf(db: Conn) {
  const org = sql.placeholder("org");
  const inOrder = [asc(apps.connectedAt), asc(apps.id)] as const;
  return {
    apps: db.select().from(apps).where(and(eq(apps.org, org), isNull(apps.owner))).orderBy(...inOrder).prepare(),
    personApps: db
      .select()
      .from(apps)
      .where(and(eq(apps.org, org), or(isNull(apps.owner), eq(apps.owner, sql.placeholder("person")))))
      .orderBy(...inOrder)
      .prepare(),
    newest: db
      .select({ read: checkResults })
      .from(checkResults)
      .innerJoin(apps, eq(apps.id, checkResults.app))
      .where(
        and(
          eq(apps.org, org),
          sql`${checkResults}.rowid = (SELECT newest.rowid FROM ${checkResults} AS newest WHERE newest.app = ${checkResults.app} ORDER BY newest.checked_at DESC, newest.rowid DESC LIMIT 1)`,
        ),
      )
      .prepare(),
  };
}
const preparedCache = new WeakMap<Conn, ReturnType<typeof preparedOf>>();
function prepared(db: Conn) {
  let found = preparedCache.get(db);
  if (found === undefined) preparedCache.set(db, (found = preparedOf(db)));
  return found;
}

/**
 * Whose list of apps (SPEC §12): the organisation's own (every member's assistant has them), or
 * one person's, `person` being their account id: the organisation's apps and their own personal
 * apps, together in connection order.
 */
export interface Scope {
  org: string;
  person?: string;
}

/** The organisation's own apps in connection order: earliest first, ties broken by id. */
export function orgApps(db: Conn, org: string): AppRow[] {
  return prepared(db).apps.all({ org });
}

/** The apps of a scope in connection order: a person's personal apps among the organisation's. */
export function scopeApps(db: Conn, scope: Scope): AppRow[] {
  return scope.person === undefined ? orgApps(db, scope.org) : prepared(db).personApps.all({ org: scope.org, person: scope.person });
}

/** The newest connection time of any app of the organisation, personal ones included (0 when none). */
export function lastConnectedAt(db: Conn, org: string): number {
  const row = db.select({ at: sql<number | null>`max(${apps.connectedAt})` }).from(apps).where(eq(apps.org, org)).get();
  return row?.at ?? 0;
}

/** How many personal apps the person has in the organisation. */
export function personalCount(db: Conn, org: string, person: string): number {
  return db.select({ n: sql<number>`count(*)` }).from(apps).where(and(eq(apps.org, org), eq(apps.owner, person))).get()?.n ?? 0;
}

/** One of the organisation's own apps (never a personal one), or the 404. */
export function requireApp(db: Conn, org: string, id: string): AppRow {
  const row = db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id), isNull(apps.owner))).get();
  if (row === undefined) throw new ApiError("not-found", `The organisation "${org}" has no app "${id}".`);
  return row;
}

/** One of the person's own personal apps, or the 404 (an org app, or someone else's, is not theirs). */
export function requirePersonalApp(db: Conn, org: string, person: string, id: string): AppRow {
  const row = db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id), eq(apps.owner, person))).get();
  if (row === undefined) throw new ApiError("not-found", `You have no personal app "${id}" here.`);
  return row;
}

/** Any app of the organisation, org or personal (for the schedule, which re-reads them all). */
export function anyApp(db: Conn, org: string, id: string): AppRow | undefined {
  return db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id))).get();
}

/** Every personal app of the organisation, by owner, in connection order (for the lookup's "someone else's app"). */
export function personalApps(db: Conn, org: string): AppRow[] {
  return db
    .select()
    .from(apps)
    .where(and(eq(apps.org, org), sql`${apps.owner} IS NOT NULL`))
    .orderBy(asc(apps.connectedAt), asc(apps.id))
    .all();
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

// Snapshots never change once stored: the parsed entries of the most recent ones are kept.
const parsed = new Map<string, readonly unknown[]>();
const PARSED_KEPT = 500;

export function snapshotEntries(db: Conn, hash: string): readonly unknown[] {
  const cached = parsed.get(hash);
  if (cached !== undefined) return cached;
  const row = db.select({ entries: snapshots.entries }).from(snapshots).where(eq(snapshots.hash, hash)).get();
  const entries = row === undefined ? [] : (JSON.parse(row.entries) as unknown[]);
  if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  parsed.set(hash, entries);
  return entries;
}

/** The newest read of every app of the organisation, by app id, in one query. */
export function latestReads(db: Conn, org: string): Map<string, ReadRow> {
  return new Map(prepared(db).newest.all({ org }).map((r) => [r.read.app, r.read]));
}

export function parseUnavailable(text: string | null): Unavailable | null {
  if (text === null) return null;
  const found = unavailableSchema.safeParse(JSON.parse(text));
  return found.success ? found.data : null;
}

/** The result a check stored before snapshots, when it is one. */
export function legacyResult(row: ReadRow): AppCheck | null {
  if (row.result === null) return null;
  const found = appCheck.safeParse(JSON.parse(row.result));
  return found.success ? found.data : null;
}

/**
 * An app as the engine is given it, from its newest read: the snapshot's entries, its
 * availability and timings. A read stored before snapshots gives back what its result kept of
 * each tool (name, title, description, declared hints); the next read stores the listing itself.
 */
export function listingOf(db: Conn, app: AppRow, read: ReadRow | undefined): AppListing {
  if (read === undefined) return { name: app.name, entries: [] };
  const timings = read.connectMs === null ? null : { connectMs: read.connectMs, listMs: read.listMs };
  const base = { name: app.name, unavailable: parseUnavailable(read.unavailable), timings, stopped: read.stopped, ...(read.charsRead === null ? {} : { charsRead: read.charsRead }) };
  if (read.snapshot !== null) return { ...base, entries: snapshotEntries(db, read.snapshot) };
  const legacy = legacyResult(read);
  const entries = (legacy?.tools ?? []).map((tool) => {
    const annotations = Object.fromEntries(Object.entries(tool.hints).filter(([, hint]) => hint.declared).map(([key, hint]) => [key, hint.value]));
    return {
      name: tool.name,
      ...(tool.titleFrom === "title" ? { title: tool.title } : {}),
      ...(tool.description !== null ? { description: tool.description } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    };
  });
  return { ...base, entries };
}

/** Stores reads (skipping apps removed meanwhile): each listing once as a snapshot, and trims each app's history. */
export function insertReads(db: Conn, reads: NewRead[]): void {
  db.transaction((tx) => {
    for (const read of reads) {
      const exists = tx.select({ id: apps.id }).from(apps).where(eq(apps.id, read.app)).get();
      if (exists === undefined) continue;
      const { listing } = read;
      // Nothing was listed when the app could not be reached: no snapshot then.
      const listed = listing.entries.length > 0 || !listing.unavailable;
      let hash: string | null = null;
      if (listed) {
        const snapshot = snapshotOf(listing.entries);
        hash = snapshot.hash;
        tx.insert(snapshots)
          .values({ hash, entries: snapshot.text, tools: listing.entries.length, chars: listing.entries.reduce<number>((n, e) => n + entryChars(e), 0), createdAt: read.checkedAt })
          .onConflictDoNothing()
          .run();
      }
      tx.insert(checkResults)
        .values({
          id: read.id,
          app: read.app,
          checkedAt: read.checkedAt,
          durationMs: read.durationMs,
          snapshot: hash,
          unavailable: listing.unavailable ? JSON.stringify(listing.unavailable) : null,
          connectMs: listing.timings?.connectMs ?? null,
          listMs: listing.timings?.listMs ?? null,
          stopped: listing.stopped === true,
          charsRead: listing.charsRead ?? null,
          result: null,
        })
        .run();
      tx.run(sql`DELETE FROM ${checkResults} WHERE ${checkResults.app} = ${read.app} AND rowid NOT IN (
        SELECT rowid FROM ${checkResults} WHERE ${checkResults.app} = ${read.app}
        ORDER BY ${checkResults.checkedAt} DESC, rowid DESC LIMIT ${HISTORY_PER_APP})`);
    }
  });
}

/** Forgets snapshots no read points at any more (after trimming or removing apps). */
export function dropUnusedSnapshots(db: Conn): void {
  const used = db.selectDistinct({ hash: checkResults.snapshot }).from(checkResults).where(sql`${checkResults.snapshot} IS NOT NULL`);
  db.delete(snapshots).where(notInArray(snapshots.hash, used)).run();
}

/** Reads newest first: of one app, or of every app of the organisation. */
export function readHistory(db: Conn, where: { org: string; app?: string }, limit: number): ReadRow[] {
  const rows = db
    .select({ read: checkResults })
    .from(checkResults)
    .innerJoin(apps, eq(apps.id, checkResults.app))
    .where(where.app === undefined ? eq(apps.org, where.org) : and(eq(apps.org, where.org), eq(apps.id, where.app)))
    .orderBy(...newestFirst)
    .limit(limit)
    .all();
  return rows.map((r) => r.read);
}

/** Snapshots' sizes, by hash. */
export function snapshotSizes(db: Conn, hashes: string[]): Map<string, { tools: number; chars: number }> {
  if (hashes.length === 0) return new Map();
  const rows = db.select({ hash: snapshots.hash, tools: snapshots.tools, chars: snapshots.chars }).from(snapshots).where(inArray(snapshots.hash, hashes)).all();
  return new Map(rows.map((r) => [r.hash, { tools: r.tools, chars: r.chars }]));
}

// ---- Review (SPEC §11) ----

export function newToolsOf(db: Conn, org: string): NewTools {
  const row = db.select({ newTools: orgSettings.newTools }).from(orgSettings).where(eq(orgSettings.org, org)).get();
  return row?.newTools === "wait-for-review" ? "wait-for-review" : "available";
}

/** Each named tool of a listing (a name listed twice counts at its first place), with its index and fingerprint. */
function namedTools(entries: readonly unknown[]): Map<string, { index: number; fingerprint: string }> {
  const named = new Map<string, { index: number; fingerprint: string }>();
  entries.forEach((entry, index) => {
    const name = isObject(entry) ? entry["name"] : undefined;
    if (typeof name === "string" && name !== "" && !named.has(name)) named.set(name, { index, fingerprint: fingerprint(entry) });
  });
  return named;
}

// A snapshot's fingerprints never change: kept beside its parsed entries.
const printed = new Map<string, Map<string, { index: number; fingerprint: string }>>();

function toolsOfListing(read: ReadRow | undefined, listing: AppListing) {
  if (read?.snapshot == null) return namedTools(listing.entries);
  const known = printed.get(read.snapshot);
  if (known !== undefined) return known;
  const made = namedTools(listing.entries);
  if (printed.size >= PARSED_KEPT) printed.delete(printed.keys().next().value!);
  printed.set(read.snapshot, made);
  return made;
}

/** The entries of `listing` (an app's newest read) a leader has not approved as they are: new, or changed since. */
export function awaitingReview(db: Conn, appId: string, read: ReadRow | undefined, listing: AppListing): number[] {
  const approved = new Map(db.select({ name: toolApprovals.name, fingerprint: toolApprovals.fingerprint }).from(toolApprovals).where(eq(toolApprovals.app, appId)).all().map((r) => [r.name, r.fingerprint]));
  return [...toolsOfListing(read, listing)].filter(([name, tool]) => approved.get(name) !== tool.fingerprint).map(([, tool]) => tool.index);
}

/**
 * Approves tools of `listing` (an app's newest read) as they are: those named, or all. Answers
 * the names approved; names the listing does not have are refused (409) before anything is stored.
 */
export function approveTools(db: Conn, appId: string, read: ReadRow | undefined, listing: AppListing, by: string | null, names?: readonly string[]): string[] {
  const tools = toolsOfListing(read, listing);
  const missing = (names ?? []).filter((name) => !tools.has(name));
  if (missing.length > 0) {
    throw new ApiError("conflict", `The app no longer lists ${missing.map((n) => `"${n}"`).join(", ")}: re-check it, then approve what it lists.`);
  }
  const chosen = names === undefined ? [...tools.keys()] : [...new Set(names)];
  const now = Date.now();
  db.transaction((tx) => {
    for (const name of chosen) {
      const values = { app: appId, name, fingerprint: tools.get(name)!.fingerprint, approvedAt: now, approvedBy: by };
      tx.insert(toolApprovals).values(values).onConflictDoUpdate({ target: [toolApprovals.app, toolApprovals.name], set: { fingerprint: values.fingerprint, approvedAt: now, approvedBy: by } }).run();
    }
  });
  return chosen;
}

/**
 * Sets `newTools`. Turning review on freezes what every app lists now as approved (by `by`), so
 * that only what changes from here on waits.
 */
export function setNewTools(db: Conn, org: string, value: NewTools, by: string): void {
  db.transaction((tx) => {
    const before = newToolsOf(tx, org);
    tx.insert(orgSettings).values({ org, newTools: value }).onConflictDoUpdate({ target: orgSettings.org, set: { newTools: value } }).run();
    if (value !== "wait-for-review" || before === "wait-for-review") return;
    const newest = latestReads(tx, org);
    for (const row of orgApps(tx, org)) {
      const read = newest.get(row.id);
      tx.delete(toolApprovals).where(eq(toolApprovals.app, row.id)).run();
      approveTools(tx, row.id, read, listingOf(tx, row, read), by);
    }
  });
}
