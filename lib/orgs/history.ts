import "server-only";
import type { Conn } from "@/lib/db/client";
import { snapshotChanges } from "@/lib/engine/changes";
import { LISTING_CHAR_LIMIT } from "@/lib/engine/limits";
import { listingTooLargeMessage } from "@/lib/engine/listing-size";
import type { HistoryEntry, TrendPoint } from "@/lib/schemas/orgs";
import { DEFAULT_HISTORY, MAX_HISTORY } from "./limits";
import { snapshotEntries, snapshotSizes } from "./snapshots";
import { legacyResult, parseUnavailable, readHistory, type ReadRow } from "./reads";

/**
 * History that shows change (SPEC §11): runs of reads with the same outcome fold into one
 * entry ("unchanged, 14 checks, 2–3 Dec"); an entry that differs from the run before it says how.
 */

/** Raw reads looked at per entry asked for: enough to fold long unchanged runs. */
const READS_PER_ENTRY = 50;

/** What makes two reads the same outcome. */
function outcomeKey(row: ReadRow): string {
  if (row.snapshot === null && row.result !== null) {
    const legacy = legacyResult(row);
    return `legacy|${row.unavailable ?? ""}|${legacy?.listing.chars ?? ""}|${legacy?.tools.length ?? ""}`;
  }
  return `${row.snapshot ?? ""}|${row.unavailable ?? ""}|${row.stopped}`;
}

function entryOf(run: ReadRow[], sizes: Map<string, { tools: number; chars: number }>): HistoryEntry {
  const newest = run[0]!;
  const oldest = run.at(-1)!;
  const size = newest.snapshot === null ? null : (sizes.get(newest.snapshot) ?? null);
  const legacy = newest.snapshot === null ? legacyResult(newest) : null;
  const chars = size?.chars ?? legacy?.listing.chars ?? null;
  const unavailable = parseUnavailable(newest.unavailable) ?? overBound(newest, chars);
  return {
    appId: newest.app,
    from: new Date(oldest.checkedAt).toISOString(),
    to: new Date(newest.checkedAt).toISOString(),
    count: run.length,
    status: unavailable === null ? "available" : "unavailable",
    unavailable,
    snapshot: newest.snapshot,
    tools: size?.tools ?? legacy?.tools.length ?? null,
    chars,
    stopped: newest.stopped,
    timings: newest.connectMs === null ? null : { connectMs: newest.connectMs, listMs: newest.listMs },
    durationMs: newest.durationMs,
    change: null,
  };
}

/**
 * A read whose listing passed the size bound (SPEC §7) was unavailable, though the reader stored
 * no reason (the engine gives it, from the size): history says so as the check did.
 */
function overBound(read: ReadRow, chars: number | null): HistoryEntry["unavailable"] {
  const total = Math.max(chars ?? 0, read.charsRead ?? 0);
  if (!read.stopped && total <= LISTING_CHAR_LIMIT) return null;
  return { code: "listing-too-large", message: listingTooLargeMessage("The app", total, LISTING_CHAR_LIMIT, read.stopped, []) };
}

/** What `newer` changed from `older` (both of one app). */
async function changeBetween(db: Conn, older: HistoryEntry, newer: HistoryEntry): Promise<HistoryEntry["change"]> {
  const counts =
    older.snapshot !== null && newer.snapshot !== null && older.snapshot !== newer.snapshot
      ? snapshotChanges({ entries: await snapshotEntries(db, older.snapshot), check: null }, { entries: await snapshotEntries(db, newer.snapshot), check: null })
      : null;
  const status = older.status !== newer.status ? { from: older.status, to: newer.status } : null;
  const reason = older.unavailable?.message !== newer.unavailable?.message && newer.unavailable !== null && older.unavailable !== null;
  const chars = older.chars !== null && newer.chars !== null && older.chars !== newer.chars ? { from: older.chars, to: newer.chars } : null;
  const change = { status, reason, added: counts?.added.length ?? 0, removed: counts?.removed.length ?? 0, changed: counts?.changed.length ?? 0, chars };
  const nothing = status === null && !reason && change.added + change.removed + change.changed === 0 && chars === null;
  return nothing ? null : change;
}

/** Folds one app's reads (newest first) into entries, newest first. */
async function foldApp(db: Conn, rows: ReadRow[], sizes: Map<string, { tools: number; chars: number }>): Promise<HistoryEntry[]> {
  const runs: ReadRow[][] = [];
  for (const row of rows) {
    const run = runs.at(-1);
    if (run !== undefined && outcomeKey(run[0]!) === outcomeKey(row)) run.push(row);
    else runs.push([row]);
  }
  const entries = runs.map((run) => entryOf(run, sizes));
  for (let i = 0; i < entries.length - 1; i++) entries[i]!.change = await changeBetween(db, entries[i + 1]!, entries[i]!);
  return entries;
}

/** The history of one app, or of every app of the organisation, newest first, `limit` entries. */
export async function foldedHistory(db: Conn, where: { org: string; app?: string }, limit = DEFAULT_HISTORY): Promise<HistoryEntry[]> {
  const wanted = Math.min(Math.max(1, Math.trunc(limit)), MAX_HISTORY);
  const rows = await readHistory(db, where, wanted * READS_PER_ENTRY);
  const sizes = await snapshotSizes(db, [...new Set(rows.flatMap((r) => (r.snapshot === null ? [] : [r.snapshot])))]);
  const byApp = new Map<string, ReadRow[]>();
  for (const row of rows) byApp.set(row.app, [...(byApp.get(row.app) ?? []), row]);
  const entries = (await Promise.all([...byApp.values()].map((appRows) => foldApp(db, appRows, sizes)))).flat();
  return entries.sort((a, b) => Date.parse(b.to) - Date.parse(a.to)).slice(0, wanted);
}

/** Reads shown in the trends, at most. */
export const MAX_TREND_POINTS = 500;

/** Each of the app's newest reads (`limit` of them), oldest first: its size and its own timings. */
export async function readTrends(db: Conn, where: { org: string; app: string }, limit = 100): Promise<TrendPoint[]> {
  const rows = (await readHistory(db, where, Math.min(Math.max(1, Math.trunc(limit)), MAX_TREND_POINTS))).reverse();
  const sizes = await snapshotSizes(db, [...new Set(rows.flatMap((r) => (r.snapshot === null ? [] : [r.snapshot])))]);
  return rows.map((row) => ({
    at: new Date(row.checkedAt).toISOString(),
    status: row.unavailable === null ? "available" : "unavailable",
    chars: row.snapshot === null ? (legacyResult(row)?.listing.chars ?? null) : (sizes.get(row.snapshot)?.chars ?? null),
    connectMs: row.connectMs,
    listMs: row.listMs,
  }));
}
