"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useId } from "react";
import { Badge } from "@/components/ui/badge";
import { RiskBadge } from "@/components/connections/app-changes";
import { whyWords } from "@/components/connections/change-words";
import { byRisk } from "@/lib/engine/risk-order";
import { holdsBack } from "@/lib/engine/review";
import { plural, pluralWord } from "@/lib/plural";
import { approveMutation, changesQuery, settingsMutation, settingsQuery } from "@/lib/queries/orgs";
import type { AppCheck, ToolCheck } from "@/lib/schemas/check";
import { newTools, type ChangeList, type NewTools, type Risk, type RiskWhy } from "@/lib/schemas/orgs";
import { Alert, errorMessage } from "@/components/ui/alert";
import { ConfirmedSelect } from "@/components/ui/confirmed-select";
import { ChangePreview, ConfirmChangeButton } from "@/components/confirm-change";

/** The tools of a check that wait for a leader's review. */
const waitingTools = (check: AppCheck | null | undefined) => (check?.tools ?? []).filter((t) => t.leftOut?.code === "awaiting-review");

const tools = (n: number) => plural(n, "tool");

/** The badge on an app with tools waiting. */
export function WaitingBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Badge tone="amber" title="New or changed since a leader last approved this app's tools: the assistants do not get them until then.">
      {tools(count)} waiting for review
    </Badge>
  );
}

const CHOICES: Record<NewTools, string> = {
  available: "Available at once",
  "wait-for-review": "Wait for a leader's review",
  "wait-if-risky": "Wait for review only if risky",
};

/** What each choice of `newTools` means for the assistants, in a sentence. */
export const WHAT_IT_DOES: Record<NewTools, string> = {
  available: "New and changed tools reach everyone's assistant as soon as an app is read, without a leader's review.",
  "wait-for-review": "Every tool an app adds or changes reaches no one's assistant until a leader approves it.",
  "wait-if-risky":
    "Only a high-risk change (a tool that starts running without asking, or whose text gains instructions, links or requests for secrets) waits for a leader's approval; other new and changed tools reach the assistants as soon as they are read.",
};

/**
 * What changing the organisation's `newTools` from `from` to `to` does for everyone, as the
 * leader is asked before it is saved: what holds from now on, then what happens to the tools
 * listed or waiting now (SPEC §11, §20).
 */
export function newToolsChangeWords(from: NewTools, to: NewTools, waiting: number): string[] {
  const now =
    from === "available"
      ? "What every app lists now is approved as it stands."
      : to === "available"
        ? waiting > 0
          ? `The ${tools(waiting)} waiting for review now ${pluralWord(waiting, "reaches", "reach")} the assistants at once.`
          : ""
        : to === "wait-if-risky" && waiting > 0
          ? `Of the ${tools(waiting)} waiting now, those whose change is not high risk reach the assistants at once.`
          : "";
  return [
    `For every app of the organisation that follows its setting (an app whose page sets its own keeps it): ${WHAT_IT_DOES[to]}`,
    ...(now === "" ? [] : [now]),
  ];
}

/** The organisation's `newTools` setting: shown to everyone, changed by leaders once they have confirmed what it changes for everyone. */
export function NewToolsSetting({ org, canManage, waiting }: { org: string; canManage: boolean; waiting: number }) {
  const id = useId();
  const client = useQueryClient();
  const settings = useQuery(settingsQuery(org));
  const save = useMutation(settingsMutation(client, org));
  if (!settings.isSuccess) return null;
  const current = settings.data.newTools;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="font-medium text-slate-900">
          New and changed tools
        </h2>
        {canManage ? (
          <ConfirmedSelect
            id={`${id}-choice`}
            label="New and changed tools"
            describedBy={`${id}-what`}
            value={current}
            options={newTools.options}
            optionLabel={(o) => CHOICES[o]}
            confirmLabel="Change it for everyone"
            pending={save.isPending}
            error={save.isError ? errorMessage(save.error, "The setting could not be saved.") : null}
            title={(chosen) => `New and changed tools: ${CHOICES[chosen].toLowerCase()}, for the whole organisation?`}
            body={(chosen) => (
              <>
                {newToolsChangeWords(current, chosen, waiting).map((line) => (
                  <p key={line}>{line}</p>
                ))}
                {chosen !== current && <ChangePreview org={org} change={{ org: { newTools: chosen } }} />}
              </>
            )}
            onOpen={() => save.reset()}
            onConfirm={(chosen, close) => save.mutate({ newTools: chosen }, { onSuccess: close })}
          />
        ) : (
          <span className="text-slate-800">{CHOICES[current]}</span>
        )}
        {holdsBack(current) && (
          <span role="status" className="text-slate-700">
            {waiting === 0 ? "Nothing is waiting." : `${tools(waiting)} waiting for review.`}
          </span>
        )}
      </div>
      <p id={`${id}-what`} className="text-slate-700">
        When an app adds a tool or changes one, this says whether the assistants of everyone in the organisation get it at once or only once a
        leader has reviewed it. {WHAT_IT_DOES[current]}{" "}
        <Link href="/help#review" className="text-indigo-800 underline underline-offset-2">
          About review
        </Link>
      </p>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="text-slate-700">
          Saved: {CHOICES[save.data.newTools].toLowerCase()}, for the whole organisation.
        </p>
      )}
    </section>
  );
}

