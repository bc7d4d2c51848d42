import { formatCount } from "@/lib/engine/listing-size";
import { plural } from "@/lib/plural";
import type { HistoryEntry } from "@/lib/schemas/orgs";

/** How a history entry's run is told: one check, or how many and over what span. */
export function runText(entry: Pick<HistoryEntry, "count">): string {
  return plural(entry.count, "check");
}

/**
 * Where an entry stands: after another one shown (`later`), the app's very first check
 * (`first`), or the oldest shown of a longer history (`oldest-shown`).
 */
export type HistoryPlace = "later" | "first" | "oldest-shown";

/** What an entry changed from the run before it, in a line; "Unchanged" when nothing did, "First check" for the first. */
export function changeText(change: HistoryEntry["change"], place: HistoryPlace = "later"): string {
  if (place === "first") return "First check";
  if (change === null) return place === "oldest-shown" ? "Earlier checks not shown" : "Unchanged";
  const parts: string[] = [];
  if (change.status !== null) parts.push(change.status.to === "available" ? "Available again" : "Became unavailable");
  else if (change.reason) parts.push("Another reason");
  const tools = [
    change.added > 0 ? `${plural(change.added, "tool")} added` : null,
    change.removed > 0 ? `${plural(change.removed, "tool")} removed` : null,
    change.changed > 0 ? `${plural(change.changed, "tool")} changed` : null,
  ].filter((p): p is string => p !== null);
  parts.push(...tools);
  if (change.chars !== null) parts.push(`size ${formatCount(change.chars.from)} → ${formatCount(change.chars.to)} characters`);
  return parts.length === 0 ? "Unchanged" : parts.join("; ");
}
