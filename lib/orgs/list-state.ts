import "server-only";
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { runPrepared, type Conn } from "@/lib/db/client";
// `aggregate`: what a `jsonRows` aggregate answers, read the same on either dialect.
import { jsonRows, parseJsonRows as aggregate } from "@/lib/db/dialect";
import { appAccessGroups, apps, appSettings, appSignIns, checkResults, groupMembers, groups, groupToolSettings, member, organization, orgSettings, orgVersionOf, toolApprovals, toolSettings } from "@/lib/db/tables";
import { holdsBack } from "@/lib/engine/review";
import type { Org } from "@/lib/schemas/orgs";
import { newTools as newToolsSchema, orgSlug } from "@/lib/schemas/orgs";
import type { AppRow } from "./app-rows";
import { cacheKey, Caches, processCaches, type Cache } from "@/lib/cache/caches";
import { newestFirstIn } from "@/lib/db/dialect";
import type { ReadRow } from "./reads";

/**
 * A list's stored state (SPEC §12, §23): everything a scope's names and summaries are made from,
 * read in one statement, and kept per process by the organisation's version.
 */

/**
 * Whose list of apps (SPEC §12): the organisation's own (every member's assistant has them), or
 * one person's, `person` being their account id: the organisation's apps and their own personal
 * apps, together in connection order; or one group's (`group`, its id: SPEC §25's group registry),
 * the organisation's apps its members have, with its settings, as a member in it alone has them.
 */
export interface Scope {
  org: string;
  person?: string;
  group?: string;
}

/** A tool's setting as stored: name, setting, by (id, e-mail), at (milliseconds). */
export type SettingRow = [name: string, setting: string, setBy: string, setByEmail: string, setAt: number];

/** A group's setting of a tool as stored (SPEC §23): the group (id, name), then as `SettingRow`. */
export type GroupSettingRow = [group: string, groupName: string, name: string, setting: string, setBy: string, setByEmail: string, setAt: number];

/** Who has an org app (SPEC §23): everyone, or the members of `groups` (id, name; none left: nobody). */
export type AccessRow = { groups: [id: string, name: string][] } | "everyone";

/** One app of a list with every stored input of its names and its summary, as `listState` reads them. */
export interface ListedRow {
  row: AppRow;
  read: ReadRow | undefined;
  /** Its own `newTools` as stored (null: none). */
  newTools: string | null;
  settings: SettingRow[];
  /** Its approved fingerprints by tool name; null when it cannot wait for review (nothing was read). */
  approvals: Map<string, string> | null;
  /** Its sign-in, without secrets; `discovery` only when connected (the step-up it may ask for). */
  signIn: { state: string; issuer: string | null; connectedAt: number | null; expiresAt: number | null; discovery: string | null } | null;
  /** Who has the app (SPEC §23, §25); and, in a person's or a group's list, the settings of its tools for the person's groups (or that group). */
  access: AccessRow;
  groupSettings: GroupSettingRow[];
}

/**
 * A list's stored state: the organisation (undefined when there is none), its own `newTools` as
 * stored, its apps, and the organisation's version they were read at (null: none stored).
 */
export interface ListState {
  org: Org | undefined;
  newTools: string | null;
  /** Its `riskyText` as stored (null: none stored). */
  riskyText: string | null;
  apps: ListedRow[];
  version: string | null;
  /** The ids of the person's groups (SPEC §23), for a person's list (the group itself for a group's); null for the organisation's own. */
  groups: string[] | null;
  /** The person's role, for a person's list (null otherwise, or when they are no member): only a leader's own settings lift the organisation's rules on their personal apps (SPEC §25). */
  role: string | null;
}

/**
 * A scope's apps in connection order, each with its newest read, its own `newTools`, its tools'
 * settings, its approvals (when it may wait for review) and its sign-in, with the organisation
 * and its `newTools`: everything a list's names and summaries are made from, in one statement
 * (one round trip on PostgreSQL). `org` is undefined when there is no such organisation.
 * Every table read here is in lib/db/versioned-tables.ts (list-state.contract.test.ts).
 */
