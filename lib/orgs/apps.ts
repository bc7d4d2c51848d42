import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { recordAudit, type AuditRecord } from "@/lib/audit/audit-log";
import { ConflictError, InvalidError, noOrg, noOrgApp, onField } from "@/lib/errors";
import { readInPool, type StoredSnapshot } from "@/lib/pool/engine-pool";
import { orgTransaction, orgTransactionAt, type Conn } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import type { AppListing } from "@/lib/engine/check";
import { holdsBack } from "@/lib/engine/review";
import { strictestSettings } from "@/lib/engine/tool-settings";
import type { HiddenApp } from "@/lib/schemas/groups";
import { resolveTheorem } from "@/lib/engine/theorem";
import { allowListFromEnv, neverReadable, systemResolver, type Resolver } from "@/lib/mcp/address";
import type { LiveApp } from "@/lib/mcp/read-app";
import { readSignedIn, recordOfferOf, type SignedInReadOptions } from "@/lib/oauth/reads";
import { forgetSignIn, signInSummary } from "@/lib/oauth/sign-in-store";
import type { AppCreate, AppList, AppUpdate, HistoryEntry, Org, StoredApp, TrendPoint } from "@/lib/schemas/orgs";
import type { AppSource, ImportedFields } from "@/lib/schemas/registry";
import { latestVersion } from "@/lib/registry/fetch";
import { sameHeaderMessage, sameHeaderPairs } from "@/lib/schemas/check";
import { listedApp } from "@/lib/schemas/summary";
import { encryptSecret } from "@/lib/secrets";
import { foldedHistory, readTrends } from "./history";
import { filledUrl, querySecrets, shownUrl } from "@/lib/redact";
import { namedCheck, processNames, storedEntries, withOwnFacts, type Named, type NamingInput, type NamingOptions } from "./named";
import { settleReview } from "./review";
import { noteBudget, noteHeld, noteHostProblems, noteStoredReads, type ListsOf } from "./alert-events";
import { groupSetting, namedSetting } from "./settings";
import { MAX_APPS_PER_ORG, MAX_PERSONAL_APPS, recheckInterval } from "./limits";
import type { OrgContext } from "./context";
import { modeInForce, ownSettingsLift, reviewModeOf, riskyTextModeOf, requireOrg } from "./organisations";
import { anyApp, checkInput, lastConnectedAt, moreHeaderNames, orgApps, personalCount, requireApp, requirePersonalApp, urlToRead, type AppRow } from "./app-rows";
import { keptListAt, keptListState, listStateAfter, offerListState, withdrawListState, type ListedRow, type ListState, type Scope } from "./list-state";
import { dropUnusedSnapshots, snapshotContents } from "./snapshots";
import { insertReads, latestReads, listingOf, ownFacts, recentSnapshots, type NewRead } from "./reads";
import { approveTools } from "./approvals";

/**
 * What the Connections tab does to an organisation's apps (SPEC §11). Connecting, editing or
 * re-checking one app reads that app alone; every app's names are then computed over the whole
 * list from each app's newest read (its snapshot and availability), whenever they are asked for.
 * "Re-check all" reads every app at once (so it costs about the slowest app).
 */

/**
 * Who makes a change, as the audit log names them (SPEC §9). A mutation given one writes the
 * change and its audit entry in one transaction: both are stored, or neither. Given only an
 * account id (tests, benchmarks, the schedule), it records nothing.
 */
type Doer = AuditRecord["actor"];
const doerOf = (by: string | Doer | null): Doer | null => (by === null || typeof by === "string" ? null : { id: by.id, email: by.email });
const idOf = (by: string | Doer | null): string | null => (by === null || typeof by === "string" ? by : by.id);

// The context every operation here takes; its callers (and tests) find it beside the operations.
export type { AppReader, OrgContext } from "./context";

/** Told of each app of a re-check as soon as it has been read: its id and the read's outcome. */
type OnAppRead = (app: string, listing: AppListing) => void;

