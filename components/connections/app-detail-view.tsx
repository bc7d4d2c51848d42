"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { AppCheckBody, countsText } from "@/components/app-check-view";
import { AppChanges } from "@/components/connections/app-changes";
import { BatchPlan } from "@/components/connections/batch-plan";
import { EditAppForm } from "@/components/connections/edit-app-form";
import { AppTrends } from "@/components/connections/app-trends";
import { ReviewPanel } from "@/components/connections/review";
import { AppNewToolsSetting } from "@/components/connections/app-new-tools";
import { AppGroupsSettings } from "@/components/groups/app-access";
import { CheckHistory } from "@/components/connections/check-history";
import { OrgConformance } from "@/components/conformance-panel";
import { HostPanel } from "@/components/host-panel";
import { OtherAssistants } from "@/components/people/other-assistants";
import { connectionStatus, ConnectionStatusPill } from "@/components/connections/connection-status";
import { formatWhen, nextCheckText, nextCheckWhyText } from "@/components/connections/format";
import { RemoveAppButton } from "@/components/connections/remove-app-button";
import { SignInControls } from "@/components/connections/sign-in-controls";
import { SignInDoctor } from "@/components/connections/sign-in-doctor";
import { isNotFound, LoadError, Loading, NotFoundNotice } from "@/components/connections/states";
import { ToolSettingsProvider } from "@/components/tool-setting";
import { Button } from "@/components/ui/button";
import { hasReading } from "@/components/connections/trend-chart";
import { appQuery, checkAppMutation, trendsQuery } from "@/lib/queries/orgs";
import type { StoredApp } from "@/lib/schemas/orgs";
import { summaryOf } from "@/lib/schemas/summary";
import { Alert, errorMessage } from "@/components/ui/alert";

/**
 * One connected app: the reason when unavailable, its tools and cards, its size and its history.
 * Only a leader (`canManage`) may remove it; leaders and developers (`canTry`) may run the
 * conformance suite against it, whose kept result every member sees (SPEC §27).
 */
export function AppDetailView({ org, appId, canManage, canTry = false }: { org: string; appId: string; canManage: boolean; canTry?: boolean }) {
  const client = useQueryClient();
  const router = useRouter();
  const app = useQuery(appQuery(org, appId));
  const recheck = useMutation(checkAppMutation(client, org));
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const listHref = `/orgs/${encodeURIComponent(org)}/connections`;

  const back = (
    <Link href={listHref} className="text-sm text-indigo-800 underline-offset-2 hover:underline">
      ← All connections
    </Link>
  );

  if (app.isPending) return <Loading label="Loading the app…" />;
  if (app.isError) {
    if (isNotFound(app.error)) {
      return (
        <NotFoundNotice title="App not found" back={{ href: listHref, label: "Back to the organisation's connections" }}>
          This organisation has no such app: it may have been removed.
        </NotFoundNotice>
      );
    }
    return (
      <div className="space-y-3">
        {back}
        <LoadError what="The app" error={app.error} onRetry={() => void app.refetch()} />
      </div>
    );
  }

  const stored = app.data;
  const check = stored.lastCheck?.result ?? null;
  const status = connectionStatus(stored, recheck.isPending ? "checking" : undefined);

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        {back}
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h1 className="text-2xl font-semibold break-words text-slate-900">{stored.name}</h1>
              <ConnectionStatusPill status={status} />
            </div>
            <dl className="grid gap-x-4 gap-y-0.5 text-sm text-slate-700 sm:grid-cols-[auto_1fr]">
              <dt className="text-slate-600">Short name</dt>
              <dd className="font-mono text-slate-900">{check?.shortName ?? "—"}</dd>
              <dt className="text-slate-600">URL</dt>
              <dd className="font-mono break-all">{stored.url}</dd>
              {stored.header !== null && (
                <>
                  <dt className="text-slate-600">Header</dt>
                  <dd>
                    <span className="font-mono">{stored.header.name}</span> {stored.header.set ? "(value stored)" : "(no value)"}
                    {(stored.moreHeaders ?? []).map((name) => (
                      <span key={name}>
                        , <span className="font-mono">{name}</span> (value stored)
                      </span>
                    ))}
                  </dd>
                </>
              )}
              {stored.source != null && (
                <>
                  <dt className="text-slate-600">From</dt>
                  <dd>
                    <span className="font-mono">{stored.source.name}</span> {stored.source.version}
                    {stored.source.registry === null ? " (a server.json given)" : <> in the registry <span className="font-mono break-all">{stored.source.registry}</span></>}
                    {stored.source.latest !== null && <strong className="ml-1 text-amber-900">The registry lists a newer version: {stored.source.latest}.</strong>}
                  </dd>
                </>
              )}
              <dt className="text-slate-600">Connected</dt>
              <dd>
                <time dateTime={stored.connectedAt}>{formatWhen(stored.connectedAt)}</time>
              </dd>
              <dt className="text-slate-600">Last checked</dt>
              <dd>{stored.lastCheck === null ? "never" : <time dateTime={stored.lastCheck.checkedAt}>{formatWhen(stored.lastCheck.checkedAt)}</time>}</dd>
              <dt className="text-slate-600">Next check</dt>
              <dd>
                <NextCheck at={stored.nextCheckAt} />
                {stored.nextCheckAt !== null && nextCheckWhyText(stored.nextCheckWhy, stored.failedReads)}
              </dd>
            </dl>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={recheck.isPending}
              onClick={() => {
                setSaved(false);
                recheck.mutate(stored.id);
              }}
            >
              {recheck.isPending ? "Re-checking…" : "Re-check"}
            </Button>
            {canManage && (
              <Button variant="secondary" aria-expanded={editing} onClick={() => { setEditing((e) => !e); setSaved(false); recheck.reset(); }}>
                Edit
              </Button>
            )}
            {canManage && <RemoveAppButton org={org} appId={stored.id} appName={stored.name} onRemoved={() => router.push(`${listHref}?${new URLSearchParams({ removed: stored.name })}`)} />}
          </div>
        </div>
        {/* One message, of the last action: a re-check's result replaces an earlier save's, and the other way round. */}
        <p role="status" className="text-sm text-slate-700" data-testid="app-action-status">
          {recheck.isPending
            ? "Connecting to the app and reading its tools…"
            : saved
              ? `Saved and read again: its short name is ${check?.shortName ?? "not known yet"}.`
              : recheck.isSuccess
                ? recheckedText(recheck.data)
                : ""}
        </p>
        {editing && (
          <EditAppForm
            org={org}
            app={stored}
            onDone={(done) => {
              setEditing(false);
              setSaved(done);
            }}
          />
        )}
        {recheck.isError && (
          <Alert tone="warning">
            The re-check could not run: {errorMessage(recheck.error, "something went wrong reading the answer.")}
          </Alert>
        )}
      </div>

      <SignInControls org={org} app={stored} canConnect={canManage} />

      <SignInDoctor org={org} app={stored} />

      <AppNewToolsSetting org={org} appId={stored.id} appName={stored.name} canManage={canManage} />

      <AppGroupsSettings org={org} appId={stored.id} appName={stored.name} check={check} canManage={canManage} />

      <ReviewPanel org={org} appId={stored.id} check={check} canManage={canManage} />

      {check === null ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-slate-700">This app has not been checked yet: re-check it to see its tools.</p>
      ) : (
        <section aria-label={`Check of ${stored.name}`} className="space-y-4">
          {/* Leaders set each tool here (SPEC §19); everyone else sees the settings without the control. */}
          <ToolSettingsProvider source={canManage ? { org, app: stored.id, personal: false } : null}>
            <AppCheckBody app={check} linked />
          </ToolSettingsProvider>
        </section>
      )}

      {check !== null && check.status === "available" && <BatchPlan org={org} apps={[check]} />}

      {/* Beside Theorem's verdict: what other assistants would refuse, cut or rename (SPEC §22). */}
      {check !== null && <HostPanel apps={[check]} />}
      {/* SPEC §26: the organisation's decisions for a member in no group, this app among them, as other assistants' files. */}
      <OtherAssistants org={org} target={{}} name="everyone (the organisation's apps for a member in no group)" scope="everyone" />

      <OrgConformance org={org} appId={stored.id} canRun={canTry} />

      <AppReadings org={org} app={stored} />
      <CheckHistory org={org} appId={stored.id} />
    </div>
  );
}

