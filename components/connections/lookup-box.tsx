"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useSearchParams } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { CodeText } from "@/components/code-text";
import { toolLink } from "@/components/linked-tools-table";
import { ToolBadges } from "@/components/tool-badges";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { noWholeNameWords } from "@/components/tool-name-words";
import { plural } from "@/lib/plural";
import { lookupToolQuery, peopleQuery } from "@/lib/queries/people";
import { lookupQuery, type LookupAnswer } from "@/lib/schemas/people";
import { Alert, errorMessage } from "@/components/ui/alert";

/** Where a tool or app of the answer is shown: an org app's page, or, for a personal app, the view of the person the answer is for. */
function placeOf(org: string, person: string) {
  const orgBase = `/orgs/${encodeURIComponent(org)}`;
  return {
    tool: (app: string, tool: number | null, personal: boolean) =>
      personal ? toolLink(`${orgBase}/people/${encodeURIComponent(person)}`, tool, { app }) : toolLink(`${orgBase}/connections/${encodeURIComponent(app)}`, tool),
  };
}

/** Whose answer it is (SPEC §25), as the box says it: "you" for the one asking (`self`, their member id). */
export function answeredForWords(person: { id: string; email: string }, self: string | undefined, name?: string): string {
  if (person.id === self) return `Answered for you (${person.email}): what your assistant has, with your names, blocks and groups.`;
  const who = name !== undefined && name !== "" && name !== person.email ? `${name} (${person.email})` : person.email;
  return `Answered for ${who}: what their assistant has, with their names, blocks and groups.`;
}

/**
 * The support lookup (SPEC §12, §25): one search box for a whole name, listed name or title, in
 * one person's list: the one asking (`self`, their member id), or `person` when the box is on that
 * person's page. Leaders and support (`pick`) choose another person there, from the same list
 * People shows. For a whole name nothing gives, the answer says why in one sentence, with a link
 * to what it is about, and says whose answer it is. The search (`?find=`) and the person chosen
 * (`?for=`) are kept in the address, so a link to the answer can be sent on.
 */
export function LookupBox({ org, person, self, pick = false }: { org: string; person?: string; self?: string; pick?: boolean }) {
  const id = useId();
  const params = useSearchParams();
  const [text, setText] = useState(() => params.get("find") ?? "");
  const [asked, setAsked] = useState(() => (params.get("find") ?? "").trim());
  const [chosen, setChosen] = useState<string | undefined>(() => (pick ? (params.get("for") ?? undefined) : undefined));
  const [error, setError] = useState<string | undefined>();
  // Everyone asks for themselves; only a person fixed by the page, or chosen by leaders and support, is sent.
  const target = person ?? (chosen === self ? undefined : chosen);
  const found = useQuery(lookupToolQuery(org, asked, target));
  const people = useQuery({ ...peopleQuery(org), enabled: pick });
  const names = new Map((people.data?.people ?? []).map((p) => [p.id, p.name]));

  function choose(next: string) {
    const value = next === "" || next === self ? undefined : next;
    setChosen(value);
    const address = new URLSearchParams(window.location.search);
    if (value === undefined) address.delete("for");
    else address.set("for", value);
    const query = address.toString();
    window.history.replaceState(null, "", query === "" ? window.location.pathname : `${window.location.pathname}?${query}`);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = lookupQuery.shape.q.safeParse(text);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setAsked(parsed.data);
    const next = new URLSearchParams(window.location.search);
    next.set("find", parsed.data);
    window.history.replaceState(null, "", `${window.location.pathname}?${next}`);
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Find a tool
      </h2>
      <form role="search" onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
        <label className="min-w-0 grow text-sm sm:max-w-md">
          <span className="block font-medium text-slate-800">Whole name, listed name or title</span>
          <input
            type="search"
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 font-mono aria-[invalid=true]:border-rose-600"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="calendar_add_event"
            aria-invalid={error !== undefined}
            aria-describedby={error !== undefined ? `${id}-error` : undefined}
          />
        </label>
        {pick && (
          <label className="text-sm">
            <span className="block font-medium text-slate-800">Answer for</span>
            <select className="mt-1 block max-w-64 rounded border border-slate-300 px-2 py-1.5" value={chosen ?? self ?? ""} onChange={(e) => choose(e.target.value)}>
              {self === undefined && <option value="">You</option>}
              {(people.data?.people ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id === self ? `You (${p.email})` : p.name !== "" ? `${p.name} (${p.email})` : p.email}
                </option>
              ))}
              {self !== undefined && people.data === undefined && <option value={self}>You</option>}
            </select>
          </label>
        )}
        <Button type="submit">Look up</Button>
      </form>
      {error !== undefined && (
        <p id={`${id}-error`} className="text-sm text-rose-800">
          {error}
        </p>
      )}
      {asked !== "" && found.isPending && <p role="status" className="text-sm text-slate-700">Looking…</p>}
      {found.isError && (
        <Alert>
          The lookup could not run: {errorMessage(found.error, "something went wrong reading the answer.")}
        </Alert>
      )}
      {found.data !== undefined && asked !== "" && (
        <>
          <p className="text-sm text-slate-700" data-testid="lookup-for">
            {answeredForWords(found.data.person, self, names.get(found.data.person.id))}
          </p>
          <LookupResult answer={found.data} place={placeOf(org, found.data.person.id)} />
        </>
      )}
      {person !== undefined && (
        <p className="text-sm">
          <a href="#assistant-sent" className="text-indigo-800 underline underline-offset-2">
            What this assistant is sent
          </a>{" "}
          <span className="text-slate-600">(every included tool as the model gets it, in tokens)</span>
        </p>
      )}
    </section>
  );
}

