import "server-only";
import { and, asc, eq, inArray, isNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import { ConflictError, NotFoundError, noOrg, noOrgApp } from "@/lib/errors";
import { isPostgres, runPrepared, transaction, type Conn } from "@/lib/db/client";
import { appAccessGroups, apps, appSettings, appSignIns, checkResults, groupMembers, groups, groupToolSettings, organization, orgSettings, orgVersionOf, snapshots, toolApprovals, toolSettings } from "@/lib/db/tables";
import { givenPromptTokens, givenSizes, type AppListing } from "@/lib/engine/check";
import { fingerprint, snapshotOf } from "@/lib/engine/changes";
import { entryChars } from "@/lib/engine/listing-size";
import { appCheck, riskyText as riskyTextSchema, unavailable as unavailableSchema, type AppCheck, type CheckAppInput, type RiskyText, type Unavailable } from "@/lib/schemas/check";
import type { AppNewTools, NewTools, Org } from "@/lib/schemas/orgs";
import { appNewTools, newTools as newToolsSchema, orgSlug } from "@/lib/schemas/orgs";
import { holdsBack } from "@/lib/engine/review";
import { effectiveNewTools } from "@/lib/engine/tool-settings";
import { logger } from "@/lib/log";
import { decryptSecret } from "@/lib/secrets";
import { isObject } from "@/lib/json-text";
import { ByteLru } from "./byte-lru";

/** The stored rows of one organisation, on SQLite or PostgreSQL (every query awaited). */

export type AppRow = typeof apps.$inferSelect;
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
}

/** Each app keeps its newest reads: a record is a few numbers and a snapshot's hash. */
export const HISTORY_PER_APP = 1000;

export async function findOrg(db: Conn, slug: string): Promise<Org | undefined> {
  if (!orgSlug.safeParse(slug).success) return undefined;
  const [found] = await db.select({ slug: organization.slug, name: organization.name }).from(organization).where(eq(organization.slug, slug)).limit(1);
  return found;
}

export async function requireOrg(db: Conn, slug: string): Promise<Org> {
  const found = await findOrg(db, slug);
  if (found === undefined) throw noOrg(slug);
  return found;
}

/** Creates the organisation, or renames it when it exists. */
export async function ensureOrg(db: Conn, slug: string, name: string): Promise<void> {
  const valid = orgSlug.parse(slug);
  await db
    .insert(organization)
    .values({ id: valid, slug: valid, name, createdAt: new Date() })
    .onConflictDoUpdate({ target: organization.slug, set: { name } });
}

const wholeMs = (ms: number | null | undefined): number | null => (ms === undefined || ms === null ? null : Math.round(ms));

/**
 * Reads of one app newest first: by time, then (two reads in one millisecond) the one stored
 * last: SQLite's rowid, or on PostgreSQL the id (read ids are random: ties there are arbitrary).
 */
export function newestFirstIn(db: Conn, alias?: string) {
  return newestOrder(db, alias).map((column) => sql`${column} DESC`);
}

/** The columns `newestFirstIn` orders by: the time, then the one that breaks its ties. */
function newestOrder(db: Conn, alias?: string): [SQL, SQL] {
  const column = (name: string) => (alias === undefined ? sql`${checkResults}.${sql.identifier(name)}` : sql`${sql.identifier(alias)}.${sql.identifier(name)}`);
  return [column("checked_at"), column(isPostgres(db) ? "id" : "rowid")];
}

/**
 * Whose list of apps (SPEC §12): the organisation's own (every member's assistant has them), or
 * one person's, `person` being their account id: the organisation's apps and their own personal
 * apps, together in connection order.
 */
export interface Scope {
  org: string;
  person?: string;
}

/** The organisation's own apps in connection order: earliest first, ties broken by id. */
export async function orgApps(db: Conn, org: string): Promise<AppRow[]> {
  return db.select().from(apps).where(and(eq(apps.org, org), isNull(apps.owner))).orderBy(asc(apps.connectedAt), asc(apps.id));
}

