"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useMemo, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { FieldError, fieldClass } from "@/components/ui/field";
import { plural } from "@/lib/plural";
import { planMutation } from "@/lib/queries/people";
import type { AppCheck, ToolCheck } from "@/lib/schemas/check";
import { planRequest, type PlanAnswer } from "@/lib/schemas/people";
import { Alert, errorMessage } from "@/components/ui/alert";

/** The calls typed, one whole name per line; blank lines are not calls. */
function callsOf(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Why a call runs where it does (SPEC §5), in the person's words. */
function whyAlone(tool: ToolCheck | undefined): string {
  if (tool === undefined) return "its tool's hints are not known here";
  if (tool.runsTogether) return "read-only, with no read-only call next to it";
  return tool.policy === "runs-freely" ? "runs freely, but is not read-only, so it runs alone" : "asks first and is not read-only, so it runs alone";
}

/**
 * The batch plan (SPEC §13): calls the model asked for at once, in its order, and how they
 * run: consecutive read-only calls at the same time, every other call alone. Given the apps of
 * the list (the organisation's, or a person's), to pick calls from; `person` plans in that
 * member's list.
 */
export function BatchPlan({ org, apps, person }: { org: string; apps: AppCheck[]; person?: string }) {
  const id = useId();
  const plan = useMutation(planMutation(org));
  const [text, setText] = useState("");
  const [pick, setPick] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [planned, setPlanned] = useState<{ calls: string[]; answer: PlanAnswer } | null>(null);
  const tools = useMemo(() => {
    const byName = new Map<string, ToolCheck>();
    for (const app of apps) for (const t of app.tools) if (t.included && t.wholeName !== null) byName.set(t.wholeName, t);
    return byName;
  }, [apps]);
  const choices = useMemo(() => [...tools.values()].slice(0, 1000), [tools]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const calls = callsOf(text);
    if (calls.length === 0) {
      setError("Add at least one call: a whole name per line, in the order the model asks.");
      return;
    }
    const parsed = planRequest.safeParse({ calls, ...(person ? { person } : {}) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "These calls cannot be planned.");
      return;
    }
    setError(undefined);
    plan.mutate(parsed.data, { onSuccess: (answer) => setPlanned({ calls, answer }) });
  }

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>Plan a batch of calls</CardTitle>
      <p className="text-sm text-slate-700">
        When the model asks for several tools at once, consecutive read-only tools run at the same time; every other tool runs alone, in the order asked.
      </p>
      <form onSubmit={onSubmit} noValidate aria-label="Plan a batch of calls" className="space-y-3">
        {choices.length > 0 && (
          <div className="flex flex-wrap items-end gap-2">
            <label className="block min-w-0 max-w-full grow text-sm sm:max-w-md">
              <span className="block font-medium text-slate-800">Pick a tool</span>
              <select className="mt-1 block w-full rounded border border-slate-300 bg-white px-2 py-1" value={pick} onChange={(e) => setPick(e.target.value)}>
                <option value="">Choose…</option>
                {choices.map((t) => (
                  <option key={t.wholeName} value={t.wholeName!}>
                    {t.wholeName} ({t.title})
                  </option>
                ))}
              </select>
            </label>
            <Button
              type="button"
              variant="secondary"
              disabled={pick === ""}
              onClick={() => {
                setText((t) => (t.trim() === "" ? pick : `${t.replace(/\n+$/, "")}\n${pick}`));
                setError(undefined);
              }}
            >
              Add call
            </Button>
          </div>
        )}
        <div>
          <label htmlFor={`${id}-calls`} className="block text-sm font-medium text-slate-800">
            Calls, in order (one whole name per line)
          </label>
          <textarea
            id={`${id}-calls`}
            rows={5}
            className={`${fieldClass} font-mono`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={error !== undefined}
            aria-describedby={error !== undefined ? `${id}-calls-error` : undefined}
          />
          <FieldError id={`${id}-calls-error`} message={error} />
        </div>
        <Button type="submit" disabled={plan.isPending}>
          {plan.isPending ? "Planning…" : "Plan"}
        </Button>
      </form>
      {plan.isError && (
        <Alert>
          The plan could not be made: {errorMessage(plan.error, "something went wrong reading the answer.")}
        </Alert>
      )}
      {planned !== null && <PlanSteps calls={planned.calls} answer={planned.answer} tools={tools} />}
    </Card>
  );
}

function PlanSteps({ calls, answer, tools }: { calls: string[]; answer: PlanAnswer; tools: ReadonlyMap<string, ToolCheck> }) {
  const shown = answer.groups.slice(0, 200);
  return (
    <div className="space-y-2" aria-live="polite">
      <h3 className="text-sm font-semibold text-slate-900">
        {plural(answer.groups.length, "step")}, one after another
      </h3>
      <ol className="space-y-1 text-sm" aria-label="Steps of the plan">
        {shown.map((group, step) => (
          <li key={step} className="rounded border border-slate-200 bg-slate-50 px-3 py-2" data-testid="plan-step">
            <span className="font-medium text-slate-900">Step {step + 1}</span>
            {group.length > 1 ? " · at the same time (all read-only): " : " · alone: "}
            {group.map((i, k) => (
              <span key={i}>
                {k > 0 && ", "}
                <code className="font-mono text-slate-900">{calls[i]}</code>
                <span className="text-slate-600"> (call {i + 1})</span>
              </span>
            ))}
            {group.length === 1 && <span className="text-slate-700"> — {whyAlone(tools.get(calls[group[0]!]!))}</span>}
          </li>
        ))}
      </ol>
      {answer.groups.length > shown.length && <p className="text-sm text-slate-700">…and {answer.groups.length - shown.length} more steps.</p>}
      {answer.unknown.length > 0 && (
        <p className="text-sm text-amber-900">
          Not run, no tool the assistant has is named so:{" "}
          {answer.unknown.slice(0, 50).map((i, k) => (
            <span key={i}>
              {k > 0 && ", "}
              <code className="font-mono">{calls[i]}</code> (call {i + 1})
            </span>
          ))}
          {answer.unknown.length > 50 && ` and ${answer.unknown.length - 50} more`}.
        </p>
      )}
    </div>
  );
}
