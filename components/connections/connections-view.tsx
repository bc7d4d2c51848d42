"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { countsText, settingsCountText } from "@/components/app-check-view";
import { CONNECT_TIMEOUT_MS, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import { AddAppForm } from "@/components/connections/add-app-form";
import { LookupBox } from "@/components/connections/lookup-box";
import { CodeText } from "@/components/code-text";
import { connectionStatus, ConnectionStatusPill, type RowProgress } from "@/components/connections/connection-status";
import { formatSeconds, formatWhen, listingSizeWords, noTimingsWords } from "@/components/connections/format";
import { RemoveAppButton } from "@/components/connections/remove-app-button";
import { NewToolsSetting, WaitingBadge } from "@/components/connections/review";
import { ExportFallbackSetting } from "@/components/connections/export-fallback-setting";
import { RiskyTextSetting } from "@/components/connections/risky-text-setting";
import { RegistryPanel } from "@/components/connections/registry-panel";
import { isNotFound, LoadError, Loading, NotFoundNotice } from "@/components/connections/states";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/plural";
import { appsQuery, recheckAllMutation, type AppRead } from "@/lib/queries/orgs";
import { myAppsQuery } from "@/lib/queries/people";
import { summaryText } from "@/components/connections/summary-words";
import type { ListedApp } from "@/lib/schemas/orgs";
import { Alert, errorMessage } from "@/components/ui/alert";

/** The time, ticking each second while `ticking`: how long a re-check has been running. */
function useNow(ticking: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * The Connections tab: the organisation's apps in connection order. Everyone may re-check;
 * only a leader (`canManage`) is given the add form and the remove buttons. The lookup answers
 * for the viewer (`self`, their member id); leaders and support (`canLookUpOthers`) pick another person.
 */
export function ConnectionsView({ org, canManage, self, canLookUpOthers }: { org: string; canManage: boolean; self: string; canLookUpOthers: boolean }) {
  const client = useQueryClient();
  const apps = useQuery(appsQuery(org));
  // Each app's read as the streamed re-check reports it, by app id.
  const [reads, setReads] = useState<Record<string, AppRead>>({});
  const recheck = useMutation(recheckAllMutation(client, org, (read) => setReads((r) => ({ ...r, [read.app]: read }))));
  const [startedAt, setStartedAt] = useState(0);
  const now = useNow(recheck.isPending);
  // What the last action here did, said until the next one: an app removed (here, or on its page, which sends `?removed=`).
  const params = useSearchParams();
  const [removed, setRemoved] = useState<string | null>(() => params.get("removed"));
  useEffect(() => {
    // Said once: a reload or a copied link does not say it again.
    if (params.has("removed")) window.history.replaceState(null, "", window.location.pathname);
  }, [params]);

  if (apps.isPending) return <Loading label="Loading the organisation's apps…" />;
  if (apps.isError) {
    if (isNotFound(apps.error)) {
      return (
        <NotFoundNotice title="Organisation not found" back={{ href: "/", label: "Go to your organisations" }}>
          There is no organisation called <span className="font-mono">{org}</span>. Check the address, or ask its leader for the right link.
        </NotFoundNotice>
      );
    }
    return <LoadError what="The organisation's apps" error={apps.error} onRetry={() => void apps.refetch()} />;
  }

  const list = apps.data.apps;
  const running = recheck.isPending;
  const elapsed = running ? Math.max(0, Math.floor((now - startedAt) / 1000)) : 0;

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
          <Button
            variant="secondary"
            onClick={() => {
              setStartedAt(Date.now());
              setRemoved(null);
              setReads({});
              recheck.mutate();
            }}
            disabled={running || list.length === 0}
          >
            {running ? "Re-checking…" : "Re-check all"}
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {running
              ? `Re-checking ${plural(list.length, "app")}: ${Object.keys(reads).length} read… ${elapsed} s`
              : recheck.isSuccess
                ? `Re-checked ${plural(recheck.data.apps.length, "app")}.`
                : ""}
          </p>
          <p role="status" className="text-sm text-slate-700">
            {removed !== null && !running ? `Removed ${removed}: its tools left the assistant and its names are free.` : ""}
          </p>
        </div>
      </div>

      {list.length > 0 && <OrgSummary org={org} apps={list} />}

      <LookupBox org={org} self={self} pick={canLookUpOthers} />

      <NewToolsSetting org={org} canManage={canManage} waiting={list.reduce((n, app) => n + (app.lastCheck?.result.counts.waiting ?? 0), 0)} />

      <RiskyTextSetting org={org} canManage={canManage} />

      <ExportFallbackSetting org={org} canManage={canManage} />

      {list.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-slate-700">
          {canManage ? "No apps are connected yet. Add the first one below." : "No apps are connected yet: a leader of this organisation connects them."}
        </p>
      ) : (
        <ol aria-label="Connected apps" className="space-y-3">
          {list.map((app, i) => (
            <AppRow
              key={app.id}
              org={org}
              app={app}
              position={i + 1}
              progress={running ? (reads[app.id] !== undefined ? "read" : "checking") : recheck.isError ? "failed" : undefined}
              read={running ? reads[app.id] : undefined}
              canManage={canManage}
              onRemoved={() => {
                recheck.reset();
                setRemoved(app.name);
              }}
            />
          ))}
        </ol>
      )}

      {recheck.isError && (
        <Alert tone="warning">
          The re-check could not run: {errorMessage(recheck.error, "something went wrong reading the answer.")} The rows show
          the last checks that did.
        </Alert>
      )}

      {canManage && <AddAppForm org={org} existing={list.map((a) => a.name)} existingUrls={list} />}
      <RegistryPanel org={org} canManage={canManage} />
    </div>
  );
}