/** The apps of a scope in connection order: a person's personal apps among the organisation's. */
export async function scopeApps(db: Conn, scope: Scope): Promise<AppRow[]> {
  if (scope.person === undefined) return orgApps(db, scope.org);
  return db
    .select()
    .from(apps)
    .where(and(eq(apps.org, scope.org), or(isNull(apps.owner), eq(apps.owner, scope.person))))
    .orderBy(asc(apps.connectedAt), asc(apps.id));
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
  /** A person's list only (SPEC §23): who has the app, and the settings of its tools for the person's groups. */
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
  /** The ids of the person's groups (SPEC §23), for a person's list; null for the organisation's own. */
  groups: string[] | null;
}

/** A JSON aggregate as the driver answers it: text on SQLite, parsed on PostgreSQL. */
const aggregate = <T>(value: unknown): T[] => (typeof value === "string" ? JSON.parse(value) : value) as T[];

/** The rows of a subquery as one JSON array of arrays (`[]` for none), in `order`, on either dialect. */
function jsonRows(db: Conn, columns: SQL[], order: SQL): SQL {
  const list = sql.join(columns, sql`, `);
  return isPostgres(db) ? sql`coalesce(json_agg(json_build_array(${list}) ORDER BY ${order} COLLATE "C"), '[]'::json)` : sql`json_group_array(json_array(${list}) ORDER BY ${order})`;
}

/**
 * A scope's apps in connection order, each with its newest read, its own `newTools`, its tools'
 * settings, its approvals (when it may wait for review) and its sign-in, with the organisation
 * and its `newTools`: everything a list's names and summaries are made from, in one statement
 * (one round trip on PostgreSQL). `org` is undefined when there is no such organisation.
 * Every table read here is in lib/db/versioned-tables.ts (list-state.contract.test.ts).
 */
