"use client";

import { useId, useState } from "react";
import { renderValue } from "@/lib/engine/approval-card";
import type { ApprovalCard } from "@/lib/schemas/check";
import { sampleFor, withSample, type Samples } from "./approval-card-samples";

/**
 * The approval card as the person would see it, with a sample value per line that the
 * viewer may edit (rendered on one line and cut exactly as the card does).
 */
export function ApprovalCardPreview({ card, editable = true }: { card: ApprovalCard; editable?: boolean }) {
  const [samples, setSamples] = useState<Samples>({});
  const id = useId();
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <figure aria-label={`Approval card: ${card.title}`} className="rounded-xl border border-slate-300 bg-white p-4 shadow">
        <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-600">The assistant asks</figcaption>
        <p className="mt-1 font-semibold text-slate-900">{card.title}</p>
        {card.lines.length === 0 ? (
          <p className="mt-2 text-sm italic text-slate-600">No argument lines: the person sees only the title.</p>
        ) : (
          <dl className="mt-2 space-y-1 text-sm">
            {card.lines.map((line) => (
              <div key={line.argument} className="flex gap-1 break-all">
                <dt className="font-medium text-slate-700">{line.label}:</dt>
                <dd className="text-slate-900">{renderValue(sampleFor(samples, line.argument) ?? line.value ?? "…")}</dd>
              </div>
            ))}
          </dl>
        )}
        <div className="mt-3 flex gap-2 text-sm" aria-hidden="true">
          <span className="rounded bg-indigo-700 px-3 py-1 text-white">Allow</span>
          <span className="rounded border border-slate-300 px-3 py-1">Deny</span>
        </div>
      </figure>
      <div className="space-y-2 text-sm">
        {editable && card.lines.length > 0 && (
          <fieldset className="space-y-2">
            <legend className="font-medium text-slate-800">Sample arguments</legend>
            {card.lines.map((line) => (
              <label key={line.argument} htmlFor={`${id}-${line.argument}`} className="block">
                <span className="font-mono text-xs text-slate-700">{line.argument}</span>
                {line.values !== undefined ? (
                  // An argument that allows only some values: one of them, as the app would be called.
                  <select
                    id={`${id}-${line.argument}`}
                    className="mt-0.5 block w-full rounded border border-slate-300 bg-white px-2 py-1"
                    value={sampleFor(samples, line.argument) ?? ""}
                    onChange={(e) => setSamples((s) => withSample(s, line.argument, e.target.value))}
                  >
                    <option value="">(no sample)</option>
                    {line.values.map((value, i) => (
                      <option key={i} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={`${id}-${line.argument}`}
                    className="mt-0.5 block w-full rounded border border-slate-300 px-2 py-1"
                    value={sampleFor(samples, line.argument) ?? ""}
                    placeholder={line.value ?? `A value for ${line.label}`}
                    onChange={(e) => setSamples((s) => withSample(s, line.argument, e.target.value))}
                  />
                )}
              </label>
            ))}
          </fieldset>
        )}
        {card.hiddenIds.length > 0 && (
          <p className="text-slate-700">
            Left off the card as IDs: <span className="font-mono">{card.hiddenIds.join(", ")}</span>
          </p>
        )}
        {card.cut.length > 0 && (
          <p className="text-amber-900">
            Past eight lines, hidden: <span className="font-mono">{card.cut.join(", ")}</span>
          </p>
        )}
      </div>
    </div>
  );
}
