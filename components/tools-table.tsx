"use client";

import { hintText } from "./hint-words";
import { Fragment, useEffect, useId, useMemo, useRef, useState } from "react";
import { ApprovalCardPreview } from "@/components/approval-card";
import { useChosenHosts } from "@/components/chosen-hosts";
import { hostProblemBadge, hostToolNames, type HostToolName } from "@/components/host-words";
import { ToolBadges } from "@/components/tool-badges";
import { SettingText, ToolSettingControl } from "@/components/tool-setting";
import { TrySlot } from "@/components/try/try-slot";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TableHead } from "@/components/ui/table";
import { noWholeNameWords } from "@/components/tool-name-words";
import { riskyNoteCode, type AppCheck, type Hints, type Note, type ToolCheck } from "@/lib/schemas/check";
import { profilesOf, type HostProfile } from "@/lib/schemas/hosts";
import { CodeText } from "@/components/code-text";
import { descriptionStart } from "@/components/description-text";
import { cutWords } from "@/components/name-cut-words";
import { plural } from "@/lib/plural";

const TOOLS_PAGE_SIZE = 50;

/**
 * The columns: one per host chosen beside Theorem (SPEC §22), its names for the tools; the tokens'
 * header a button that sorts by them (SPEC §21: largest first) or back to listing order.
 */
const toolColumns = (byTokens: boolean, sortByTokens: (on: boolean) => void, hosts: readonly HostProfile[]) => [
  { key: "whole-name", label: "Whole name" },
  { key: "title", label: "Title" },
  { key: "badges", label: "Badges" },
  ...hosts.map((host) => ({ key: `host-${host.id}`, label: `${host.name} name` })),
  {
    key: "tokens",
    label: (
      <button type="button" className="font-medium underline decoration-dotted" aria-pressed={byTokens} title="o200k_base tokens of the tool as sent (GPT-4o, 4.1, o-series, GPT-5); other models count differently" onClick={() => sortByTokens(!byTokens)}>
        Tokens{byTokens ? " ↓" : ""}
        <span className="sr-only">{byTokens ? ", largest first: show in listing order" : ": sort largest first"}</span>
      </button>
    ),
  },
  { key: "details", label: <span className="sr-only">Details</span> },
];

type Filter = "all" | "asks-first" | "runs-freely" | "left-out" | "risky" | "warnings" | "set-by-leader";

/** The notes that ask the app's developer to change something; the others only say how a name or title was made. Risky text (SPEC §20) is apart: the first, red line of its row. */
const WARNING_CODES: ReadonlySet<string> = new Set(["characters-replaced", "name-cut", "hint-not-boolean", "card-empty", "card-cut", "schema-not-object", "annotations-not-object", "description-long"]);
// Imported from the schema, not the scanner: its tables stay out of the browser's bundle.
const RISKY_CODES: ReadonlySet<string> = new Set(riskyNoteCode.options);
const warningsOf = (tool: ToolCheck) => tool.notes.filter((n) => WARNING_CODES.has(n.code));
/** Text aimed at the assistant rather than the person (SPEC §20). */
const riskyOf = (tool: ToolCheck) => tool.notes.filter((n) => RISKY_CODES.has(n.code));

/**
 * A tool's name on one line, never broken at `_` (a name broken there reads as two names): the
 * table scrolls sideways instead, and on a phone, where a row's cells stack, the name scrolls in its own line.
 */
function ToolName({ name }: { name: string }) {
  return <span className="block whitespace-nowrap max-sm:overflow-x-auto" data-testid="tool-name">{name}</span>;
}

/** One host's name for a tool: "–" for a tool Theorem leaves out (sent to no host), and said when that host refuses the name. */
function HostNameCell({ host, named }: { host: HostProfile; named: HostToolName | undefined }) {
  return (
    <td className="px-3 py-2 font-mono max-sm:col-span-2 max-sm:min-w-0 max-sm:pt-0" data-testid={`host-name-${host.id}`}>
      <span className="font-sans text-xs text-slate-600 sm:hidden">{host.name} name: </span>
      {named === undefined ? (
        <span className="text-slate-500">
          –<span className="sr-only">not sent: left out</span>
        </span>
      ) : (
        <>
          <ToolName name={named.name} />
          {named.refused !== null && <span className="block font-sans text-xs font-medium text-rose-800">{hostProblemBadge(named.refused).label}: {host.name} refuses it</span>}
        </>
      )}
    </td>
  );
}

/** A whole name cut at 64 (SPEC §2.7), marked beside the name, the part cut off on hover (and read out to a screen reader). */
function CutMark({ tool }: { tool: ToolCheck }) {
  const said = cutWords(tool);
  if (said === null) return null;
  return (
    <span className="ml-1 inline-block whitespace-nowrap rounded bg-amber-100 px-1 font-sans text-xs font-medium text-amber-900" title={said} data-testid="name-cut">
      cut at 64<span className="sr-only">: {said}</span>
    </span>
  );
}

