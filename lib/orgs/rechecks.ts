import "server-only";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { noOrgApp } from "@/lib/errors";
import { readInPool, type StoredSnapshot } from "@/lib/pool/engine-pool";
import { orgTransactionAt, type Conn } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import type { AppListing } from "@/lib/engine/check";
import type { LiveApp } from "@/lib/mcp/read-app";
import { readSignedIn, type SignedInReadOptions } from "@/lib/oauth/reads";
import type { AppList, StoredApp } from "@/lib/schemas/orgs";
import { latestVersion } from "@/lib/registry/fetch";
import { settleReview } from "./review";
import { noteStoredReads } from "./alert-events";
import type { OrgContext } from "./context";
import { modeInForce, requireOrg } from "./organisations";
import { anyApp, checkInput, orgApps, requireApp, type AppRow } from "./app-rows";
import { keptListAt, listStateAfter, offerListState, withdrawListState, type ListedRow, type ListState } from "./list-state";
import { snapshotContents } from "./snapshots";
import { insertReads, latestReads, recentSnapshots, type NewRead } from "./reads";
import { getApp, listApps, listsIn } from "./lists";

/**
 * Reading an organisation's apps again (SPEC §11): one app alone (a leader's re-check, or the
 * schedule's), or "Re-check all", which reads every app at once (so it costs about the slowest
 * app); and how any read of an app is made and stored (`readRows`, `storeReads`), which
 * connecting and editing an app (lib/orgs/connections.ts) use too.
 */

/** Told of each app of a re-check as soon as it has been read: its id and the read's outcome. */
type OnAppRead = (app: string, listing: AppListing) => void;

/**
 * Stores reads (under the organisation's lock), then lets through what review need not hold (SPEC
 * §11, §19, §20). `kept`: the organisation's list as stored when the lock was taken, which holds
 * the mode in force for each of its apps.
 */
export async function storeReads(tx: Conn, org: string, reads: NewRead[], kept?: ListState): Promise<void> {
  const hashes = await insertReads(tx, reads);
  const ids = reads.map((read) => read.app);
  const listed = kept === undefined ? [] : ids.map((id) => kept.apps.find((app) => app.row.id === id));
  const modes = kept !== undefined && listed.every((app) => app !== undefined) ? new Map(listed.map((app) => [app.row.id, modeInForce(app.newTools, kept.newTools)])) : undefined;
  await settleReview(tx, org, ids, { modes });
  // SPEC §28: tools newly held, a person over the budget, an app's new problems on a chosen host; only a read listing something new can cause them.
  const listedAnew = reads.flatMap((read, i) => (hashes[i] !== null && hashes[i] !== read.before ? [read.app] : []));
  await noteStoredReads(tx, org, listedAnew, listsIn, modes);
}

/**
 * Stores re-checks and nothing else, in the organisation's lock, committed "deferred"
 * (lib/db/client.ts `Durability`): a power cut may lose the newest reads, whole and with what
 * review let through because of them, never a leader's change; the schedule reads the app again.
 * Answers the version it stored them at, when this process keeps the organisation's list as it
 * was when the lock was taken and one app was re-checked: that list, with the app's row read
 * again before the commit, is kept at the new version (`listStateAfter`; offered before the
 * commit, `offerListState`), and asking for it at that version reads nothing (null: read the
 * list when next asked).
 */
async function storeRechecks(db: Conn, org: string, reads: NewRead[]): Promise<string | null> {
  let after: ListState | undefined;
  let committed = false;
  try {
    await orgTransactionAt(
      db,
      org,
      async (tx, version) => {
        // What this process kept at the version the transaction holds is what is stored now.
        const kept = keptListAt(db, { org }, version);
        await storeReads(tx, org, reads, kept);
        after = kept !== undefined && reads.length === 1 ? await listStateAfter(tx, kept, reads[0]!.app) : undefined;
        if (after !== undefined) offerListState(db, { org }, after);
      },
      "deferred",
    );
    committed = true;
  } finally {
    if (after !== undefined) withdrawListState(db, { org }, after, committed);
  }
  return after?.version ?? null;
}

/**
 * Reads `rows` live, each timed on its own, and answers one record per app. `listed`: the one row
 * as a list kept at the request's version holds it, which knows its newest snapshot (when that
 * read listed something) and whether it has a sign-in: neither is asked for again.
 */
