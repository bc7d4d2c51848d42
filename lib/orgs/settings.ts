import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/audit-log";
import { orgTransaction, runPrepared, type Conn } from "@/lib/db/client";
import { appAccessGroups, apps, appSettings, groups, groupToolSettings, toolApprovals, toolSettings } from "@/lib/db/tables";
import { holdsBack } from "@/lib/engine/review";
import type { NamedSetting } from "@/lib/engine/tool-settings";
import { isObject } from "@/lib/json-text";
import type { ToolSetting } from "@/lib/schemas/check";
import type { AppNewTools, OrgSettings, OrgSettingsUpdate } from "@/lib/schemas/orgs";
import type { AppAccessView, GroupRef, GroupSettingsView } from "@/lib/schemas/groups";
import { TOOL_NAME_MAX, TOOL_NAME_SHAPE, type AppSettings, type AppSettingsUpdate, type OrgAppSettings } from "@/lib/schemas/settings";
import type { OrgContext } from "./context";
import { requireGroupsOf } from "./groups";
import { setReviewMode, settleReview } from "./review";
import { noteBudget, noteSentChanged, type ListsOf } from "./alert-events";
import { appModeOf, exportFallbackOf, newToolsOf, ownSettingsLift, reviewModeOf, riskyTextOf, roleOf, setExportFallback, setRiskyText, setTokenBudget, tokenBudgetOf } from "./organisations";
import { requireApp, requirePersonalApp, type AppRow } from "./app-rows";
import type { GroupSettingRow, SettingRow } from "./list-state";
import { listingOf, readHistory } from "./reads";
import { approveTools } from "./approvals";

/**
 * The leader's say per tool, and an app's own `newTools` (SPEC §19): stored by tool name, given
 * to the engine with each app's listing, changed by a leader (an org app) or the owner (their
 * personal app), every change in the audit log with it.
 */

