"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { LoadError, Loading } from "@/components/connections/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { plural } from "@/lib/plural";
import { personSeesQuery } from "@/lib/queries/people";
import { sentOrderButton } from "./sent-order";

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What the assistant is sent (SPEC §21): every included tool as the model gets it with each
 * message, in order (or largest first), in o200k_base tokens, the total against the budget, and
 * the JSON to copy.
 */
export function SentTools({ org, person, mine }: { org: string; person: string; mine: boolean }) {
  const sees = useQuery(personSeesQuery(org, person));
  const [largestFirst, setLargestFirst] = useState(false);
  const tools = useMemo(() => {
    const list = sees.data?.tools ?? [];
    return largestFirst ? [...list].sort((a, b) => b.tokens - a.tokens) : list;
  }, [sees.data, largestFirst]);

  return (
    <section id="assistant-sent" aria-labelledby="assistant-sent-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="assistant-sent-title" className="text-lg font-semibold text-slate-900">
        What the assistant is sent
      </h2>
      <p className="max-w-3xl text-sm text-slate-700">
        With every message {mine ? "you write" : "this person writes"}, the assistant is sent these tools, each as <code className="font-mono">{"{name, description, inputSchema}"}</code>. Counts are
        o200k_base tokens, the encoding of GPT-4o, GPT-4.1, the o-series and GPT-5; other models (Claude, Gemini) count the same text differently.
      </p>
      {sees.isPending ? (
        <Loading label="Counting what the assistant is sent…" />
      ) : sees.isError ? (
        <LoadError what="What the assistant is sent" error={sees.error} onRetry={() => void sees.refetch()} />
      ) : (
        <>
          <p className="text-sm text-slate-900" data-testid="sent-total">
            {plural(sees.data.tools.length, "tool")}: <strong>{count(sees.data.size.tokens)} tokens</strong>, {count(sees.data.size.chars)} characters as sent.{" "}
            {sees.data.budget === null ? (
              <span className="text-slate-600">No token budget is set.</span>
            ) : sees.data.budget.over > 0 ? (
              <Badge tone="red">
                Over the budget of {count(sees.data.budget.tokens)} by {count(sees.data.budget.over)} tokens
              </Badge>
            ) : (
              <span className="text-slate-700">Within the budget of {count(sees.data.budget.tokens)} tokens.</span>
            )}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" aria-label={sentOrderButton(largestFirst).name} onClick={() => setLargestFirst(!largestFirst)}>
              {sentOrderButton(largestFirst).label}
            </Button>
            <CopyButton text={JSON.stringify(sees.data.tools.map(({ name, description, inputSchema }) => ({ name, ...(description === undefined ? {} : { description }), inputSchema })), null, 2)} label="the tools as sent, as JSON" />
          </div>
          {tools.length === 0 ? (
            <p className="text-sm text-slate-700">No tool is sent.</p>
          ) : (
            <ol className="divide-y divide-slate-100 rounded border border-slate-200 text-sm" aria-label="Tools as sent">
              {tools.map((tool) => (
                <li key={tool.name} className="flex flex-wrap items-baseline justify-between gap-2 px-3 py-1.5" data-testid="sent-tool">
                  <span className="min-w-0">
                    <span className="font-mono break-all text-slate-900">{tool.name}</span> <span className="text-slate-600">from {tool.app.name}</span>
                  </span>
                  <span className="tabular-nums text-slate-800">
                    {count(tool.tokens)} tokens <span className="text-slate-600">· {count(tool.chars)} characters as sent</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
