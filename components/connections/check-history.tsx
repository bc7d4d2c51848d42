"use client";

import { useQuery } from "@tanstack/react-query";
import { countsText } from "@/components/app-check-view";
import { ConnectionStatusPill } from "@/components/connections/connection-status";
import { formatSeconds, formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { formatCount } from "@/lib/engine/listing-size";
import { TableHead } from "@/components/ui/table";
import { checksQuery } from "@/lib/queries/orgs";

const HISTORY_COLUMNS = ["Checked", "Status", "Tools", "Size", "Took"].map((label) => ({ key: label, label }));

/** Every check of one app, newest first. */
export function CheckHistory({ org, appId, enabled = true }: { org: string; appId: string; enabled?: boolean }) {
  const history = useQuery({ ...checksQuery(org, appId), enabled });

  return (
    <section aria-labelledby="history-title" className="space-y-2">
      <h2 id="history-title" className="text-lg font-semibold text-slate-900">
        History of checks
      </h2>
      {history.isPending ? (
        <Loading label="Loading the history…" />
      ) : history.isError ? (
        <LoadError what="The history" error={history.error} onRetry={() => void history.refetch()} />
      ) : history.data.checks.length === 0 ? (
        <p className="text-sm text-slate-700">This app has not been checked yet.</p>
      ) : (
        <div role="region" tabIndex={0} aria-label="Checks of this app" className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-indigo-600">
          {/* Focusable, so that a keyboard can scroll it sideways when it is wider than the screen. */}
          <table className="w-full text-left text-sm max-sm:block">
            <caption className="sr-only">Checks of this app, newest first</caption>
            <TableHead columns={HISTORY_COLUMNS} />
            <tbody className="max-sm:block">
              {history.data.checks.map((c) => (
                  <tr key={c.id} className="border-t border-slate-200 align-top max-sm:block max-sm:py-2">
                    <th scope="row" className="px-3 py-2 font-normal whitespace-nowrap max-sm:block max-sm:py-0.5 max-sm:font-medium">
                      <time dateTime={c.checkedAt}>{formatWhen(c.checkedAt)}</time>
                    </th>
                    <td className="px-3 py-2 max-sm:block max-sm:py-0.5">
                      <ConnectionStatusPill status={c.result.status} />
                      {c.result.unavailable !== null && <span className="mt-1 block text-xs text-rose-900">{c.result.unavailable.message}</span>}
                    </td>
                    <td className="px-3 py-2 max-sm:block max-sm:py-0.5">{countsText(c.result)}</td>
                    <td className="px-3 py-2 whitespace-nowrap max-sm:block max-sm:py-0.5">{formatCount(c.result.listing.chars)} characters</td>
                    <td className="px-3 py-2 whitespace-nowrap max-sm:block max-sm:py-0.5">
                      <span className="sm:hidden">took </span>
                      {formatSeconds(c.durationMs)}
                    </td>
                  </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