/**
 * Stores reads (under the organisation's lock), then lets through what review need not hold (SPEC
 * §11, §19, §20). `kept`: the organisation's list as stored when the lock was taken, which holds
 * the mode in force for each of its apps.
 */
async function storeReads(tx: Conn, org: string, reads: NewRead[], kept?: ListState): Promise<void> {
  const hashes = await insertReads(tx, reads);
  const ids = reads.map((read) => read.app);
  const listed = kept === undefined ? [] : ids.map((id) => kept.apps.find((app) => app.row.id === id));
  const modes = kept !== undefined && listed.every((app) => app !== undefined) ? new Map(listed.map((app) => [app.row.id, modeInForce(app.newTools, kept.newTools)])) : undefined;
  await settleReview(tx, org, ids, { modes });
  // SPEC §28: tools newly held, a person over the budget, an app's new problems on a chosen host; only a read listing something new can cause them.
  const listedAnew = reads.flatMap((read, i) => (hashes[i] !== null && hashes[i] !== read.before ? [read.app] : []));
  await noteStoredReads(tx, org, listedAnew, listsIn, modes);
}

/** `scopeList` in a transaction, as the alerts decided there read a person's or the organisation's list (lib/orgs/alert-events.ts). */
export const listsIn: ListsOf = (tx, scope) => scopeList({ db: tx }, scope);

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
async function readRows(ctx: OrgContext, rows: AppRow[], onRead?: OnAppRead, options: SignedInReadOptions = {}, listed?: ListedRow): Promise<NewRead[]> {
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

/**
 * The check of a list's stored state, `named.result.apps[i]` being `listed[i]`'s: the engine over
 * every app its person has (`personsApps`), newest reads in connection order, each with its tools'
 * settings (SPEC §19, §23). Review (SPEC §11) and risky text (§20) hold a person's own apps as
 * they hold the organisation's: their own settings make a tool stricter, and lift the
 * organisation's rules only when they are a leader (§25, `ownSettingsLift`). Only a state not
 * named yet reads its snapshots and runs the engine (lib/orgs/named.ts).
 */
export async function namedState(ctx: OrgContext, state: ListState): Promise<{ named: Named; listed: ListState["apps"]; hidden: HiddenApp[] }> {
  const { listed, hidden } = personsApps(state);
  const inputs: NamingInput[] = listed.map(({ row, read, newTools, settings, approvals, groupSettings }) => {
    const lifts = ownSettingsLift(row.owner, state.role);
    return {
      row,
      read,
      // A person's: each tool's strictest of the organisation's setting and their groups' (SPEC §23).
      settings: strictestSettings(
        settings.flatMap((setting) => namedSetting(setting) ?? []),
        groupSettings.flatMap((setting) => groupSetting(setting) ?? []),
      ),
      // `listState` reads the approvals of every app that may wait: none read would hold back every tool.
      approvals: holdsBack(reviewModeOf(newTools, state.newTools, lifts)) ? (approvals ?? new Map()) : null,
      ...(lifts ? {} : { settingsLift: false }),
    };
  });
  const theorem = resolveTheorem(undefined);
  const options: NamingOptions = { riskyText: riskyTextModeOf(state.riskyText) };
  return { named: await namedCheck(ctx.names ?? processNames(), inputs, theorem, options, storedEntries(ctx.db, inputs)), listed, hidden };
}

/**
 * The apps of a list with their current results (`namedState`). Everything stored it needs comes
 * from one statement (`listState`); only a state not named yet reads snapshots.
 */
export async function namedList(ctx: OrgContext, state: ListState, only?: string): Promise<{ apps: StoredApp[]; named: Named; hidden: HiddenApp[] }> {
  const { named, listed, hidden } = await namedState(ctx, state);
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  // Only the app asked for, when one is (an app's page names the whole list, but answers one).
  const shown = listed.flatMap((app, i) => (only === undefined || app.row.id === only ? [{ ...app, i }] : []));
  const result = withOwnFacts({ apps: shown.map(({ i }) => named.result.apps[i]!) }, shown.map(({ read }) => ownFacts(read)));
  const apps = shown.map(({ row, read, signIn: stored }, j): StoredApp => {
    const signIn = stored === null ? null : signInSummary(stored);
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      personal: row.owner !== null,
      header: row.headerName === null ? null : { name: row.headerName, set: row.headerValue !== null && row.headerValue !== "" },
      connectedAt: new Date(row.connectedAt).toISOString(),
      nextCheckAt: row.nextCheckAt === null ? null : new Date(row.nextCheckAt).toISOString(),
      nextCheckWhy: row.nextCheckWhy === "app-asked" || row.nextCheckWhy === "back-off" || row.nextCheckWhy === "interval" ? row.nextCheckWhy : null,
      failedReads: row.failedReads,
      lastCheck: read === undefined ? null : { id: read.id, appId: row.id, checkedAt: new Date(read.checkedAt).toISOString(), durationMs: read.durationMs, result: result.apps[j]! },
      signIn: signIn === null ? null : { state: signIn.state, issuer: signIn.issuer, connectedAt: iso(signIn.connectedAt), expiresAt: iso(signIn.expiresAt), stepUp: signIn.stepUp },
      ...(row.moreHeaders === null ? {} : { moreHeaders: moreHeaderNames(row) }),
      source: sourceOf(row),
    };
  });
  return { apps, named, hidden };
}