/** What a re-check found, said once it is done: when, and whether the app is available with its counts. */
function recheckedText(app: StoredApp): string {
  const last = app.lastCheck;
  if (last === null) return "Re-checked: nothing was read.";
  const at = formatWhen(last.checkedAt);
  return last.result.status === "available"
    ? `Re-checked at ${at}: available, ${countsText(summaryOf(last.result))}.`
    : `Re-checked at ${at}: unavailable; the reason below says why.`;
}

/** The scheduled re-check, told relative to now, and kept current while the page is open. */
function NextCheck({ at }: { at: string | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return at === null ? <>not scheduled</> : <time dateTime={at}>{nextCheckText(at, now)}</time>;
}

/**
 * What the app's readings show: its changes and its size and timings over time. An app never
 * read successfully has none of them, so one sentence says so, and why, instead of a chart of nothing.
 */
function AppReadings({ org, app }: { org: string; app: StoredApp }) {
  const trends = useQuery(trendsQuery(org, app.id));
  if (trends.data === undefined || trends.data.points.some(hasReading)) {
    return (
      <>
        <AppChanges org={org} appId={app.id} />
        <AppTrends org={org} appId={app.id} />
      </>
    );
  }
  return (
    <section aria-labelledby="readings-title" className="space-y-2">
      <h2 id="readings-title" className="text-lg font-semibold text-slate-900">
        Changes, size and timings
      </h2>
      <p className="text-sm text-slate-700" data-testid="never-read">
        {neverReadText(app)}
      </p>
    </section>
  );
}

/** Why there is nothing to show of an app never read: not checked yet, or its last check's reason. */
function neverReadText(app: StoredApp): string {
  const lead = `${app.name} has not been read successfully yet, so it has no changes, size or timings to show`;
  const message = app.lastCheck?.result.unavailable?.message;
  if (app.lastCheck === null || message === undefined) return `${lead}: it has not been checked yet.`;
  const reason = message.startsWith(`${app.name} is unavailable: `) ? message.slice(`${app.name} is unavailable: `.length) : message;
  return `${lead}: at its last check, ${reason.replace(/\.$/, "")}.`;
}
