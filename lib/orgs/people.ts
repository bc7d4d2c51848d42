import "server-only";
import { findMember, listMembers } from "@/lib/auth/members";
import type { OrgAccess } from "@/lib/auth/workspace";
import { resolveTheorem } from "@/lib/engine/theorem";
import { lookup, type ElsewhereApp, type LookupAnswer, type LookupApp } from "@/lib/engine/lookup";
import { planBatch, type BatchPlan } from "@/lib/engine/policy";
import { baseShortName } from "@/lib/engine/short-name";
import type { PersonCheck } from "@/lib/schemas/people";
import type { StoredApp } from "@/lib/schemas/orgs";
import { scopeList, type OrgContext } from "./apps";
import { personalApps, requireOrg, type Scope } from "./store";

/**
 * People (SPEC §12): each member's assistant has the organisation's apps and the member's own,
 * named over that one list; the support lookup and the batch plan (§13) look in such a list.
 */

/** The scope of `person` (a member id of this organisation: 404 otherwise), or the organisation's own. */
export function scopeOf(access: OrgAccess, person?: string): Scope {
  if (person === undefined) return { org: access.org.slug };
  return { org: access.org.slug, person: findMember(access, person).userId };
}

/** The caller's own scope: the organisation's apps and their personal ones. */
export const ownScope = (access: OrgAccess): Scope => ({ org: access.org.slug, person: access.actor.id });

const asLookupApp = (app: StoredApp): LookupApp => ({ id: app.id, name: app.name, personal: app.personal, check: app.lastCheck?.result ?? null });

/** One person's check, in the shape of §8 with each app's id and whether it is personal. */
export async function personCheck(ctx: OrgContext, scope: Scope): Promise<PersonCheck> {
  requireOrg(ctx.db, scope.org);
  const list = await scopeList(ctx, scope);
  return {
    apps: list.flatMap((app) => (app.lastCheck === null ? [] : [{ id: app.id, personal: app.personal, ...app.lastCheck.result }])),
    unread: list.filter((app) => app.lastCheck === null).map((app) => ({ id: app.id, name: app.name, personal: app.personal })),
  };
}

/**
 * The personal apps of everyone else that could give `q`, each checked in its owner's own list:
 * only the owners of an app whose base short name begins `q` are checked at all.
 */
async function elsewhere(ctx: OrgContext, access: OrgAccess, scope: Scope, q: string): Promise<ElsewhereApp[]> {
  const names = new Map(listMembers(access).members.map((m) => [m.userId, m.name || m.email]));
  const owners = new Set(
    personalApps(ctx.db, scope.org)
      .filter((row) => names.has(row.owner!))
      .filter((row) => row.owner !== scope.person && q.startsWith(`${baseShortName(row.name)}_`))
      .map((row) => row.owner!),
  );
  if (owners.size === 0) return [];
  const found: ElsewhereApp[] = [];
  for (const owner of owners) {
    const list = await scopeList(ctx, { org: scope.org, person: owner });
    for (const app of list) if (app.personal) found.push({ ...asLookupApp(app), person: names.get(owner)! });
  }
  return found;
}

/** The lookup in a scope (SPEC §12). */
export async function lookUpTool(ctx: OrgContext, access: OrgAccess, scope: Scope, q: string): Promise<LookupAnswer> {
  const list = (await scopeList(ctx, scope)).map(asLookupApp);
  const theorem = resolveTheorem(undefined);
  const first = lookup(q, list, theorem);
  // Someone else's personal apps are only checked when the list itself gives no tool of that name.
  if (first.answer === null) return first;
  const others = await elsewhere(ctx, access, scope, q);
  return others.length === 0 ? first : lookup(q, list, theorem, others);
}

/** The batch plan (SPEC §13) of `calls`, whole names in the model's order, in a scope. */
export async function planIn(ctx: OrgContext, scope: Scope, calls: readonly string[]): Promise<BatchPlan> {
  const together = new Map<string, boolean>();
  for (const app of await scopeList(ctx, scope)) {
    for (const tool of app.lastCheck?.result.tools ?? []) if (tool.included && tool.wholeName !== null) together.set(tool.wholeName, tool.runsTogether);
  }
  return planBatch(calls, together);
}
