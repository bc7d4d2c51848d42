"use client";

import { useId, useMemo } from "react";
import { useChosenHosts } from "@/components/chosen-hosts";
import { CodeText } from "@/components/code-text";
import { hostProblemBadge, otherHostProfiles, sourceLink } from "@/components/host-words";
import { Badge } from "@/components/ui/badge";
import { checkHosts, type HostApp, type HostOptions } from "@/lib/engine/hosts";
import { plural } from "@/lib/plural";
import { profilesOf, type HostCheck, type HostProfile } from "@/lib/schemas/hosts";

/** Problems shown per host: a listing of thousands of badly named tools would otherwise fill the page. */
const SHOWN_PROBLEMS = 50;

/**
 * Other hosts beside Theorem's verdict (SPEC §22): a picker of the hosts people also use
 * (remembered in this browser) and, for each chosen one, what it would refuse, cut or rename
 * among the tools Theorem includes. Computed here by the engine's own host rules from the check
 * already shown; `schemaBytes` when the page has the listings (the preview), else schemas are not measured.
 */
export function HostPanel({ apps, schemaBytes, headingLevel = 2 }: { apps: readonly HostApp[]; schemaBytes?: HostOptions["schemaBytes"]; headingLevel?: 2 | 3 }) {
  const id = useId();
  const [chosen, choose] = useChosenHosts();
  const checks = useMemo(() => checkHosts(apps, profilesOf(chosen), schemaBytes ? { schemaBytes } : {}), [apps, chosen, schemaBytes]);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // Theorem's own rules are the check above: the picker offers the others.
  const profiles = otherHostProfiles();
  const byId = new Map(profiles.map((p) => [p.id, p]));

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div>
        <Heading id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
          Other hosts
        </Heading>
        <p className="text-sm text-slate-700">
          The same included tools, named and counted as another assistant would: choose the ones people also use (kept in this browser). The{" "}
          <a href="/help#hosts" className="text-indigo-800 underline hover:text-indigo-950">
            help page
          </a>{" "}
          lists each host&apos;s limits and where they come from. Each chosen host&apos;s names for the tools are in the tools table, a column per host.
        </p>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Check against</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {profiles.map((p) => (
            <label key={p.id} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                onChange={(e) => choose(e.target.checked ? [...chosen, p.id] : chosen.filter((c) => c !== p.id))}
              />
              {p.name}
            </label>
          ))}
        </div>
      </fieldset>
      {checks.map((check) => (
        <HostResult key={check.id} check={check} profile={byId.get(check.id)!} apps={apps} schemasMeasured={schemaBytes !== undefined} />
      ))}
    </section>
  );
}

function HostResult({ check, profile, apps, schemasMeasured }: { check: HostCheck; profile: HostProfile; apps: readonly HostApp[]; schemasMeasured: boolean }) {
  const link = sourceLink(profile.source);
  const shown = check.problems.slice(0, SHOWN_PROBLEMS);
  const toolName = (app?: number, tool?: number) => {
    if (app === undefined || tool === undefined) return null;
    const found = apps[app]?.tools.find((t) => t.index === tool);
    return found?.wholeName ?? found?.name ?? null;
  };
  return (
    <div role="group" aria-label={`${profile.name}: ${check.problems.length === 0 ? "no problem" : plural(check.problems.length, "problem")}`} className="space-y-1 border-t border-slate-200 pt-3">
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">{profile.name}</span>
        {check.problems.length === 0 ? <Badge tone="green">No problem</Badge> : <Badge tone="red">{plural(check.problems.length, "problem")}</Badge>}
        <span className="text-sm text-slate-700">{plural(check.tools, "tool")} sent</span>
        {link.href !== null && (
          <a href={link.href} rel="noreferrer noopener" target="_blank" className="text-sm text-indigo-800 underline hover:text-indigo-950">
            source<span className="sr-only"> of {profile.name}&apos;s limits</span>
          </a>
        )}
      </p>
      {shown.length > 0 && (
        <ul className="space-y-1 text-sm text-slate-800">
          {shown.map((p, i) => {
            const badge = hostProblemBadge(p.code);
            const name = toolName(p.app, p.tool);
            return (
              <li key={`${p.code}-${p.app ?? ""}-${p.tool ?? ""}-${i}`} className="flex flex-wrap items-baseline gap-2">
                <Badge tone={badge.tone}>{badge.label}</Badge>
                {name !== null && <span className="font-mono break-all">{name}</span>}
                <span>
                  <CodeText text={p.message} />
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {check.problems.length > shown.length && <p className="text-sm text-slate-700">And {plural(check.problems.length - shown.length, "more problem")}.</p>}
      {!schemasMeasured && profile.schemaMaxBytes !== null && (
        <p className="text-sm text-slate-700">Schema sizes are not measured here: the check API and theorem-check --host measure them from the listings.</p>
      )}
    </div>
  );
}
