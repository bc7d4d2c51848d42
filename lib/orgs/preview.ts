import "server-only";
import { randomUUID } from "node:crypto";
import { listMembers } from "@/lib/orgs/members";
import type { OrgAccess } from "@/lib/auth/workspace";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { InvalidError } from "@/lib/errors";
import { changesTools, diffTools, heldTools, type HeldTool, type ToolsDiff } from "@/lib/engine/people-diff";
import type { PreviewAnswer, PreviewChange } from "@/lib/schemas/preview";
import { namedState } from "./lists";
import { approveIn } from "./connections";
import type { OrgContext } from "./context";
import type { Named } from "./named";
import { changeGroup, createGroup, groupsByMember } from "./groups";
import { changeAppSettings, changeOrgSettings } from "./settings";
import { personalApps } from "./app-rows";
import { exportInputs, exportsChanged } from "./export-changes";
import { listState, type ListState } from "./list-state";

/**
 * What a change would do (SPEC §23): the very change the save route makes, by the same function,
 * in a transaction that is always rolled back; every person's list read before and after it inside
 * that transaction, straight from the tables (never through the kept lists, which only a committed
 * version may fill), and named outside it, so the organisation's lock is held for the reads alone.
 * People whose lists have the same inputs (the same groups, no personal apps) share one list and
 * one comparison.
 */

/** Carries the transaction's answer out of it, rolling it back. */
class RolledBack<T> extends Error {
  constructor(readonly value: T) {
    super("rolled back");
  }
}

/**
 * `work` in one transaction of the organisation `org` that is never committed: nothing it writes
 * (rows, audit entries, versions drawn by triggers) is stored. On PostgreSQL it runs on a
 * connection of its own; on SQLite, as every transaction there, on the process's one connection.
 */
async function rolledBack<T>(db: Conn, org: string, work: (tx: Conn) => Promise<T>): Promise<T> {
  try {
    await orgTransaction(db, org, async (tx) => {
      throw new RolledBack(await work(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  }
  throw new Error("A rolled-back transaction answered nothing.");
}

/** Makes the change in `tx` as its save route does, by the leader of `access`; a refusal names the field in the preview's body. */
async function makeChange(tx: Conn, access: OrgAccess, change: PreviewChange): Promise<void> {
  const org = access.org.slug;
  const actor = { id: access.actor.id, email: access.actor.email };
  if (change.org !== undefined) {
    await under(["org"], changeOrgSettings(tx, org, change.org, actor));
  } else if (change.app !== undefined) {
    await under(["app", "settings"], changeAppSettings({ db: tx }, { org, app: change.app.id, owner: null }, change.app.settings, actor));
  } else if (change.approve !== undefined) {
    await approveIn(tx, org, change.approve.app, actor, change.approve.tools, false);
  } else if (change.group !== undefined) {
    const { id, members } = change.group;
    // A new group is for no app and sets no tool yet: only who is in it is checked (its name is never seen).
    await under(["group"], id === undefined ? createGroup(tx, access, { name: `preview ${randomUUID()}`, members }) : changeGroup(tx, access, id, { members }));
  }
}

/** `work`, its refusal's fields found under `path` of the preview's body. */
async function under<T>(path: string[], work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof InvalidError) throw new InvalidError(error.message, error.issues?.map((issue) => ({ ...issue, path: [...path, ...issue.path] })));
    throw error;
  }
}

type Member = { id: string; userId: string; email: string };

/**
 * Which list each member has (by member id): their own when they have personal apps, else the
 * list of everyone in exactly their groups (SPEC §23: the same groups and no app of one's own,
 * the same inputs, the same names).
 */
async function listKeys(tx: Conn, org: string, members: readonly Member[], owners: ReadonlySet<string>): Promise<Map<string, string>> {
  const groupsOf = await groupsByMember(tx, org);
  return new Map(
    members.map((m) => [
      m.id,
      owners.has(m.userId)
        ? `person:${m.userId}`
        : `groups:${(groupsOf.get(m.id) ?? [])
            .map((g) => g.id)
            .sort()
            .join(",")}`,
    ]),
  );
}

/** Each key's list state, read from the tables for one member who has it. */
async function statesOf(tx: Conn, org: string, members: readonly Member[], keys: ReadonlyMap<string, string>): Promise<Map<string, ListState>> {
  const states = new Map<string, ListState>();
  for (const member of members) {
    const key = keys.get(member.id)!;
    if (!states.has(key)) states.set(key, await listState(tx, { org, person: member.userId }));
  }
  return states;
}

/** The tools each kept check sends: one check is one list (its key covers its apps' ids), made once while it is kept. */
const heldOf = new WeakMap<Named, HeldTool[]>();

/** A state's list named (kept checks are shared: they are kept by their inputs), with the tools it sends. */
async function toolsOf(ctx: OrgContext, state: ListState): Promise<{ named: Named; tools: HeldTool[] }> {
  const { named, listed } = await namedState(ctx, state);
  let tools = heldOf.get(named);
  if (tools === undefined) heldOf.set(named, (tools = heldTools(named.result, listed.map((app) => app.row.id))));
  return { named, tools };
}

/**
 * POST /api/orgs/{org}/preview-change: who would gain, lose, see renamed, or see asking otherwise
 * which tools if the leader saved `change`, and each one's tokens before and after, and which
 * hosts' files it alters for everyone and each group (SPEC §26); nothing is saved. Bad input is refused as its save route refuses it.
 */
export async function previewChange(ctx: OrgContext, access: OrgAccess, change: PreviewChange): Promise<PreviewAnswer> {
  const org = access.org.slug;
  const { members } = await listMembers(access);
  const read = await rolledBack(ctx.db, org, async (tx) => {
    const owners = new Set((await personalApps(tx, org)).map((row) => row.owner!));
    const keysBefore = await listKeys(tx, org, members, owners);
    const before = await statesOf(tx, org, members, keysBefore);
    const exportsBefore = await exportInputs(tx, org);
    await makeChange(tx, access, change);
    const keysAfter = await listKeys(tx, org, members, owners);
    return { keysBefore, before, keysAfter, after: await statesOf(tx, org, members, keysAfter), exportsBefore, exportsAfter: await exportInputs(tx, org) };
  });

  // Each list named once, each pair of lists compared once, however many people have them; a list
  // the change leaves with the same inputs is the same kept check, and changes nothing.
  const named = new Map<ListState, Promise<{ named: Named; tools: HeldTool[] }>>();
  const toolsOfState = (state: ListState) => named.get(state) ?? named.set(state, toolsOf(ctx, state)).get(state)!;
  const diffs = new Map<string, ToolsDiff | null>();
  const people: PreviewAnswer["people"] = [];
  let unchanged = 0;
  for (const member of members) {
    const [was, now] = [read.keysBefore.get(member.id)!, read.keysAfter.get(member.id)!];
    const pair = `${was}\u0000${now}`;
    let diff = diffs.get(pair);
    if (diff === undefined) {
      const [before, after] = await Promise.all([toolsOfState(read.before.get(was)!), toolsOfState(read.after.get(now)!)]);
      diff = before.named === after.named ? null : diffTools(before.tools, after.tools);
      diffs.set(pair, diff);
    }
    if (diff !== null && changesTools(diff)) people.push({ id: member.id, email: member.email, ...diff });
    else unchanged++;
  }
  return { people, unchanged, exports: await exportsChanged(ctx, read.exportsBefore, read.exportsAfter) };
}