export async function listState(db: Conn, scope: Scope): Promise<ListState> {
  if (!orgSlug.safeParse(scope.org).success) return NO_LIST;
  return stateOf(await listRows(db, scope), scope);
}

const NO_LIST: ListState = { org: undefined, newTools: null, riskyText: null, apps: [], version: null, groups: null, role: null };

/** The rows of `scope`'s list statement; with `app`, of that one app alone (the organisation's own list only). */
async function listRows(db: Conn, scope: Scope, app?: string) {
  if (app !== undefined && (scope.person !== undefined || scope.group !== undefined)) throw new Error("One app's row is read for the organisation's own list only.");
  if (scope.person !== undefined && scope.group !== undefined) throw new Error("A list is a person's or a group's, not both.");
  const person = scope.person === undefined ? null : sql.placeholder("person");
  const group = scope.group === undefined ? null : sql.placeholder("group");
  const ofOrg = eq(organization.slug, sql.placeholder("org"));
  const build = () => {
    const newest = sql`(SELECT newest.id FROM ${checkResults} AS newest WHERE newest.app = ${apps.id} ORDER BY ${sql.join([...newestFirstIn(db, "newest")], sql`, `)} LIMIT 1)`;
    // Approvals are read only for an app that may wait (under a mode that holds back): `reviewModeOf` decides exactly.
    // A personal app waits under the organisation's mode whatever its own, unless its owner is a leader (SPEC §25): read for either.
    const waiting = sql.join(newToolsSchema.options.filter(holdsBack).map((mode) => sql`${mode}`), sql`, `);
    const mayWait = sql`((${apps.owner} IS NULL AND coalesce(${appSettings.newTools}, 'org') <> 'available') OR ${apps.owner} IS NOT NULL) AND (${appSettings.newTools} IN (${waiting}) OR ${orgSettings.newTools} IN (${waiting}))`;
    const settingColumns = [toolSettings.name, toolSettings.setting, toolSettings.setBy, toolSettings.setByEmail, toolSettings.setAt].map((c) => sql`${c}`);
    const settings = sql<unknown>`(SELECT ${jsonRows(db, settingColumns, sql`${toolSettings.name}`)} FROM ${toolSettings} WHERE ${toolSettings.app} = ${apps.id})`;
    const approvals = sql<unknown>`CASE WHEN ${mayWait} THEN (SELECT ${jsonRows(db, [sql`${toolApprovals.name}`, sql`${toolApprovals.fingerprint}`], sql`${toolApprovals.name}`)} FROM ${toolApprovals} WHERE ${toolApprovals.app} = ${apps.id}) END`;
    // A person's list only (SPEC §23, §25): their role, their groups and their groups' settings of each org app's tools;
    // a group's list (SPEC §25) has that group's settings. Read back through `extra` below: typed apart so the organisation's statement keeps its own type.
    const groupSettingColumns = [groupToolSettings.group, groups.name, groupToolSettings.name, groupToolSettings.setting, groupToolSettings.setBy, groupToolSettings.setByEmail, groupToolSettings.setAt].map((c) => sql`${c}`);
    const forPerson: Record<never, never> =
      person !== null
        ? {
            personGroups: sql<unknown>`(SELECT ${jsonRows(db, [sql`${groupMembers.group}`], sql`${groupMembers.group}`)} FROM ${groupMembers} WHERE ${groupMembers.org} = ${organization.slug} AND ${groupMembers.person} = ${person})`,
            personRole: sql<string | null>`(SELECT ${member.role} FROM ${member} WHERE ${member.organizationId} = ${organization.id} AND ${member.userId} = ${person} LIMIT 1)`,
            groupSettings: sql<unknown>`(SELECT ${jsonRows(db, groupSettingColumns, sql`${groupToolSettings.name}`)} FROM ${groupToolSettings} INNER JOIN ${groups} ON ${groups.id} = ${groupToolSettings.group} INNER JOIN ${groupMembers} ON ${groupMembers.group} = ${groupToolSettings.group} WHERE ${groupToolSettings.app} = ${apps.id} AND ${groupMembers.person} = ${person})`,
          }
        : group !== null
          ? {
              groupSettings: sql<unknown>`(SELECT ${jsonRows(db, groupSettingColumns, sql`${groupToolSettings.name}`)} FROM ${groupToolSettings} INNER JOIN ${groups} ON ${groups.id} = ${groupToolSettings.group} WHERE ${groupToolSettings.app} = ${apps.id} AND ${groupToolSettings.group} = ${group})`,
            }
          : {};
    return db
      .select({
        slug: organization.slug,
        name: organization.name,
        orgNewTools: orgSettings.newTools,
        orgRiskyText: orgSettings.riskyText,
        version: orgVersionOf(),
        app: apps,
        read: checkResults,
        newTools: appSettings.newTools,
        settings,
        approvals,
        signInState: appSignIns.state,
        issuer: appSignIns.issuer,
        signInAt: appSignIns.connectedAt,
        expiresAt: appSignIns.expiresAt,
        discovery: sql<string | null>`CASE WHEN ${appSignIns.state} = 'connected' THEN ${appSignIns.discovery} END`,
        // Who has each org app (SPEC §23): a person's list leaves out those for other groups, the published registry those for some groups (§25).
        access: sql<string | null>`${appSettings.access}`,
        accessGroups: sql<unknown>`CASE WHEN ${appSettings.access} = 'groups' THEN (SELECT ${jsonRows(db, [sql`${groups.id}`, sql`${groups.name}`], sql`${groups.name}`)} FROM ${appAccessGroups} INNER JOIN ${groups} ON ${groups.id} = ${appAccessGroups.group} WHERE ${appAccessGroups.app} = ${apps.id}) END`,
        ...forPerson,
      })
      .from(organization)
      .leftJoin(orgSettings, eq(orgSettings.org, organization.slug))
      .leftJoin(apps, and(eq(apps.org, organization.slug), person === null ? isNull(apps.owner) : or(isNull(apps.owner), eq(apps.owner, person))))
      .leftJoin(checkResults, eq(checkResults.id, newest))
      .leftJoin(appSettings, eq(appSettings.app, apps.id))
      .leftJoin(appSignIns, eq(appSignIns.app, apps.id))
      .where(app === undefined ? ofOrg : and(ofOrg, eq(apps.id, sql.placeholder("app"))))
      .orderBy(asc(apps.connectedAt), asc(apps.id));
  };
  const name = app !== undefined ? "theorem_list_state_app" : person !== null ? "theorem_list_state_person" : group !== null ? "theorem_list_state_group" : "theorem_list_state";
  return runPrepared(db, name, build, { org: scope.org, person: scope.person, group: scope.group, app });
}