/**
 * The apps of a list that its person has (SPEC §23): an org app only for some groups is left out
 * of the list of anyone in none of them, as if it were not connected (so it takes no name), and
 * said in `hidden` with the groups it is for. The organisation's own list has every app.
 */
export function personsApps(state: ListState): { listed: ListState["apps"]; hidden: HiddenApp[] } {
  if (state.groups === null) return { listed: state.apps, hidden: [] };
  const mine = new Set(state.groups);
  const hidden: HiddenApp[] = [];
  const listed = state.apps.filter(({ row, access }) => {
    if (access === "everyone" || access.groups.some(([id]) => mine.has(id))) return true;
    hidden.push({ id: row.id, name: row.name, onlyFor: access.groups.map(([id, name]) => ({ id, name })) });
    return false;
  });
  return { listed, hidden };
}

/**
 * A scope's list with its results (the organisation's own, or one person's). `seen` is the
 * organisation's version as the request's access read it (`OrgAccess.version`), for a request
 * that has changed nothing: the list this process kept at that version answers (`keptListState`).
 */
export async function scopeList(ctx: OrgContext, scope: Scope, seen: string | null = null): Promise<StoredApp[]> {
  return (await namedScope(ctx, scope, seen)).apps;
}

/** `scopeList`, with the kept check it was answered from. */
export async function namedScope(ctx: OrgContext, scope: Scope, seen: string | null = null): Promise<{ apps: StoredApp[]; named: Named; hidden: HiddenApp[] }> {
  return namedList(ctx, await keptListState(ctx.db, scope, seen));
}

/**
 * Refuses (422, on the `url` field) an app that could never be read: its address is refused
 * or its name does not exist (SPEC §10). Routes ask it before connecting or moving an app.
 */
export async function assertReadable(url: string, resolve: Resolver = systemResolver): Promise<void> {
  const reason = await neverReadable(url, resolve, allowListFromEnv());
  if (reason === null) return;
  const message = `This app could never be read: ${reason}.`;
  throw new InvalidError(message, onField("url", message));
}

/** The organisation's apps with their checks' summaries (GET /api/orgs/{org}/apps); `seen` as for `scopeList`. */
export async function listApps(ctx: OrgContext, org: string, seen: string | null = null): Promise<AppList> {
  const state = await keptListState(ctx.db, { org }, seen);
  if (state.org === undefined) throw noOrg(org);
  return { org: state.org, apps: (await namedList(ctx, state)).apps.map(listedApp) };
}

/** One of the organisation's apps with its check (GET /api/orgs/{org}/apps/{app}); `seen` as for `scopeList`. */
export async function getApp(ctx: OrgContext, org: string, id: string, seen: string | null = null): Promise<StoredApp> {
  const state = await keptListState(ctx.db, { org }, seen);
  if (state.org === undefined) throw noOrg(org);
  if (!state.apps.some((app) => app.row.id === id)) throw noOrgApp(org, id);
  return (await namedList(ctx, state, id)).apps[0]!;
}