export async function listState(db: Conn, scope: Scope): Promise<ListState> {
  const none: ListState = { org: undefined, newTools: null, riskyText: null, apps: [], version: null, groups: null };
  if (!orgSlug.safeParse(scope.org).success) return none;
  const person = scope.person === undefined ? null : sql.placeholder("person");
  const build = () => {
    const newest = sql`(SELECT newest.id FROM ${checkResults} AS newest WHERE newest.app = ${apps.id} ORDER BY ${sql.join([...newestFirstIn(db, "newest")], sql`, `)} LIMIT 1)`;
    // Approvals are read only for an app that may wait (the organisation's, under a mode that holds back): `waitsUnder` decides exactly.
    const waiting = sql.join(newToolsSchema.options.filter(holdsBack).map((mode) => sql`${mode}`), sql`, `);
    const mayWait = sql`${apps.owner} IS NULL AND coalesce(${appSettings.newTools}, 'org') <> 'available' AND (${appSettings.newTools} IN (${waiting}) OR ${orgSettings.newTools} IN (${waiting}))`;
    const settingColumns = [toolSettings.name, toolSettings.setting, toolSettings.setBy, toolSettings.setByEmail, toolSettings.setAt].map((c) => sql`${c}`);
    const settings = sql<unknown>`(SELECT ${jsonRows(db, settingColumns, sql`${toolSettings.name}`)} FROM ${toolSettings} WHERE ${toolSettings.app} = ${apps.id})`;
    const approvals = sql<unknown>`CASE WHEN ${mayWait} THEN (SELECT ${jsonRows(db, [sql`${toolApprovals.name}`, sql`${toolApprovals.fingerprint}`], sql`${toolApprovals.name}`)} FROM ${toolApprovals} WHERE ${toolApprovals.app} = ${apps.id}) END`;
    // A person's list only (SPEC §23): their groups, who has each org app, and their groups' settings of its tools.
    // Read back through `extra` below: typed apart so the organisation's statement keeps its own type.
    const forPerson: Record<never, never> =
      person === null
        ? {}
        : {
            personGroups: sql<unknown>`(SELECT ${jsonRows(db, [sql`${groupMembers.group}`], sql`${groupMembers.group}`)} FROM ${groupMembers} WHERE ${groupMembers.org} = ${organization.slug} AND ${groupMembers.person} = ${person})`,
            access: sql<string | null>`${appSettings.access}`,
            accessGroups: sql<unknown>`CASE WHEN ${appSettings.access} = 'groups' THEN (SELECT ${jsonRows(db, [sql`${groups.id}`, sql`${groups.name}`], sql`${groups.name}`)} FROM ${appAccessGroups} INNER JOIN ${groups} ON ${groups.id} = ${appAccessGroups.group} WHERE ${appAccessGroups.app} = ${apps.id}) END`,
            groupSettings: sql<unknown>`(SELECT ${jsonRows(
              db,
              [groupToolSettings.group, groups.name, groupToolSettings.name, groupToolSettings.setting, groupToolSettings.setBy, groupToolSettings.setByEmail, groupToolSettings.setAt].map((c) => sql`${c}`),
              sql`${groupToolSettings.name}`,
            )} FROM ${groupToolSettings} INNER JOIN ${groups} ON ${groups.id} = ${groupToolSettings.group} INNER JOIN ${groupMembers} ON ${groupMembers.group} = ${groupToolSettings.group} WHERE ${groupToolSettings.app} = ${apps.id} AND ${groupMembers.person} = ${person})`,
          };
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
        ...forPerson,
      })
      .from(organization)
      .leftJoin(orgSettings, eq(orgSettings.org, organization.slug))
      .leftJoin(apps, and(eq(apps.org, organization.slug), person === null ? isNull(apps.owner) : or(isNull(apps.owner), eq(apps.owner, person))))
      .leftJoin(checkResults, eq(checkResults.id, newest))
      .leftJoin(appSettings, eq(appSettings.app, apps.id))
      .leftJoin(appSignIns, eq(appSignIns.app, apps.id))
      .where(eq(organization.slug, sql.placeholder("org")))
      .orderBy(asc(apps.connectedAt), asc(apps.id));
  };
  const rows = await runPrepared(db, person === null ? "theorem_list_state" : "theorem_list_state_person", build, { org: scope.org, person: scope.person });
  const first = rows[0];
  if (first === undefined) return none;
  const extra = (r: (typeof rows)[number]) => r as typeof r & { personGroups?: unknown; access?: string | null; accessGroups?: unknown; groupSettings?: unknown };
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
            access: r.app.owner === null && extra(r).access === "groups" ? { groups: extra(r).accessGroups == null ? [] : aggregate<[string, string]>(extra(r).accessGroups) } : "everyone",
            groupSettings: r.app.owner !== null || extra(r).groupSettings == null ? [] : aggregate<GroupSettingRow>(extra(r).groupSettings),
          },
        ],
  );
  const personGroups = extra(first).personGroups;
  const groupIds = scope.person === undefined ? null : personGroups == null ? [] : aggregate<[string]>(personGroups).map(([id]) => id);
  return { org: { slug: first.slug, name: first.name }, newTools: first.orgNewTools, riskyText: first.orgRiskyText, apps: listed, version: first.version, groups: groupIds };
}

/** What each process keeps of lists at most (estimated bytes): a larger organisation's is read each time. */
export const LIST_STATE_BYTES = 64 * 2 ** 20;

const keptStates = new WeakMap<Conn, ByteLru<ListState>>();

/** Bounds what `db`'s lists may keep at `maxBytes` (tests; LIST_STATE_BYTES otherwise), forgetting what was kept. */
export function boundListStates(db: Conn, maxBytes: number): void {
  keptStates.set(db, new ByteLru<ListState>(maxBytes));
}

