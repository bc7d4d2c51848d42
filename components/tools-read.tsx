"use client";

import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";

/**
 * The tools of an unavailable app, one click away: they reach no one, so the reason above them
 * leads and the rows (every one "not listed") stay folded until asked for.
 */
export function ToolsRead({ count, open = false, children }: { count: number; open?: boolean; children: ReactNode }) {
  return (
    <details open={open} className="group rounded-lg border border-slate-200 bg-white">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-indigo-800 hover:bg-slate-50">
        <span className="group-open:hidden">Show</span>
        <span className="hidden group-open:inline">Hide</span> the {count.toLocaleString("en-US")} {count === 1 ? "tool" : "tools"} it listed (none reach the assistant
        until it is available)
      </summary>
      <div className="border-t border-slate-200 p-3">{children}</div>
    </details>
  );
}

/** As `ToolsRead`, open when the address names a tool (`?tool=`): a link to one of its tools lands on it. */
export function LinkedToolsRead({ count, children }: { count: number; children: ReactNode }) {
  const params = useSearchParams();
  return (
    <ToolsRead count={count} open={params.get("tool") !== null}>
      {children}
    </ToolsRead>
  );
}
