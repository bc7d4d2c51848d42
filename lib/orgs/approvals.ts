import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { ConflictError } from "@/lib/errors";
import { runPrepared, transaction, type Conn } from "@/lib/db/client";
import { apps, appSettings, member, organization, orgSettings, toolApprovals } from "@/lib/db/tables";
import type { AppListing } from "@/lib/engine/check";
import { fingerprint } from "@/lib/engine/changes";
import { isObject } from "@/lib/json-text";
import type { NewTools } from "@/lib/schemas/orgs";
import { allApps } from "./app-rows";
import { newToolsOf, ownSettingsLift, reviewModeOf } from "./organisations";
import { latestReads, listingOf, type ReadRow } from "./reads";
import { parsed } from "./snapshots";

/**
 * Review as stored (SPEC §11, §19): the mode in force for each app, the tools a leader approved
 * (by fingerprint), those waiting, approving, and setting the organisation's `newTools`.
 * (lib/orgs/review.ts settles review as a read is stored, over these.)
 */

/**
 * The review mode in force (SPEC §11, §19, §25) for each app among `appIds`, in one query: its own
 * `newTools`, or the organisation's (`orgMode` when the caller has it); a personal app's own lifts
 * the organisation's only when its owner is a leader (`reviewModeOf`). Apps of no such
 * organisation are left out.
 */
export async function reviewModes(db: Conn, org: string, appIds: readonly string[], orgMode?: NewTools): Promise<Map<string, NewTools>> {
  if (appIds.length === 0) return new Map();
  const select = () =>
    db
      .select({ app: apps.id, owner: apps.owner, own: appSettings.newTools, org: orgSettings.newTools, ownerRole: member.role })
      .from(apps)
      .leftJoin(appSettings, eq(appSettings.app, apps.id))
      .leftJoin(orgSettings, eq(orgSettings.org, apps.org))
      .leftJoin(organization, eq(organization.slug, apps.org))
      .leftJoin(member, and(eq(member.organizationId, organization.id), eq(member.userId, apps.owner)));
  // One app (a re-check) takes a kept statement.
  const rows =
    appIds.length === 1
      ? await runPrepared(db, "theorem_review_mode", () => select().where(and(eq(apps.org, sql.placeholder("org")), eq(apps.id, sql.placeholder("app")))), { org, app: appIds[0] })
      : await select().where(and(eq(apps.org, org), inArray(apps.id, [...appIds])));
  return new Map(rows.map((row) => [row.app, reviewModeOf(row.own, orgMode ?? row.org, ownSettingsLift(row.owner, row.ownerRole))]));
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

function toolsOfListing(read: Pick<ReadRow, "snapshot"> | undefined, listing: AppListing) {
  if (read?.snapshot == null) return namedTools(listing.entries);
  // A snapshot's fingerprints never change: kept beside its parsed entries (when it is still kept).
  const kept = parsed.get(read.snapshot);
  if (kept !== undefined && kept.entries === listing.entries) return (kept.named ??= namedTools(listing.entries));
  return namedTools(listing.entries);
}

/** The entries of `listing` (an app's newest read) not approved as they are in `approved`: new, or changed since. */
export function awaitingIn(read: Pick<ReadRow, "snapshot"> | undefined, listing: AppListing, approved: ReadonlyMap<string, string>): number[] {
  return [...toolsOfListing(read, listing)].filter(([name, tool]) => approved.get(name) !== tool.fingerprint).map(([, tool]) => tool.index);
}

/**
 * Approves tools of `listing` (an app's newest read) as they are: those named, or all. Answers
 * the names approved; names the listing does not have are refused (409) before anything is stored.
 */
export async function approveTools(db: Conn, appId: string, read: ReadRow | undefined, listing: AppListing, by: string | null, names?: readonly string[]): Promise<string[]> {
  const tools = toolsOfListing(read, listing);
  const missing = (names ?? []).filter((name) => !tools.has(name));
  if (missing.length > 0) {
    throw new ConflictError(`The app no longer lists ${missing.map((n) => `"${n}"`).join(", ")}: re-check it, then approve what it lists.`);
  }
  const chosen = names === undefined ? [...tools.keys()] : [...new Set(names)];
  const now = Date.now();
  await transaction(db, async (tx) => {
    for (const name of chosen) {
      const values = { app: appId, name, fingerprint: tools.get(name)!.fingerprint, approvedAt: now, approvedBy: by };
      await tx
        .insert(toolApprovals)
        .values(values)
        .onConflictDoUpdate({ target: [toolApprovals.app, toolApprovals.name], set: { fingerprint: values.fingerprint, approvedAt: now, approvedBy: by } });
    }
  });
  return chosen;
}

/**
 * Sets `newTools`. Turning review on (from `available` to either waiting mode) freezes what
 * every app lists now as approved (by `by`), so that only what changes from here on waits.
 */
export async function setNewTools(db: Conn, org: string, value: NewTools, by: string): Promise<void> {
  await transaction(db, async (tx) => {
    const before = await newToolsOf(tx, org);
    await tx.insert(orgSettings).values({ org, newTools: value }).onConflictDoUpdate({ target: orgSettings.org, set: { newTools: value } });
    if (value === "available" || before !== "available") return;
    const newest = await latestReads(tx, org);
    // An app with a newTools of its own (SPEC §19) does not follow the organisation's: its approvals stay.
    // A personal app's own does not lift the organisation's unless its owner leads (SPEC §25): it is held from now on too.
    const modes = await reviewModes(tx, org, (await tx.select({ id: apps.id }).from(apps).where(eq(apps.org, org))).map((r) => r.id), value);
    const own = new Set((await tx.select({ app: appSettings.app, newTools: appSettings.newTools }).from(appSettings).innerJoin(apps, eq(apps.id, appSettings.app)).where(eq(apps.org, org))).filter((r) => r.newTools !== "org").map((r) => r.app));
    for (const row of await allApps(tx, org)) {
      if (own.has(row.id) && (row.owner === null || modes.get(row.id) === "available")) continue;
      const read = newest.get(row.id);
      await tx.delete(toolApprovals).where(eq(toolApprovals.app, row.id));
      await approveTools(tx, row.id, read, await listingOf(tx, row, read), by);
    }
  });
}
