import "server-only";
import { findMember } from "@/lib/auth/member-reads";
import { requireAction, type OrgAccess } from "@/lib/auth/workspace";
import { buildExport, type ExportApp } from "@/lib/exports/build";
import { exportApps } from "@/lib/exports/from-check";
import { groupRegistriesOn, registryOn } from "@/lib/registry/store";
import type { ExportFallback, ExportFor, ExportHost, ExportRegistry, HostExport } from "@/lib/schemas/exports";
import { namedList } from "./lists";
import type { OrgContext } from "./context";
import { groupOf, groupsByMember } from "./groups";
import { keptListState, type ListState, type Scope } from "./list-state";
import type { Named } from "./named";
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
  const apps = await exportListOf(ctx, await keptListState(ctx.db, scope, access.version), target === "everyone");
  const answer = buildExport(ask.host, target, apps, ask.fallback ?? (await exportFallbackOf(ctx.db, org)));
  if (ask.host !== "copilot" || typeof target !== "object" || !("group" in target)) {
    return ask.host === "copilot" && target === "everyone" ? { ...answer, registry: registryWords(null, await registryOn(ctx.db, org)) } : answer;
  }
  return { ...answer, registry: registryWords(target.group.name, (await groupRegistriesOn(ctx.db, org)).has(target.group.id)) };
}

/** Where Copilot's "Registry only" points (SPEC §25): a group's own registry, or (`group` null) the organisation's. */
function registryWords(group: string | null, on: boolean): ExportRegistry {
  const whose = group === null ? "The organisation's registry" : `${group}'s own registry`;
  const where = group === null ? "Connections → Registry" : `Members → ${group} → Registry`;
  const lists = group === null ? "the apps everyone has" : `the apps ${group}'s members have`;
  const what = on
    ? `${whose} is on: in GitHub (Copilot policies → MCP servers), give "MCP Registry URL" the address shown when it was turned on and choose "Registry only", so Copilot offers only ${lists}. The address is shown once; turning it on again (${where}) makes a new one and revokes the old.`
    : `${whose} is off: a leader turns it on (${where}) and gives the address shown then to Copilot's "MCP Registry URL" with "Registry only", so Copilot offers only ${lists}.`;
  return { of: group === null ? "organisation" : "group", on, what };
}

/**
 * A list's apps as an export takes them, named as `sees` names them; for everyone's common ground
 * (`everyone`, the organisation's own list) without the apps only for some groups, which a member
 * in no group does not have.
 */
export async function exportListOf(ctx: OrgContext, state: ListState, everyone: boolean): Promise<ExportApp[]> {
  return (await exportListNamed(ctx, state, everyone)).apps;
}

/** `exportListOf`, with the kept check it was made from and the ids of the apps it keeps (to compare two lists' inputs). */
export async function exportListNamed(ctx: OrgContext, state: ListState, everyone: boolean): Promise<{ apps: ExportApp[]; named: Named; ids: string }> {
  const { apps, named } = await namedList(ctx, state);
  const forEveryone = everyone ? new Set(state.apps.filter((a) => a.access === "everyone").map((a) => a.row.id)) : null;
  const kept = forEveryone === null ? apps : apps.filter((app) => forEveryone.has(app.id));
  return { apps: exportApps(kept), named, ids: kept.map((app) => app.id).join(",") };
}