/** A waiting tool with the risk and why of its newest change (SPEC §20), when the changes tell it. */
interface RankedTool {
  tool: ToolCheck;
  risk: Risk | null;
  why: RiskWhy[];
}

/** Waiting tools, riskiest first: each with the risk of the newest change that added or changed it (unknown ones last, in listing order). */
function rankWaiting(waiting: readonly ToolCheck[], changes: ChangeList["changes"] | undefined): RankedTool[] {
  const known = new Map<string, { risk: Risk; why: RiskWhy[] }>();
  for (const change of changes ?? []) {
    for (const tool of [...change.added, ...change.changed]) if (!known.has(tool.name)) known.set(tool.name, { risk: tool.risk, why: tool.why });
  }
  const ranked = waiting.map((tool) => ({ tool, ...(known.get(tool.name ?? "") ?? { risk: null, why: [] }) }));
  return ranked.sort((a, b) => (a.risk === null ? 1 : b.risk === null ? -1 : byRisk(a.risk, b.risk)) || a.tool.index - b.tool.index);
}

/** On an app's page: what waits, riskiest first and why, and for a leader the buttons that approve it. */
export function ReviewPanel({ org, appId, check, canManage }: { org: string; appId: string; check: AppCheck | null; canManage: boolean }) {
  const client = useQueryClient();
  const approve = useMutation(approveMutation(client, org));
  const waiting = waitingTools(check);
  const changes = useQuery({ ...changesQuery(org, appId), enabled: waiting.length > 0 });
  // Once approved the panel says so, from the moment the app's new state is stored (the approval
  // still refreshes the organisation's other answers then, and used to vanish until they came back).
  if (waiting.length === 0 && approve.isIdle) return null;
  const ranked = rankWaiting(waiting, changes.data?.changes);
  const approveError = approve.isError ? errorMessage(approve.error, "The approval could not be saved.") : null;
  return (
    <section aria-label="Review" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      {waiting.length === 0 ? (
        <p role="status">Approved: every tool of this app reaches the assistants.</p>
      ) : (
        <>
          <p>
            {tools(waiting.length)} new or changed since a leader last approved this app: {waiting.map((t) => t.name).join(", ")}. The assistants do not get{" "}
            {pluralWord(waiting.length, "it", "them")} until then.
          </p>
          <ol aria-label="Waiting tools, riskiest first" className="space-y-1">
            {ranked.map(({ tool, risk, why }) => (
              <li key={tool.index} className="flex flex-wrap items-center gap-x-1 gap-y-1">
                {risk !== null && <RiskBadge risk={risk} />} {why.length > 0 && <span>{whyWords(why)}:</span>} <span className="font-medium">{tool.name}</span>
                {canManage && waiting.length > 1 && (
                  <ConfirmChangeButton
                    label={`Approve ${tool.name} only`}
                    variant="ghost"
                    disabled={approve.isPending}
                    org={org}
                    change={{ approve: { app: appId, tools: [tool.name!] } }}
                    title={`Approve ${tool.name}, for everyone?`}
                    confirmLabel="Approve"
                    pending={approve.isPending}
                    error={approveError}
                    onOpen={() => approve.reset()}
                    onConfirm={(close) => approve.mutate({ app: appId, tools: [tool.name!] }, { onSuccess: close })}
                  />
                )}
              </li>
            ))}
          </ol>
          {canManage ? (
            <div className="flex flex-wrap gap-2">
              <ConfirmChangeButton
                label={approve.isPending ? "Approving…" : `Approve ${waiting.length === 1 ? "it" : `all ${waiting.length}`}`}
                disabled={approve.isPending}
                org={org}
                change={{ approve: { app: appId } }}
                title={`Approve ${waiting.length === 1 ? "this tool" : `these ${waiting.length} tools`}, for everyone?`}
                confirmLabel="Approve"
                pending={approve.isPending}
                error={approveError}
                onOpen={() => approve.reset()}
                onConfirm={(close) => approve.mutate({ app: appId }, { onSuccess: close })}
              />
            </div>
          ) : (
            <p>A leader of this organisation approves them.</p>
          )}
          {approve.isError && (
            <Alert inline>
              {errorMessage(approve.error, "The approval could not be saved.")}
            </Alert>
          )}
        </>
      )}
    </section>
  );
}
