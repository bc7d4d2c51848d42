import "server-only";
import { eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Conn } from "@/lib/db/client";
import { checkResults, snapshots } from "@/lib/db/tables";
import type { AppListing } from "@/lib/engine/check";
import { processCaches } from "@/lib/cache/caches";

/**
 * Stored snapshots (a listing's entries, stored once and shared by the reads that listed them):
 * parsed once per process while used, their sizes, and forgetting those no read points at.
 */

/** A snapshot as parsed once: its entries, and (when review asked for them) its named tools' fingerprints. */
interface ParsedSnapshot {
  entries: readonly unknown[];
  /** Each entry's `promptTokens` as counted when it was read (SPEC §21); absent for a snapshot stored before. */
  tokens?: readonly (number | null)[];
  /** The characters of the same texts, when they were stored with them. */
  chars?: readonly (number | null)[];
  named?: Map<string, { index: number; fingerprint: string }>;
}

/** A parsed snapshot's estimated bytes: parsed JSON takes about 1.4 bytes per character, counted as 2. */
const snapshotBytes = (text: string) => 2 * text.length + 256;
/**
 * Snapshots never change once stored: each is parsed once per process, while it is used, kept in
 * the process's caches (lib/cache/caches.ts) under its hash, which is the hash of its text (the key rule by construction).
 */
export const parsed = processCaches().cache<ParsedSnapshot>("snapshots");

async function parsedSnapshot(db: Conn, hash: string): Promise<ParsedSnapshot> {
  const cached = parsed.get(hash);
  if (cached !== undefined) return cached;
  const [row] = await db.select({ entries: snapshots.entries, tokens: snapshots.tokens }).from(snapshots).where(eq(snapshots.hash, hash)).limit(1);
  if (row === undefined) return { entries: [] };
  const made = parsedRow(row);
  parsed.set(hash, made, snapshotBytes(row.entries));
  return made;
}

/** Parses, in one query, the snapshots among `hashes` not kept yet (naming a list after a change reads them all). */
export async function loadSnapshots(db: Conn, hashes: readonly string[]): Promise<void> {
  const missing = [...new Set(hashes)].filter((hash) => parsed.get(hash) === undefined);
  if (missing.length === 0) return;
  for (const row of await db.select({ hash: snapshots.hash, entries: snapshots.entries, tokens: snapshots.tokens }).from(snapshots).where(inArray(snapshots.hash, missing))) {
    parsed.set(row.hash, parsedRow(row), snapshotBytes(row.entries));
  }
}

function parsedRow(row: { entries: string; tokens: string | null }): ParsedSnapshot {
  const entries = JSON.parse(row.entries) as unknown[];
  if (row.tokens === null) return { entries };
  // Stored as `{"tokens": [...], "chars": [...]}`.
  const stored = JSON.parse(row.tokens) as { tokens: (number | null)[]; chars?: (number | null)[] };
  return { entries, tokens: stored.tokens, ...(stored.chars === undefined ? {} : { chars: stored.chars }) };
}

export async function snapshotEntries(db: Conn, hash: string): Promise<readonly unknown[]> {
  return (await parsedSnapshot(db, hash)).entries;
}

/** What a snapshot gives the engine: its entries, and each one's counts when they were stored with it (SPEC §21). */
export async function snapshotContents(db: Conn, hash: string): Promise<Pick<AppListing, "entries" | "promptTokens" | "promptChars">> {
  const { entries, tokens, chars } = await parsedSnapshot(db, hash);
  return { entries, ...(tokens === undefined ? {} : { promptTokens: tokens }), ...(chars === undefined ? {} : { promptChars: chars }) };
}

/** Forgets snapshots no read points at any more (after trimming or removing apps). */
export async function dropUnusedSnapshots(db: Conn): Promise<void> {
  const used = db.selectDistinct({ hash: checkResults.snapshot }).from(checkResults).where(sql`${checkResults.snapshot} IS NOT NULL`);
  await db.delete(snapshots).where(notInArray(snapshots.hash, used));
}

/** Snapshots' sizes, by hash. */
export async function snapshotSizes(db: Conn, hashes: string[]): Promise<Map<string, { tools: number; chars: number }>> {
  if (hashes.length === 0) return new Map();
  const rows = await db.select({ hash: snapshots.hash, tools: snapshots.tools, chars: snapshots.chars }).from(snapshots).where(inArray(snapshots.hash, hashes));
  return new Map(rows.map((r) => [r.hash, { tools: r.tools, chars: r.chars }]));
}
