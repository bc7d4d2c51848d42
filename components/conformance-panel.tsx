"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, type ReactNode } from "react";
import { formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { Alert, errorMessage } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TableHead } from "@/components/ui/table";
import { conformanceMutation, conformanceQuery, previewConformanceMutation } from "@/lib/queries/conformance";
import type { ConformanceCheck, ConformanceResult, ConformanceScenario, ConformanceStatus } from "@/lib/schemas/conformance";

/**
 * "Check conformance" (SPEC §27): the official MCP conformance suite's server scenarios against
 * an app, on an org app's page (the kept result for every member, a run for leaders and
 * developers) and on /preview. The revision note comes first; then one row per scenario with its
 * status, the revision it was run at and the suite's own messages.
 */

const STATUS: Record<ConformanceStatus, { words: string; tone: BadgeTone }> = {
  passed: { words: "Passed", tone: "green" },
  failed: { words: "Failed", tone: "red" },
  "passed-with-note": { words: "Passed, with a note", tone: "amber" },
  "not-applicable": { words: "Not applicable", tone: "slate" },
};

const RUNNING = "Running the conformance suite against the app… A run takes up to 5 minutes.";

function CheckLines({ checks }: { checks: readonly ConformanceCheck[] }) {
  return (
    <ul className="space-y-1">
      {checks.map((c, i) => (
        <li key={`${c.name}-${i}`}>
          <span className="font-mono text-xs">{c.name}</span> <span className="text-slate-600">({STATUS[c.status].words.toLowerCase()})</span>
          {c.message !== "" && <>: {c.message}</>}
        </li>
      ))}
    </ul>
  );
}

/** What the suite said of a scenario, in its own words: why it does not apply, its failed checks, its notes, or that every check passed. */
function SuiteSays({ scenario }: { scenario: ConformanceScenario }) {
  const shown = scenario.applies ? scenario.checks.filter((c) => c.status === "failed" || c.status === "passed-with-note") : [];
  const passed = scenario.checks.filter((c) => c.status === "passed").length;
  return (
    <div className="space-y-1">
      {scenario.why !== undefined && <p>{scenario.why}</p>}
      {shown.length > 0 && <CheckLines checks={shown} />}
      {scenario.applies && shown.length === 0 && <p>{passed === 1 ? "Its check passed." : `Its ${passed} checks passed.`}</p>}
      {scenario.checks.length > 0 && (
        <details>
          <summary className="cursor-pointer text-indigo-800">Every check ({scenario.checks.length})</summary>
          <CheckLines checks={scenario.checks} />
        </details>
      )}
    </div>
  );
}

/** A run's result: the revision note first, then the table of scenarios. */
export function ConformanceResultView({ result }: { result: ConformanceResult }) {
  const failed = result.scenarios.filter((s) => s.status === "failed").length;
  const applies = result.scenarios.filter((s) => s.applies).length;
  return (
    <div className="space-y-3">
      {result.sentence !== undefined && (
        <p role="note" data-testid="conformance-revision-note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {result.sentence}
        </p>
      )}
      {result.stopped !== undefined && (
        <Alert tone="warning" inline={false}>
          {result.stopped}
        </Alert>
      )}
      <p className="text-sm text-slate-700" data-testid="conformance-summary">
        {failed === 0 ? `Every scenario that applies passed (${applies} of ${result.scenarios.length} apply)` : `${failed} of ${applies} scenarios that apply failed`}, at revision{" "}
        <span className="font-mono">{result.revision}</span>, with suite {result.suite}, run {formatWhen(result.ranAt)}.
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm" data-testid="conformance-table">
          <caption className="sr-only">The conformance suite&apos;s server scenarios and what each found</caption>
          <TableHead
            columns={[
              { key: "scenario", label: "Scenario" },
              { key: "status", label: "Status" },
              { key: "revision", label: "Revision" },
              { key: "says", label: "The suite says" },
            ]}
          />
          <tbody className="divide-y divide-slate-200">
            {result.scenarios.map((s) => (
              <tr key={s.name} data-scenario={s.name} data-status={s.status} className="align-top max-sm:block max-sm:py-2">
                <th scope="row" className="px-3 py-2 font-mono text-xs font-medium text-slate-900 max-sm:block">
                  {s.name}
                </th>
                <td className="px-3 py-2 max-sm:block">
                  <Badge tone={STATUS[s.status].tone}>{STATUS[s.status].words}</Badge>
                </td>
                <td className="px-3 py-2 font-mono text-xs max-sm:block">{s.revision}</td>
                <td className="px-3 py-2 text-slate-800 max-sm:block">
                  <SuiteSays scenario={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The section's heading with its button on one line, and one line saying what a run is: the page stays short until there is a result. */
function PanelHead({ id, button, none }: { id: string; button: ReactNode; none?: string }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          Check conformance
        </h2>
        {button}
      </div>
      <p className="max-w-3xl text-sm text-slate-700">
        The official MCP conformance suite&apos;s server scenarios, run against the app at the revision it speaks (running calls the app); those that call the suite&apos;s own
        test tools, which an ordinary app does not have, are not applicable.{none !== undefined && <> {none}</>}
      </p>
    </>
  );
}

/** An org app's conformance: its kept result (every member) and, for leaders and developers, a run. */
export function OrgConformance({ org, appId, canRun }: { org: string; appId: string; canRun: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const kept = useQuery(conformanceQuery(org, appId));
  const run = useMutation(conformanceMutation(client, org, appId));
  const button = canRun ? (
    <Button type="button" variant="secondary" disabled={run.isPending} onClick={() => run.mutate()}>
      {run.isPending ? "Checking conformance…" : "Check conformance"}
    </Button>
  ) : null;
  const none = kept.data === null && !run.isPending ? `No run yet${canRun ? "." : ": a leader or developer can run one."}` : undefined;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3" data-testid="conformance">
      <PanelHead id={`${id}-title`} button={button} {...(none !== undefined ? { none } : {})} />
      {run.isPending && (
        <p role="status" className="text-sm text-slate-700">
          {RUNNING}
        </p>
      )}
      {run.isError && <Alert title="The conformance suite could not run">{errorMessage(run.error, "something went wrong reading the answer.")}</Alert>}
      {kept.isPending ? (
        <Loading label="Loading the last conformance run…" />
      ) : kept.isError ? (
        <LoadError what="The last conformance run" error={kept.error} onRetry={() => void kept.refetch()} />
      ) : (
        kept.data !== null && <ConformanceResultView result={kept.data} />
      )}
    </section>
  );
}

/** A preview's conformance: a run against the URL given (leaders and developers of some organisation), shown, kept nowhere. */
export function PreviewConformance({ url, headers }: { url: string; headers?: Record<string, string> }) {
  const id = useId();
  const run = useMutation(previewConformanceMutation());
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3" data-testid="conformance">
      <PanelHead
        id={`${id}-title`}
        button={
          <Button type="button" variant="secondary" disabled={run.isPending || url === ""} onClick={() => run.mutate({ url, ...(headers && Object.keys(headers).length > 0 ? { headers } : {}) })}>
            {run.isPending ? "Checking conformance…" : "Check conformance"}
          </Button>
        }
      />
      {run.isPending && (
        <p role="status" className="text-sm text-slate-700">
          {RUNNING}
        </p>
      )}
      {run.isError && <Alert title="The conformance suite could not run">{errorMessage(run.error, "something went wrong reading the answer.")}</Alert>}
      {run.data !== undefined && !run.isPending && <ConformanceResultView result={run.data} />}
    </section>
  );
}
