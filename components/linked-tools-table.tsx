"use client";

import { useSearchParams } from "next/navigation";
import { isFilter, ToolsTable, type ToolsView } from "@/components/tools-table";
import type { AppCheck } from "@/lib/schemas/check";

/** `?tool=3` → 3; anything else → null. */
function toolParam(value: string | null): number | null {
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** A link to a tool of an app: `?tool=` its listing index, with the table's search and filter if any. */
export function toolLink(path: string, tool: number | null, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (tool !== null) params.set("tool", String(tool));
  const query = params.toString();
  return query === "" ? path : `${path}?${query}`;
}

/**
 * The tools table whose search (`q`), filter (`show`) and open tool (`tool`) live in the
 * address, so a copied link opens the same view. The address is replaced, not pushed: typing
 * a search does not fill the history.
 */
export function LinkedToolsTable({ app, keep = {} }: { app: AppCheck; keep?: Record<string, string> }) {
  const params = useSearchParams();
  const show = params.get("show");
  const initial: Partial<ToolsView> = { q: params.get("q") ?? "", show: isFilter(show) ? show : "all", tool: toolParam(params.get("tool")) };
  const onViewChange = (view: ToolsView) => {
    const next = new URLSearchParams(keep);
    if (view.q.trim() !== "") next.set("q", view.q);
    if (view.show !== "all") next.set("show", view.show);
    if (view.tool !== null) next.set("tool", String(view.tool));
    const query = next.toString();
    window.history.replaceState(null, "", query === "" ? window.location.pathname : `${window.location.pathname}?${query}`);
  };
  return <ToolsTable app={app} initial={initial} onViewChange={onViewChange} />;
}
