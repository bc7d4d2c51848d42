import "server-only";
import { eq } from "drizzle-orm";
import { transaction, type Conn } from "@/lib/db/client";
import { toolApprovals } from "@/lib/db/tables";
import { fingerprint, snapshotChanges, type SnapshotChanges } from "@/lib/engine/changes";
import { nameApps, type AppListing, type ReadApp } from "@/lib/engine/check";
import { needsRisk, toolsThatWait } from "@/lib/engine/review";
import { resolveTheorem } from "@/lib/engine/theorem";
import { isObject } from "@/lib/json-text";
import { readAppsInPool } from "@/lib/pool/engine-pool";
import type { NewTools } from "@/lib/schemas/orgs";
import { partsOf, processNames, type NameCache } from "./named";
import { allApps, type AppRow } from "./app-rows";
import { snapshotEntries } from "./snapshots";
import { HISTORY_PER_APP, latestReads, listingOf, readHistory, type ReadRow } from "./reads";
import { approveTools, reviewModes, setNewTools } from "./approvals";

/**
 * The tools an app lists now as a leader approved them: each approved tool's entry, found by its
 * fingerprint among the app's stored snapshots, newest first. Answers the entries by name, and
 * the names whose approved entry is no longer stored.
 */
async function approvedEntries(db: Conn, org: string, appId: string, wanted: ReadonlyMap<string, string>): Promise<{ found: Map<string, unknown>; lost: Set<string> }> {
  const found = new Map<string, unknown>();
  const looked = new Set<string>();
  for (const read of await readHistory(db, { org, app: appId }, HISTORY_PER_APP)) {
    if (found.size === wanted.size) break;
    if (read.snapshot === null || looked.has(read.snapshot)) continue;
    looked.add(read.snapshot);
    for (const entry of await snapshotEntries(db, read.snapshot)) {
      const name = isObject(entry) ? entry["name"] : undefined;
      if (typeof name !== "string" || found.has(name) || wanted.get(name) === undefined) continue;
      if (fingerprint(entry) === wanted.get(name)) found.set(name, entry);
    }
  }
  return { found, lost: new Set([...wanted.keys()].filter((name) => !found.has(name))) };
}

/** What the caller of `settleReview` knows already: the organisation's mode, or the mode in force for each app (as stored now). */
interface KnownModes {
  orgMode?: NewTools;
  modes?: ReadonlyMap<string, NewTools>;
}

/**
 * Review as a read is stored (SPEC §11, §19, §20, §25): the apps among `appIds` (personal ones too) get every
 * new or changed tool that need not wait under the mode in force for each (its own `newTools`, or
 * the organisation's: `known.orgMode` when the caller has it; `known.modes`, each app's, when it
 * has those) approved as read (by no one). Which wait is `toolsThatWait`'s to say, from the change
 * between the approved tools and the newest read, computed with every other app around it; a tool
 * whose approved entry is no longer stored waits.
 */
export async function settleReview(tx: Conn, org: string, appIds: readonly string[], known: KnownModes = {}, names: NameCache = processNames()): Promise<void> {
  const modes = known.modes ?? (await reviewModes(tx, org, appIds, known.orgMode));
  // "available" holds nothing back; "wait-for-review" holds back every change: only "wait-if-risky" decides per change.
  if (![...modes.values()].some(needsRisk)) return;
  const around = await aroundOf(tx, org);
  for (const appId of appIds) {
    const mode = modes.get(appId);
    if (mode === undefined || !needsRisk(mode)) continue;
    const held = await changeSinceApproved(tx, org, appId, around, names);
    if (held === null) continue;
    const waiting = toolsThatWait(mode, held.change);
    const passing = [...held.candidates].filter((name) => !waiting.has(name) && !held.lost.has(name));
    if (passing.length > 0) await approveTools(tx, held.row.id, held.read, await listingOf(tx, held.row, held.read), null, passing);
  }
}

/**
 * The tools of the app's newest read that are held (SPEC §20's risk) and of high risk: those of
 * `held` whose change since a leader approved them ranks high (`tools.risky`, SPEC §28).
 */
export async function highRiskHeld(tx: Conn, org: string, appId: string, held: ReadonlySet<string>, names: NameCache = processNames()): Promise<string[]> {
  const found = await changeSinceApproved(tx, org, appId, await aroundOf(tx, org), names);
  if (found === null) return [];
  return [...found.change.added, ...found.change.changed].filter((tool) => tool.risk === "high" && held.has(tool.name)).map((tool) => tool.name);
}