/** What `listRows` read, as a list's state. */
function stateOf(rows: Awaited<ReturnType<typeof listRows>>, scope: Scope): ListState {
  const first = rows[0];
  if (first === undefined) return NO_LIST;
  const extra = (r: (typeof rows)[number]) => r as typeof r & { personGroups?: unknown; personRole?: string | null; groupSettings?: unknown };
  const listed = rows.flatMap((r): ListedRow[] =>
    r.app === null
      ? []
      : [
          {
            row: r.app,
            read: r.read ?? undefined,
            newTools: r.newTools,
            settings: r.settings === null ? [] : aggregate<SettingRow>(r.settings),
            approvals: r.approvals === null ? null : new Map(aggregate<[string, string]>(r.approvals)),
            signIn: r.signInState === null ? null : { state: r.signInState, issuer: r.issuer, connectedAt: r.signInAt, expiresAt: r.expiresAt, discovery: r.discovery },
            // Only an org app is ever for some groups; a value no longer known counts as everyone's.
            access: r.app.owner === null && r.access === "groups" ? { groups: r.accessGroups == null ? [] : aggregate<[string, string]>(r.accessGroups) } : "everyone",
            groupSettings: r.app.owner !== null || extra(r).groupSettings == null ? [] : aggregate<GroupSettingRow>(extra(r).groupSettings),
          },
        ],
  );
  const personGroups = extra(first).personGroups;
  const groupIds = scope.group !== undefined ? [scope.group] : scope.person === undefined ? null : personGroups == null ? [] : aggregate<[string]>(personGroups).map(([id]) => id);
  const role = scope.person === undefined ? null : (extra(first).personRole ?? null);
  return { org: { slug: first.slug, name: first.name }, newTools: first.orgNewTools, riskyText: first.orgRiskyText, apps: listed, version: first.version, groups: groupIds, role };
}

