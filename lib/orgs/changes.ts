import "server-only";
import { checkInPool } from "@/lib/pool/engine-pool";
import type { AppCheck } from "@/lib/schemas/check";
import { snapshotChanges } from "@/lib/engine/changes";
import { resolveTheorem } from "@/lib/engine/theorem";
import type { SnapshotChange } from "@/lib/schemas/orgs";
import type { OrgContext } from "./context";
import { settingsOfApps } from "./settings";
import { requireOrg } from "./organisations";
import { orgApps, requireApp } from "./app-rows";
import { snapshotEntries } from "./snapshots";
import { latestReads, listingOf, readHistory } from "./reads";

/** How many changes the API answers by default, and at most. */
export const DEFAULT_CHANGES = 10;
export const MAX_CHANGES = 50;
/** Reads looked back over for changes. */
const READS_LOOKED_AT = 5000;

/**
 * The changes between an app's snapshots, newest first (SPEC §11): each time the app listed
 * something other than what it listed before, which tools were added, removed or changed, and
 * what that does for people, computed with today's list of apps around it.
 */
export async function appChanges(ctx: OrgContext, org: string, appId: string, limit = DEFAULT_CHANGES): Promise<SnapshotChange[]> {
  await requireOrg(ctx.db, org);
  await requireApp(ctx.db, org, appId);
  const wanted = Math.min(Math.max(1, Math.trunc(limit)), MAX_CHANGES);
  const reads = (await readHistory(ctx.db, { org, app: appId }, READS_LOOKED_AT)).reverse(); // oldest first

  const moves: { at: number; from: string; to: string }[] = [];
  let previous: string | null = null;
  for (const read of reads) {
    if (read.snapshot === null) continue; // nothing listed: not a change of listing
    if (previous !== null && read.snapshot !== previous) moves.push({ at: read.checkedAt, from: previous, to: read.snapshot });
    previous = read.snapshot;
  }
  const shown = moves.reverse().slice(0, wanted);
  if (shown.length === 0) return [];

  // The app's result under each snapshot, with every other app as it is now.
  const rows = await orgApps(ctx.db, org);
  const index = rows.findIndex((row) => row.id === appId);
  const newest = await latestReads(ctx.db, org);
  // Today's settings (SPEC §19) on both sides: a setting changed is not a change of the app's tools.
  const settings = await settingsOfApps(ctx.db, rows.map((row) => row.id));
  const listings = await Promise.all(rows.map(async (row) => ({ ...(await listingOf(ctx.db, row, newest.get(row.id))), settings: settings.get(row.id) ?? [] })));
  const checks = new Map<string, AppCheck>();
  const checkOf = async (hash: string): Promise<AppCheck> => {
    const known = checks.get(hash);
    if (known !== undefined) return known;
    const entries = await snapshotEntries(ctx.db, hash);
    const under = listings.map((listing, i) => (i === index ? { name: listing.name, entries, settings: listing.settings } : listing));
    const result = (await checkInPool(under, resolveTheorem(undefined))).apps[index]!;
    checks.set(hash, result);
    return result;
  };

  const changes: SnapshotChange[] = [];
  for (const move of shown) {
    const diff = snapshotChanges(
      { entries: await snapshotEntries(ctx.db, move.from), check: await checkOf(move.from) },
      { entries: await snapshotEntries(ctx.db, move.to), check: await checkOf(move.to) },
    );
    changes.push({ at: new Date(move.at).toISOString(), from: move.from, to: move.to, ...diff });
  }
  return changes;
}
