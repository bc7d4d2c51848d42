"use client";

import { useQuery } from "@tanstack/react-query";
import { formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { changesQuery } from "@/lib/queries/orgs";
import type { SnapshotChange } from "@/lib/schemas/orgs";
import { changeAnchor, effectText, fieldsText, shortHash } from "./change-words";

/** What changed in the app's listing, newest first: tools added, removed and changed, and what each change does for people. */
export function AppChanges({ org, appId }: { org: string; appId: string }) {
  const changes = useQuery(changesQuery(org, appId));
  return (
    <section aria-labelledby="changes-title" className="space-y-2">
      <h2 id="changes-title" className="text-lg font-semibold text-slate-900">
        Changes to its tools
      </h2>
      {changes.isPending ? (
        <Loading label="Loading the changes…" />
      ) : changes.isError ? (
        <LoadError what="The changes" error={changes.error} onRetry={() => void changes.refetch()} />
      ) : changes.data.changes.length === 0 ? (
        <p className="text-sm text-slate-700">Its tools have not changed since it was connected.</p>
      ) : (
        <ol aria-label="Changes, newest first" className="space-y-3">
          {changes.data.changes.map((change) => (
            <ChangeItem key={`${change.from}-${change.to}-${change.at}`} change={change} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ChangeItem({ change }: { change: SnapshotChange }) {
  return (
    <li id={changeAnchor(change.to)} tabIndex={-1} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm target:ring-2 target:ring-indigo-500">
      <p className="text-slate-800">
        <time dateTime={change.at}>{formatWhen(change.at)}</time>
        <span className="ml-2 font-mono text-xs text-slate-600" title={`${change.from} → ${change.to}`}>
          <span className="sr-only">listing </span>
          {shortHash(change.from)} → {shortHash(change.to)}
        </span>
      </p>
      {change.added.length > 0 && (
        <p>
          <span className="font-medium text-emerald-900">Added:</span> {change.added.map((t) => t.name).join(", ")}
        </p>
      )}
      {change.removed.length > 0 && (
        <p>
          <span className="font-medium text-rose-900">Removed:</span> {change.removed.map((t) => t.name).join(", ")}
        </p>
      )}
      {change.changed.length > 0 && (
        <ul aria-label="Tools changed" className="space-y-1">
          {change.changed.map((tool) => (
            <li key={tool.name}>
              <span className="font-medium text-slate-900">{tool.name}</span>: its {fieldsText(tool.fields)} changed.
              {tool.effects.length > 0 && (
                <ul className="ml-4 list-disc text-slate-800">
                  {tool.effects.map((effect) => (
                    <li key={effect.what}>{effectText(effect)}</li>
                  ))}
                </ul>
              )}
              <span className="block font-mono text-xs text-slate-500">
                <span className="sr-only">fingerprint </span>
                {shortHash(tool.fingerprints.from)} → {shortHash(tool.fingerprints.to)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