/**
 * `listState`, answered from what this process kept when `seen` (the organisation's version, as
 * the request's access read it: `OrgAccess.version`) is the version it was read at. Every change
 * draws a new version in its own transaction, on whichever instance, and a state is kept with
 * the version read in its own statement: so a kept state answers only while it is what the
 * database holds at the version the request saw. Only for a request that has changed nothing
 * yet (after a change `seen` is behind: pass null, and `listState` reads afresh). The newest
 * read of a scope is kept, per database, least recently used first out within `LIST_STATE_BYTES`.
 */
export async function keptListState(db: Conn, scope: Scope, seen: string | null): Promise<ListState> {
  let kept = keptStates.get(db);
  if (kept === undefined) keptStates.set(db, (kept = new ByteLru<ListState>(LIST_STATE_BYTES)));
  const key = `${scope.org}\u0000${scope.person ?? ""}`;
  const found = kept.get(key);
  if (seen !== null && found?.version === seen) return found;
  const state = await listState(db, scope);
  // No version: no such organisation, or none stored for it yet; nothing to key it by.
  if (state.version !== null) kept.set(key, state, stateBytes(state));
  return state;
}

/** A list state's estimated bytes: its rows' text (two bytes a character) and a little for each row and approval. */
function stateBytes(state: ListState): number {
  let chars = 0;
  for (const app of state.apps) {
    chars += JSON.stringify([app.row, app.read, app.newTools, app.settings, app.signIn, app.access, app.groupSettings]).length + 200;
    for (const [name, fingerprint] of app.approvals ?? []) chars += name.length + fingerprint.length + 40;
  }
  return 2 * chars + 256;
}

/** The newest connection time of any app of the organisation, personal ones included (0 when none). */
export async function lastConnectedAt(db: Conn, org: string): Promise<number> {
  const [row] = await db.select({ at: sql<string | number | null>`max(${apps.connectedAt})` }).from(apps).where(eq(apps.org, org));
  // PostgreSQL answers a bigint aggregate as text.
  return row?.at == null ? 0 : Number(row.at);
}

/** How many personal apps the person has in the organisation. */
export async function personalCount(db: Conn, org: string, person: string): Promise<number> {
  return db.$count(apps, and(eq(apps.org, org), eq(apps.owner, person)));
}

/** One of the organisation's own apps (never a personal one), or the 404. */
export async function requireApp(db: Conn, org: string, id: string): Promise<AppRow> {
  const build = () => db.select().from(apps).where(and(eq(apps.org, sql.placeholder("org")), eq(apps.id, sql.placeholder("id")), isNull(apps.owner))).limit(1);
  const [row] = await runPrepared(db, "theorem_require_app", build, { org, id });
  if (row === undefined) throw noOrgApp(org, id);
  return row;
}

/** One of the person's own personal apps, or the 404 (an org app, or someone else's, is not theirs). */
export async function requirePersonalApp(db: Conn, org: string, person: string, id: string): Promise<AppRow> {
  const [row] = await db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id), eq(apps.owner, person))).limit(1);
  if (row === undefined) throw new NotFoundError(`You have no personal app "${id}" here.`);
  return row;
}

/** Any app of the organisation, org or personal (for the schedule, which re-reads them all). */
export async function anyApp(db: Conn, org: string, id: string): Promise<AppRow | undefined> {
  const [row] = await db.select().from(apps).where(and(eq(apps.org, org), eq(apps.id, id))).limit(1);
  return row;
}

/** Every personal app of the organisation, by owner, in connection order (for the lookup's "someone else's app"). */
export async function personalApps(db: Conn, org: string): Promise<AppRow[]> {
  return db
    .select()
    .from(apps)
    .where(and(eq(apps.org, org), sql`${apps.owner} IS NOT NULL`))
    .orderBy(asc(apps.connectedAt), asc(apps.id));
}

