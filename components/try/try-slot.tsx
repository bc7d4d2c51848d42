"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { TrySource } from "@/lib/queries/try";
import type { ToolCheck } from "@/lib/schemas/check";
import { TryPanel } from "./try-panel";

/**
 * Where the tools on a page may be tried (SPEC §14): given by a page for leaders and developers
 * only, so the tools table shows a Try control where it is given and nothing where it is not
 * (support sees none).
 */
const TrySourceContext = createContext<TrySource | null>(null);

/** Lets the tools below be tried through `source` (null: no Try control). A server page may render it around client views. */
export function TrySourceProvider({ source, children }: { source: TrySource | null; children: ReactNode }) {
  return <TrySourceContext.Provider value={source}>{children}</TrySourceContext.Provider>;
}

/**
 * The Try control of one tool, in its details, when the page allows trying; `idle` (the tool's
 * sample card) is shown while no try is open, and where there is no Try control.
 */
export function TrySlot({ tool, idle = null }: { tool: ToolCheck; idle?: ReactNode }) {
  const source = useContext(TrySourceContext);
  if (source === null || tool.name === null) return <>{idle}</>;
  return <TryPanel source={source} tool={tool.name} title={tool.title} idle={idle} />;
}
