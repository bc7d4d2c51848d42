"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { CodeText } from "@/components/code-text";
import { toolLink } from "@/components/linked-tools-table";
import { ToolBadges } from "@/components/tool-badges";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { plural } from "@/lib/plural";
import { lookupToolQuery } from "@/lib/queries/people";
import { lookupQuery, type LookupAnswer } from "@/lib/schemas/people";
import { Alert, errorMessage } from "@/components/ui/alert";

/** Where a tool or app of the list is shown: the app's page, or the person's view for a list of one person. */
function placeOf(org: string, person: string | undefined) {
  const orgBase = `/orgs/${encodeURIComponent(org)}`;
  return {
    tool: (app: string, tool: number | null, personal: boolean) =>
      person !== undefined && personal
        ? toolLink(`${orgBase}/people/${encodeURIComponent(person)}`, tool, { app })
        : toolLink(`${orgBase}/connections/${encodeURIComponent(app)}`, tool),
  };
}

/**
 * The support lookup (SPEC §12): one search box for a whole name, listed name or title, across
 * the organisation's apps (or one person's list). For a whole name nothing gives, the answer
 * says why in one sentence, with a link to what it is about. The search is kept in the address
 * (`?find=`), so a link to the answer can be sent on.
 */
export function LookupBox({ org, person }: { org: string; person?: string }) {
  const id = useId();
  const params = useSearchParams();
  const [text, setText] = useState(() => params.get("find") ?? "");
  const [asked, setAsked] = useState(() => (params.get("find") ?? "").trim());
  const [error, setError] = useState<string | undefined>();
  const found = useQuery(lookupToolQuery(org, asked, person));
  const place = placeOf(org, person);

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
      {found.data !== undefined && asked !== "" && <LookupResult answer={found.data} place={place} />}
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
                    {hit.tool.wholeName !== null && <CopyButton text={hit.tool.wholeName} label="whole name" compact />}
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