/** The stored header's value in the clear, or null; one that cannot be decrypted is not sent (the app then asks for it). */
function headerSecret(row: AppRow): string | null {
  if (row.headerValue === null) return null;
  try {
    return decryptSecret(row.headerValue);
  } catch (error) {
    logger.error({ org: row.org, app: row.id, err: error }, "The stored header of an app cannot be decrypted: it is not sent");
    return null;
  }
}

/** The URL to read, its query secrets in the clear (SPEC §10); one that cannot be decrypted is read as shown, with `…` (the app then refuses it). */
export function urlToRead(row: Pick<AppRow, "org" | "id" | "url" | "urlSecret">): string {
  if (row.urlSecret === null) return row.url;
  try {
    return decryptSecret(row.urlSecret);
  } catch (error) {
    logger.error({ org: row.org, app: row.id, err: error }, "The stored URL of an app cannot be decrypted: its query secrets are not sent");
    return row.url;
  }
}

/** How the check is asked about an app: by URL, with its header (both decrypted only here, on their way to the app). */
export function checkInput(row: AppRow): CheckAppInput {
  const value = row.headerName === null ? null : headerSecret(row);
  const more = moreHeaderSecrets(row);
  const headers = { ...more, ...(row.headerName !== null && value !== null ? { [row.headerName]: value } : {}) };
  return { name: row.name, url: urlToRead(row), ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

/** Headers beyond the first (SPEC §24), as stored: JSON `{name: encrypted value}`. */
export function moreHeaderNames(row: Pick<AppRow, "moreHeaders">): string[] {
  return row.moreHeaders === null ? [] : Object.keys(JSON.parse(row.moreHeaders) as Record<string, string>);
}

/** Headers beyond the first in the clear (each one that cannot be decrypted is not sent). */
function moreHeaderSecrets(row: AppRow): Record<string, string> {
  if (row.moreHeaders === null) return {};
  const clear: Record<string, string> = {};
  for (const [name, stored] of Object.entries(JSON.parse(row.moreHeaders) as Record<string, string>)) {
    const value = headerSecret({ ...row, headerValue: stored });
    if (value !== null) clear[name] = value;
  }
  return clear;
}

/** A snapshot as parsed once: its entries, and (when review asked for them) its named tools' fingerprints. */
interface ParsedSnapshot {
  entries: readonly unknown[];
  /** Each entry's `promptTokens` as counted when it was read (SPEC §21); absent for a snapshot stored before. */
  tokens?: readonly (number | null)[];
  /** The characters of the same texts, when they were stored with them. */
  chars?: readonly (number | null)[];
  named?: Map<string, { index: number; fingerprint: string }>;
}

/** Bytes of parsed snapshots kept per process (estimated: parsed JSON takes about 1.4 bytes per character, counted as 2). */
export const SNAPSHOT_CACHE_BYTES = 128 * 2 ** 20;
const snapshotBytes = (text: string) => 2 * text.length + 256;
// Snapshots never change once stored: each is parsed once per process, while it is used.
const shared = globalThis as typeof globalThis & { __theoremSnapshots?: ByteLru<ParsedSnapshot> };
const parsed = (shared.__theoremSnapshots ??= new ByteLru<ParsedSnapshot>(SNAPSHOT_CACHE_BYTES));

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
export function protocolOf(read: ReadRow): Pick<AppListing, "protocol" | "cache"> {
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
 * the app is now (the change that moved it stores its own read).
 */
export async function insertReads(db: Conn, reads: NewRead[]): Promise<void> {
  await transaction(db, async (tx) => {
    for (const read of reads) {
      const [now] = await runPrepared(tx, "theorem_read_as", () => tx.select({ url: apps.url, urlSecret: apps.urlSecret, headerValue: apps.headerValue }).from(apps).where(eq(apps.id, sql.placeholder("app"))).limit(1), { app: read.app });
      if (now === undefined || now.url !== read.readAs.url || now.urlSecret !== read.readAs.urlSecret || now.headerValue !== read.readAs.headerValue) continue;
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
        await runPrepared(tx, "theorem_insert_snapshot", () => insertSnapshot(tx), { hash, entries: snapshot.text, tokens, tools: listing.entries.length, chars, createdAt: read.checkedAt });
        // A snapshot stored before tokens were counted gains them from this read (SPEC §21).
        if (tokens !== null) await runPrepared(tx, "theorem_snapshot_tokens", () => tx.update(snapshots).set({ tokens: sql`${sql.placeholder("tokens")}` }).where(and(eq(snapshots.hash, sql.placeholder("hash")), isNull(snapshots.tokens))), { hash, tokens });
      }
      await runPrepared(tx, "theorem_insert_read", () => insertRead(tx), {
        id: read.id,
        app: read.app,
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
    }
  });
}

/** Stores a snapshot once (placeholders named as its columns). */
const insertSnapshot = (db: Conn) =>
  db
    .insert(snapshots)
    .values({ hash: sql.placeholder("hash"), entries: sql.placeholder("entries"), tokens: sql.placeholder("tokens"), tools: sql.placeholder("tools"), chars: sql.placeholder("chars"), createdAt: sql.placeholder("createdAt") })
    .onConflictDoNothing();

/** Stores a read (placeholders named as its columns; `result` is only ever a legacy read's). */
const insertRead = (db: Conn) => {
  const columns = ["id", "app", "checkedAt", "durationMs", "snapshot", "unavailable", "connectMs", "listMs", "stopped", "charsRead", "protocol", "cacheTtlMs", "cacheScope", "challenge"] as const;
  return db.insert(checkResults).values({ ...Object.fromEntries(columns.map((column) => [column, sql.placeholder(column)])), result: null } as typeof checkResults.$inferInsert);
};

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

/** Forgets snapshots no read points at any more (after trimming or removing apps). */
export async function dropUnusedSnapshots(db: Conn): Promise<void> {
  const used = db.selectDistinct({ hash: checkResults.snapshot }).from(checkResults).where(sql`${checkResults.snapshot} IS NOT NULL`);
  await db.delete(snapshots).where(notInArray(snapshots.hash, used));
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

/** Snapshots' sizes, by hash. */
export async function snapshotSizes(db: Conn, hashes: string[]): Promise<Map<string, { tools: number; chars: number }>> {
  if (hashes.length === 0) return new Map();
  const rows = await db.select({ hash: snapshots.hash, tools: snapshots.tools, chars: snapshots.chars }).from(snapshots).where(inArray(snapshots.hash, hashes));
  return new Map(rows.map((r) => [r.hash, { tools: r.tools, chars: r.chars }]));
}

// ---- Review (SPEC §11) ----

/** The organisation's `newTools` as stored: `available` when none is stored, or one no longer known. */
export const orgModeOf = (stored: string | null | undefined): NewTools => (newToolsSchema.options.find((mode) => mode === stored) ?? "available");
/** An app's own `newTools` as stored: `org` when none is stored, or one no longer known. */
export const appModeOf = (stored: string | null | undefined): AppNewTools => (appNewTools.options.find((mode) => mode === stored) ?? "org");

/** The organisation's `riskyText` as stored: `warn` when none is stored, or one no longer known (SPEC §20). */
export const riskyTextModeOf = (stored: string | null | undefined): RiskyText => (riskyTextSchema.options.find((mode) => mode === stored) ?? "warn");

export async function riskyTextOf(db: Conn, org: string): Promise<RiskyText> {
  const [row] = await db.select({ riskyText: orgSettings.riskyText }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return riskyTextModeOf(row?.riskyText);
}

/** Sets `riskyText` (SPEC §20): the organisation's version changes with it (its triggers), so every kept list is named again. */
export async function setRiskyText(db: Conn, org: string, value: RiskyText): Promise<void> {
  await db.insert(orgSettings).values({ org, riskyText: value }).onConflictDoUpdate({ target: orgSettings.org, set: { riskyText: value } });
}

/** The organisation's `tokenBudget` (SPEC §21): null when none is set. */
export async function tokenBudgetOf(db: Conn, org: string): Promise<number | null> {
  const [row] = await db.select({ tokenBudget: orgSettings.tokenBudget }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return row?.tokenBudget ?? null;
}

export async function setTokenBudget(db: Conn, org: string, value: number | null): Promise<void> {
  await db.insert(orgSettings).values({ org, tokenBudget: value }).onConflictDoUpdate({ target: orgSettings.org, set: { tokenBudget: value } });
}

export async function newToolsOf(db: Conn, org: string): Promise<NewTools> {
  const [row] = await db.select({ newTools: orgSettings.newTools }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return orgModeOf(row?.newTools);
}

/**
 * The review mode in force (SPEC §11, §19) for each of the organisation's apps among `appIds`, in
 * one query: its own `newTools`, or the organisation's (`orgMode` when the caller has it). Apps
 * of no such organisation are left out.
 */
export async function reviewModes(db: Conn, org: string, appIds: readonly string[], orgMode?: NewTools): Promise<Map<string, NewTools>> {
  if (appIds.length === 0) return new Map();
  const select = () => db.select({ app: apps.id, own: appSettings.newTools, org: orgSettings.newTools }).from(apps).leftJoin(appSettings, eq(appSettings.app, apps.id)).leftJoin(orgSettings, eq(orgSettings.org, apps.org));
  // One app (a re-check) takes a kept statement.
  const rows =
    appIds.length === 1
      ? await runPrepared(db, "theorem_review_mode", () => select().where(and(eq(apps.org, sql.placeholder("org")), eq(apps.id, sql.placeholder("app")))), { org, app: appIds[0] })
      : await select().where(and(eq(apps.org, org), inArray(apps.id, [...appIds])));
  return new Map(rows.map((row) => [row.app, effectiveNewTools(appModeOf(row.own), orgMode ?? orgModeOf(row.org))]));
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

/** The approved fingerprint of each approved tool of `appIds`, by app and name, in one query. */
export async function approvalsOf(db: Conn, appIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const found = new Map<string, Map<string, string>>(appIds.map((id) => [id, new Map()]));
  if (appIds.length === 0) return found;
  const rows = await db.select({ app: toolApprovals.app, name: toolApprovals.name, fingerprint: toolApprovals.fingerprint }).from(toolApprovals).where(inArray(toolApprovals.app, [...appIds]));
  for (const row of rows) found.get(row.app)?.set(row.name, row.fingerprint);
  return found;
}

/** The entries of `listing` (an app's newest read) not approved as they are in `approved`: new, or changed since. */
export function awaitingIn(read: Pick<ReadRow, "snapshot"> | undefined, listing: AppListing, approved: ReadonlyMap<string, string>): number[] {
  return [...toolsOfListing(read, listing)].filter(([name, tool]) => approved.get(name) !== tool.fingerprint).map(([, tool]) => tool.index);
}

/** The entries of `listing` (an app's newest read) a leader has not approved as they are: new, or changed since. */
export async function awaitingReview(db: Conn, appId: string, read: ReadRow | undefined, listing: AppListing): Promise<number[]> {
  return awaitingIn(read, listing, (await approvalsOf(db, [appId])).get(appId)!);
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
    const own = new Set((await tx.select({ app: appSettings.app, newTools: appSettings.newTools }).from(appSettings).innerJoin(apps, eq(apps.id, appSettings.app)).where(eq(apps.org, org))).filter((r) => r.newTools !== "org").map((r) => r.app));
    for (const row of await orgApps(tx, org)) {
      if (own.has(row.id)) continue;
      const read = newest.get(row.id);
      await tx.delete(toolApprovals).where(eq(toolApprovals.app, row.id));
      await approveTools(tx, row.id, read, await listingOf(tx, row, read), by);
    }
  });
}
