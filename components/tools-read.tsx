"use client";

import { useSearchParams } from "next/navigation";
import { useState, type ReactNode } from "react";
import { plural } from "@/lib/plural";

/**
 * The tools of an unavailable app, one click away: they reach no one, so the reason above them
 * leads and the rows (every one "not listed") are not even drawn until asked for.
 */
export function ToolsRead({ count, open: initial = false, children }: { count: number; open?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(initial);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="rounded-lg border border-slate-200 bg-white">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-indigo-800 hover:bg-slate-50">
        {open ? "Hide" : "Show"} the {plural(count, "tool")} it listed (none reach the assistant until it is available)
      </summary>
      {open && <div className="border-t border-slate-200 p-3">{children}</div>}
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
