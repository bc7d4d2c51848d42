"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { approveMutation, settingsMutation, settingsQuery } from "@/lib/queries/orgs";
import type { AppCheck } from "@/lib/schemas/check";
import { newTools, type NewTools } from "@/lib/schemas/orgs";
import { Alert, errorMessage } from "@/components/ui/alert";

/** The tools of a check that wait for a leader's review. */
export const waitingTools = (check: AppCheck | null | undefined) => (check?.tools ?? []).filter((t) => t.leftOut?.code === "awaiting-review");

const plural = (n: number) => `${n} ${n === 1 ? "tool" : "tools"}`;

/** The badge on an app with tools waiting. */
export function WaitingBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Badge tone="amber" title="New or changed since a leader last approved this app's tools: the assistants do not get them until then.">
      {plural(count)} waiting for review
    </Badge>
  );
}

const CHOICES: Record<NewTools, string> = {
  available: "Available at once",
  "wait-for-review": "Wait for a leader's review",
};

/** The organisation's `newTools` setting: shown to everyone, changed by leaders. */
export function NewToolsSetting({ org, canManage, waiting }: { org: string; canManage: boolean; waiting: number }) {
  const id = useId();
  const client = useQueryClient();
  const settings = useQuery(settingsQuery(org));
  const save = useMutation(settingsMutation(client, org));
  if (!settings.isSuccess) return null;
  const current = settings.data.newTools;
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <h2 id={`${id}-title`} className="font-medium text-slate-900">
        New and changed tools
      </h2>
      {canManage ? (
        <>
          <label htmlFor={`${id}-choice`} className="sr-only">
            New and changed tools
          </label>
          <select
            id={`${id}-choice`}
            value={current}
            disabled={save.isPending}
            onChange={(e) => save.mutate(newTools.parse(e.target.value))}
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            {newTools.options.map((o) => (
              <option key={o} value={o}>
                {CHOICES[o]}
              </option>
            ))}
          </select>
        </>
      ) : (
        <span className="text-slate-800">{CHOICES[current]}</span>
      )}
      {current === "wait-for-review" && (
        <span role="status" className="text-slate-700">
          {waiting === 0 ? "Nothing is waiting." : `${plural(waiting)} waiting for review.`}
        </span>
      )}
      {save.isError && (
        <Alert inline>
          {errorMessage(save.error, "The setting could not be saved.")}
        </Alert>
      )}
    </section>
  );
}

/** On an app's page: what waits, and for a leader the button that approves it. */
export function ReviewPanel({ org, appId, check, canManage }: { org: string; appId: string; check: AppCheck | null; canManage: boolean }) {
  const client = useQueryClient();
  const approve = useMutation(approveMutation(client, org));
  const waiting = waitingTools(check);
  if (waiting.length === 0 && !approve.isSuccess) return null;
  return (
    <section aria-label="Review" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      {waiting.length === 0 ? (
        <p role="status">Approved: every tool of this app reaches the assistants.</p>
      ) : (
        <>
          <p>
            {plural(waiting.length)} new or changed since a leader last approved this app: {waiting.map((t) => t.name).join(", ")}. The assistants do not get{" "}
            {waiting.length === 1 ? "it" : "them"} until then.
          </p>
          {canManage ? (
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" disabled={approve.isPending} onClick={() => approve.mutate({ app: appId })}>
                {approve.isPending ? "Approving…" : `Approve ${waiting.length === 1 ? "it" : `all ${waiting.length}`}`}
              </Button>
              {waiting.length > 1 &&
                waiting.map((tool) => (
                  <Button key={tool.index} variant="ghost" disabled={approve.isPending} onClick={() => approve.mutate({ app: appId, tools: [tool.name!] })}>
                    Approve {tool.name} only
                  </Button>
                ))}
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