/** Whose app: the organisation's (`owner` null, leaders change it) or a person's own. */
interface AppOf {
  org: string;
  app: string;
  owner: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A stored setting as the engine takes it, or null for one not in force. */
export function namedSetting([name, setting, setBy, setByEmail, setAt]: SettingRow): NamedSetting | null {
  if (setting !== "ask-first" && setting !== "blocked") return null;
  return { name, setting, by: { id: setBy, email: setByEmail }, at: iso(setAt) };
}

/** A group's stored setting (SPEC §23) as the engine takes it: naming its group; null for one not in force. */
export function groupSetting([group, groupName, ...rest]: GroupSettingRow): NamedSetting | null {
  const setting = namedSetting(rest);
  return setting === null ? null : { ...setting, group: { id: group, name: groupName } };
}

/** A stored setting's row (of the organisation's or a group's) as the engine takes it; null for one not in force. */
const settingOfRow = (row: { name: string; setting: string; setBy: string; setByEmail: string; setAt: number }) => namedSetting([row.name, row.setting, row.setBy, row.setByEmail, row.setAt]);

/** The settings in force on the tools of `appIds`, by app, as the engine takes them. */
export async function settingsOfApps(db: Conn, appIds: readonly string[]): Promise<Map<string, NamedSetting[]>> {
  const found = new Map<string, NamedSetting[]>();
  if (appIds.length === 0) return found;
  const rows = await db.select().from(toolSettings).where(inArray(toolSettings.app, [...appIds]));
  for (const row of rows) {
    const setting = settingOfRow(row);
    if (setting === null) continue;
    const list = found.get(row.app) ?? [];
    list.push(setting);
    found.set(row.app, list);
  }
  return found;
}

async function requireAppOf(db: Conn, of: AppOf): Promise<AppRow> {
  return of.owner === null ? requireApp(db, of.org, of.app) : requirePersonalApp(db, of.org, of.owner, of.app);
}

/** The names of the tools the app's newest read lists. */
async function listedNames(db: Conn, row: AppRow): Promise<Set<string>> {
  const [read] = await readHistory(db, { org: row.org, app: row.id }, 1);
  const names = new Set<string>();
  for (const entry of (await listingOf(db, row, read)).entries) {
    const name = isObject(entry) ? entry["name"] : undefined;
    if (typeof name === "string" && name !== "") names.add(name);
  }
  return names;
}

/** The app (or its 404) with its own newTools, in one query. */
async function appWithNewTools(db: Conn, of: AppOf): Promise<{ row: AppRow; newTools: AppNewTools; access: "everyone" | "groups" }> {
  const personal = of.owner !== null;
  const build = () =>
    db
      .select({ row: apps, newTools: appSettings.newTools, access: appSettings.access })
      .from(apps)
      .leftJoin(appSettings, eq(appSettings.app, apps.id))
      .where(and(eq(apps.org, sql.placeholder("org")), eq(apps.id, sql.placeholder("app")), personal ? eq(apps.owner, sql.placeholder("owner")) : isNull(apps.owner)))
      .limit(1);
  const [found] = await runPrepared(db, personal ? "theorem_personal_app_settings" : "theorem_app_settings", build, { org: of.org, app: of.app, owner: of.owner });
  if (found === undefined) {
    await requireAppOf(db, of); // the 404 in the words of the app's kind
    throw new NotFoundError(`There is no app "${of.app}".`);
  }
  return { row: found.row, newTools: appModeOf(found.newTools), access: found.access === "groups" ? "groups" : "everyone" };
}

/** The settings of one app as they are stored: its own newTools, and its tools' settings by name. */
async function storedOf(db: Conn, row: AppRow, newTools: AppNewTools): Promise<{ newTools: AppNewTools; tools: Map<string, NamedSetting> }> {
  // A prepared statement (as the app's and its groups' reads): a setting's change is a few small reads, and building each cost as much as running it.
  const rows = await runPrepared(db, "theorem_tool_settings", () => db.select().from(toolSettings).where(eq(toolSettings.app, sql.placeholder("app"))), { app: row.id });
  const tools = new Map<string, NamedSetting>();
  for (const row of rows) {
    const setting = settingOfRow(row);
    if (setting !== null) tools.set(row.name, setting);
  }
  return { newTools, tools };
}

function viewOf(stored: { newTools: AppNewTools; tools: Map<string, NamedSetting> }, listed: Set<string>): AppSettings {
  return {
    newTools: stored.newTools,
    tools: [...stored.tools.values()]
      .map((t) => ({ name: t.name, setting: t.setting, by: t.by!, at: t.at!, listed: listed.has(t.name) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** Who has an org app (SPEC §23): everyone, or its groups by name. */
async function accessOf(db: Conn, app: string, mode: "everyone" | "groups"): Promise<AppAccessView> {
  if (mode === "everyone") return "everyone";
  const rows = await db.select({ id: groups.id, name: groups.name }).from(appAccessGroups).innerJoin(groups, eq(groups.id, appAccessGroups.group)).where(eq(appAccessGroups.app, app));
  return { groups: rows.sort(byGroupName) };
}

const byGroupName = (a: GroupRef, b: GroupRef) => a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Each group's settings of an org app's tools (SPEC §23), by group id, as the engine takes them (naming the group). */
async function groupSettingsOf(db: Conn, app: string): Promise<Map<string, { group: GroupRef; tools: Map<string, NamedSetting> }>> {
  const build = () =>
    db
      .select({ group: groups.id, groupName: groups.name, name: groupToolSettings.name, setting: groupToolSettings.setting, setBy: groupToolSettings.setBy, setByEmail: groupToolSettings.setByEmail, setAt: groupToolSettings.setAt })
      .from(groupToolSettings)
      .innerJoin(groups, eq(groups.id, groupToolSettings.group))
      .where(eq(groupToolSettings.app, sql.placeholder("app")));
  const rows = await runPrepared(db, "theorem_group_tool_settings", build, { app });
  const found = new Map<string, { group: GroupRef; tools: Map<string, NamedSetting> }>();
  for (const row of rows) {
    const setting = settingOfRow(row);
    if (setting === null) continue;
    const group = { id: row.group, name: row.groupName };
    const held = found.get(group.id) ?? { group, tools: new Map<string, NamedSetting>() };
    held.tools.set(row.name, { ...setting, group });
    found.set(group.id, held);
  }
  return found;
}

function groupsViewOf(stored: Map<string, { group: GroupRef; tools: Map<string, NamedSetting> }>, listed: Set<string>): GroupSettingsView {
  return [...stored.values()]
    .filter(({ tools }) => tools.size > 0)
    .map(({ group, tools }) => ({ ...group, tools: viewOf({ newTools: "org", tools }, listed).tools }))
    .sort(byGroupName);
}

/** GET …/settings: the app's `newTools` and every setting it keeps, listed now or waiting for the tool; of an org app also its `access` and its groups' settings (SPEC §23). */
export async function appSettingsOf(ctx: OrgContext, of: AppOf): Promise<AppSettings | OrgAppSettings> {
  const { row, newTools, access } = await appWithNewTools(ctx.db, of);
  const listed = await listedNames(ctx.db, row);
  const view = viewOf(await storedOf(ctx.db, row, newTools), listed);
  if (of.owner !== null) return view;
  return { ...view, access: await accessOf(ctx.db, row.id, access), groups: groupsViewOf(await groupSettingsOf(ctx.db, row.id), listed) };
}

const invalid = (message: string, path: string[]) => new InvalidError(message, [{ path, message }]);
const quoted = (names: readonly string[]) => names.slice(0, 10).map((n) => JSON.stringify(n)).join(", ") + (names.length > 10 ? ` and ${names.length - 10} more` : "");

/**
 * PATCH …/settings (SPEC §19): sets tools (by name) and the app's `newTools`, by `actor`, each
 * change in the audit log in the same transaction. A name the app does not list now is refused
 * (422) unless `force`; then it must be a tool's name (letters, digits, `_`, `-`, `.`). A
 * personal app is never held for review: its `newTools` is `org` or `available`. An app removed
 * meanwhile is the 404, and nothing is stored.
 */
export async function changeAppSettings(ctx: OrgContext, of: AppOf, update: AppSettingsUpdate, actor: { id: string; email: string }, lists?: ListsOf): Promise<AppSettings | OrgAppSettings> {
  if (of.owner !== null && (update.groups !== undefined || update.access !== undefined)) {
    const field = update.groups !== undefined ? "groups" : "access";
    throw invalid(`A personal app is only yours: it has no \`${field}\` (groups and access are of the organisation's apps).`, [field]);
  }
  if (of.owner !== null && update.newTools !== undefined && update.newTools !== "org" && update.newTools !== "available") {
    throw invalid(`A personal app's newTools is "org" or "available" (the organisation's review holds it whatever its own, unless its owner is a leader).`, ["newTools"]);
  }
  // Read, checked and written in one transaction under the organisation's lock: an app removed
  // meanwhile is the 404 and nothing is stored; the answer is made from what was read and written.
  return orgTransaction(ctx.db, of.org, async (tx) => {
    const { row, newTools, access } = await appWithNewTools(tx, of);
    const wanted = Object.entries(update.tools ?? {});
    const listed = await listedNames(tx, row);
    refuseUnknownTools(row.name, listed, wanted.map(([name]) => name), ["tools"], update.force === true);
    // SPEC §23: every group named is one of this organisation's, and each of its tools as above; checked before anything is written.
    const groupsNamed = await requireGroupsOf(tx, of.org, Object.keys(update.groups ?? {}), (id) => ["groups", id]);
    for (const [group, tools] of Object.entries(update.groups ?? {})) refuseUnknownTools(row.name, listed, Object.keys(tools), ["groups", group], update.force === true);
    const accessGroups = update.access === undefined || update.access === "everyone" ? new Map<string, GroupRef>() : await requireGroupsOf(tx, of.org, update.access.groups, (id) => ["access", "groups", update.access !== "everyone" ? update.access!.groups.indexOf(id) : 0]);

    const stored = await storedOf(tx, row, newTools);
    const change: SettingsChange = { tx, of, row, actor, now: Date.now() };
    await setToolSettings(change, stored.tools, wanted);
    await setAppNewTools(change, stored, update.newTools ?? stored.newTools);
    const view = viewOf(stored, listed);
    // SPEC §28: given `lists` (lib/orgs/lists.ts `listsIn`), whoever this puts over the budget, and an app's new problems on a chosen host, are told.
    if (of.owner !== null) {
      if (lists !== undefined) await noteSentChanged(tx, of.org, lists);
      return view;
    }

    const byGroup = await groupSettingsOf(tx, row.id);
    await setGroupToolSettings(change, byGroup, update.groups ?? {}, groupsNamed);
    const after = await setAccess(change, await accessOf(tx, row.id, access), update.access, accessGroups);
    if (lists !== undefined) await noteSentChanged(tx, of.org, lists);
    return { ...view, access: after, groups: groupsViewOf(byGroup, listed) };
  });
}

/** One PATCH …/settings as its writes share it: its transaction, the app, who changes it and when (every audit entry it writes has that time). */
interface SettingsChange {
  tx: Conn;
  of: AppOf;
  row: AppRow;
  actor: { id: string; email: string };
  now: number;
}

/** The app as its audit entries name it. */
const appRefOf = (row: AppRow) => ({ id: row.id, name: row.name });

/** What an audit entry of a personal app's change adds to its details. */
const personalOf = (of: AppOf) => (of.owner === null ? {} : { personal: true });

/**
 * Sets one tool's setting to `to` ("default" deletes it), with its audit entry; nothing when it is
 * that already. The app's own setting (`toolSettings`, by app and tool), or with `group` that
 * group's (`groupToolSettings`, by app, group and tool; SPEC §23), which its audit entry names.
 * `held`: the settings as stored, by tool name, left as the change leaves them (the answer is
 * made from them).
 */
async function setToolSetting(change: SettingsChange, held: Map<string, NamedSetting>, name: string, to: ToolSetting, group?: GroupRef): Promise<void> {
  const { tx, of, row, actor, now } = change;
  const from: ToolSetting = held.get(name)?.setting ?? "default";
  if (from === to) return;
  if (to === "default") {
    if (group === undefined) await tx.delete(toolSettings).where(and(eq(toolSettings.app, row.id), eq(toolSettings.name, name)));
    else await tx.delete(groupToolSettings).where(and(eq(groupToolSettings.app, row.id), eq(groupToolSettings.group, group.id), eq(groupToolSettings.name, name)));
    held.delete(name);
  } else {
    const set = { setting: to, setBy: actor.id, setByEmail: actor.email, setAt: now };
    if (group === undefined) await tx.insert(toolSettings).values({ app: row.id, name, ...set }).onConflictDoUpdate({ target: [toolSettings.app, toolSettings.name], set });
    else await tx.insert(groupToolSettings).values({ app: row.id, group: group.id, name, ...set }).onConflictDoUpdate({ target: [groupToolSettings.app, groupToolSettings.group, groupToolSettings.name], set });
    held.set(name, { name, setting: to, by: { id: actor.id, email: actor.email }, at: iso(now), ...(group === undefined ? {} : { group }) });
  }
  const details = { tool: name, from, to, ...(group === undefined ? personalOf(of) : { group }) };
  await recordAudit(tx, { org: of.org, actor, action: "tool.setting.changed", app: appRefOf(row), details }, now);
}

/** The app's own settings of its tools (SPEC §19), in the order given; `stored` as `setToolSetting`'s `held`. */
async function setToolSettings(change: SettingsChange, stored: Map<string, NamedSetting>, wanted: readonly [string, ToolSetting][]): Promise<void> {
  for (const [name, to] of wanted) await setToolSetting(change, stored, name, to);
}

/**
 * The app's own `newTools` (SPEC §19), with its audit entry; nothing when it is `to` already.
 * Starting to wait approves what the app lists now; review is settled for the app after.
 * `stored` is left with `to`.
 */
async function setAppNewTools(change: SettingsChange, stored: { newTools: AppNewTools }, to: AppNewTools): Promise<void> {
  const { tx, of, row, actor, now } = change;
  const from = stored.newTools;
  if (from === to) return;
  await tx.insert(appSettings).values({ app: row.id, newTools: to }).onConflictDoUpdate({ target: appSettings.app, set: { newTools: to } });
  stored.newTools = to;
  // A personal app's own newTools counts only when its owner is a leader (SPEC §25).
  const lifts = ownSettingsLift(of.owner, of.owner === null ? null : await roleOf(tx, of.org, of.owner));
  // Starting to wait freezes what the app lists now as approved: only what changes from here on waits.
  const orgValue = await newToolsOf(tx, of.org);
  if (holdsBack(reviewModeOf(to, orgValue, lifts)) && !holdsBack(reviewModeOf(from, orgValue, lifts))) {
    const [read] = await readHistory(tx, { org: of.org, app: row.id }, 1);
    await tx.delete(toolApprovals).where(eq(toolApprovals.app, row.id));
    await approveTools(tx, row.id, read, await listingOf(tx, row, read), actor.id);
  }
  // From waiting for every change to waiting only for risky ones: what need not wait passes now.
  await settleReview(tx, of.org, [row.id]);
  await recordAudit(tx, { org: of.org, actor, action: "app.settings.changed", app: appRefOf(row), details: { newTools: { from, to }, ...personalOf(of) } }, now);
}

/**
 * Per group, per tool (SPEC §23): as the organisation's, each change audited naming the group.
 * `byGroup`: each group's settings as stored, left as the change leaves them; `named`: the groups
 * of `groups`, already required to be the organisation's.
 */
async function setGroupToolSettings(change: SettingsChange, byGroup: Map<string, { group: GroupRef; tools: Map<string, NamedSetting> }>, groups: Record<string, Record<string, ToolSetting>>, named: Map<string, GroupRef>): Promise<void> {
  for (const [id, tools] of Object.entries(groups)) {
    const group = named.get(id)!;
    const held = byGroup.get(id) ?? { group, tools: new Map<string, NamedSetting>() };
    byGroup.set(id, held);
    for (const [name, to] of Object.entries(tools)) await setToolSetting(change, held.tools, name, to, group);
  }
}

/**
 * Who has the app (SPEC §23): everyone, or some groups (`groups`, already required to be the
 * organisation's), with its audit entry; nothing when `wanted` is absent or is who has it
 * already (`before`). Answers who has it after.
 */
async function setAccess(change: SettingsChange, before: AppAccessView, wanted: AppSettingsUpdate["access"], groups: Map<string, GroupRef>): Promise<AppAccessView> {
  if (wanted === undefined) return before;
  const { tx, of, row, actor, now } = change;
  const wantedAccess: AppAccessView = wanted === "everyone" ? "everyone" : { groups: [...groups.values()].sort(byGroupName) };
  if (accessKey(wantedAccess) === accessKey(before)) return before;
  const mode = wantedAccess === "everyone" ? "everyone" : "groups";
  await tx.insert(appSettings).values({ app: row.id, access: mode }).onConflictDoUpdate({ target: appSettings.app, set: { access: mode } });
  await tx.delete(appAccessGroups).where(eq(appAccessGroups.app, row.id));
  if (wantedAccess !== "everyone") await tx.insert(appAccessGroups).values(wantedAccess.groups.map((g) => ({ app: row.id, group: g.id })));
  await recordAudit(tx, { org: of.org, actor, action: "app.access.changed", app: appRefOf(row), details: { from: before, to: wantedAccess } }, now);
  return wantedAccess;
}

/** An access as compared: "everyone", or its group ids in order. */
const accessKey = (access: AppAccessView) => (access === "everyone" ? "everyone" : JSON.stringify(access.groups.map((g) => g.id).sort()));

/**
 * Refuses (422 at `path` + the name) a name the app does not list now unless `force`; then it must
 * be a tool's name (letters, digits, `_`, `-`, `.`, at most TOOL_NAME_MAX characters).
 */
function refuseUnknownTools(app: string, listed: Set<string>, names: readonly string[], path: string[], force: boolean): void {
  const unlisted = names.filter((name) => !listed.has(name));
  if (unlisted.length > 0 && !force) {
    throw invalid(`${app} does not list ${quoted(unlisted)}: send "force": true to keep a setting for a tool it does not list now.`, [...path, unlisted[0]!]);
  }
  const misshapen = unlisted.filter((name) => !TOOL_NAME_SHAPE.test(name) || name.length > TOOL_NAME_MAX);
  if (misshapen.length > 0) {
    throw invalid(`${quoted(misshapen)} cannot be a tool's name: a name is letters, digits, _, - and . (no /, % or space), at most ${TOOL_NAME_MAX} characters.`, [...path, misshapen[0]!]);
  }
}

/** GET /api/orgs/{org}/settings (SPEC §11, §20, §21, §26): the organisation's `newTools`, `riskyText`, `tokenBudget` and `exportFallback`. */
export async function orgSettingsOf(db: Conn, org: string): Promise<OrgSettings> {
  const [newTools, riskyText, tokenBudget, exportFallback] = await Promise.all([newToolsOf(db, org), riskyTextOf(db, org), tokenBudgetOf(db, org), exportFallbackOf(db, org)]);
  return { newTools, riskyText, tokenBudget, exportFallback };
}

/**
 * PATCH /api/orgs/{org}/settings (leaders): `newTools` (turning review on approves what every app
 * lists now; "wait-if-risky" lets through what is not high risk), `riskyText` (what a risky-text
 * note does to a tool, SPEC §20), `tokenBudget` (§21) and `exportFallback` (what an export does with
 * a decision a host cannot say, §26). Written with its audit entry in one transaction, under the
 * organisation's lock; the organisation's version changes with it, so no kept list stays. A new
 * `tokenBudget` tells `person.over-budget` of whoever it puts over (SPEC §28), given `lists`
 * (lib/orgs/lists.ts `listsIn`).
 */
export async function changeOrgSettings(db: Conn, org: string, update: OrgSettingsUpdate, actor: { id: string; email: string }, lists?: ListsOf): Promise<OrgSettings> {
  return orgTransaction(db, org, async (tx) => {
    const before = await orgSettingsOf(tx, org);
    const after = { newTools: update.newTools ?? before.newTools, riskyText: update.riskyText ?? before.riskyText, tokenBudget: update.tokenBudget === undefined ? before.tokenBudget : update.tokenBudget, exportFallback: update.exportFallback ?? before.exportFallback };
    const details: Record<string, { from: string; to: string }> = {};
    if (after.newTools !== before.newTools) {
      await setReviewMode(tx, org, after.newTools, actor.id);
      details["newTools"] = { from: before.newTools, to: after.newTools };
    }
    if (after.riskyText !== before.riskyText) {
      await setRiskyText(tx, org, after.riskyText);
      details["riskyText"] = { from: before.riskyText, to: after.riskyText };
    }
    if (after.tokenBudget !== before.tokenBudget) {
      await setTokenBudget(tx, org, after.tokenBudget);
      details["tokenBudget"] = { from: String(before.tokenBudget ?? "none"), to: String(after.tokenBudget ?? "none") };
      if (lists !== undefined) await noteBudget(tx, org, lists);
    }
    if (after.exportFallback !== before.exportFallback) {
      await setExportFallback(tx, org, after.exportFallback);
      details["exportFallback"] = { from: before.exportFallback, to: after.exportFallback };
    }
    if (Object.keys(details).length > 0) await recordAudit(tx, { org, actor, action: "settings.changed", details });
    return after;
  });
}