/** What a table shows, as a link keeps it: the search, the filter and the tool whose details are open. */
export interface ToolsView {
  q: string;
  show: Filter;
  tool: number | null;
}

export const isFilter = (value: string | null): value is Filter => value !== null && value in FILTERS;

const FILTERS: Record<Filter, { label: string; keep: (t: ToolCheck) => boolean }> = {
  all: { label: "All tools", keep: () => true },
  "asks-first": { label: "Asks first", keep: (t) => t.leftOut === null && t.policy === "asks-first" },
  "runs-freely": { label: "Runs freely", keep: (t) => t.leftOut === null && t.policy === "runs-freely" },
  "left-out": { label: "Left out", keep: (t) => t.leftOut !== null },
  risky: { label: "Risky text", keep: (t) => riskyOf(t).length > 0 },
  warnings: { label: "Has warnings", keep: (t) => warningsOf(t).length > 0 },
  "set-by-leader": { label: "Set by a leader", keep: (t) => t.leaderSetting !== null },
};

function matches(tool: ToolCheck, query: string): boolean {
  if (query === "") return true;
  const q = query.toLowerCase();
  return [tool.name, tool.wholeName, tool.title].some((s) => s?.toLowerCase().includes(q));
}

/**
 * The tools of one app: whole name, title and badges, a page at a time, with details per tool.
 * `initial` opens it as a link asked (a search, a filter, one tool's details, scrolled to and
 * focused); `onViewChange` hears each change, so a page can keep it in its address.
 */