/** The process's kept lists (lib/cache/caches.ts), under `stateKey`; a test may bound one database's apart (`boundListStates`). */
const processStates = processCaches().cache<ListState>("list-states");
const boundStates = new WeakMap<Conn, Cache<ListState>>();

/** Each database's number in this process: the first part of its lists' keys. */
const databases = new WeakMap<Conn, number>();
let nextDatabase = 0;

/** The key of `scope`'s list in `db` at `version` (lib/cache/caches.ts's rule: exactly what the state is read from). */
function stateKey(db: Conn, scope: Scope, version: string): string {
  let at = databases.get(db);
  if (at === undefined) databases.set(db, (at = nextDatabase++));
  return cacheKey([at, scope.org, scope.person ?? null, scope.group ?? null, version]);
}

const keptOf = (db: Conn): Cache<ListState> => boundStates.get(db) ?? processStates;

/** Keeps `db`'s lists in a cache of their own (tests), keeping none larger than `maxBytes`, forgetting what was kept; null: the process's caches again. */
export function boundListStates(db: Conn, maxBytes: number | null): void {
  if (maxBytes === null) boundStates.delete(db);
  else boundStates.set(db, new Caches(maxBytes * 4).cache("list-states"));
}

/** The list states being read from each database, by scope: a request that saw the version one finds waits for it rather than reading its own. */
const readsUnderWay = new WeakMap<Conn, Map<string, Promise<ListState>>>();

/** A scope's key among the reads under way and the offered states (neither is a cache: each holds what is in flight). */
const keyOf = (scope: Scope): string => `${scope.org}\u0000${scope.person ?? ""}\u0000${scope.group ?? ""}`;

/**
 * `listState`, answered from what this process kept when `seen` (the organisation's version, as
 * the request's access read it: `OrgAccess.version`) is the version it was read at. Every change
 * draws a new version in its own transaction, on whichever instance, and a state is kept with
 * the version read in its own statement: so a kept state answers only while it is what the
 * database holds at the version the request saw. Only for a request that has changed nothing
 * yet (after a change `seen` is behind: pass null, and `listState` reads afresh). The newest
 * read of a scope is kept (or what a re-check left, `listStateAfter`), per database and version,
 * in the process's caches (least recently used first out, within its budget);
 * requests that miss while a read is under way wait for it, and take it if it is at their version.
 */
export async function keptListState(db: Conn, scope: Scope, seen: string | null): Promise<ListState> {
  const found = keptListAt(db, scope, seen);
  if (found !== undefined) return found;
  const key = keyOf(scope);
  let underWay = readsUnderWay.get(db);
  if (underWay === undefined) readsUnderWay.set(db, (underWay = new Map()));
  // After a change, the requests that saw its version all miss at once: the first one's read answers
  // them all. A read begun before the version they saw answers another version: they read anew.
  const pending = seen === null ? undefined : underWay.get(key);
  if (pending !== undefined) {
    const state = await pending.catch(() => undefined);
    if (state !== undefined && state.version === seen) return state;
  }
  const reading = listState(db, scope);
  underWay.set(key, reading);
  try {
    const state = await reading;
    keepListState(db, scope, state);
    return state;
  } finally {
    if (underWay.get(key) === reading) underWay.delete(key);
  }
}

