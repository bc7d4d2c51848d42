"use client";

import { useQuery } from "@tanstack/react-query";
import { ConnectionStatusPill } from "@/components/connections/connection-status";
import { formatSeconds, formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { formatCount } from "@/lib/engine/listing-size";
import { TableHead } from "@/components/ui/table";
import { plural } from "@/lib/plural";
import { checksQuery } from "@/lib/queries/orgs";
import { changeAnchor } from "./change-words";
import { changeText, runText, type HistoryPlace } from "./history-words";


const HISTORY_COLUMNS = ["Checked", "Status", "What changed", "Tools", "Size, as listed", "Took"].map((label) => ({ key: label, label }));

/** The checks of one app, newest first, runs of the same outcome folded into one row. */
const SHOWN = 10;

export function CheckHistory({ org, appId, enabled = true }: { org: string; appId: string; enabled?: boolean }) {
  const history = useQuery({ ...checksQuery(org, appId, SHOWN), enabled });
  // Fewer entries than asked for: the oldest shown is the app's first check.
  const place = (index: number, count: number): HistoryPlace => (index < count - 1 ? "later" : count < SHOWN ? "first" : "oldest-shown");

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
              {history.data.checks.map((c, index, all) => (
                <tr key={`${c.to}-${c.from}`} className="border-t border-slate-200 align-top max-sm:block max-sm:py-2">
                  <th scope="row" className="px-3 py-2 font-normal max-sm:block max-sm:py-0.5 max-sm:font-medium">
                    {c.count === 1 ? (
                      <time dateTime={c.to} className="whitespace-nowrap">{formatWhen(c.to)}</time>
                    ) : (
                      <>
                        <span className="block">{runText(c)}</span>
                        <span className="block text-xs text-slate-600">
                          <time dateTime={c.from}>{formatWhen(c.from)}</time> – <time dateTime={c.to}>{formatWhen(c.to)}</time>
                        </span>
                      </>
                    )}
                  </th>
                  <td className="px-3 py-2 max-sm:block max-sm:py-0.5">
                    <ConnectionStatusPill status={c.status} />
                    {c.unavailable !== null && <span className="mt-1 block text-xs text-rose-900">{c.unavailable.message}</span>}
                  </td>
                  <td className="px-3 py-2 max-sm:block max-sm:py-0.5">
                    {c.change !== null && c.snapshot !== null && c.change.added + c.change.removed + c.change.changed > 0 ? (
                      <a href={`#${changeAnchor(c.snapshot)}`} className="text-indigo-800 underline">
                        {changeText(c.change, place(index, all.length))}
                      </a>
                    ) : (
                      changeText(c.change, place(index, all.length))
                    )}
                  </td>
                  <td className="px-3 py-2 max-sm:block max-sm:py-0.5">{c.tools === null ? "None read" : plural(c.tools, "tool")}</td>
                  <td className="px-3 py-2 whitespace-nowrap max-sm:block max-sm:py-0.5">
                    {c.chars === null ? "—" : `${formatCount(c.chars)} characters${c.stopped ? " (stopped at a bound)" : ""}`}
                  </td>
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
