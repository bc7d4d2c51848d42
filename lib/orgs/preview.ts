import "server-only";
import { listMembers } from "@/lib/auth/members";
import type { OrgAccess } from "@/lib/auth/workspace";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { InvalidError } from "@/lib/errors";
import { changesTools, diffTools, heldTools, type HeldTool, type ToolsDiff } from "@/lib/engine/people-diff";
import type { PreviewAnswer, PreviewChange } from "@/lib/schemas/preview";
import { approveIn, namedState, type OrgContext } from "./apps";
import { changeAppSettings, changeOrgSettings } from "./settings";
import { listState, personalApps, type ListState, type Scope } from "./store";

/**
 * What a change would do (SPEC §23): the very change the save route makes, by the same function,
 * in a transaction that is always rolled back; every person's list read before and after it inside
 * that transaction, straight from the tables (never through the kept lists, which only a committed
 * version may fill), and named outside it, so the organisation's lock is held for the reads alone.
 * People whose lists have the same inputs (no personal apps) share one list and one comparison.
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

/** Makes the change in `tx` as its save route does, by `actor`; a refusal names the field in the preview's body. */
async function makeChange(tx: Conn, org: string, change: PreviewChange, actor: { id: string; email: string }): Promise<void> {
  if (change.org !== undefined) {
    await changeOrgSettings(tx, org, change.org, actor);
  } else if (change.app !== undefined) {
    await under(["app", "settings"], changeAppSettings({ db: tx }, { org, app: change.app.id, owner: null }, change.app.settings, actor));
  } else if (change.approve !== undefined) {
    await approveIn(tx, org, change.approve.app, actor, change.approve.tools);
  } else {
    throw new InvalidError("A group's members cannot be previewed yet: groups are not part of this organisation's lists.", [{ path: ["group"], message: "Groups are not available yet." }]);
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

/** Whose lists differ: one per person with personal apps (by account id), and the organisation's own for everyone else (""). */
const scopeKey = (scope: Scope) => scope.person ?? "";

async function statesOf(tx: Conn, scopes: readonly Scope[]): Promise<Map<string, ListState>> {
  const states = new Map<string, ListState>();
  for (const scope of scopes) states.set(scopeKey(scope), await listState(tx, scope));
  return states;
}

/** The tools a state's list sends, named (kept checks are shared: they are kept by their inputs). */
async function toolsOf(ctx: OrgContext, state: ListState): Promise<HeldTool[]> {
  const { result } = await namedState(ctx, state);
  return heldTools(result, state.apps.map((app) => app.row.id));
}

/**
 * POST /api/orgs/{org}/preview-change: who would gain, lose, see renamed, or see asking otherwise
 * which tools if the leader saved `change`, and each one's tokens before and after; nothing is
 * saved. Bad input is refused as its save route refuses it.
 */
export async function previewChange(ctx: OrgContext, access: OrgAccess, change: PreviewChange): Promise<PreviewAnswer> {
  const org = access.org.slug;
  const { members } = await listMembers(access);
  const actor = { id: access.actor.id, email: access.actor.email };
  const { before, after } = await rolledBack(ctx.db, org, async (tx) => {
    const owners = new Set((await personalApps(tx, org)).map((row) => row.owner!));
    const scopes: Scope[] = [{ org }, ...[...owners].map((person) => ({ org, person }))];
    const before = await statesOf(tx, scopes);
    await makeChange(tx, org, change, actor);
    return { before, after: await statesOf(tx, scopes) };
  });

  const diffs = new Map<string, ToolsDiff>();
  for (const [key, state] of before) {
    const [was, now] = await Promise.all([toolsOf(ctx, state), toolsOf(ctx, after.get(key)!)]);
    diffs.set(key, diffTools(was, now));
  }

  const people: PreviewAnswer["people"] = [];
  let unchanged = 0;
  for (const member of members) {
    const diff = diffs.get(diffs.has(member.userId) ? member.userId : "")!;
    if (changesTools(diff)) people.push({ id: member.id, email: member.email, ...diff });
    else unchanged++;
  }
  return { people, unchanged };
}
