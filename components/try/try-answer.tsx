import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";
import type { TryAnswer } from "@/lib/schemas/try";
import { contentLabel, contentText, figures, OUTCOMES, outcomeOf, refusedByDecision } from "./answer-words";
import { Alert } from "@/components/ui/alert";

/**
 * What a try answered (SPEC §14): how it went, its size against 16 MiB, its events against
 * 4 MiB and its time; then its content, every text as text (React escapes it: an answer's
 * HTML never becomes the page's), structured content as formatted JSON, the rest named with
 * its size. A refusal says why; one decided for the person trying (SPEC §25) was never sent, so
 * it has no figures. The tool's own error is shown as the tool's words. Arguments sent as typed
 * that did not fit the tool's schema (SPEC §27) are named.
 */
export function TryAnswerView({ answer, title }: { answer: TryAnswer; title: string }) {
  const outcome = outcomeOf(answer);
  const notSent = refusedByDecision(answer);
  return (
    <section aria-label={`Answer of ${title}`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="text-sm font-semibold text-slate-900">The answer</h4>
        <Badge tone={OUTCOMES[outcome].tone}>{OUTCOMES[outcome].label}</Badge>
      </div>
      {!notSent && (
        <dl className="grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[auto_1fr]">
          {figures(answer).map((f) => (
            <div key={f.label} className="contents">
              <dt className="text-slate-600">{f.label}</dt>
              <dd className={cn("text-slate-900", f.over && "font-semibold text-rose-800")}>{f.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {answer.notes !== undefined && answer.notes.length > 0 && (
        <div role="note" aria-label="Sent as typed" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          <p className="font-medium">Sent as typed, though these arguments do not fit the tool&apos;s schema:</p>
          <ul className="mt-1 list-disc pl-5">
            {answer.notes.map((note, i) => (
              <li key={i}>{note.message}</li>
            ))}
          </ul>
        </div>
      )}
      {answer.refused !== undefined && (
        <Alert title={notSent ? `Not called: nothing was sent to the app (${answer.refused.code})` : `The call was refused (${answer.refused.code})`}>{answer.refused.message}</Alert>
      )}
      {answer.outcome === "answered" && (
        <div className="space-y-2">
          <p className={cn("text-sm", answer.isError ? "font-medium text-amber-900" : "text-slate-700")}>
            {answer.isError ? "The tool answered with an error of its own (isError), in its words:" : answer.content.length === 0 ? "The tool answered with no content." : "What the tool answered:"}
          </p>
          <ul className="space-y-2" aria-label="Content of the answer">
            {answer.content.map((item, i) => {
              const text = contentText(item);
              return (
                <li key={i} className={cn("rounded border p-2", answer.isError ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-slate-50")}>
                  <p className="text-xs font-medium text-slate-700">{contentLabel(item)}</p>
                  {text !== null && (
                    <pre tabIndex={0} className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words font-mono text-xs text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
                      {text}
                    </pre>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}
