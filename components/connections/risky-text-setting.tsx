"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useId } from "react";
import { ChangePreview } from "@/components/confirm-change";
import { errorMessage } from "@/components/ui/alert";
import { ConfirmedSelect } from "@/components/ui/confirmed-select";
import { settingsMutation, settingsQuery } from "@/lib/queries/orgs";
import { riskyText } from "@/lib/schemas/check";
import { RISKY_TEXT_CHOICES, RISKY_TEXT_DOES } from "@/components/risky-text-words";

/** The organisation's `riskyText`: shown to everyone, changed by leaders once they have confirmed it. */
export function RiskyTextSetting({ org, canManage }: { org: string; canManage: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const settings = useQuery(settingsQuery(org));
  const save = useMutation(settingsMutation(client, org));
  if (!settings.isSuccess) return null;
  const current = settings.data.riskyText;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="font-medium text-slate-900">
          Risky text
        </h2>
        {canManage ? (
          <ConfirmedSelect
            id={`${id}-choice`}
            label="Risky text"
            describedBy={`${id}-what`}
            value={current}
            options={riskyText.options}
            optionLabel={(o) => RISKY_TEXT_CHOICES[o]}
            confirmLabel="Change it for everyone"
            pending={save.isPending}
            error={save.isError ? errorMessage(save.error, "The setting could not be saved.") : null}
            title={(chosen) => `Risky text: ${RISKY_TEXT_CHOICES[chosen].toLowerCase()}, for the whole organisation?`}
            body={(chosen) => (
              <>
                <p>{RISKY_TEXT_DOES[chosen]}</p>
                <p>A tool a leader has set on its app&apos;s page (ask first or blocked) keeps its own setting.</p>
                {chosen !== current && <ChangePreview org={org} change={{ org: { riskyText: chosen } }} />}
              </>
            )}
            onOpen={() => save.reset()}
            onConfirm={(chosen, close) => save.mutate({ riskyText: chosen }, { onSuccess: close })}
          />
        ) : (
          <span className="text-slate-800" data-testid="risky-text-value">
            {RISKY_TEXT_CHOICES[current]}
          </span>
        )}
      </div>
      <p id={`${id}-what`} className="text-slate-700">
        Tools whose title, description or schema speak to the assistant rather than the person (hidden text, instructions, another app&apos;s tool, a
        link, a request for secrets). {RISKY_TEXT_DOES[current]}{" "}
        <Link href="/help#risky-text" className="text-indigo-800 underline underline-offset-2">
          About risky text
        </Link>
      </p>
      {save.isSuccess && !save.isPending && (
        <p role="status" className="text-slate-700">
          Saved: risky text, {RISKY_TEXT_CHOICES[save.data.riskyText].toLowerCase()}, for the whole organisation.
        </p>
      )}
    </section>
  );
}