export async function readRows(ctx: OrgContext, rows: AppRow[], onRead?: OnAppRead, options: SignedInReadOptions = {}, listed?: ListedRow): Promise<NewRead[]> {
  const reader = ctx.read ?? ((app: LiveApp, snapshot?: StoredSnapshot) => readInPool(app, undefined, snapshot));
  const checkedAt = Date.now();
  const known = listed?.read?.snapshot;
  const newest = listed !== undefined && known != null ? new Map([[listed.row.id, known]]) : await newestSnapshots(ctx.db, rows);
  const signIn = listed?.signIn === null ? { ...options, noneStored: true } : options;
  return Promise.all(
    rows.map(async (row) => {
      const snapshot = storedSnapshot(ctx.db, newest.get(row.id));
      // The app's own read (SPEC §11): its time in a worker, summed when a renewed sign-in reads it twice; not the wait for a free worker, nor the storage around it.
      let ownMs = 0;
      const read = async (app: LiveApp) => {
        const started = performance.now();
        // What an app answers may quote what it was sent: the pool answers its header, token and query secrets as `…` (lib/pool/engine-worker.ts).
        const { readMs, ...listing } = await reader(app, snapshot);
        ownMs += readMs ?? performance.now() - started;
        return listing;
      };
      const input = checkInput(row);
      // With its OAuth sign-in, when it has one and no header of the leader's (lib/oauth/reads.ts).
      const listing = await readSignedIn(ctx.db, row, { name: input.name, url: input.url ?? row.url, ...(input.headers ? { headers: input.headers } : {}) }, read, signIn);
      const durationMs = Math.round(ownMs);
      onRead?.(row.id, listing);
      return { id: randomUUID(), app: row.id, checkedAt, durationMs, listing, readAs: row, ...(newest.has(row.id) ? { before: newest.get(row.id)! } : {}) };
    }),
  );
}

/** Reads looked through for an app's newest snapshot when its newest read listed nothing (it was unreachable). */
const SNAPSHOT_LOOKBACK = 20;

/** Each app's newest snapshot, by app id: its newest read's, or (unreachable then) the newest of its recent reads; an app never read has none. */
async function newestSnapshots(db: Conn, rows: AppRow[]): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  const found = new Map<string, string>();
  const newest = rows.length === 1 ? [] : [...(await latestReads(db, rows[0]!.org)).values()];
  const unlisted = new Set<string>();
  for (const read of newest) {
    if (read.snapshot !== null) found.set(read.app, read.snapshot);
    else unlisted.add(read.app);
  }
  const rest = rows.length === 1 ? rows : rows.filter((row) => unlisted.has(row.id));
  for (const row of rest) {
    const listed = (await recentSnapshots(db, row.id, SNAPSHOT_LOOKBACK)).find((snapshot): snapshot is string => snapshot !== null);
    if (listed !== undefined) found.set(row.id, listed);
  }
  return found;
}

/**
 * An app's newest snapshot for its next read: the tokens stored with it are not counted again
 * (SPEC §21, issue 40 point 5), after a restart too; they are fetched only when the read's pool
 * has not been given them.
 */
function storedSnapshot(db: Conn, hash: string | undefined): StoredSnapshot | undefined {
  if (hash === undefined) return undefined;
  return {
    hash,
    counts: async () => {
      const { entries, promptTokens, promptChars } = await snapshotContents(db, hash);
      return promptTokens === undefined ? undefined : { entries, tokens: promptTokens, ...(promptChars === undefined ? {} : { chars: promptChars }) };
    },
  };
}

/** A registry-sourced app's newest version (SPEC §24), asked of its registry at a re-check; stored only when it changed. */
async function refreshSources(ctx: OrgContext, rows: readonly AppRow[]): Promise<void> {
  await Promise.all(
    rows.map(async (row) => {
      if (row.sourceRegistry === null || row.sourceName === null) return;
      const newest = await latestVersion({ url: row.sourceRegistry, name: row.sourceName });
      // A registry that cannot be read says nothing new: what was known stays.
      if (newest === undefined) return;
      const latest = newest === null || newest === row.sourceVersion ? null : newest;
      if (latest !== row.sourceLatest) await ctx.db.update(apps).set({ sourceLatest: latest }).where(eq(apps.id, row.id));
    }),
  );
}

/** Re-checks every app of the organisation at once; `onRead` hears of each app as its read ends. */
export async function recheckOrg(ctx: OrgContext, org: string, onRead?: OnAppRead): Promise<AppList> {
  await requireOrg(ctx.db, org);
  const rows = await orgApps(ctx.db, org);
  const [reads] = await Promise.all([readRows(ctx, rows, onRead), refreshSources(ctx, rows)]);
  await storeRechecks(ctx.db, org, reads);
  return listApps(ctx, org);
}

/** Re-checks one of the organisation's apps: only it is read, in its own time. */
export async function recheckApp(ctx: OrgContext, org: string, id: string, seen: string | null = null): Promise<StoredApp> {
  // The list kept at the version the request saw (`seen`) holds the app as it was then: it is not read again (SPEC §16).
  const listed = keptListAt(ctx.db, { org }, seen)?.apps.find((app) => app.row.id === id);
  const row = listed?.row ?? (await requireApp(ctx.db, org, id));
  const [reads] = await Promise.all([readRows(ctx, [row], undefined, {}, listed), refreshSources(ctx, [row])]);
  return getApp(ctx, org, id, await storeRechecks(ctx.db, org, reads));
}

/** The schedule's re-check of one app, the organisation's or a personal one: read and stored, answering nothing (a leader's re-check is `recheckApp`). */
export async function recheckForSchedule(ctx: OrgContext, org: string, id: string): Promise<void> {
  const row = await anyApp(ctx.db, org, id);
  if (row === undefined) throw noOrgApp(org, id);
  const [reads] = await Promise.all([readRows(ctx, [row]), refreshSources(ctx, [row])]);
  await storeRechecks(ctx.db, org, reads);
}
