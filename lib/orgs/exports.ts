import "server-only";
import { findMember } from "@/lib/auth/member-reads";
import { requireAction, type OrgAccess } from "@/lib/auth/workspace";
import { buildExport } from "@/lib/exports/build";
import { exportApps } from "@/lib/exports/from-check";
import type { ExportFallback, ExportFor, ExportHost, HostExport } from "@/lib/schemas/exports";
import { namedScope, type OrgContext } from "./apps";
import { groupOf, groupsByMember } from "./groups";
import { keptListState, type Scope } from "./list-state";
import { exportFallbackOf } from "./organisations";

/**
 * The same decisions in the other assistants people use (SPEC §26): whose list (a person's, a
 * group's, or everyone's common ground), checked for who may see it, named as `sees` and the
 * person's check name it (`namedScope`), then written as the host's files.
 */
export interface ExportAsk {
  host: ExportHost;
  group?: string;
  person?: string;
  /** Given: instead of the organisation's `exportFallback`. */
  fallback?: ExportFallback;
}

export async function hostExportFor(ctx: OrgContext, access: OrgAccess, ask: ExportAsk): Promise<HostExport> {
  const org = access.org.slug;
  let scope: Scope;
  let target: ExportFor;
  if (ask.person !== undefined) {
    const self = ask.person === "me" || ask.person === access.memberId;
    if (!self) requireAction(access, "exportOthers");
    const member = self ? { id: access.memberId, userId: access.actor.id, email: access.actor.email } : await findMember(access, ask.person);
    scope = { org, person: member.userId };
    target = { person: { id: member.id, email: member.email } };
  } else if (ask.group !== undefined) {
    const group = await groupOf(ctx.db, org, ask.group);
    // A member sees their own groups' files; leaders and support any group's.
    const mine = (await groupsByMember(ctx.db, org)).get(access.memberId) ?? [];
    if (!mine.some((g) => g.id === group.id)) requireAction(access, "exportOthers");
    scope = { org, group: group.id };
    target = { group: { id: group.id, name: group.name } };
  } else {
    scope = { org };
    target = "everyone";
  }
  const { apps } = await namedScope(ctx, scope, access.version);
  // Everyone's common ground: a member in no group has none of the apps only for some groups.
  const forEveryone = target === "everyone" ? new Set((await keptListState(ctx.db, scope, access.version)).apps.filter((a) => a.access === "everyone").map((a) => a.row.id)) : null;
  const listed = forEveryone === null ? apps : apps.filter((app) => forEveryone.has(app.id));
  return buildExport(ask.host, target, exportApps(listed), ask.fallback ?? (await exportFallbackOf(ctx.db, org)));
}
