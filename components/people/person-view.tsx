"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { AppCheckBody, countsText, StatusPill } from "@/components/app-check-view";
import { ToolSettingsProvider } from "@/components/tool-setting";
import { AddAppForm } from "@/components/connections/add-app-form";
import { BatchPlan } from "@/components/connections/batch-plan";
import { HostPanel } from "@/components/host-panel";
import { PersonGroups } from "@/components/groups/person-groups";
import { OtherAssistants } from "@/components/people/other-assistants";
import { SentTools } from "@/components/people/sent-tools";
import { LookupBox } from "@/components/connections/lookup-box";
import { RemoveAppButton } from "@/components/connections/remove-app-button";
import { SignInControls } from "@/components/connections/sign-in-controls";
import { isNotFound, LoadError, Loading, NotFoundNotice } from "@/components/connections/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { myAppsQuery, personCheckQuery } from "@/lib/queries/people";
import { plural } from "@/lib/plural";
import { summaryOf } from "@/lib/schemas/summary";
import type { ListedApp } from "@/lib/schemas/orgs";
import type { PersonCheck } from "@/lib/schemas/people";

type PersonApp = PersonCheck["apps"][number];

/**
 * What one person's assistant has (SPEC §12): the organisation's apps and their own, in the
 * order connected, named over that one list, with the lookup and the batch plan in that list.
 * `mine` is the person's own page: they may add and remove their personal apps there. `exports`:
 * "Use in other assistants" (SPEC §26), one's own or (leaders and support) anyone's. `lookUp`:
 * whether the one looking may ask the lookup for this person (SPEC §25: leaders and support, or oneself).
 */
export function PersonView({ org, person, name, mine, lookUp = true, exports = mine }: { org: string; person: string; name: string; mine: boolean; lookUp?: boolean; exports?: boolean }) {
  const check = useQuery(personCheckQuery(org, person));
  // Only on one's own page: the person's own apps with their sign-in (SPEC §17), to connect them.
  const myApps = useQuery({ ...myAppsQuery(org), enabled: mine });
  const params = useSearchParams();
  const [open, setOpen] = useState<string | null>(() => params.get("app"));
  const orgBase = `/orgs/${encodeURIComponent(org)}`;

  const choose = (app: string | null) => {
    setOpen(app);
    const next = new URLSearchParams(app === null ? {} : { app });
    window.history.replaceState(null, "", app === null ? window.location.pathname : `${window.location.pathname}?${next}`);
  };

  const heading = (
    <div>
      <p className="text-sm text-slate-600">
        {mine ? (
          "Your assistant"
        ) : (
          <Link href={`${orgBase}/people`} className="text-indigo-800 underline-offset-2 hover:underline">
            ← People
          </Link>
        )}
      </p>
      <h1 className="text-2xl font-semibold break-words text-slate-900">{mine ? "My apps" : `What ${name}'s assistant has`}</h1>
      <p className="mt-1 max-w-3xl text-slate-700">
        The organisation&apos;s apps and {mine ? "your" : "their"} own, in the order they were connected: an earlier app keeps its names, so{" "}
        {mine ? "your" : "their"} own app may be named <code className="font-mono">_2</code> after one of the organisation&apos;s, or the other way round.
      </p>
    </div>
  );

  if (check.isPending) return <div className="space-y-4">{heading}<Loading label="Loading the apps…" /></div>;
  if (check.isError) {
    if (isNotFound(check.error)) {
      return (
        <NotFoundNotice title="Person not found" back={{ href: `${orgBase}/people`, label: "Back to people" }}>
          This organisation has no such member.
        </NotFoundNotice>
      );
    }
    return <div className="space-y-4">{heading}<LoadError what="The apps" error={check.error} onRetry={() => void check.refetch()} /></div>;
  }

  const { apps, unread } = check.data;
  const shown = apps.find((a) => a.id === open) ?? null;
  const personal = apps.filter((a) => a.personal).length + unread.filter((a) => a.personal).length;

  return (
    <div className="space-y-6">
      {heading}
      {lookUp ? (
        <LookupBox org={org} person={person} self={mine ? person : undefined} />
      ) : (
        <p className="text-sm text-slate-700">The lookup for another person is for leaders and support: yours, for your own assistant, is on Connections.</p>
      )}
      {mine && <AddAppForm org={org} personal existing={apps.map((a) => a.name)} />}
      <PersonGroups org={org} person={person} mine={mine} hidden={check.data.hidden ?? []} />
      <section aria-labelledby="person-apps" className="space-y-2">
        <h2 id="person-apps" className="text-lg font-semibold text-slate-900">
          {plural(apps.length + unread.length, "app")}, {personal} of {mine ? "your" : "their"} own
        </h2>
        {apps.length + unread.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-slate-700">No apps yet.</p>
        ) : (
          <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Apps in connection order">
            {apps.map((app, i) => (
              <PersonAppRow key={app.id} org={org} place={i + 1} app={app} open={open === app.id} mine={mine} onToggle={() => choose(open === app.id ? null : app.id)} />
            ))}
            {unread.map((app) => (
              <li key={app.id} className="px-3 py-2 text-sm text-slate-700">
                {app.name} {app.personal && <Badge tone="violet">Personal</Badge>} · not read yet
              </li>
            ))}
          </ol>
        )}
      </section>
      {shown !== null && (
        <section aria-label={`Tools of ${shown.name}`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="text-lg font-semibold text-slate-900">
            {shown.name} <span className="font-mono text-base font-normal text-slate-700">{shown.shortName}</span>
          </h2>
          {mine && shown.personal && <MySignIn org={org} stored={myApps.data?.apps.find((a) => a.id === shown.id)} />}
          {/* One's own personal app's tools are one's own to set (SPEC §19). */}
          <ToolSettingsProvider source={mine && shown.personal ? { org, app: shown.id, personal: true } : null}>
            <AppCheckBody key={shown.id} app={shown} linked keep={{ app: shown.id }} />
          </ToolSettingsProvider>
        </section>
      )}
      <SentTools org={org} person={person} mine={mine} />
      {apps.some((a) => a.status === "available") && <BatchPlan org={org} apps={apps} person={person} />}
      {/* Beside Theorem's verdict: the same list as other assistants would take it (SPEC §22). */}
      {apps.length > 0 && <HostPanel apps={apps} />}
      {exports && <OtherAssistants org={org} target={{ person }} name={mine ? "you" : name} scope={name} />}
    </div>
  );
}

