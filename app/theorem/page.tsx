import type { Metadata } from "next";
import { CopyButton } from "@/components/ui/copy-button";
import { resolveTheorem } from "@/lib/engine/theorem";

export const metadata: Metadata = { title: "Theorem's own names" };

/** Theorem's own connections and tools (config/theorem.json): the names no app can take. */
export default function TheoremNamesPage() {
  const { connections, tools } = resolveTheorem(undefined);
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Theorem&apos;s own names</h1>
        <p className="mt-1 text-slate-700">
          Theorem has connections and tools of its own. Their names are reserved: an app is never given one of them, and a tool of an app never takes one.
        </p>
      </div>
      <section aria-labelledby="connections" className="space-y-2">
        <h2 id="connections" className="scroll-mt-4 text-lg font-semibold text-slate-900">
          Own connections
        </h2>
        <p className="text-sm text-slate-700">
          Short names Theorem uses itself. An app whose short name would be one of these is named with <code className="font-mono">_2</code> after it: an
          app called Calendar is <code className="font-mono">calendar_2</code>, and its tools are <code className="font-mono">calendar_2_…</code>.
        </p>
        <NameList names={connections} what="connection" />
      </section>
      <section aria-labelledby="tools" className="space-y-2">
        <h2 id="tools" className="scroll-mt-4 text-lg font-semibold text-slate-900">
          Own tools
        </h2>
        <p className="text-sm text-slate-700">
          Whole names of the assistant&apos;s own tools. A tool of an app whose whole name would be one of these is left out, and the check says so.
        </p>
        <NameList names={tools} what="tool" />
      </section>
    </div>
  );
}

function NameList({ names, what }: { names: readonly string[]; what: string }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {names.map((name) => (
        <li key={name} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
          <code className="font-mono text-slate-900">{name}</code>
          <CopyButton text={name} label={`the ${what} name ${name}`} />
        </li>
      ))}
    </ul>
  );
}