/** Where the app's server.json came from (SPEC §24), or null when it was connected by hand. */
function sourceOf(row: AppRow): AppSource | null {
  if (row.sourceName === null || row.sourceVersion === null) return null;
  return { registry: row.sourceRegistry, name: row.sourceName, version: row.sourceVersion, latest: row.sourceLatest };
}

/**
 * The apps a published registry lists (SPEC §24, §25), with their checks, whole, each with the
 * snapshot its newest read listed: the organisation's apps for everyone, as its own list names
 * them; or, with `group`, the apps that group's members have, named with the group's settings as a
 * member in it alone has them. `seen` as for `scopeList`.
 */
export async function publishedApps(ctx: OrgContext, org: string, seen: string | null = null, group?: string): Promise<{ org: Org; apps: { app: StoredApp; snapshot: string | null }[] }> {
  const state = await keptListState(ctx.db, group === undefined ? { org } : { org, group }, seen);
  if (state.org === undefined) throw noOrg(org);
  const { apps: named } = await namedList(ctx, state);
  const rows = new Map(state.apps.map((listed) => [listed.row.id, listed]));
  // An app only for some groups is never in the organisation's registry: anyone with its address would have it.
  const published = named.filter((app) => group !== undefined || rows.get(app.id)?.access === "everyone");
  return { org: state.org, apps: published.map((app) => ({ app, snapshot: rows.get(app.id)?.read?.snapshot ?? null })) };
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

/** Headers beyond the first, as stored: JSON of each name and its encrypted value (null when none). */
function storedMoreHeaders(headers: readonly [string, string][] | undefined): string | null {
  if (headers === undefined || headers.length === 0) return null;
  return JSON.stringify(Object.fromEntries(headers.map(([name, value]) => [name, encryptSecret(value)])));
}


/** Refuses a new app past the organisation's, or the person's, number of apps. */
async function assertRoom(db: Conn, org: string, owner: string | null): Promise<void> {
  if (owner === null && (await orgApps(db, org)).length >= MAX_APPS_PER_ORG) {
    throw new InvalidError(`An organisation connects at most ${MAX_APPS_PER_ORG} apps: remove one first.`);
  }
  if (owner !== null && (await personalCount(db, org, owner)) >= MAX_PERSONAL_APPS) {
    throw new InvalidError(`A person connects at most ${MAX_PERSONAL_APPS} personal apps: remove one first.`);
  }
}

/**
 * Connects an app (after every app of the organisation, it is the last connected) and reads it:
 * one of the organisation's, or with `owner` (an account id) a personal app of that person.
 * Its first listing is approved by whoever connects it (`by`, an account id, or the actor, who is
 * then named in the audit log in the same transaction). Apps connected at once are placed in the
 * order they are stored.
 */
export async function addApp(ctx: OrgContext, org: string, input: AppCreate & ImportedFields, by: string | Doer | null = null, owner: string | null = null): Promise<StoredApp> {
  await requireOrg(ctx.db, org);
  await assertRoom(ctx.db, org, owner);
  const { url, urlSecret } = storedUrl(input.url, null);
  const draft: AppRow = {
    id: randomUUID(),
    org,
    owner,
    name: input.name,
    url,
    urlSecret,
    headerName: input.header?.name ?? null,
    headerValue: input.header ? encryptSecret(input.header.value) : null,
    connectedAt: Date.now(),
    // Read now, so next due one interval from now (lib/schedule/schedule.ts); null when the schedule is off.
    nextCheckAt: recheckInterval() > 0 ? Date.now() + recheckInterval() : null,
    nextCheckWhy: null,
    failedReads: 0,
    moreHeaders: storedMoreHeaders(input.moreHeaders),
    sourceRegistry: input.source?.registry ?? null,
    sourceName: input.source?.name ?? null,
    sourceVersion: input.source?.version ?? null,
    sourceLatest: null,
  };
  const reads = await readRows(ctx, [draft]);
  // The app and its first read are stored together, or neither is.
  await orgTransaction(ctx.db, org, async (tx) => {
    await assertRoom(tx, org, owner);
    // Strictly after the last app (of anyone), even within one millisecond: a new app is never earlier.
    const row = { ...draft, connectedAt: Math.max(Date.now(), (await lastConnectedAt(tx, org)) + 1) };
    await tx.insert(apps).values(row);
    await insertReads(tx, reads);
    await recordOfferOf(tx, row.id, reads[0]!.listing);
    const read = (await latestReads(tx, org)).get(row.id);
    await approveTools(tx, row.id, read, await listingOf(tx, row, read), idOf(by));
    const actor = doerOf(by);
    if (actor !== null) {
      const details = {
        url: row.url,
        header: input.header ? input.header.name : null,
        ...(input.source ? { source: input.source, moreHeaders: input.moreHeaders?.map(([name]) => name) ?? [] } : {}),
        ...(owner !== null ? { personal: true } : {}),
      };
      await recordAudit(tx, { org, actor, action: "app.connected", app: { id: row.id, name: row.name }, details });
    }
  });
  return owner === null ? getApp(ctx, org, draft.id) : personalApp(ctx, org, owner, draft.id);
}

/** A personal app of `owner`, with its names computed over that person's list. */
export async function personalApp(ctx: OrgContext, org: string, owner: string, id: string): Promise<StoredApp> {
  await requirePersonalApp(ctx.db, org, owner, id);
  return (await scopeList(ctx, { org, person: owner })).find((app) => app.id === id)!;
}

const originOf = (url: string) => new URL(url).origin;

/**
 * An app's URL as stored (SPEC §10): shown with `…` for each secret query parameter's value, and
 * as given, encrypted, when it holds one. A `…` given (a shown URL, edited) stands for the value
 * `before` holds (the URL as last given, on the same origin only); with none to stand for: 422.
 */
function storedUrl(given: string, before: string | null): Pick<AppRow, "url" | "urlSecret"> & { read: string } {
  const url = filledUrl(given, before);
  if (url === null) {
    const message = "A query parameter of this URL says … where its secret goes: give its value (a secret is kept only for the origin it was given for).";
    throw new InvalidError(message, onField("url", message));
  }
  return { url: shownUrl(url), urlSecret: querySecrets(url).length > 0 ? encryptSecret(url) : null, read: url };
}

/** Tries of one change that found the app changed by someone else while it was read. */
const UPDATE_TRIES = 3;

const sameFields = (a: AppRow, b: AppRow) => a.name === b.name && a.url === b.url && a.urlSecret === b.urlSecret && a.headerName === b.headerName && a.headerValue === b.headerValue && a.moreHeaders === b.moreHeaders;

/**
 * Changes an app's name, URL or header (`header: null` removes it) and reads it again. A URL on
 * another origin (scheme, host, port) drops the stored header unless the same change gives one:
 * a secret is never sent where it was not given for. Changes to one app do not lose each other:
 * one that finds the app changed meanwhile (by another change that was stored while this one
 * read the app) starts again from what is stored, and after a few tries answers 409. With `by`,
 * what changed is in the audit log, stored with the change.
 */
export async function updateApp(ctx: OrgContext, org: string, id: string, input: AppUpdate, by?: Doer): Promise<StoredApp> {
  await requireOrg(ctx.db, org);
  for (let tries = 1; ; tries++) {
    const current = await requireApp(ctx.db, org, id);
    if (await updateOnce(ctx, org, current, input, by)) return getApp(ctx, org, id);
    if (tries >= UPDATE_TRIES) throw new ConflictError("This app was changed by someone else at the same time, again and again: reload it and try again.");
  }
}

/** What an edit changed, for the audit log: the fields, never the header's value nor a URL's query secret (the URLs as shown, `…` in their place). */
function editDetails(input: AppUpdate, before: AppRow, after: AppRow): Record<string, unknown> {
  return {
    ...(input.name !== undefined && input.name !== before.name ? { name: { from: before.name, to: after.name } } : {}),
    ...(input.url !== undefined && after.url !== before.url ? { url: { from: before.url, to: after.url } } : {}),
    ...(input.url !== undefined && after.url === before.url && querySecrets(input.url).length > 0 ? { urlSecrets: "given" } : {}),
    ...(input.header !== undefined ? { header: input.header === null ? "removed" : `set (${input.header.name})` } : {}),
    ...(before.headerName !== null && after.headerName === null && input.header === undefined ? { header: "dropped: the app moved to another origin" } : {}),
  };
}

/** One try of `updateApp` from `current`: false when the app was changed meanwhile (nothing is stored then). */
async function updateOnce(ctx: OrgContext, org: string, current: AppRow, input: AppUpdate, by?: Doer): Promise<boolean> {
  const id = current.id;
  const before = urlToRead(current);
  const moves = input.url !== undefined && originOf(input.url) !== originOf(current.url);
  // The same URL given again keeps its stored form (a fresh encryption would look like a change).
  const url = input.url === undefined ? undefined : storedUrl(input.url, moves ? null : before);
  const same = url?.read === before;
  const changed: AppRow = {
    ...current,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(url !== undefined && !same ? { url: url.url, urlSecret: url.urlSecret } : {}),
    ...(input.header !== undefined
      ? { headerName: input.header?.name ?? null, headerValue: input.header ? encryptSecret(input.header.value) : null }
      : moves
        ? { headerName: null, headerValue: null }
        : {}),
    // Headers beyond the first go with the header removed, and never to another origin (the change gives one header at most).
    ...(input.header === null || (input.url !== undefined && originOf(input.url) !== originOf(current.url)) ? { moreHeaders: null } : {}),
  };
  // The header given is sent beside the ones an import kept (in place of one of the same name): a name
  // one of those has in another case would be sent as one header with both values.
  const [pair] = input.header ? sameHeaderPairs([...moreHeaderNames(changed), input.header.name]).filter(([first, again]) => first !== again) : [];
  if (pair !== undefined) {
    const message = sameHeaderMessage(pair);
    throw new InvalidError(message, [{ path: ["header", "name"], message }]);
  }
  // Tokens are for the app's URL (its resource): a new URL, or a header given instead, signs in anew.
  const signsInAnew = (url !== undefined && !same) || (input.header !== undefined && input.header !== null);
  const reads = await readRows(ctx, [changed], undefined, { fresh: signsInAnew });
  return orgTransaction(ctx.db, org, async (tx) => {
    const now = await requireApp(tx, org, id); // removed meanwhile: the 404
    if (!sameFields(now, current)) return false;
    const { name, url, urlSecret, headerName, headerValue, moreHeaders } = changed;
    await tx.update(apps).set({ name, url, urlSecret, headerName, headerValue, moreHeaders }).where(eq(apps.id, id));
    // In the same transaction as the new address: a sign-in finishing meanwhile is stored before (and forgotten here) or refused after.
    if (signsInAnew) await forgetSignIn(tx, id);
    await storeReads(tx, org, reads);
    if (signsInAnew) await recordOfferOf(tx, id, reads[0]!.listing);
    if (by !== undefined) await recordAudit(tx, { org, actor: doerOf(by)!, action: "app.edited", app: { id, name: changed.name }, details: editDetails(input, current, changed) });
    return true;
  });
}

/**
 * Removes an app with its history (a personal app of `owner`, when given); reads nothing (the
 * others' names are computed when next asked for). With `by`, the removal is in the audit log,
 * stored with it.
 */
export async function removeApp(ctx: OrgContext, org: string, id: string, owner: string | null = null, by?: Doer): Promise<void> {
  await requireOrg(ctx.db, org);
  await orgTransaction(ctx.db, org, async (tx) => {
    const row = await (owner === null ? requireApp(tx, org, id) : requirePersonalApp(tx, org, owner, id));
    await tx.delete(apps).where(eq(apps.id, id));
    await dropUnusedSnapshots(tx);
    if (by !== undefined) await recordAudit(tx, { org, actor: doerOf(by)!, action: "app.removed", app: { id, name: row.name }, ...(owner !== null ? { details: { personal: true } } : {}) });
  });
}

/** Removes, in the caller's transaction, every personal app `owner` has in `org`, with their sign-ins and history (a member who leaves takes theirs along). */
export async function removePersonalApps(tx: Conn, org: string, owner: string): Promise<void> {
  await tx.delete(apps).where(and(eq(apps.org, org), eq(apps.owner, owner)));
  await dropUnusedSnapshots(tx);
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

/** The history of one app (or of them all), folded (lib/orgs/history.ts). */
export async function history(ctx: OrgContext, org: string, app: string | undefined, limit?: number): Promise<HistoryEntry[]> {
  await requireOrg(ctx.db, org);
  if (app !== undefined) await requireApp(ctx.db, org, app);
  return foldedHistory(ctx.db, { org, app }, limit);
}

/**
 * Approves the tools of the app's newest read (all, or those named) as they are, by the leader
 * `by` (an account id, or the actor, then named in the audit log in the same transaction);
 * answers the app with its names (SPEC §11). What is approved is always what was really read:
 * the newest stored read, taken under the organisation's lock, so never half a re-check.
 */
export async function approveApp(
  ctx: OrgContext,
  org: string,
  id: string,
  by: string | Doer,
  names?: readonly string[],
  around: <T>(work: (db: Conn) => Promise<T>) => Promise<T> = (work) => work(ctx.db),
): Promise<{ app: StoredApp; approved: string[]; snapshot: string | null }> {
  await requireOrg(ctx.db, org);
  const row = await reviewedApp(ctx.db, org, id);
  // `around`: the route's transaction the approval is part of (lib/orgs/export-changes.ts adds what it does to the exports to its audit entry).
  const { approved, snapshot } = await around((db) => approveIn(db, org, id, by, names));
  // A member's personal app is held by the organisation's review too (SPEC §25): a leader approves it, and it answers as its owner has it.
  return { app: row.owner === null ? await getApp(ctx, org, id) : await personalApp(ctx, org, row.owner, id), approved, snapshot };
}

/** An app a leader may approve: the organisation's, or a member's personal app (SPEC §25); else the 404. */
async function reviewedApp(db: Conn, org: string, id: string): Promise<AppRow> {
  const row = await anyApp(db, org, id);
  if (row === undefined) throw noOrgApp(org, id);
  return row;
}

/** `approveApp`'s change itself, in its own transaction or in `db`'s (a preview's, lib/orgs/preview.ts, runs it too, with `alerts` false: a pretend change tells no one). */
export async function approveIn(db: Conn, org: string, id: string, by: string | Doer, names?: readonly string[], alerts = true): Promise<{ approved: string[]; snapshot: string | null }> {
  return orgTransaction(db, org, async (tx) => {
    const row = await reviewedApp(tx, org, id);
    const read = (await latestReads(tx, org)).get(id);
    if (read === undefined) throw new ConflictError("This app has not been read yet: re-check it first.");
    const approved = await approveTools(tx, id, read, await listingOf(tx, row, read), idOf(by), names);
    // What is still held is what was told, without telling it again; tools approved are sent from now on: a person may go over the budget, an app gain a problem on a chosen host (SPEC §28).
    if (alerts) {
      await noteHeld(tx, org, [id], undefined, false);
      await noteHostProblems(tx, org, listsIn);
      await noteBudget(tx, org, listsIn);
    }
    const actor = doerOf(by);
    if (actor !== null) {
      const details = { tools: approved.length > 50 ? `${approved.length} tools` : approved, snapshot: read.snapshot };
      await recordAudit(tx, { org, actor, action: "changes.approved", app: { id, name: row.name }, details });
    }
    return { approved, snapshot: read.snapshot };
  });
}

/** The app's size and timings over its reads (lib/orgs/history.ts). */
export async function trends(ctx: OrgContext, org: string, app: string, limit?: number): Promise<TrendPoint[]> {
  await requireOrg(ctx.db, org);
  await requireApp(ctx.db, org, app);
  return readTrends(ctx.db, { org, app }, limit);
}