/** Connect, Reconnect and Disconnect for one of the person's own apps that signs in with OAuth; nothing for any other. */
function MySignIn({ org, stored }: { org: string; stored: ListedApp | undefined }) {
  if (stored === undefined || !stored.personal) return null;
  return <SignInControls org={org} app={stored} canConnect personal />;
}

function PersonAppRow({ org, place, app, open, mine, onToggle }: { org: string; place: number; app: PersonApp; open: boolean; mine: boolean; onToggle: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="person-app">
      <div className="min-w-0 space-y-0.5">
        <p className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-slate-600">{place}.</span>
          {app.personal ? (
            <span className="font-medium text-slate-900">{app.name}</span>
          ) : (
            <Link href={`/orgs/${encodeURIComponent(org)}/connections/${encodeURIComponent(app.id)}`} className="font-medium text-indigo-800 underline-offset-2 hover:underline">
              {app.name}
            </Link>
          )}
          {app.personal ? <Badge tone="violet">Personal</Badge> : <Badge tone="slate">Organisation</Badge>}
          <StatusPill status={app.status} />
          <span className="font-mono text-sm text-slate-800">{app.shortName}</span>
        </p>
        <p className="text-sm text-slate-700">{countsText(summaryOf(app))}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        {/* An app that lists no tools has none to show: its row says so; one whose tools could not be read shows why (and its sign-in) instead. */}
        {app.status === "available" && app.tools.length === 0 ? (
          <span className="text-sm text-slate-700">Lists no tools</span>
        ) : (
          <Button variant="secondary" aria-expanded={open} onClick={onToggle}>
            {app.tools.length === 0 ? (open ? "Hide why" : "Show why") : open ? "Hide tools" : "Show tools"}
            <span className="sr-only"> {app.tools.length === 0 ? `${app.name} is unavailable` : `of ${app.name}`}</span>
          </Button>
        )}
        {mine && app.personal && <RemoveAppButton org={org} appId={app.id} appName={app.name} personal />}
      </div>
    </li>
  );
}