/**
 * The organisation's own list `kept` (as kept at the version a transaction began at and holds:
 * lib/db/client.ts `orgTransactionAt`) after that transaction's writes, which touched `app`'s
 * rows and no others: that app's row read again, in the transaction, the others as kept, at the
 * version the transaction drew. So it is what `listState` would read once it commits, one app's
 * statement in place of every app's. Undefined when the list does not hold the app (read it then).
 */
export async function listStateAfter(tx: Conn, kept: ListState, app: string): Promise<ListState | undefined> {
  const index = kept.apps.findIndex((listed) => listed.row.id === app);
  if (kept.org === undefined || kept.groups !== null || index < 0) return undefined;
  const fresh = stateOf(await listRows(tx, { org: kept.org.slug }, app), { org: kept.org.slug });
  const row = fresh.apps[0];
  if (row === undefined || fresh.version === null) return undefined;
  const state = { ...fresh, apps: kept.apps.map((listed, i) => (i === index ? row : listed)) };
  const keptBytes = stateSizes.get(kept);
  if (keptBytes !== undefined) stateSizes.set(state, keptBytes - appBytes(kept.apps[index]!) + appBytes(row));
  return state;
}

/** Keeps `state` as `scope`'s list, as `keptListState` keeps what it reads. */
function keepListState(db: Conn, scope: Scope, state: ListState): void {
  // No version: no such organisation, or none stored for it yet; nothing to key it by.
  if (state.version !== null) keptOf(db).set(stateKey(db, scope, state.version), state, stateBytes(state));
}

/** The lists changes are about to commit, by database and scope (`offerListState`). */
const offeredStates = new WeakMap<Conn, Map<string, ListState>>();

/**
 * Offers `state` (`listStateAfter`'s) as `scope`'s list at its version before the transaction
 * that drew that version commits: a request that sees the version, which none does before the
 * commit, takes it as kept. Offered before, not after: PostgreSQL shows a commit to the other
 * connections before this process hears that it is done, and the requests that saw the new
 * version meanwhile would each read the list afresh. `withdrawListState` once the transaction
 * has ended, committed or not (a version never committed is never seen).
 */
export function offerListState(db: Conn, scope: Scope, state: ListState): void {
  if (state.version === null) return;
  let offered = offeredStates.get(db);
  if (offered === undefined) offeredStates.set(db, (offered = new Map()));
  offered.set(keyOf(scope), state);
}

/** Ends the offer of `state` (`offerListState`) once its transaction has ended: kept when it committed, forgotten when not. */
export function withdrawListState(db: Conn, scope: Scope, state: ListState, committed: boolean): void {
  const offered = offeredStates.get(db);
  if (offered?.get(keyOf(scope)) === state) offered.delete(keyOf(scope));
  if (committed) keepListState(db, scope, state);
}

/** What this process keeps (or is offered) of `scope`'s list at version `seen` (`OrgAccess.version`), without reading it: undefined when it keeps none at that version. */
export function keptListAt(db: Conn, scope: Scope, seen: string | null): ListState | undefined {
  if (seen === null) return undefined;
  const found = keptOf(db).get(stateKey(db, scope, seen));
  if (found !== undefined) return found;
  const offered = offeredStates.get(db)?.get(keyOf(scope));
  return offered?.version === seen ? offered : undefined;
}

/** Each list state's estimated bytes, once estimated (or carried over by `listStateAfter`). */
const stateSizes = new WeakMap<ListState, number>();

/** A list state's estimated bytes: its rows' text (two bytes a character) and a little for each row and approval. */
function stateBytes(state: ListState): number {
  let bytes = stateSizes.get(state);
  if (bytes === undefined) stateSizes.set(state, (bytes = state.apps.reduce((sum, app) => sum + appBytes(app), 256)));
  return bytes;
}

/** One listed app's estimated bytes (`stateBytes`). */
function appBytes(app: ListedRow): number {
  let chars = JSON.stringify([app.row, app.read, app.newTools, app.settings, app.signIn, app.access, app.groupSettings]).length + 200;
  for (const [name, fingerprint] of app.approvals ?? []) chars += name.length + fingerprint.length + 40;
  return 2 * chars;
}
