"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useId } from "react";
import { errorMessage } from "@/components/ui/alert";
import { ConfirmedSelect } from "@/components/ui/confirmed-select";
import { settingsMutation, settingsQuery } from "@/lib/queries/orgs";
import { exportFallback, type ExportFallback } from "@/lib/schemas/exports";

const CHOICES: Record<ExportFallback, string> = { strict: "Leave it out", loose: "Keep it, and list it" };
const DOES: Record<ExportFallback, string> = {
  strict: "A tool (or an app) whose decision a host cannot say is left out of that host's files.",
  loose: "A tool (or an app) whose decision a host cannot say is kept in that host's files, as the host does it, and listed.",
};

/** The organisation's `exportFallback` (SPEC §26): shown to everyone, changed by leaders once they have confirmed it. */
export function ExportFallbackSetting({ org, canManage }: { org: string; canManage: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const settings = useQuery(settingsQuery(org));
  const save = useMutation(settingsMutation(client, org));
  if (!settings.isSuccess) return null;
  const current = settings.data.exportFallback;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="font-medium text-slate-900">
          What another assistant cannot say
        </h2>
        {canManage ? (
          <ConfirmedSelect
            id={`${id}-choice`}
            label="What another assistant cannot say"
            describedBy={`${id}-what`}
            value={current}
            options={exportFallback.options}
            optionLabel={(o) => CHOICES[o]}
            confirmLabel="Change it for everyone"
            pending={save.isPending}
            error={save.isError ? errorMessage(save.error, "The setting could not be saved.") : null}
            title={(chosen) => `Other assistants' files: ${CHOICES[chosen].toLowerCase()}, for the whole organisation?`}
            body={(chosen) => <p>{DOES[chosen]}</p>}
            onOpen={() => save.reset()}
            onConfirm={(chosen, close) => save.mutate({ exportFallback: chosen }, { onSuccess: close })}
          />
        ) : (
          <span className="text-slate-800" data-testid="export-fallback-value">
            {CHOICES[current]}
          </span>
        )}
      </div>
      <p id={`${id}-what`} className="text-slate-700">
        The files for other assistants (Use in other assistants) say each decision as far as the host can. {DOES[current]}{" "}
        <Link href="/help#other-assistants" className="text-indigo-800 underline underline-offset-2">
          About other assistants
        </Link>
      </p>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="text-slate-700">
          Saved: {CHOICES[save.data.exportFallback].toLowerCase()}, for the whole organisation.
        </p>
      )}
    </section>
  );
}