export function ToolsTable({ app, initial, onViewChange }: { app: AppCheck; initial?: Partial<ToolsView>; onViewChange?: (view: ToolsView) => void }) {
  const linked = initial?.tool !== undefined && initial.tool !== null && app.tools.some((t) => t.index === initial.tool) ? initial.tool : null;
  const [query, setQuery] = useState(linked === null ? (initial?.q ?? "") : "");
  const [filter, setFilter] = useState<Filter>(linked === null ? (initial?.show ?? "all") : "all");
  const [page, setPage] = useState(linked === null ? 0 : Math.floor(app.tools.findIndex((t) => t.index === linked) / TOOLS_PAGE_SIZE));
  const [open, setOpen] = useState<ReadonlySet<number>>(linked === null ? new Set() : new Set([linked]));
  const [last, setLast] = useState<number | null>(linked);
  const [byTokens, setByTokens] = useState(false);
  const [chosen] = useChosenHosts();
  const hosts = useMemo(() => profilesOf(chosen), [chosen]);
  const hostNames = useMemo(() => hostToolNames(app, hosts), [app, hosts]);
  const id = useId();
  const linkedRow = useRef<HTMLTableRowElement>(null);

  const shown = useMemo(
    () => {
      const kept = app.tools.filter((t) => FILTERS[filter].keep(t) && matches(t, query.trim()));
      return byTokens ? kept.sort((a, b) => (b.tokens ?? -1) - (a.tokens ?? -1)) : kept;
    },
    [app.tools, filter, query, byTokens],
  );
  const pages = Math.max(1, Math.ceil(shown.length / TOOLS_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const rows = shown.slice(current * TOOLS_PAGE_SIZE, (current + 1) * TOOLS_PAGE_SIZE);

  // A link to one tool lands on its row: scrolled into view and focused, its details open.
  useEffect(() => {
    if (linked === null || linkedRow.current === null) return;
    linkedRow.current.scrollIntoView({ block: "center" });
    linkedRow.current.focus({ preventScroll: true });
  }, [linked]);

  const report = (view: Partial<ToolsView>) => onViewChange?.({ q: query, show: filter, tool: last, ...view });

  const toggle = (index: number) => {
    const closing = open.has(index);
    setOpen((s) => {
      const next = new Set(s);
      if (closing) next.delete(index);
      else next.add(index);
      return next;
    });
    const tool = closing ? (last === index ? null : last) : index;
    setLast(tool);
    report({ tool });
  };

  if (app.tools.length === 0) {
    return <p className="text-sm text-slate-700">This app lists no tools.</p>;
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block font-medium text-slate-800">Find a tool</span>
          <input
            type="search"
            className="mt-1 w-64 max-w-full rounded border border-slate-300 px-2 py-1"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setPage(0);
              report({ q: e.target.value });
            }}
            placeholder="Name or title"
          />
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-800">Show</span>
          <select
            className="mt-1 rounded border border-slate-300 bg-white px-2 py-1"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as Filter);
              setPage(0);
              report({ show: e.target.value as Filter });
            }}
          >
            {(Object.keys(FILTERS) as Filter[]).map((f) => (
              <option key={f} value={f}>
                {FILTERS[f].label} ({app.tools.filter(FILTERS[f].keep).length})
              </option>
            ))}
          </select>
        </label>
        <p className="text-sm text-slate-700" aria-live="polite">
          {shown.length === app.tools.length ? plural(shown.length, "tool") : `${shown.length} of ${app.tools.length} tools`}
        </p>
      </div>

      {shown.length === 0 ? (
        <p className="text-sm text-slate-700">No tool matches.</p>
      ) : (
        <div role="region" tabIndex={0} aria-label={`Tools of ${app.name}`} className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-indigo-600">
          {/* Focusable, so that a keyboard can scroll it sideways when it is wider than the screen. */}
          {/* Below the sm breakpoint each tool's row stacks its cells, so a phone need not scroll sideways. */}
          <table className="w-full text-left text-sm max-sm:block">
            <caption className="sr-only">Tools of {app.name}</caption>
            <TableHead
              columns={toolColumns(
                byTokens,
                (on) => {
                  setByTokens(on);
                  setPage(0);
                },
                hosts,
              )}
            />
            <tbody className="max-sm:block">
              {rows.map((tool) => {
                const detailsId = `${id}-tool-${tool.index}`;
                const isOpen = open.has(tool.index);
                return (
                  <Fragment key={tool.index}>
                    <tr
                      ref={tool.index === linked ? linkedRow : undefined}
                      tabIndex={tool.index === linked ? -1 : undefined}
                      id={`tool-${tool.index}`}
                      className={`border-t border-slate-200 align-top max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:py-1 ${tool.index === linked ? "bg-indigo-50/60 outline-none focus-visible:outline-2 focus-visible:outline-indigo-600" : ""}`}
                      data-testid="tool-row"
                    >
                      <td className="px-3 py-2 font-mono max-sm:col-span-2 max-sm:min-w-0 max-sm:pb-0">
                        {tool.wholeName !== null ? (
                          <span className="flex min-w-0 items-baseline">
                            <ToolName name={tool.wholeName} />
                            <CutMark tool={tool} />
                          </span>
                        ) : tool.name !== null && tool.name !== "" ? (
                          // No whole name (blocked, SPEC §25): the name the app lists, said as such.
                          <>
                            <span className="block text-slate-700">
                              <ToolName name={tool.name} />
                            </span>
                            <span className="block font-sans text-xs italic text-slate-600">{noWholeNameWords(tool)}</span>
                          </>
                        ) : (
                          <span className="italic text-slate-600">no name</span>
                        )}
                        {tool.name !== null && tool.wholeName !== null && tool.name !== tool.wholeName && (
                          <span className="block text-xs whitespace-nowrap text-slate-600 max-sm:overflow-x-auto">listed as {tool.name}</span>
                        )}
                      </td>
                      <th scope="row" className="min-w-40 px-3 py-2 font-normal break-words max-sm:min-w-0 max-sm:col-span-2 max-sm:py-1 max-sm:font-medium">
                        {tool.title}
                      </th>
                      <td className="px-3 py-2 max-sm:pt-0">
                        <RiskyLine notes={riskyOf(tool)} />
                        <ToolBadges tool={tool} />
                        {warningsOf(tool).length > 0 && (
                          <span className="mt-1 block text-xs font-medium text-amber-900" data-testid="tool-warnings">
                            {plural(warningsOf(tool).length, "warning")}: see details
                          </span>
                        )}
                        {tool.leftOut !== null && (
                          <span className="mt-1 block text-xs text-rose-900">
                            <CodeText text={tool.leftOut.message} />
                          </span>
                        )}
                        <SettingText tool={tool} />
                        <ToolSettingControl tool={tool} />
                      </td>
                      {hosts.map((host) => (
                        <HostNameCell key={host.id} host={host} named={hostNames.get(host.id)?.get(tool.index)} />
                      ))}
                      <td className="px-3 py-2 text-right tabular-nums max-sm:pt-0" data-testid="tool-tokens">
                        {tool.tokens === null ? <span className="text-slate-500">–</span> : <>{tool.tokens.toLocaleString("en-US")}<span className="sr-only"> tokens</span></>}
                      </td>
                      <td className="px-3 py-2 text-right max-sm:pt-0">
                        {tool.wholeName !== null && <CopyButton text={tool.wholeName} label={`the whole name of ${tool.title}`} compact />}
                        <Button variant="ghost" aria-expanded={isOpen} aria-controls={detailsId} onClick={() => toggle(tool.index)}>
                          {isOpen ? "Hide details" : "Details"}
                          <span className="sr-only"> of {tool.title}</span>
                        </Button>
                      </td>
                    </tr>
                    {isOpen && (
                      <tr id={detailsId} className="border-t border-slate-100 bg-slate-50 max-sm:block">
                        <td colSpan={5 + hosts.length} className="px-3 py-3 max-sm:block">
                          <ToolDetails tool={tool} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {pages > 1 && (
        <nav aria-label="Tool pages" className="flex items-center gap-2 text-sm">
          <Button variant="secondary" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </Button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <Button variant="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}

const HINT_LABELS: Record<keyof Hints, string> = {
  readOnlyHint: "readOnlyHint",
  destructiveHint: "destructiveHint",
  idempotentHint: "idempotentHint",
  openWorldHint: "openWorldHint",
};

/** A tool's risky text, first and in red (SPEC §20): what the organisation's riskyText acts on. */
function RiskyLine({ notes }: { notes: readonly Note[] }) {
  if (notes.length === 0) return null;
  return (
    <p className="mb-1 text-xs font-semibold text-rose-700" data-testid="tool-risky">
      <span className="sr-only">Risky text: </span>
      <CodeText text={notes[0]!.message} />
      {notes.length > 1 && <span className="font-normal"> (and {plural(notes.length - 1, "more finding")}: see details)</span>}
    </p>
  );
}

function NoteList({ title, notes }: { title: string; notes: readonly Note[] }) {
  if (notes.length === 0) return null;
  return (
    <div>
      <h3 className="text-xs font-medium uppercase tracking-wide text-slate-600">{title}</h3>
      <ul aria-label={title} className="mt-1 list-disc space-y-0.5 pl-5">
        {notes.map((n, i) => (
          <li key={`${n.code}-${i}`}>
            <CodeText text={n.message} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A description, its start only when long, with "Show more" and "Show less". */
function Description({ text }: { text: string }) {
  const [whole, setWhole] = useState(false);
  const id = useId();
  const start = descriptionStart(text);
  return (
    <div className="mt-1 space-y-1">
      <p id={id} className="whitespace-pre-wrap break-words text-slate-800">
        {start === null || whole ? text : start}
      </p>
      {start !== null && (
        <button type="button" className="text-sm text-indigo-800 underline hover:text-indigo-950" aria-expanded={whole} aria-controls={id} onClick={() => setWhole((w) => !w)}>
          {whole ? "Show less" : `Show more (${text.length.toLocaleString("en-US")} characters in all)`}
        </button>
      )}
    </div>
  );
}

function ToolDetails({ tool }: { tool: ToolCheck }) {
  const warnings = warningsOf(tool);
  return (
    <div className="space-y-3">
      {tool.description !== null && tool.description !== "" && (
        <div>
          <h3 className="text-xs font-medium uppercase tracking-wide text-slate-600">Description</h3>
          <Description text={tool.description} />
        </div>
      )}
      {tool.leftOut?.takenBy !== undefined && (
        <p className="text-rose-900">
          The name is held by <span className="font-mono">{tool.leftOut.takenBy.tool}</span> of {tool.leftOut.takenBy.app}.
        </p>
      )}
      {tool.name !== null && (
        <div>
          <h3 className="text-xs font-medium uppercase tracking-wide text-slate-600">Hints</h3>
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {(Object.keys(HINT_LABELS) as (keyof Hints)[]).map((h) => (
              <li key={h}>
                <span className="font-mono">{HINT_LABELS[h]}</span>: {hintText(tool.hints, h)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {/* Risky text first; then the warnings the row counts, apart from the notes that only say how a name or title was made. */}
      <NoteList title="Risky text" notes={riskyOf(tool)} />
      <NoteList title="Warnings" notes={warnings} />
      <NoteList title={warnings.length > 0 ? "Other notes" : "Notes"} notes={tool.notes.filter((n) => !WARNING_CODES.has(n.code) && !RISKY_CODES.has(n.code))} />
      {/* One card at a time: the sample card, or, once Try is opened, the card of the arguments typed there. */}
      <TrySlot
        tool={tool}
        idle={
          tool.name !== null &&
          tool.leftOut === null &&
          (tool.policy === "asks-first" ? (
            <div>
              <h3 className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-600">Approval card</h3>
              <ApprovalCardPreview card={tool.card} />
            </div>
          ) : (
            <p className="text-slate-800">
              <span className="font-medium">Runs without asking:</span> the assistant calls it and the person sees no approval card.
            </p>
          ))
        }
      />
      <p className="text-xs text-slate-600">
        Listing entry {tool.index + 1}, {tool.chars.toLocaleString("en-US")} characters as listed.
      </p>
    </div>
  );
}
