import { eq } from "drizzle-orm";
import type { VersionedTableName } from "@/lib/db/versioned-tables";

// Every write to a table an organisation's lists are read from, one at a time, with the
// organisation's version before and after it (lib/db/schema.ts `orgVersions`, drawn afresh by
// the database's triggers) and another organisation's, which no write of this one may change. Written
// directly, not through the store: a trigger answers for every writer, a library's and a
// cascade's too. The database is the one DATABASE_URL names (imported here, after the test set it).
// Every table of lib/db/versioned-tables.ts has an insert, an update and a delete here
// (lib/db/versioned-tables.test.ts); `user` is not listed, its removal cascades to a listed one.

type Op = "insert" | "update" | "delete";

interface VersionedWrite {
  write: string;
  table: VersionedTableName | "user";
  op: Op;
  before: string | null;
  after: string | null;
  /** The other organisation's version before and after. */
  other: [string | null, string | null];
}

export async function everyWrite(org: string): Promise<VersionedWrite[]> {
  const [{ getDb }, t, { ensureOrg }] = await Promise.all([import("@/lib/db/client"), import("@/lib/db/tables"), import("@/lib/orgs/organisations")]);
  const db = getDb();
  const otherOrg = `${org}-other`;
  await ensureOrg(db, otherOrg, "Other");
  const versionOf = async (slug: string) => (await db.select({ version: t.orgVersionOf() }).from(t.organization).where(eq(t.organization.slug, slug)))[0]?.version ?? null;
  const now = Date.now();
  const person = `${org}-person`;
  const app = `${org}-app`;
  const mine = `${org}-mine`;
  const group = `${org}-group`;
  const grouped = `${org}-grouped`;
  const writes: [VersionedTableName | "user", Op, string, () => Promise<unknown>][] = [
    ["organization", "insert", "organization: created", () => ensureOrg(db, org, "Versions")],
    ["organization", "update", "organization: renamed", () => db.update(t.organization).set({ name: "Versions, renamed" }).where(eq(t.organization.slug, org))],
    ["apps", "insert", "apps: an app connected", () => db.insert(t.apps).values({ id: app, org, name: "Calendar", url: "http://calendar.test/mcp", connectedAt: now })],
    ["apps", "update", "apps: its next read planned", () => db.update(t.apps).set({ nextCheckAt: now + 60_000, nextCheckWhy: "interval" }).where(eq(t.apps.id, app))],
    ["check_results", "insert", "check_results: a read stored", () => db.insert(t.checkResults).values({ id: `${org}-read`, app, checkedAt: now, durationMs: 5 })],
    ["check_results", "update", "check_results: a read changed", () => db.update(t.checkResults).set({ durationMs: 6 }).where(eq(t.checkResults.id, `${org}-read`))],
    ["check_results", "delete", "check_results: a read trimmed", () => db.delete(t.checkResults).where(eq(t.checkResults.id, `${org}-read`))],
    ["org_settings", "insert", "org_settings: review mode set", () => db.insert(t.orgSettings).values({ org, newTools: "wait-for-review" })],
    ["org_settings", "update", "org_settings: review mode changed", () => db.update(t.orgSettings).set({ newTools: "available" }).where(eq(t.orgSettings.org, org))],
    ["org_settings", "delete", "org_settings: removed", () => db.delete(t.orgSettings).where(eq(t.orgSettings.org, org))],
    ["app_settings", "insert", "app_settings: an app's review mode set", () => db.insert(t.appSettings).values({ app, newTools: "wait-for-review" })],
    ["app_settings", "update", "app_settings: changed", () => db.update(t.appSettings).set({ newTools: "org" }).where(eq(t.appSettings.app, app))],
    ["app_settings", "delete", "app_settings: removed", () => db.delete(t.appSettings).where(eq(t.appSettings.app, app))],
    ["tool_settings", "insert", "tool_settings: a tool blocked", () => db.insert(t.toolSettings).values({ app, name: "add_event", setting: "blocked", setBy: "leader", setByEmail: "leader@versions.test", setAt: now })],
    ["tool_settings", "update", "tool_settings: changed to ask first", () => db.update(t.toolSettings).set({ setting: "ask-first" }).where(eq(t.toolSettings.app, app))],
    ["tool_settings", "delete", "tool_settings: back to default", () => db.delete(t.toolSettings).where(eq(t.toolSettings.app, app))],
    ["tool_approvals", "insert", "tool_approvals: a tool approved", () => db.insert(t.toolApprovals).values({ app, name: "add_event", fingerprint: "f1", approvedAt: now })],
    ["tool_approvals", "update", "tool_approvals: approved again", () => db.update(t.toolApprovals).set({ fingerprint: "f2" }).where(eq(t.toolApprovals.app, app))],
    ["tool_approvals", "delete", "tool_approvals: withdrawn", () => db.delete(t.toolApprovals).where(eq(t.toolApprovals.app, app))],
    ["app_sign_ins", "insert", "app_sign_ins: offered", () => db.insert(t.appSignIns).values({ app, state: "offered", updatedAt: now })],
    ["app_sign_ins", "update", "app_sign_ins: renewed", () => db.update(t.appSignIns).set({ state: "connected", expiresAt: now + 3_600_000, updatedAt: now + 1 }).where(eq(t.appSignIns.app, app))],
    ["app_sign_ins", "delete", "app_sign_ins: forgotten", () => db.delete(t.appSignIns).where(eq(t.appSignIns.app, app))],
    ["groups", "insert", "groups: a group made", () => db.insert(t.groups).values({ id: group, org, name: "Nurses", nameKey: "nurses", createdAt: now })],
    ["groups", "update", "groups: renamed", () => db.update(t.groups).set({ name: "Night nurses", nameKey: "night nurses" }).where(eq(t.groups.id, group))],
    [
      "member",
      "insert",
      "member: a person joined",
      async () => {
        const [found] = await db.select({ id: t.organization.id }).from(t.organization).where(eq(t.organization.slug, org));
        await db.insert(t.user).values({ id: grouped, name: "Gus", email: `${grouped}@versions.test`, emailVerified: true, createdAt: new Date(), updatedAt: new Date() });
        await db.insert(t.member).values({ id: grouped, organizationId: found!.id, userId: grouped, role: "support", createdAt: new Date() });
      },
    ],
    ["member", "update", "member: re-roled", () => db.update(t.member).set({ role: "leader" }).where(eq(t.member.id, grouped))],
    ["group_members", "insert", "group_members: a member added to a group", () => db.insert(t.groupMembers).values({ group, member: grouped, person: grouped, org })],
    ["group_members", "update", "group_members: moved", () => db.update(t.groupMembers).set({ org }).where(eq(t.groupMembers.group, group))],
    ["group_members", "delete", "group_members: a member taken out", () => db.delete(t.groupMembers).where(eq(t.groupMembers.group, group))],
    ["app_access_groups", "insert", "app_access_groups: an app made only for a group", () => db.insert(t.appAccessGroups).values({ app, group })],
    ["app_access_groups", "update", "app_access_groups: changed", () => db.update(t.appAccessGroups).set({ group }).where(eq(t.appAccessGroups.app, app))],
    ["app_access_groups", "delete", "app_access_groups: for everyone again", () => db.delete(t.appAccessGroups).where(eq(t.appAccessGroups.app, app))],
    ["group_tool_settings", "insert", "group_tool_settings: a tool blocked for a group", () => db.insert(t.groupToolSettings).values({ app, group, name: "add_event", setting: "blocked", setBy: "leader", setByEmail: "leader@versions.test", setAt: now })],
    ["group_tool_settings", "update", "group_tool_settings: changed to ask first", () => db.update(t.groupToolSettings).set({ setting: "ask-first" }).where(eq(t.groupToolSettings.app, app))],
    ["group_tool_settings", "delete", "group_tool_settings: back to default", () => db.delete(t.groupToolSettings).where(eq(t.groupToolSettings.app, app))],
    [
      "groups",
      "delete",
      "groups: removed, with its members, access and settings (cascades)",
      async () => {
        await db.insert(t.groupMembers).values({ group, member: grouped, person: grouped, org });
        await db.insert(t.appAccessGroups).values({ app, group });
        await db.insert(t.groupToolSettings).values({ app, group, name: "add_event", setting: "blocked", setBy: "leader", setByEmail: "leader@versions.test", setAt: now });
        await db.delete(t.groups).where(eq(t.groups.id, group));
        const left = [await db.select().from(t.groupMembers).where(eq(t.groupMembers.group, group)), await db.select().from(t.appAccessGroups).where(eq(t.appAccessGroups.group, group)), await db.select().from(t.groupToolSettings).where(eq(t.groupToolSettings.group, group))];
        if (left.some((rows) => rows.length > 0)) throw new Error("Removing a group left its rows.");
      },
    ],
    ["member", "delete", "member: a person left", () => db.delete(t.member).where(eq(t.member.id, grouped))],
    [
      "apps",
      "delete",
      "apps: removed, with its read, settings, approvals and sign-in (cascades)",
      async () => {
        await db.insert(t.checkResults).values({ id: `${org}-read-2`, app, checkedAt: now, durationMs: 5 });
        await db.insert(t.toolSettings).values({ app, name: "add_event", setting: "blocked", setBy: "leader", setByEmail: "leader@versions.test", setAt: now });
        await db.insert(t.toolApprovals).values({ app, name: "add_event", fingerprint: "f1", approvedAt: now });
        await db.insert(t.appSettings).values({ app, newTools: "available" });
        await db.insert(t.appSignIns).values({ app, state: "offered", updatedAt: now });
        const before = await versionOf(org);
        await db.delete(t.apps).where(eq(t.apps.id, app));
        if ((await versionOf(org)) === before) throw new Error("Removing an app did not change its organisation's version.");
      },
    ],
    [
      "user",
      "delete",
      "user: an account removed, with its personal app (cascade)",
      async () => {
        await db.insert(t.user).values({ id: person, name: "Pat", email: `${person}@versions.test`, emailVerified: true, createdAt: new Date(), updatedAt: new Date() });
        await db.insert(t.apps).values({ id: mine, org, owner: person, name: "Mine", url: "http://mine.test/mcp", connectedAt: now });
        const before = await versionOf(org);
        await db.delete(t.user).where(eq(t.user.id, person));
        if ((await versionOf(org)) === before) throw new Error("Removing an account did not change the version of its personal app's organisation.");
      },
    ],
    ["organization", "delete", "organization: removed", () => db.delete(t.organization).where(eq(t.organization.slug, org))],
  ];
  const seen: VersionedWrite[] = [];
  for (const [table, op, write, run] of writes) {
    // Before it is created an organisation has no version: anything drawn then is a change.
    const before = write === "organization: created" ? "none yet" : await versionOf(org);
    const otherBefore = await versionOf(otherOrg);
    await run();
    // A removed organisation has no row to read its version through: read the table itself.
    const after = write === "organization: removed" ? ((await db.select().from(t.orgVersions).where(eq(t.orgVersions.org, org)))[0]?.version ?? null) : await versionOf(org);
    seen.push({ write, table, op, before, after, other: [otherBefore, await versionOf(otherOrg)] });
  }
  return seen;
}

/** The writes that did not change their organisation's version, or changed the other's. */
export const unchanged = (seen: readonly VersionedWrite[]): string[] =>
  seen.filter((w) => w.before === null || w.after === null || w.after === w.before || w.other[0] !== w.other[1]).map((w) => w.write);