/** The organisation's apps and their newest reads, with each list's listings and parts once computed (by whose list). */
interface Around {
  every: AppRow[];
  newest: Map<string, ReadRow>;
  lists: Map<string, { rows: AppRow[]; listings: AppListing[] | null; parts: ReadApp[] | null }>;
}

async function aroundOf(tx: Conn, org: string): Promise<Around> {
  return { every: await allApps(tx, org), newest: await latestReads(tx, org), lists: new Map() };
}

/**
 * The change between the tools a leader approved and the app's newest read (null: none read, or
 * nothing new): computed with every other app of its list around it; `candidates` the tools not
 * approved as they are now, `lost` those whose approved entry is no longer stored.
 */
async function changeSinceApproved(
  tx: Conn,
  org: string,
  appId: string,
  around: Around,
  names: NameCache,
): Promise<{ row: AppRow; read: ReadRow; candidates: Set<string>; lost: Set<string>; change: SnapshotChanges } | null> {
  const { every, newest, lists } = around;
  // Each list's listings and parts, by whose list: the organisation's apps, and a personal app's owner's with them (SPEC §25).
  const owner = every.find((row) => row.id === appId)?.owner;
  if (owner === undefined) return null;
  const key = owner ?? "";
  let list = lists.get(key);
  if (list === undefined) lists.set(key, (list = { rows: every.filter((row) => row.owner === null || row.owner === owner), listings: null, parts: null }));
  const { rows } = list;
  const index = rows.findIndex((row) => row.id === appId);
  const row = rows[index]!;
  const read = newest.get(appId);
  if (read?.snapshot == null) return null;
  const entries = await snapshotEntries(tx, read.snapshot);
  const approvals = new Map((await tx.select({ name: toolApprovals.name, fingerprint: toolApprovals.fingerprint }).from(toolApprovals).where(eq(toolApprovals.app, appId))).map((r) => [r.name, r.fingerprint]));
  // The tools not approved as they are now, and the approved entry of those that were approved before.
  const candidates = new Set<string>();
  const wanted = new Map<string, string>();
  for (const entry of entries) {
    const name = isObject(entry) ? entry["name"] : undefined;
    if (typeof name !== "string" || name === "" || candidates.has(name)) continue;
    const approved = approvals.get(name);
    if (approved === fingerprint(entry)) continue;
    candidates.add(name);
    if (approved !== undefined) wanted.set(name, approved);
  }
  if (candidates.size === 0) return null;
  const { found, lost } = await approvedEntries(tx, org, appId, wanted);
  // The approved side: the listing with each candidate as approved (or absent, if it is new).
  const before = entries.flatMap((entry) => {
    const name = isObject(entry) ? entry["name"] : undefined;
    if (typeof name !== "string" || !candidates.has(name)) return [entry];
    return found.has(name) ? [found.get(name)] : [];
  });
  const listings = (list.listings ??= await Promise.all(rows.map((r) => listingOf(tx, r, newest.get(r.id)))));
  // Every app's part as the list's names keep it (without settings: a change's risk is the tools' own), but this app's before the change.
  const parts = (list.parts ??= (await partsOf(names, rows.map((r) => ({ row: r, read: newest.get(r.id), settings: [], approvals: null })), listings)).parts);
  // The counts read with the listing are of its entries now, not of these.
  const listing: AppListing = { ...listings[index]! };
  delete listing.promptTokens;
  delete listing.promptChars;
  const [approvedPart] = await readAppsInPool([{ ...listing, entries: before }]);
  const theorem = resolveTheorem(undefined);
  const withThese = (these: readonly unknown[]) => listings.map((listing, i) => (i === index ? { ...listing, entries: these } : listing));
  const was = nameApps(withThese(before), parts.map((part, i) => (i === index ? approvedPart! : part)), theorem);
  const now = nameApps(withThese(entries), parts, theorem);
  const change = snapshotChanges({ entries: before, check: was.apps[index]! }, { entries, check: now.apps[index]! });
  return { row, read, candidates, lost, change };
}

/**
 * Sets the organisation's `newTools` (lib/orgs/approvals.ts `setNewTools`), then lets through what the
 * new mode need not hold: from "wait-for-review" to "wait-if-risky", the low and medium changes waiting now pass.
 */
export async function setReviewMode(db: Conn, org: string, value: NewTools, by: string): Promise<void> {
  await transaction(db, async (tx) => {
    await setNewTools(tx, org, value, by);
    await settleReview(tx, org, (await allApps(tx, org)).map((row) => row.id), { orgMode: value });
  });
}