function LookupResult({ answer, place }: { answer: LookupAnswer; place: ReturnType<typeof placeOf> }) {
  const about = answer.about;
  const aboutHref =
    about === null
      ? null
      : about.kind === "theorem"
        ? "/theorem"
        : about.kind === "tool"
          ? place.tool(about.app, about.tool, answer.hits.some((h) => h.app.id === about.app && h.app.personal))
          : place.tool(about.app, null, false);
  return (
    <div className="space-y-3" aria-live="polite">
      {answer.answer !== null && (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="lookup-answer">
          <p>
            <CodeText text={answer.answer} />
          </p>
          {aboutHref !== null && (
            <Link href={aboutHref} className="mt-1 inline-block text-indigo-800 underline hover:text-indigo-950">
              {about?.kind === "theorem" ? "See Theorem's own names" : about?.kind === "tool" ? "Open this tool" : "Open this app"}
            </Link>
          )}
        </div>
      )}
      {answer.hits.length === 0 ? (
        answer.answer === null && <p className="text-sm text-slate-700">No tool matches.</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {answer.total > answer.hits.length ? `The first ${answer.hits.length} of ${answer.total.toLocaleString("en-US")} tools that match:` : `${plural(answer.total, "tool matches", "tools match")}:`}
          </p>
          <ul className="divide-y divide-slate-200 rounded border border-slate-200" aria-label="Tools found">
            {answer.hits.map((hit) => (
              <li key={`${hit.app.id}-${hit.tool.index}`} className="flex flex-wrap items-start justify-between gap-2 px-3 py-2 text-sm" data-testid="lookup-hit">
                <div className="min-w-0 space-y-1">
                  <p className="flex flex-wrap items-center gap-x-2">
                    <Link href={place.tool(hit.app.id, hit.tool.index, hit.app.personal)} className="font-mono break-all text-indigo-800 underline hover:text-indigo-950">
                      {hit.tool.wholeName ?? hit.tool.name ?? `entry ${hit.tool.index + 1}`}
                    </Link>
                    {hit.tool.wholeName !== null ? <CopyButton text={hit.tool.wholeName} label="whole name" compact /> : <span className="text-xs text-slate-600">{noWholeNameWords(hit.tool)}</span>}
                  </p>
                  <p className="text-slate-700">
                    {hit.tool.title} · {hit.app.name} {hit.app.personal && <Badge tone="violet">Personal</Badge>}
                  </p>
                  {hit.tool.leftOut !== null && (
                    <p className="text-xs text-rose-900">
                      <CodeText text={hit.tool.leftOut.message} />
                    </p>
                  )}
                </div>
                <ToolBadges tool={hit.tool} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