/** The organisation at a glance, with the viewer's own tools from its apps (their list, as My apps reads it). */
function OrgSummary({ org, apps }: { org: string; apps: readonly ListedApp[] }) {
  const mine = useQuery(myAppsQuery(org));
  return (
    <p className="text-sm font-medium text-slate-800" data-testid="org-summary">
      {summaryText(apps, mine.data?.apps)}
    </p>
  );
}

function AppRow({
  org,
  app,
  position,
  progress,
  read,
  canManage,
  onRemoved,
}: {
  onRemoved: () => void;
  org: string;
  app: ListedApp;
  position: number;
  progress: RowProgress | undefined;
  /** This re-check's read of the app, before the names are given. */
  read: AppRead | undefined;
  canManage: boolean;
}) {
  const last = app.lastCheck;
  const check = last?.result ?? null;
  const href = `/orgs/${encodeURIComponent(org)}/connections/${encodeURIComponent(app.id)}`;
  const status = connectionStatus(app, progress);
  return (
    <li aria-label={app.name} aria-busy={progress === "checking" || progress === "read"} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
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
            <WaitingBadge count={check?.counts.waiting ?? 0} />
          </div>
          <p className="text-sm text-slate-700">
            short name <span className="font-mono font-medium text-slate-900">{check?.shortName ?? "—"}</span>
          </p>
        </div>
        {canManage && <RemoveAppButton org={org} appId={app.id} appName={app.name} onRemoved={onRemoved} />}
      </div>

      {read !== undefined && (
        <p className={cn("mt-2 text-sm", read.unavailable === null ? "text-slate-700" : "text-rose-900")}>
          {read.unavailable === null
            ? `Read${read.timings !== null ? ` in ${formatSeconds(read.timings.connectMs + (read.timings.listMs ?? 0))}` : ""}. Its tools are named when every app has been read: an earlier app may hold a name.`
            : <CodeText text={read.unavailable.message} />}
        </p>
      )}
      {last === null || check === null ? (
        <p className="mt-2 text-sm text-slate-700">Not checked yet.</p>
      ) : (
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-600">Tools</dt>
            <dd className="text-slate-900">{countsText(check)}</dd>
            {settingsCountText(check.counts) !== "" && <dd className="text-amber-900">Set by a leader: {settingsCountText(check.counts)}</dd>}
          </div>
          <div>
            <dt className="text-slate-600">Size, as listed</dt>
            <dd className={cn(check.listing.chars > check.listing.limit || check.listing.stopped ? "font-semibold text-rose-800" : "text-slate-900")}>
              {check.status === "unavailable" && check.listing.entries === 0 && check.listing.chars === 0 ? (
                "nothing read: its tools could not be read"
              ) : (
                <>
                  {/* Where reading stopped is no size: it is said as such. Over the limit in words, not by colour alone. */}
                  {listingSizeWords(check.listing)}
                </>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Sent to the model</dt>
            <dd className="text-slate-900" data-testid="app-tokens">
              {check.listing.tokens.toLocaleString("en-US")} tokens <span className="text-slate-600">(o200k_base)</span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Timings</dt>
            <dd className="text-slate-900">
              {check.timings === null ? (
                noTimingsWords(check.name, check.unavailable)
              ) : (
                <>
                  connect <Over ms={check.timings.connectMs} limit={CONNECT_TIMEOUT_MS} />
                  {check.timings.listMs !== null && (
                    <>
                      {" "}
                      · list <Over ms={check.timings.listMs} limit={LIST_TIMEOUT_MS} />
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
          {/* While a re-check runs, its own read says why: the old reason is not said twice. */}
          {check.unavailable !== null && read === undefined && (
            <div className="sm:col-span-2 lg:col-span-4">
              <dt className="sr-only">Why it is unavailable</dt>
              <dd className="text-rose-900">
                <CodeText text={check.unavailable.message} />
              </dd>
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
