import { formatCount } from "@/lib/engine/listing-size";
import type { HistoryEntry } from "@/lib/schemas/orgs";

/** How a history entry's run is told: one check, or how many and over what span. */
export function runText(entry: Pick<HistoryEntry, "count">): string {
  return entry.count === 1 ? "1 check" : `${formatCount(entry.count)} checks`;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** What an entry changed from the run before it, in a line; "Unchanged" when nothing did. */
export function changeText(change: HistoryEntry["change"]): string {
  if (change === null) return "Unchanged";
  const parts: string[] = [];
  if (change.status !== null) parts.push(change.status.to === "available" ? "Available again" : "Became unavailable");
  else if (change.reason) parts.push("Another reason");
  const tools = [
    change.added > 0 ? `${plural(change.added, "tool", "tools")} added` : null,
    change.removed > 0 ? `${plural(change.removed, "tool", "tools")} removed` : null,
    change.changed > 0 ? `${plural(change.changed, "tool", "tools")} changed` : null,
  ].filter((p): p is string => p !== null);
  parts.push(...tools);
  if (change.chars !== null) parts.push(`size ${formatCount(change.chars.from)} → ${formatCount(change.chars.to)} characters`);
  return parts.length === 0 ? "Unchanged" : parts.join("; ");
}
