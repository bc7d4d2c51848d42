"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useState, type ReactNode } from "react";
import { useForm, type UseFormReturn } from "react-hook-form";
import { ApprovalCardPreview } from "@/components/approval-card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FieldError, fieldClass } from "@/components/ui/field";
import { approvalCard } from "@/lib/engine/approval-card";
import { ApiRequestError } from "@/lib/queries/api";
import { toolToTryQuery, tryMutation, type TryContinuation, type TrySource } from "@/lib/queries/try";
import type { ToolToTry, TryAnswer } from "@/lib/schemas/try";
import { questionOf, refusedByDecision } from "./answer-words";
import { argumentFields, argumentsOf, emptyValues, fieldOfArgument, NULL_TEXT, optionLabel, tryFormSchema, type ArgumentField, type FieldValues } from "./argument-fields";
import { TryAnswerView } from "./try-answer";
import { Alert, errorMessage } from "@/components/ui/alert";

/**
 * Trying one tool (SPEC §14), for leaders and developers: the arguments, typed into a form made
 * from the tool's input schema; then the approval card exactly as the person would see it with
 * them; then, once confirmed, the call and its answer.
 */
export function TryPanel({ source, tool, title, idle = null }: { source: TrySource; tool: string; title: string; idle?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!open) {
    // The tool's sample card until the try opens: then the try's own card takes its place.
    return (
      <>
        {idle}
        <div>
          <h3 className="mb-2 text-xs font-medium uppercase tracking-wide text-slate-600">Try it</h3>
          <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Try this tool: ${title}`}>
            Try this tool
          </Button>
        </div>
      </>
    );
  }
  return (
    <section id={id} aria-label={`Try ${title}`} className="space-y-3 rounded-lg border border-indigo-200 bg-indigo-50/40 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">Try {title}</h3>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Close<span className="sr-only"> the try of {title}</span>
        </Button>
      </div>
      <TryLoader source={source} tool={tool} />
    </section>
  );
}

function TryLoader({ source, tool }: { source: TrySource; tool: string }) {
  const described = useQuery(toolToTryQuery(source, tool));
  if (described.isPending) return <p role="status" className="text-sm text-slate-700">Reading the tool&apos;s arguments…</p>;
  if (described.isError) {
    return (
      <Alert inline>
        The tool could not be read: {errorMessage(described.error, "something went wrong.")}
      </Alert>
    );
  }
  const { tool: found, refused } = described.data;
  if (found === null) {
    return (
      <Alert inline>
        The tool could not be read: {refused?.message ?? "the app does not list it."}
      </Alert>
    );
  }
  return <TrySteps source={source} tool={found} />;
}

/**
 * `anyway`: the call was sent past a refusal of SPEC §25 (a leader's choice), so its further rounds are too;
 * `asTyped`: the arguments go as typed though they do not fit the tool's schema (SPEC §27), in every round.
 */
type Sending = { anyway?: boolean; asTyped?: boolean };
type Step = { at: "form" } | ({ at: "review"; args: Record<string, unknown> } & Sending) | ({ at: "answer"; args: Record<string, unknown> } & Sending);

/** Whether a leader may send this refused call again `anyway` (SPEC §25): only past what was decided for them, never past the app's own refusal. */
const mayTryAnyway = (source: TrySource, answer: TryAnswer | undefined) =>
  source.kind === "org" && source.anyway === true && answer !== undefined && refusedByDecision(answer);

function TrySteps({ source, tool }: { source: TrySource; tool: ToolToTry }) {
  const client = useQueryClient();
  const fields = useMemo(() => argumentFields(tool.inputSchema), [tool.inputSchema]);
  const schema = useMemo(() => tryFormSchema(fields, tool.inputSchema), [fields, tool.inputSchema]);
  const form = useForm<FieldValues>({ resolver: zodResolver(schema), defaultValues: emptyValues(fields) });
  const [step, setStep] = useState<Step>({ at: "form" });
  const call = useMutation(tryMutation(client, source));
  const id = useId();

  const onReview = form.handleSubmit((values) => {
    call.reset();
    setStep({ at: "review", args: argumentsOf(fields, values).arguments });
  });

  /** SPEC §27: the arguments as typed, past the schema's issues; text that does not read (a number, JSON) still has to. */
  const onSendAsTyped = () => {
    const read = argumentsOf(fields, form.getValues());
    const unread = Object.entries(read.errors);
    unread.forEach(([key, message], i) => form.setError(key, { type: "read", message }, { shouldFocus: i === 0 }));
    if (unread.length > 0) return;
    call.reset();
    setStep({ at: "review", args: read.arguments, asTyped: true });
  };

  const confirm = (args: Record<string, unknown>, more?: TryContinuation, sending: Sending = {}) => {
    const how: Sending = { ...(sending.anyway === true ? { anyway: true } : {}), ...(sending.asTyped === true ? { asTyped: true } : {}) };
    call.mutate(
      { tool: tool.name, args, ...(more !== undefined ? { more } : {}), ...how },
      {
        onSuccess: () => setStep({ at: "answer", args, ...how }),
        onError: (error) => {
          // 422: the app's schema (read again for the call) refused an argument: back to its field.
          if (!(error instanceof ApiRequestError) || error.status !== 422 || !Array.isArray(error.issues)) return;
          setStep({ at: "form" });
          let placed = false;
          for (const issue of error.issues as { path?: unknown[]; message?: string }[]) {
            const key = fieldOfArgument(fields, issue.path?.[1]);
            form.setError(key ?? "root", { type: "server", message: issue.message ?? error.message }, { shouldFocus: !placed });
            placed = true;
          }
        },
      },
    );
  };

  if (step.at === "form") {
    const rootError = form.formState.errors.root?.message;
    // Offered once the form found issues and every field reads (a number, JSON): what is left is the schema's to judge, or the app's.
    const mayType = Object.keys(form.formState.errors).length > 0 && Object.keys(argumentsOf(fields, form.getValues()).errors).length === 0;
    return (
      <form onSubmit={(e) => void onReview(e)} noValidate aria-label={`Arguments of ${tool.title}`} className="space-y-3">
        {fields.length === 0 ? (
          <p className="text-sm text-slate-700">This tool takes no arguments.</p>
        ) : (
          <div className="grid gap-3 md:grid-cols-2">
            {fields.map((field) => (
              <ArgumentInput key={field.key} field={field} id={`${id}-${field.key}`} form={form} />
            ))}
          </div>
        )}
        <p className="text-xs text-slate-600">An empty field is not sent; type null (or choose it) to send null. Values are sent to the app as typed and never stored.</p>
        {rootError !== undefined && (
          <Alert inline>
            {rootError}
          </Alert>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit">{tool.policy === "asks-first" ? "Review the approval card" : "Review the call"}</Button>
          {mayType && (
            <Button type="button" variant="secondary" onClick={onSendAsTyped}>
              Send as typed
            </Button>
          )}
        </div>
      </form>
    );
  }

  const card = approvalCard(tool.title, tool.inputSchema, step.args);
  const asks = tool.policy === "asks-first";
  return (
    <div className="space-y-3">
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h4 className="text-sm font-semibold text-slate-900">{asks ? "The approval card with these arguments" : "No approval card"}</h4>
          <Badge tone={asks ? "amber" : "green"}>{asks ? "Asks first" : "Runs freely"}</Badge>
        </div>
        <p className="text-sm text-slate-700">
          {asks
            ? "This tool asks first: before it runs, the person sees this card and must allow it."
            : "This tool runs without asking: the assistant calls it and the person sees no card."}
        </p>
        {asks && <ApprovalCardPreview card={card} editable={false} />}
      </div>
      {step.at === "review" ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-800">Confirming calls the tool now, for real, with these arguments.</p>
          {step.asTyped === true && (
            <p role="note" className="text-sm text-amber-900">
              Sent as typed: arguments that do not fit the tool&apos;s schema go to the app as they are, and the answer names them.
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Button onClick={() => confirm(step.args, undefined, step)} disabled={call.isPending}>
              {call.isPending ? "Calling…" : "Confirm and call"}
            </Button>
            <Button variant="secondary" onClick={() => setStep({ at: "form" })} disabled={call.isPending}>
              Change the arguments
            </Button>
            {call.isPending && (
              <span role="status" className="text-sm text-slate-700">
                Calling {tool.title}: up to 60 s…
              </span>
            )}
          </div>
          {call.isError && !(call.error instanceof ApiRequestError && call.error.status === 422) && (
            <Alert inline>
              The call could not be made: {errorMessage(call.error, "something went wrong.")}
            </Alert>
          )}
        </div>
      ) : (
        <div className="space-y-2">
          {call.data !== undefined && <TryAnswerView answer={call.data} title={tool.title} />}
          {call.data?.outcome === "input-required" && (
            <Questions key={call.data.round} answer={call.data} pending={call.isPending} onSend={(more) => confirm(step.args, more, step)} />
          )}
          <div className="flex flex-wrap items-center gap-2">
            {mayTryAnyway(source, call.data) && (
              <Button onClick={() => confirm(step.args, undefined, { ...step, anyway: true })}>Try anyway</Button>
            )}
            <Button variant="secondary" onClick={() => setStep({ at: "form" })}>
              Try again
            </Button>
            {call.isPending && (
              <span role="status" className="text-sm text-slate-700">
                Calling {tool.title}: up to 60 s…
              </span>
            )}
          </div>
          {call.isError && (
            <Alert inline>
              The call could not be made: {errorMessage(call.error, "something went wrong.")}
            </Alert>
          )}
        </div>
      )}
    </div>
  );
}

function ArgumentInput({ field, id, form }: { field: ArgumentField; id: string; form: UseFormReturn<FieldValues> }) {
  const error = form.formState.errors[field.key]?.message;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hintId, error !== undefined ? errorId : ""].join(" ").trim();
  const common = { id, "aria-invalid": error !== undefined, "aria-describedby": described, ...form.register(field.key) };
  const what = field.kind === "json" ? `JSON${field.shape !== null ? ` ${field.shape}` : ""}` : field.kind === "enum" ? "one of the values" : field.kind;
  return (
    <div className={field.kind === "json" ? "md:col-span-2" : undefined}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {field.label}
        {field.required && <span aria-hidden="true"> *</span>}
      </label>
      {field.kind === "boolean" ? (
        <select className={fieldClass} {...common}>
          <option value="">(not sent)</option>
          <option value="true">true</option>
          <option value="false">false</option>
          <option value={NULL_TEXT}>null</option>
        </select>
      ) : field.kind === "enum" ? (
        <select className={fieldClass} {...common}>
          <option value="">(not sent)</option>
          {field.options.map((option, i) => (
            <option key={i} value={String(i)}>
              {optionLabel(option)}
            </option>
          ))}
        </select>
      ) : field.kind === "json" ? (
        <textarea className={`${fieldClass} h-24 font-mono`} spellCheck={false} placeholder={field.shape === "array" ? "[]" : field.shape === "object" ? "{}" : "JSON"} {...common} />
      ) : (
        <input className={fieldClass} type="text" inputMode={field.kind === "string" ? undefined : field.kind === "integer" ? "numeric" : "decimal"} autoComplete="off" {...common} />
      )}
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        <span className="font-mono">{field.name}</span> · {what}
        {field.required ? " · required" : ""}
        {field.description !== null ? ` · ${field.description}` : ""}
      </p>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * A tool's questions (SPEC §18): a form per request, made from its schema as the arguments' form
 * is; once each is answered or declined, the call continues with the answers and the app's state.
 */
function Questions({ answer, pending, onSend }: { answer: TryAnswer; pending: boolean; onSend: (more: TryContinuation) => void }) {
  const [given, setGiven] = useState<Record<string, unknown>>({});
  const requests = Object.entries(answer.requests ?? {});
  const give = (key: string, response: unknown) => {
    const next = { ...given, [key]: response };
    setGiven(next);
    if (requests.every(([k]) => k in next)) onSend({ inputResponses: next, ...(answer.requestState !== undefined ? { requestState: answer.requestState } : {}) });
  };
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-800">
        The tool asks before it goes on (round {answer.round ?? 1} of at most 5). Your answers are sent to the app and never stored.
      </p>
      {answer.questionsCut !== undefined && (
        <p role="note" className="text-sm text-amber-900">
          {answer.questionsCut.message}
        </p>
      )}
      {requests.map(([key, request]) =>
        key in given ? (
          <p key={key} className="text-sm text-slate-700">
            Answered: <span className="font-mono">{key}</span>
          </p>
        ) : (
          <Question key={key} name={key} request={request} pending={pending} onAnswer={(response) => give(key, response)} />
        ),
      )}
    </div>
  );
}

function Question({ name, request, pending, onAnswer }: { name: string; request: unknown; pending: boolean; onAnswer: (response: unknown) => void }) {
  const question = questionOf(request);
  const fields = useMemo(() => argumentFields(question?.schema), [question?.schema]);
  const schema = useMemo(() => tryFormSchema(fields, question?.schema), [fields, question?.schema]);
  const form = useForm<FieldValues>({ resolver: zodResolver(schema), defaultValues: emptyValues(fields) });
  const id = useId();
  const onSubmit = form.handleSubmit((values) => onAnswer({ action: "accept", content: argumentsOf(fields, values).arguments }));
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={`Question ${name}`} className="space-y-2 rounded border border-slate-200 bg-white p-3">
      <p className="text-sm font-medium text-slate-900">{question?.message ?? ""}</p>
      <div className="grid gap-3 md:grid-cols-2">
        {fields.map((field) => (
          <ArgumentInput key={field.key} field={field} id={`${id}-${field.key}`} form={form} />
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          Send the answer
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={() => onAnswer({ action: "decline" })}>
          Decline
        </Button>
      </div>
    </form>
  );
}
