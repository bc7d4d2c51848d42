"use client";

import { useQuery } from "@tanstack/react-query";
import { formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { byRisk } from "@/lib/engine/risk-order";
import { changesQuery } from "@/lib/queries/orgs";
import type { Risk, SnapshotChange } from "@/lib/schemas/orgs";
import { RISK_WORDS, changeAnchor, effectText, fieldsText, shortHash, whyWords } from "./change-words";
import { wordDiff } from "./word-diff";

const RISK_TONES: Record<Risk, BadgeTone> = { high: "red", medium: "amber", low: "slate" };

/** A change's or a tool's risk (SPEC §20), first on its line. */
export function RiskBadge({ risk }: { risk: Risk }) {
  return <Badge tone={RISK_TONES[risk]}>{RISK_WORDS[risk]}</Badge>;
}

/** What changed in the app's listing, newest first: tools added, removed and changed, riskiest first, and what each change does for people. */
export function AppChanges({ org, appId }: { org: string; appId: string }) {
  const changes = useQuery(changesQuery(org, appId));
  return (
    <section aria-labelledby="changes-title" className="space-y-2">
      <h2 id="changes-title" className="text-lg font-semibold text-slate-900">
        Changes to its tools
      </h2>
      {changes.isPending ? (
        <Loading label="Loading the changes…" />
      ) : changes.isError ? (
        <LoadError what="The changes" error={changes.error} onRetry={() => void changes.refetch()} />
      ) : changes.data.changes.length === 0 ? (
        <p className="text-sm text-slate-700">Its tools have not changed since it was connected.</p>
      ) : (
        <ol aria-label="Changes, newest first" className="space-y-3">
          {changes.data.changes.map((change) => (
            <ChangeItem key={`${change.from}-${change.to}-${change.at}`} change={change} />
          ))}
        </ol>
      )}
    </section>
  );
}

type Changed = SnapshotChange["changed"][number];

/** A changed description, word by word: removed words struck through, added ones marked. */
function DescriptionDiff({ descriptions }: { descriptions: NonNullable<Changed["descriptions"]> }) {
  const parts = wordDiff(descriptions.from ?? "", descriptions.to ?? "");
  return (
    <p className="mt-1 rounded border border-slate-200 bg-slate-50 p-2 text-slate-800 whitespace-pre-wrap break-words">
      <span className="sr-only">Description, word by word: </span>
      {parts.map((part, i) =>
        part.op === "same" ? (
          <span key={i}>{part.text}</span>
        ) : part.op === "removed" ? (
          <del key={i} className="bg-rose-100 text-rose-900">
            {part.text}
          </del>
        ) : (
          <ins key={i} className="bg-emerald-100 text-emerald-900 no-underline">
            {part.text}
          </ins>
        ),
      )}
      {descriptions.cut && <span className="block text-xs text-slate-600">(the first 10,000 characters of each)</span>}
    </p>
  );
}

function ChangeItem({ change }: { change: SnapshotChange }) {
  const added = [...change.added].sort((a, b) => byRisk(a.risk, b.risk));
  const changed = [...change.changed].sort((a, b) => byRisk(a.risk, b.risk));
  return (
    <li id={changeAnchor(change.to)} tabIndex={-1} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm target:ring-2 target:ring-indigo-500">
      <p className="flex flex-wrap items-center gap-2 text-slate-800">
        {(change.added.length > 0 || change.changed.length > 0) && <RiskBadge risk={change.risk} />}
        <time dateTime={change.at}>{formatWhen(change.at)}</time>
        <span className="font-mono text-xs text-slate-600" title={`${change.from} → ${change.to}`}>
          <span className="sr-only">listing </span>
          {shortHash(change.from)} → {shortHash(change.to)}
        </span>
      </p>
      {added.length > 0 && (
        <p>
          <span className="font-medium text-emerald-900">Added:</span>{" "}
          {added.map((tool, i) => (
            <span key={tool.name}>
              {i > 0 && "; "}
              <span className="font-medium text-slate-900">{tool.name}</span> <RiskBadge risk={tool.risk} /> <span className="text-slate-700">{whyWords(tool.why)}</span>
            </span>
          ))}
        </p>
      )}
      {change.removed.length > 0 && (
        <p>
          <span className="font-medium text-rose-900">Removed:</span> {change.removed.map((t) => t.name).join(", ")}
        </p>
      )}
      {changed.length > 0 && (
        <ul aria-label="Tools changed" className="space-y-2">
          {changed.map((tool) => (
            <li key={tool.name}>
              <RiskBadge risk={tool.risk} /> <span className="text-slate-700">{whyWords(tool.why)}</span> —{" "}
              <span className="font-medium text-slate-900">{tool.name}</span>: its {fieldsText(tool.fields)} changed.
              {tool.effects.length > 0 && (
                <ul className="ml-4 list-disc text-slate-800">
                  {tool.effects.map((effect) => (
                    <li key={effect.what}>{effectText(effect)}</li>
                  ))}
                </ul>
              )}
              {tool.descriptions !== undefined && <DescriptionDiff descriptions={tool.descriptions} />}
              <span className="block font-mono text-xs text-slate-500">
                <span className="sr-only">fingerprint </span>
                {shortHash(tool.fingerprints.from)} → {shortHash(tool.fingerprints.to)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
