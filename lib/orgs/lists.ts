import "server-only";
import { noOrg, noOrgApp } from "@/lib/errors";
import { holdsBack } from "@/lib/engine/review";
import { strictestSettings } from "@/lib/engine/tool-settings";
import { resolveTheorem } from "@/lib/engine/theorem";
import { signInSummary } from "@/lib/oauth/sign-in-store";
import type { HiddenApp } from "@/lib/schemas/groups";
import type { AppList, HistoryEntry, Org, StoredApp, TrendPoint } from "@/lib/schemas/orgs";
import type { AppSource } from "@/lib/schemas/registry";
import { listedApp } from "@/lib/schemas/summary";
import { foldedHistory, readTrends } from "./history";
import { namedCheck, processNames, storedEntries, withOwnFacts, type Named, type NamingInput, type NamingOptions } from "./named";
import type { ListsOf } from "./alert-events";
import { groupSetting, namedSetting } from "./settings";
import type { OrgContext } from "./context";
import { ownSettingsLift, reviewModeOf, riskyTextModeOf, requireOrg } from "./organisations";
import { moreHeaderNames, requireApp, requirePersonalApp, type AppRow } from "./app-rows";
import { keptListState, type ListState, type Scope } from "./list-state";
import { ownFacts } from "./reads";

/**
 * An organisation's apps as the Connections tab shows them (SPEC §11): a scope's list (the
 * organisation's own, or one person's) with every app's names computed over the whole list from
 * each app's newest read (its snapshot and availability), whenever they are asked for; one app of
 * it; the apps a published registry lists; an app's history and trends. Reads only: connecting,
 * editing and approving are lib/orgs/connections.ts, reading apps again lib/orgs/rechecks.ts.
 */

/** `scopeList` in a transaction, as the alerts decided there read a person's or the organisation's list (lib/orgs/alert-events.ts). */
export const listsIn: ListsOf = (tx, scope) => scopeList({ db: tx }, scope);

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

/** A personal app of `owner`, with its names computed over that person's list. */
export async function personalApp(ctx: OrgContext, org: string, owner: string, id: string): Promise<StoredApp> {
  await requirePersonalApp(ctx.db, org, owner, id);
  return (await scopeList(ctx, { org, person: owner })).find((app) => app.id === id)!;
}

/** The history of one app (or of them all), folded (lib/orgs/history.ts). */
export async function history(ctx: OrgContext, org: string, app: string | undefined, limit?: number): Promise<HistoryEntry[]> {
  await requireOrg(ctx.db, org);
  if (app !== undefined) await requireApp(ctx.db, org, app);
  return foldedHistory(ctx.db, { org, app }, limit);
}

/** The app's size and timings over its reads (lib/orgs/history.ts). */
export async function trends(ctx: OrgContext, org: string, app: string, limit?: number): Promise<TrendPoint[]> {
  await requireOrg(ctx.db, org);
  await requireApp(ctx.db, org, app);
  return readTrends(ctx.db, { org, app }, limit);
}
