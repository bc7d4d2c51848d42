"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { CONNECT_LIMIT_MS, LIST_LIMIT_MS, toolCounts } from "@/components/app-check-view";
import { AddAppForm } from "@/components/connections/add-app-form";
import { connectionStatus, ConnectionStatusPill } from "@/components/connections/connection-status";
import { formatSeconds, formatWhen } from "@/components/connections/format";
import { RemoveAppButton } from "@/components/connections/remove-app-button";
import { isNotFound, LoadError, Loading, NotFoundNotice } from "@/components/connections/states";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { formatCount } from "@/lib/engine/listing-size";
import { ApiRequestError } from "@/lib/queries/check";
import { appsQuery, checkApp, orgKeys, storeApp } from "@/lib/queries/orgs";
import type { StoredApp } from "@/lib/schemas/orgs";

type Progress = Record<string, { state: "checking" } | { state: "done" } | { state: "failed"; message: string }>;

/** The Connections tab: the organisation's apps in connection order, with a way to add, re-check and remove them. */
export function ConnectionsView({ org }: { org: string }) {
  const client = useQueryClient();
  const apps = useQuery(appsQuery(org));
  const [progress, setProgress] = useState<Progress>({});
  const [running, setRunning] = useState(false);

  if (apps.isPending) return <Loading label="Loading the organisation's apps…" />;
  if (apps.isError) {
    if (isNotFound(apps.error)) {
      return (
        <NotFoundNotice title="Organisation not found" back={{ href: "/orgs/demo/connections", label: "Go to the demo organisation" }}>
          There is no organisation called <span className="font-mono">{org}</span>. Check the address, or ask its leader for the right link.
        </NotFoundNotice>
      );
    }
    return <LoadError what="The organisation's apps" error={apps.error} onRetry={() => void apps.refetch()} />;
  }

  const list = apps.data.apps;

  // Every app is checked at once; each row updates as its own answer comes back.
  async function recheckAll() {
    setRunning(true);
    setProgress(Object.fromEntries(list.map((a) => [a.id, { state: "checking" }])));
    await Promise.allSettled(
      list.map(async (a) => {
        try {
          const fresh = await checkApp(org, a.id);
          storeApp(client, org, fresh);
          setProgress((p) => ({ ...p, [a.id]: { state: "done" } }));
        } catch (error) {
          const message = error instanceof ApiRequestError ? error.message : "The check could not run.";
          setProgress((p) => ({ ...p, [a.id]: { state: "failed", message } }));
        }
      }),
    );
    // Names depend on every app's answer: read the list once more now that all are in.
    await client.invalidateQueries({ queryKey: orgKeys.all(org) });
    setRunning(false);
  }

  const done = Object.values(progress).filter((p) => p.state !== "checking").length;
  const failed = Object.values(progress).filter((p) => p.state === "failed").length;
  const total = Object.keys(progress).length;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm text-slate-600">{apps.data.org.name}</p>
          <h1 className="text-2xl font-semibold text-slate-900">Connections</h1>
          <p className="mt-1 max-w-3xl text-slate-700">
            The apps of this organisation in the order they were connected. Earlier apps keep their names; a later app with the same short name gets{" "}
            <span className="font-mono">_2</span>.
          </p>
        </div>
        <div className="flex flex-col items-start gap-1 sm:items-end">
          <Button variant="secondary" onClick={() => void recheckAll()} disabled={running || list.length === 0}>
            {running ? "Re-checking…" : "Re-check all"}
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {total === 0 ? "" : running ? `Re-checking: ${done} of ${total} done` : `Re-checked ${total - failed} of ${total} apps${failed > 0 ? `; ${failed} failed` : ""}.`}
          </p>
        </div>
      </div>

      {list.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-slate-700">No apps are connected yet. Add the first one below.</p>
      ) : (
        <ol aria-label="Connected apps" className="space-y-3">
          {list.map((app, i) => {
            const p = progress[app.id];
            return (
              <AppRow
                key={app.id}
                org={org}
                app={app}
                position={i + 1}
                progress={p?.state === "checking" ? "checking" : p?.state === "failed" ? "failed" : undefined}
                failure={p?.state === "failed" ? p.message : undefined}
              />
            );
          })}
        </ol>
      )}

      <AddAppForm org={org} />
    </div>
  );
}

function AppRow({
  org,
  app,
  position,
  progress,
  failure,
}: {
  org: string;
  app: StoredApp;
  position: number;
  progress: "checking" | "failed" | undefined;
  failure: string | undefined;
}) {
  const last = app.lastCheck;
  const check = last?.result ?? null;
  const counts = check !== null ? toolCounts(check) : null;
  const href = `/orgs/${encodeURIComponent(org)}/connections/${encodeURIComponent(app.id)}`;
  const status = connectionStatus(app, progress);
  return (
    <li aria-label={app.name} aria-busy={progress === "checking"} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-slate-600" aria-hidden="true">
              {position}.
            </span>
            <Link href={href} className="font-semibold break-words text-indigo-800 underline-offset-2 hover:underline">
              {app.name}
            </Link>
            <ConnectionStatusPill status={status} />
          </div>
          <p className="text-sm text-slate-700">
            short name <span className="font-mono font-medium text-slate-900">{check?.shortName ?? "—"}</span>
          </p>
        </div>
        <RemoveAppButton org={org} appId={app.id} appName={app.name} />
      </div>

      {failure !== undefined && (
        <p role="alert" className="mt-2 text-sm text-amber-900">
          Re-check failed: {failure}
        </p>
      )}

      {last === null || check === null || counts === null ? (
        <p className="mt-2 text-sm text-slate-700">Not checked yet.</p>
      ) : (
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-600">Tools</dt>
            <dd className="text-slate-900">
              {counts.runsFreely} run freely · {counts.asksFirst} ask first · {counts.leftOut} left out
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Size</dt>
            <dd className={cn(check.listing.chars > check.listing.limit || check.listing.stopped ? "font-semibold text-rose-800" : "text-slate-900")}>
              {check.listing.stopped ? "more than " : ""}
              {formatCount(check.listing.chars)} of {formatCount(check.listing.limit)} characters
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Timings</dt>
            <dd className="text-slate-900">
              {check.timings === null ? (
                "not measured"
              ) : (
                <>
                  connect <Over ms={check.timings.connectMs} limit={CONNECT_LIMIT_MS} />
                  {check.timings.listMs !== null && (
                    <>
                      {" "}
                      · list <Over ms={check.timings.listMs} limit={LIST_LIMIT_MS} />
                    </>
                  )}
                </>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Last checked</dt>
            <dd className="text-slate-900">
              <time dateTime={last.checkedAt}>{formatWhen(last.checkedAt)}</time>
            </dd>
          </div>
          {check.unavailable !== null && (
            <div className="sm:col-span-2 lg:col-span-4">
              <dt className="sr-only">Why it is unavailable</dt>
              <dd className="text-rose-900">{check.unavailable.message}</dd>
            </div>
          )}
        </dl>
      )}
    </li>
  );
}

function Over({ ms, limit }: { ms: number; limit: number }) {
  return (
    <span className={cn(ms > limit && "font-semibold text-rose-800")}>
      {formatSeconds(ms)} of {formatSeconds(limit).replace(".00", "")}
    </span>
  );
}
