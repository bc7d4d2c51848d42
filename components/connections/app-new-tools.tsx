"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { Alert, errorMessage } from "@/components/ui/alert";
import { appSettingsMutation, appSettingsQuery, settingsQuery } from "@/lib/queries/orgs";
import { appNewTools, type AppNewTools } from "@/lib/schemas/orgs";

// By value rather than a Record over the union: a choice the organisation gains shows as its own words until worded here.
const WORDS: Record<string, string> = {
  available: "Available at once",
  "wait-for-review": "Wait for a leader's review",
  "wait-if-risky": "Wait only when risky",
};
const words = (value: string) => WORDS[value] ?? value;

/** One app's own `newTools` (SPEC §19), beside the organisation's: shown to everyone, changed by leaders. */
export function AppNewToolsSetting({ org, appId, canManage }: { org: string; appId: string; canManage: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const own = useQuery(appSettingsQuery(org, appId));
  const orgs = useQuery(settingsQuery(org));
  const save = useMutation(appSettingsMutation(client, org, appId));
  if (!own.isSuccess || !orgs.isSuccess) return null;
  const current = own.data.newTools;
  const label = (o: AppNewTools) => (o === "org" ? `As the organisation says (now: ${words(orgs.data.newTools).toLowerCase()})` : words(o));
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <h2 id={`${id}-title`} className="font-medium text-slate-900">
        New and changed tools of this app
      </h2>
      {canManage ? (
        <>
          <label htmlFor={`${id}-choice`} className="sr-only">
            New and changed tools of this app
          </label>
          <select
            id={`${id}-choice`}
            value={current}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ newTools: appNewTools.parse(e.target.value) })}
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            {appNewTools.options.map((o) => (
              <option key={o} value={o}>
                {label(o)}
              </option>
            ))}
          </select>
        </>
      ) : (
        <span className="text-slate-800">{label(current)}</span>
      )}
      {save.isError && <Alert inline>{errorMessage(save.error, "The setting could not be saved.")}</Alert>}
    </section>
  );
}
