"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { usePathname, useRouter } from "next/navigation";
import { useId } from "react";
import { formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/field";
import { auditQuery, membersQuery, type AuditFilter } from "@/lib/queries/access";
import { appsQuery } from "@/lib/queries/orgs";
import type { AuditEntry } from "@/lib/schemas/access";
import { actionText, appLabels, type AppNaming } from "./audit-words";

/** Entries per page: the API's default. */
const PAGE = 50;

/**
 * The audit log, newest first. The filters and the page live in the URL (`?app=&actor=&before=`),
 * so a filtered view can be shared and the Back button undoes a filter.
 */
export function AuditView({ org, orgName, filter }: { org: string; orgName: string; filter: AuditFilter }) {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const entries = useQuery(auditQuery(org, filter));
  const members = useQuery(membersQuery(org));
  const apps = useQuery(appsQuery(org));

  const go = (next: AuditFilter) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (typeof v === "string" && v !== "") params.set(k, v);
    const query = params.toString();
    router.push(query === "" ? pathname : `${pathname}?${query}`);
  };

  // Removed apps and former members still appear in older entries: offer them too. Two apps may
  // share a name: each is labelled with what tells it apart, in the filter and in the entries.
  const named = new Map<string, AppNaming>();
  for (const a of apps.data?.apps ?? []) named.set(a.id, { id: a.id, name: a.name, shortName: a.lastCheck?.result.shortName ?? null });
  for (const e of entries.data?.entries ?? []) if (e.app !== undefined && !named.has(e.app.id)) named.set(e.app.id, { id: e.app.id, name: e.app.name || e.app.id, shortName: null });
  if (filter.app !== undefined && !named.has(filter.app)) named.set(filter.app, { id: filter.app, name: filter.app, shortName: null });
  const appOptions = appLabels([...named.values()]);
  const people = new Map<string, string>();
  for (const m of members.data?.members ?? []) people.set(m.userId, m.email);
  for (const e of entries.data?.entries ?? []) if (!people.has(e.actor.id)) people.set(e.actor.id, e.actor.email);
  if (filter.actor !== undefined && !people.has(filter.actor)) people.set(filter.actor, filter.actor);

  const list = entries.data?.entries ?? [];
  const last = list.at(-1);

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm break-words text-slate-600">{orgName}</p>
        <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
        <p className="mt-1 text-slate-700">Every change in this organisation: who, what and when, newest first.</p>
      </div>

      <form aria-label="Filter the log" className="flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor={`${id}-app`} className="block text-sm font-medium text-slate-800">
            App
          </label>
          <select id={`${id}-app`} className={`${fieldClass} w-auto max-w-full`} value={filter.app ?? ""} onChange={(e) => go({ ...filter, app: e.target.value, before: undefined })}>
            <option value="">All apps</option>
            {[...appOptions].map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-actor`} className="block text-sm font-medium text-slate-800">
            Person
          </label>
          <select id={`${id}-actor`} className={`${fieldClass} w-auto max-w-full`} value={filter.actor ?? ""} onChange={(e) => go({ ...filter, actor: e.target.value, before: undefined })}>
            <option value="">Everyone</option>
            {[...people].map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {(filter.app !== undefined || filter.actor !== undefined || filter.before !== undefined) && (
          <Link href={pathname} className="pb-1.5 text-sm text-indigo-800 underline">
            Clear filters
          </Link>
        )}
      </form>

      {entries.isPending ? (
        <Loading label="Loading the log…" />
      ) : entries.isError ? (
        <LoadError what="The audit log" error={entries.error} onRetry={() => void entries.refetch()} />
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-700">{filter.before !== undefined ? "No older entries." : "Nothing recorded yet."}</p>
      ) : (
        <ol aria-label="Audit entries, newest first" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {list.map((e, i) => (
            <Entry key={`${e.at}-${i}`} entry={e.app === undefined ? e : { ...e, app: { ...e.app, name: appOptions.get(e.app.id) ?? e.app.name } }} />
          ))}
        </ol>
      )}

      <div className="flex flex-wrap gap-3">
        {filter.before !== undefined && (
          <Button variant="secondary" onClick={() => go({ ...filter, before: undefined })}>
            Newest
          </Button>
        )}
        {last !== undefined && list.length >= PAGE && (
          <Button variant="secondary" onClick={() => go({ ...filter, before: last.at })}>
            Older
          </Button>
        )}
      </div>
    </div>
  );
}

function Entry({ entry }: { entry: AuditEntry }) {
  return (
    <li className="flex flex-wrap gap-x-3 gap-y-0.5 px-3 py-2 text-sm">
      <time dateTime={entry.at} className="whitespace-nowrap text-slate-600">
        {formatWhen(entry.at)}
      </time>
      <span className="min-w-0 break-words text-slate-900">
        <span className="font-medium break-all">{entry.actor.email}</span> {actionText(entry)}
      </span>
    </li>
  );
}
