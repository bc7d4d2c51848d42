import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/audit-log";
import type { OrgAccess } from "@/lib/auth/workspace";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { groupMembers, groupRegistries, groups, member, user } from "@/lib/db/tables";
import { ConflictError, InvalidError, NotFoundError } from "@/lib/errors";
import { groupNameKey, MAX_GROUPS, type Group, type GroupCreate, type GroupRef, type GroupUpdate } from "@/lib/schemas/groups";
import { noteSentChanged, type ListsOf } from "./alert-events";

/**
 * Groups of an organisation's members (SPEC §23): leaders make, rename, fill and remove them,
 * everyone sees them. Each change is written with its audit entry in one transaction under the
 * organisation's lock; the version triggers draw the organisation a new version with it, so no
 * kept list outlives it.
 */

type Actor = { id: string; email: string };

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en") || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Every group of `org` with its members (id as GET …/people lists them, and email), by name. */
export async function groupsOf(db: Conn, org: string): Promise<Group[]> {
  const [rows, members] = await Promise.all([
    db.select({ id: groups.id, name: groups.name, registry: groupRegistries.group }).from(groups).leftJoin(groupRegistries, eq(groupRegistries.group, groups.id)).where(eq(groups.org, org)),
    db
      .select({ group: groupMembers.group, id: member.id, email: user.email })
      .from(groupMembers)
      .innerJoin(member, eq(member.id, groupMembers.member))
      .innerJoin(user, eq(user.id, member.userId))
      .where(eq(groupMembers.org, org))
      .orderBy(asc(user.email)),
  ]);
  const found = new Map<string, Group>(rows.map((g) => [g.id, { id: g.id, name: g.name, members: [], registry: g.registry !== null }]));
  for (const { group, id, email } of members) found.get(group)?.members.push({ id, email });
  return [...found.values()].sort(byName);
}

/** One group of `org`, or the 404. */
async function requireGroup(db: Conn, org: string, id: string): Promise<Group> {
  const found = (await groupsOf(db, org)).find((g) => g.id === id);
  if (found === undefined) throw new NotFoundError(`There is no group "${id}".`, [{ path: ["group"], message: `There is no group "${id}".` }]);
  return found;
}

/** GET /api/orgs/{org}/groups/{group}. */
export async function groupOf(db: Conn, org: string, id: string): Promise<Group> {
  return requireGroup(db, org, id);
}

/** Each member's groups (by member id), as GET …/people answers them. */
export async function groupsByMember(db: Conn, org: string): Promise<Map<string, GroupRef[]>> {
  const rows = await db
    .select({ member: groupMembers.member, id: groups.id, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.group))
    .where(eq(groupMembers.org, org));
  const found = new Map<string, GroupRef[]>();
  for (const { member: m, id, name } of rows) found.set(m, [...(found.get(m) ?? []), { id, name }]);
  for (const list of found.values()) list.sort(byName);
  return found;
}

/** The groups of `org` named by `ids`, by id: another organisation's or an unknown id is a 422 naming `path`. */
export async function requireGroupsOf(db: Conn, org: string, ids: readonly string[], path: (id: string) => (string | number)[]): Promise<Map<string, GroupRef>> {
  const unique = [...new Set(ids)];
  const rows = unique.length === 0 ? [] : await db.select({ id: groups.id, name: groups.name }).from(groups).where(and(eq(groups.org, org), inArray(groups.id, unique)));
  const found = new Map(rows.map((r) => [r.id, r]));
  const unknown = unique.find((id) => !found.has(id));
  if (unknown !== undefined) {
    const message = `This organisation has no group "${unknown}".`;
    throw new InvalidError(message, [{ path: path(unknown), message }]);
  }
  return found;
}

/** The members of the organisation `orgId` named by `ids`, by id: anyone else is a 422 naming `members`. */
async function requireMembers(db: Conn, orgId: string, ids: readonly string[]): Promise<{ id: string; email: string; person: string }[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ id: member.id, email: user.email, person: member.userId })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, orgId), inArray(member.id, unique)));
  const found = new Set(rows.map((r) => r.id));
  const strangers = unique.filter((id) => !found.has(id));
  if (strangers.length > 0) {
    const message = `${strangers.slice(0, 5).map((s) => JSON.stringify(s)).join(", ")}${strangers.length > 5 ? ` and ${strangers.length - 5} more` : ""} ${strangers.length === 1 ? "is not a member" : "are not members"} of this organisation: give ids as GET …/people lists them.`;
    throw new InvalidError(message, [{ path: ["members", ids.indexOf(strangers[0]!)], message }]);
  }
  return rows.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/** A name another group of `org` has, ignoring case (409 naming `name`). */
