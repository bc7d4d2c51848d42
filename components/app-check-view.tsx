import { SizeMeter } from "@/components/size-meter";
import { LinkedToolsTable } from "@/components/linked-tools-table";
import { ToolsTable } from "@/components/tools-table";
import { LinkedToolsRead, ToolsRead } from "@/components/tools-read";
import { UnavailableReason } from "@/components/unavailable-reason";
import { Badge } from "@/components/ui/badge";
import type { AppCheck, Timings } from "@/lib/schemas/check";
import type { AppSummary } from "@/lib/schemas/orgs";
import { summaryOf } from "@/lib/schemas/summary";
import { CodeText } from "@/components/code-text";
import { CONNECT_TIMEOUT_MS, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import { formatSeconds } from "@/components/connections/format";
import { plural } from "@/lib/plural";
import { protocolWords } from "@/lib/protocol-words";

/** The counts in one line; an unavailable app's tools reach no one, so they are not split by policy. */
export function countsText(app: Pick<AppSummary, "status" | "counts">): string {
  const c = app.counts;
  if (app.status === "unavailable") {
    return c.tools === 0 ? "No tools read" : `${plural(c.tools, "tool")} read · none reach the assistant`;
  }
  return `${c.runsFreely} run freely · ${c.asksFirst} ask first · ${c.leftOut} left out`;
}

/** The leader's say on an app's tools (SPEC §19), in one line: "2 blocked · 1 made to ask first"; empty when none. */
export function settingsCountText(counts: Pick<AppSummary["counts"], "blocked" | "madeToAskFirst">): string {
  const parts = [];
  if (counts.blocked > 0) parts.push(`${counts.blocked} blocked`);
  if (counts.madeToAskFirst > 0) parts.push(`${counts.madeToAskFirst} made to ask first`);
  return parts.join(" · ");
}

export function StatusPill({ status }: { status: AppCheck["status"] }) {
  return status === "available" ? <Badge tone="green">Available</Badge> : <Badge tone="red">Unavailable</Badge>;
}


function TimingsLine({ timings }: { timings: Timings }) {
  return (
    <p className="text-sm text-slate-700">
      Connected in <span className={timings.connectMs > CONNECT_TIMEOUT_MS ? "font-semibold text-rose-800" : ""}>{formatSeconds(timings.connectMs)}</span> of{" "}
      {formatSeconds(CONNECT_TIMEOUT_MS)}
      {timings.listMs !== null && (
        <>
          ; listed in <span className={timings.listMs > LIST_TIMEOUT_MS ? "font-semibold text-rose-800" : ""}>{formatSeconds(timings.listMs)}</span> of{" "}
          {formatSeconds(LIST_TIMEOUT_MS)}
        </>
      )}
      .
    </p>
  );
}

/** The MCP revision agreed with the app and how long its list stays valid (SPEC §18); nothing for an inline listing. */
function ProtocolLine({ app }: { app: Pick<AppCheck, "protocol" | "listing"> }) {
  const words = protocolWords(app);
  if (words === null) return null;
  return <p className="text-sm text-slate-700">MCP {words}.</p>;
}

/**
 * The check's findings below its heading: the leader's reason first, then notes, counts,
 * timings, size and tools; `linked` keeps the tools table's view in the page's address.
 */
export function AppCheckBody({ app, linked = false, keep }: { app: AppCheck; linked?: boolean; keep?: Record<string, string> }) {
  return (
    <>
      {app.unavailable !== null && <UnavailableReason unavailable={app.unavailable} />}
      {app.notes.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-slate-700">
          {app.notes.map((n, i) => (
            <li key={`${n.code}-${i}`}>
              <CodeText text={n.message} />
            </li>
          ))}
        </ul>
      )}
      {app.status === "unavailable" && app.tools.length === 0 ? (
        // Nothing was read: no size to measure, and no "lists no tools", which would be a different fact.
        <p className="text-sm text-slate-700">Its tools could not be read: the reason above says why.</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">{countsText(summaryOf(app))}</p>
          {settingsCountText(summaryOf(app).counts) !== "" && (
            <p className="text-sm font-medium text-amber-900" data-testid="settings-count">
              Set by a leader: {settingsCountText(summaryOf(app).counts)}
            </p>
          )}
          {app.timings !== null && <TimingsLine timings={app.timings} />}
          <ProtocolLine app={app} />
          <SizeMeter listing={app.listing} sizes={app.tools.map((t) => t.chars)} />
          <p className="text-sm text-slate-700" data-testid="listing-tokens">
            Sent to the model: {app.listing.tokens.toLocaleString("en-US")} tokens for its included tools (o200k_base, as GPT-4o, 4.1, o-series and GPT-5 count; other models count differently).
          </p>
          {app.status === "unavailable" ? (
            linked ? (
              <LinkedToolsRead count={app.tools.length}>
                <LinkedToolsTable app={app} {...(keep ? { keep } : {})} />
              </LinkedToolsRead>
            ) : (
              <ToolsRead count={app.tools.length}>
                <ToolsTable app={app} />
              </ToolsRead>
            )
          ) : linked ? (
            <LinkedToolsTable app={app} {...(keep ? { keep } : {})} />
          ) : (
            <ToolsTable app={app} />
          )}
        </>
      )}
    </>
  );
}

/** The whole check of one app: status, the leader's reason, size, timings and its tools. */
export function AppCheckView({ app, headingLevel = 2 }: { app: AppCheck; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-label={`Check of ${app.name}`} className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Heading className="text-lg font-semibold text-slate-900">{app.name}</Heading>
        <StatusPill status={app.status} />
        <span className="text-sm text-slate-700">
          short name <span className="font-mono font-medium text-slate-900">{app.shortName}</span>
        </span>
      </div>
      <AppCheckBody app={app} />
    </section>
  );
}
