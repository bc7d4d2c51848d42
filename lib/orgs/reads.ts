import "server-only";
import { noteRead } from "@/lib/alerts/alerts";
import { and, eq, isNull, sql } from "drizzle-orm";
import { runPrepared, transaction, type Conn } from "@/lib/db/client";
import { newestFirstIn, newestOrder, placeholderRow } from "@/lib/db/dialect";
import { apps, checkResults, snapshots } from "@/lib/db/tables";
import { givenPromptTokens, givenSizes, type AppListing } from "@/lib/engine/check";
import { snapshotOf } from "@/lib/engine/changes";
import { entryChars } from "@/lib/engine/listing-size";
import { appCheck, unavailable as unavailableSchema, type AppCheck, type Unavailable } from "@/lib/schemas/check";
import type { AppRow } from "./app-rows";
import { parsed, snapshotContents } from "./snapshots";

/**
 * An app's stored reads: storing them (each listing once as a snapshot) and trimming each app's
 * history, reading them back newest first, and an app as the engine is given it from its newest
 * read (legacy reads stored before snapshots included).
 */

export type ReadRow = typeof checkResults.$inferSelect;

/** One read of one app, as the reader answered it. */
export interface NewRead {
  id: string;
  app: string;
  checkedAt: number;
  /** This app's own read. */
  durationMs: number;
  listing: AppListing;
  /** The address and header it was read with: a read of an app that has moved since is not stored. */
  readAs: Pick<AppRow, "url" | "urlSecret" | "headerValue">;
  /** The app's newest snapshot when it was read (absent: none known), to say whether this read lists something else (SPEC §28). */
  before?: string;
}

/** Each app keeps its newest reads: a record is a few numbers and a snapshot's hash. */
export const HISTORY_PER_APP = 1000;

const wholeMs = (ms: number | null | undefined): number | null => (ms === undefined || ms === null ? null : Math.round(ms));


/** The newest read of every app of the organisation, by app id, in one query. */
export async function latestReads(db: Conn, org: string): Promise<Map<string, ReadRow>> {
  const rows = await db
    .select({ read: checkResults })
    .from(checkResults)
    .innerJoin(apps, eq(apps.id, checkResults.app))
    .where(
      and(
        eq(apps.org, org),
        sql`${checkResults.id} = (SELECT newest.id FROM ${checkResults} AS newest WHERE newest.app = ${checkResults.app} ORDER BY ${sql.join([...newestFirstIn(db, "newest")], sql`, `)} LIMIT 1)`,
      ),
    );
  return new Map(rows.map((r) => [r.read.app, r.read]));
}

export function parseUnavailable(text: string | null): Unavailable | null {
  if (text === null) return null;
  const found = unavailableSchema.safeParse(JSON.parse(text));
  return found.success ? found.data : null;
}

/** The revision and cache hint a read stored (SPEC §18). */
function protocolOf(read: ReadRow): Pick<AppListing, "protocol" | "cache"> {
  const cache = read.cacheTtlMs === null ? null : { ttlMs: read.cacheTtlMs, scope: read.cacheScope === "public" ? ("public" as const) : ("private" as const) };
  return { protocol: read.protocol, cache };
}

