import "server-only";
import { addAuditDetails, collectingAudit } from "@/lib/audit/audit-log";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { buildExport, type ExportApp } from "@/lib/exports/build";
import { EXPORT_HOSTS, type ExportFallback, type ExportFor, type ExportHost } from "@/lib/schemas/exports";
import type { GroupRef } from "@/lib/schemas/groups";
import type { PreviewExport } from "@/lib/schemas/preview";
import type { OrgContext } from "./context";
import { exportListNamed } from "./exports";
import type { Named } from "./named";
import { groupsOf } from "./groups";
import { listState, type ListState } from "./list-state";
import { exportFallbackOf } from "./organisations";

/**
 * Which hosts' files a change alters (SPEC §26): everyone's and each group's lists, read from the
 * tables before and after the change (in its transaction), named as `sees` names them, and each
 * host's files written from both and compared. `preview-change` answers it; a saved change's audit
 * entries carry the hosts it touches (`details.exports`).
 */

/** What the exports of an organisation are made from, read in a transaction. */
export interface ExportInputs {
  fallback: ExportFallback;
  everyone: ListState;
  groups: { group: GroupRef; state: ListState }[];
}

export async function exportInputs(tx: Conn, org: string): Promise<ExportInputs> {
  const fallback = await exportFallbackOf(tx, org);
  const everyone = await listState(tx, { org });
  const groups: ExportInputs["groups"] = [];
  for (const { id, name } of await groupsOf(tx, org)) groups.push({ group: { id, name }, state: await listState(tx, { org, group: id }) });
  return { fallback, everyone, groups };
}

/** Each host's files for `state`, as text to compare. */
const filesOf = (target: ExportFor, apps: readonly ExportApp[], fallback: ExportFallback): Map<ExportHost, string> =>
  new Map(EXPORT_HOSTS.map((host) => [host, JSON.stringify(buildExport(host, target, apps, fallback).files)]));

/** Whether two exports' inputs are the same: one kept check (it is kept by its inputs) and the same apps for everyone. */
const sameInputs = (a: { named: Named; ids: string }, b: { named: Named; ids: string }) => a.named === b.named && a.ids === b.ids;

/**
 * One entry per host for everyone and for each group there was before the change: whether its files
 * change. A group the change makes (a preview's) has no files of its own before, and is not listed.
 */
export async function exportsChanged(ctx: OrgContext, before: ExportInputs, after: ExportInputs): Promise<PreviewExport[]> {
  const targets: { for: ExportFor; before: ListState; after: ListState | undefined }[] = [{ for: "everyone", before: before.everyone, after: after.everyone }];
  for (const { group, state } of before.groups) targets.push({ for: { group }, before: state, after: after.groups.find((g) => g.group.id === group.id)?.state });
  const answer: PreviewExport[] = [];
  for (const target of targets) {
    const everyone = target.for === "everyone";
    const was = await exportListNamed(ctx, target.before, everyone);
    const now = target.after === undefined ? null : await exportListNamed(ctx, target.after, everyone);
    // The same kept check and fallback: the same files, without writing them (a budget, or another group's change).
    if (now !== null && sameInputs(was, now) && before.fallback === after.fallback) {
      for (const host of EXPORT_HOSTS) answer.push({ host, for: target.for, changed: false });
      continue;
    }
    const [filesWere, filesNow] = [filesOf(target.for, was.apps, before.fallback), now === null ? null : filesOf(target.for, now.apps, after.fallback)];
    for (const host of EXPORT_HOSTS) answer.push({ host, for: target.for, changed: filesNow === null || filesWere.get(host) !== filesNow.get(host) });
  }
  return answer;
}

/** The hosts any of `exports` changes, in EXPORT_HOSTS' order. */
export const hostsChanged = (exports: readonly PreviewExport[]): ExportHost[] => EXPORT_HOSTS.filter((host) => exports.some((e) => e.host === host && e.changed));

/**
 * Runs a save route's change `work` in one transaction of `org` (the change's own transaction is
 * part of it) and, when it alters some host's files, adds the hosts to each audit entry it wrote
 * (`details.exports`), in the same transaction.
 */
export async function auditingExports<T>(ctx: OrgContext, org: string, work: (tx: Conn) => Promise<T>): Promise<T> {
  return orgTransaction(ctx.db, org, async (tx) => {
    const before = await exportInputs(tx, org);
    const { value, ids } = await collectingAudit(() => work(tx));
    if (ids.length === 0) return value;
    const hosts = hostsChanged(await exportsChanged(ctx, before, await exportInputs(tx, org)));
    if (hosts.length > 0) await addAuditDetails(tx, ids, { exports: hosts });
    return value;
  });
}
