"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { ChangePreview } from "@/components/confirm-change";
import { errorMessage } from "@/components/ui/alert";
import { ConfirmedSelect } from "@/components/ui/confirmed-select";
import { WHAT_IT_DOES } from "@/components/connections/review";
import { appSettingsMutation, appSettingsQuery, settingsQuery } from "@/lib/queries/orgs";
import { appNewTools, type AppNewTools } from "@/lib/schemas/orgs";

// By value rather than a Record over the union: a choice the organisation gains shows as its own words until worded here.
const WORDS: Record<string, string> = {
  available: "Available at once",
  "wait-for-review": "Wait for a leader's review",
  "wait-if-risky": "Wait only when risky",
};
const words = (value: string) => WORDS[value] ?? value;
const whatItDoes = (value: string) => (value in WHAT_IT_DOES ? WHAT_IT_DOES[value as keyof typeof WHAT_IT_DOES] : words(value));

/** One app's own `newTools` (SPEC §19), beside the organisation's: shown to everyone, changed by leaders once they have confirmed what it changes. */
export function AppNewToolsSetting({ org, appId, appName, canManage }: { org: string; appId: string; appName: string; canManage: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const own = useQuery(appSettingsQuery(org, appId));
  const orgs = useQuery(settingsQuery(org));
  const save = useMutation(appSettingsMutation(client, org, appId));
  if (!own.isSuccess || !orgs.isSuccess) return null;
  const current = own.data.newTools;
  const label = (o: AppNewTools) => (o === "org" ? `As the organisation says (now: ${words(orgs.data.newTools).toLowerCase()})` : words(o));
  const effective = (o: AppNewTools) => (o === "org" ? orgs.data.newTools : o);
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="font-medium text-slate-900">
          New and changed tools of this app
        </h2>
        {canManage ? (
          <ConfirmedSelect
            id={`${id}-choice`}
            label="New and changed tools of this app"
            describedBy={`${id}-what`}
            value={current}
            options={appNewTools.options}
            optionLabel={label}
            confirmLabel="Change it for everyone"
            pending={save.isPending}
            error={save.isError ? errorMessage(save.error, "The setting could not be saved.") : null}
            title={(chosen) => `New and changed tools of ${appName}: ${label(chosen).toLowerCase()}?`}
            body={(chosen) => (
              <>
                <p>For {appName}, in the assistant of everyone in the organisation: {whatItDoes(effective(chosen))}</p>
                {chosen !== current && <ChangePreview org={org} change={{ app: { id: appId, settings: { newTools: chosen } } }} />}
              </>
            )}
            onOpen={() => save.reset()}
            onConfirm={(chosen, close) => save.mutate({ newTools: chosen }, { onSuccess: close })}
          />
        ) : (
          <span className="text-slate-800">{label(current)}</span>
        )}
      </div>
      <p id={`${id}-what`} className="text-slate-700">
        When this app adds a tool or changes one: {whatItDoes(effective(current))}
      </p>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="text-slate-700">
          Saved: {label(save.data.newTools).toLowerCase()}, for everyone&apos;s assistant.
        </p>
      )}
    </section>
  );
}