async function refuseTakenName(db: Conn, org: string, name: string, except: string | null): Promise<void> {
  const [taken] = await db.select({ id: groups.id, name: groups.name }).from(groups).where(and(eq(groups.org, org), eq(groups.nameKey, groupNameKey(name)))).limit(1);
  if (taken !== undefined && taken.id !== except) {
    const message = `There is already a group "${taken.name}" (names are unique ignoring case).`;
    throw new ConflictError(message, [{ path: ["name"], message }]);
  }
}

/** POST /api/orgs/{org}/groups (leaders): `group.created`, with its members if given. */
export async function createGroup(db: Conn, access: OrgAccess, input: GroupCreate, actor: Actor = access.actor): Promise<Group> {
  const org = access.org.slug;
  return orgTransaction(db, org, async (tx) => {
    await refuseTakenName(tx, org, input.name, null);
    const count = (await tx.select({ id: groups.id }).from(groups).where(eq(groups.org, org))).length;
    if (count >= MAX_GROUPS) throw new ConflictError(`An organisation has at most ${MAX_GROUPS} groups.`);
    const members = await requireMembers(tx, access.org.id, input.members ?? []);
    const id = randomUUID();
    const now = Date.now();
    await tx.insert(groups).values({ id, org, name: input.name, nameKey: groupNameKey(input.name), createdAt: now });
    if (members.length > 0) await tx.insert(groupMembers).values(members.map((m) => ({ group: id, member: m.id, person: m.person, org })));
    const created: Group = { id, name: input.name, members: members.map(({ id, email }) => ({ id, email })), registry: false };
    await recordAudit(tx, { org, actor, action: "group.created", details: { group: { id, name: input.name }, members: members.map((m) => m.email) } }, now);
    return created;
  });
}

/** PATCH /api/orgs/{org}/groups/{group} (leaders): a new name and/or the whole list of members; `group.changed` says from → to. */
export async function changeGroup(db: Conn, access: OrgAccess, id: string, update: GroupUpdate, actor: Actor = access.actor, lists?: ListsOf): Promise<Group> {
  const org = access.org.slug;
  return orgTransaction(db, org, async (tx) => {
    const before = await requireGroup(tx, org, id);
    const details: Record<string, unknown> = { group: { id, name: before.name } };
    let after: Group = before;
    if (update.name !== undefined && update.name !== before.name) {
      await refuseTakenName(tx, org, update.name, id);
      await tx.update(groups).set({ name: update.name, nameKey: groupNameKey(update.name) }).where(eq(groups.id, id));
      details["name"] = { from: before.name, to: update.name };
      after = { ...after, name: update.name };
    }
    if (update.members !== undefined) {
      const members = await requireMembers(tx, access.org.id, update.members);
      const was = new Set(before.members.map((m) => m.id));
      const now = new Set(members.map((m) => m.id));
      const gone = [...was].filter((m) => !now.has(m));
      const added = members.filter((m) => !was.has(m.id));
      if (gone.length > 0) await tx.delete(groupMembers).where(and(eq(groupMembers.group, id), inArray(groupMembers.member, gone)));
      if (added.length > 0) await tx.insert(groupMembers).values(added.map((m) => ({ group: id, member: m.id, person: m.person, org })));
      if (gone.length > 0 || added.length > 0) details["members"] = { from: before.members.map((m) => m.email), to: members.map((m) => m.email) };
      after = { ...after, members: members.map(({ id, email }) => ({ id, email })) };
    }
    if ("name" in details || "members" in details) await recordAudit(tx, { org, actor, action: "group.changed", details });
    // SPEC §28: members who now have other apps or settings may go over the budget (given `lists`, lib/orgs/lists.ts `listsIn`).
    if ("members" in details && lists !== undefined) await noteSentChanged(tx, org, lists);
    return after;
  });
}

/** DELETE /api/orgs/{org}/groups/{group} (leaders): its members, its apps' access to it and its settings go with it; `group.removed`. */
export async function removeGroup(db: Conn, access: OrgAccess, id: string, actor: Actor = access.actor, lists?: ListsOf): Promise<Group> {
  const org = access.org.slug;
  return orgTransaction(db, org, async (tx) => {
    const before = await requireGroup(tx, org, id);
    await tx.delete(groups).where(eq(groups.id, id)); // members, access and settings cascade
    await recordAudit(tx, { org, actor, action: "group.removed", details: { group: { id, name: before.name }, members: before.members.map((m) => m.email) } });
    if (lists !== undefined) await noteSentChanged(tx, org, lists);
    return before;
  });
}

/** Removing a member from the organisation takes them out of its groups (in the removal's transaction). */
export async function leaveGroups(tx: Conn, org: string, memberId: string): Promise<void> {
  await tx.delete(groupMembers).where(and(eq(groupMembers.org, org), eq(groupMembers.member, memberId)));
}