/** A read's own facts, which name nothing: its timings, protocol revision and cache hint (none for an app never read). */
export function ownFacts(read: ReadRow | undefined): Pick<AppListing, "timings" | "protocol" | "cache"> {
  if (read === undefined) return {};
  return { timings: read.connectMs === null ? null : { connectMs: read.connectMs, listMs: read.listMs }, ...protocolOf(read) };
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
export async function listingOf(db: Conn, app: AppRow, read: ReadRow | undefined): Promise<AppListing> {
  if (read === undefined) return { name: app.name, entries: [] };
  const { timings, protocol, cache } = ownFacts(read);
  const base = { name: app.name, unavailable: parseUnavailable(read.unavailable), timings, stopped: read.stopped, ...(read.charsRead === null ? {} : { charsRead: read.charsRead }), protocol, cache };
  if (read.snapshot !== null) return { ...base, ...(await snapshotContents(db, read.snapshot)) };
  return { ...base, entries: legacyEntries(read) };
}

/** The entries a read stored before snapshots gives back: what its result kept of each tool (name, title, description, declared hints). */
export function legacyEntries(read: ReadRow): unknown[] {
  const legacy = legacyResult(read);
  return (legacy?.tools ?? []).map((tool) => {
    const annotations = Object.fromEntries(Object.entries(tool.hints).filter(([, hint]) => hint.declared).map(([key, hint]) => [key, hint.value]));
    return {
      name: tool.name,
      ...(tool.titleFrom === "title" ? { title: tool.title } : {}),
      ...(tool.description !== null ? { description: tool.description } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    };
  });
}

/**
 * Stores reads, each listing once as a snapshot, and trims each app's history. A read of an app
 * removed meanwhile, or given another address or header meanwhile, is not stored: it is not what
 * the app is now (the change that moved it stores its own read). Four statements a read: its
 * snapshot and the read itself are each stored only where the app is still as it was read, its
 * history trimmed, and whether it changes the app's availability as alerts tell it (SPEC §28,
 * lib/alerts/alerts.ts `noteRead`: one statement for an available read); another gives a stored snapshot the tokens it lacks, unless this process
 * has read that snapshot with its tokens (they are never taken away). Answers each read's snapshot
 * (null: it listed nothing).
 */
export async function insertReads(db: Conn, reads: NewRead[]): Promise<(string | null)[]> {
  const hashes: (string | null)[] = [];
  await transaction(db, async (tx) => {
    for (const read of reads) {
      const asRead = { app: read.app, url: read.readAs.url, urlSecret: read.readAs.urlSecret, headerValue: read.readAs.headerValue };
      const { listing } = read;
      // Nothing was listed when the app could not be reached: no snapshot then.
      const listed = listing.entries.length > 0 || !listing.unavailable;
      let hash: string | null = null;
      if (listed) {
        const snapshot = snapshotOf(listing.entries);
        hash = snapshot.hash;
        // The reader measured each entry as it read its page (`entrySizes`): not measured again under the lock.
        const sizes = givenSizes(listing) ?? listing.entries.map(entryChars);
        const chars = sizes.reduce((n, c) => n + c, 0);
        const given = givenPromptTokens(listing);
        const promptChars = listing.promptChars?.length === listing.entries.length ? listing.promptChars : undefined;
        const tokens = given === undefined ? null : JSON.stringify({ tokens: given, ...(promptChars === undefined ? {} : { chars: promptChars }) });
        await runPrepared(tx, "theorem_store_snapshot", () => storeSnapshot(tx), { ...asRead, hash, entries: snapshot.text, tokens, tools: listing.entries.length, chars, createdAt: read.checkedAt });
        // A snapshot stored before tokens were counted gains them from this read (SPEC §21).
        if (tokens !== null && parsed.get(hash)?.tokens === undefined) await runPrepared(tx, "theorem_snapshot_tokens", () => snapshotTokens(tx), { ...asRead, hash, tokens });
      }
      await runPrepared(tx, "theorem_store_read", () => storeRead(tx), {
        ...asRead,
        id: read.id,
        checkedAt: read.checkedAt,
        durationMs: Math.round(read.durationMs),
        snapshot: hash,
        unavailable: listing.unavailable ? JSON.stringify(listing.unavailable) : null,
        // Whole milliseconds, as both dialects store them (PostgreSQL's bigint takes no fraction).
        connectMs: wholeMs(listing.timings?.connectMs),
        listMs: wholeMs(listing.timings?.listMs),
        stopped: listing.stopped === true,
        charsRead: listing.charsRead ?? null,
        protocol: listing.protocol ?? null,
        cacheTtlMs: listing.cache?.ttlMs ?? null,
        cacheScope: listing.cache?.scope ?? null,
        challenge: listing.challenge ?? null,
      });
      await runPrepared(tx, "theorem_trim_history", () => trimHistory(tx), { app: read.app });
      // SPEC §28: whether this read makes the app unavailable twice in a row, or available again, decided on what is stored.
      await noteRead(tx, read, Boolean(listing.unavailable));
      hashes.push(hash);
    }
  });
  return hashes;
}

/** The app (placeholder `app`) as it was read: at the address and header of placeholders `url`, `urlSecret` and `headerValue`. */
const appAsRead = () =>
  sql`${apps} where ${and(eq(apps.id, sql.placeholder("app")), eq(apps.url, sql.placeholder("url")), sql`${apps.urlSecret} is not distinct from ${sql.placeholder("urlSecret")}`, sql`${apps.headerValue} is not distinct from ${sql.placeholder("headerValue")}`)}`;

/**
 * Stores a snapshot once (placeholders named as its columns), where the app is as it was read. A
 * snapshot stored already is left as it is, unlocked: apps listing the same tools share it.
 */
const storeSnapshot = (db: Conn) => db.insert(snapshots).select(sql`select ${placeholderRow(db, snapshots)} from ${appAsRead()}`).onConflictDoNothing();

/** Gives the snapshot (placeholder `hash`) the `tokens` it lacks, where the app is as it was read. */
const snapshotTokens = (db: Conn) =>
  db
    .update(snapshots)
    .set({ tokens: sql`${sql.placeholder("tokens")}` })
    .where(and(eq(snapshots.hash, sql.placeholder("hash")), isNull(snapshots.tokens), sql`exists (select 1 from ${appAsRead()})`));

/** Stores a read (placeholders named as its columns; `result` is only ever a legacy read's), where the app is as it was read. */
const storeRead = (db: Conn) => db.insert(checkResults).select(sql`select ${placeholderRow(db, checkResults, { result: sql`null` })} from ${appAsRead()}`);

/**
 * Deletes the reads of the app (placeholder `app`) past its newest HISTORY_PER_APP: those older
 * than the oldest kept, found by one step along the app's index (not a list of the kept ids to
 * compare every read against, which cost half a millisecond a re-check once an app's history was full).
 */
function trimHistory(db: Conn) {
  const app = sql.placeholder("app");
  const order = sql.join(newestOrder(db), sql`, `);
  const oldestKept = sql`(SELECT ${order} FROM ${checkResults} WHERE ${checkResults.app} = ${app} ORDER BY ${sql.join(newestFirstIn(db), sql`, `)} LIMIT 1 OFFSET ${HISTORY_PER_APP - 1})`;
  return db.delete(checkResults).where(and(eq(checkResults.app, app), sql`(${order}) < ${oldestKept}`));
}

/**
 * The snapshots of an app's `limit` newest reads, newest first (null: that read listed nothing):
 * only that column, in a prepared statement, as a re-check asks before every read (whole rows
 * cost most of a re-check's own CPU in their building and mapping).
 */
export async function recentSnapshots(db: Conn, app: string, limit: number): Promise<(string | null)[]> {
  const build = () => db.select({ snapshot: checkResults.snapshot }).from(checkResults).where(eq(checkResults.app, sql.placeholder("app"))).orderBy(...newestFirstIn(db)).limit(sql.placeholder("limit"));
  const rows = await runPrepared(db, "theorem_recent_snapshots", build, { app, limit });
  return rows.map((row) => row.snapshot);
}

/** Reads newest first: of one app, or of every app of the organisation. */
export async function readHistory(db: Conn, where: { org: string; app?: string }, limit: number): Promise<ReadRow[]> {
  const rows = await db
    .select({ read: checkResults })
    .from(checkResults)
    .innerJoin(apps, eq(apps.id, checkResults.app))
    .where(where.app === undefined ? eq(apps.org, where.org) : and(eq(apps.org, where.org), eq(apps.id, where.app)))
    .orderBy(...newestFirstIn(db))
    .limit(limit);
  return rows.map((r) => r.read);
}
