import type { NewTools } from "@/lib/schemas/orgs";
import type { SnapshotChanges } from "./changes";

/**
 * Review (SPEC §11, §20): which new and changed tools wait for a leader, by the mode in force
 * (`newTools`; a per-app setting passes its own mode here once resolved). `"available"`: none;
 * `"wait-for-review"`: every one; `"wait-if-risky"`: the high-risk ones only, the rest are
 * approved as read. A reworded description (low) passes; one that gains "ignore previous
 * instructions" (high) waits. Answers the names that wait.
 */
export function toolsThatWait(mode: NewTools, change: Pick<SnapshotChanges, "added" | "changed">): Set<string> {
  const tools = [...change.added, ...change.changed];
  switch (mode) {
    case "available":
      return new Set();
    case "wait-for-review":
      return new Set(tools.map((tool) => tool.name));
    case "wait-if-risky":
      return new Set(tools.filter((tool) => tool.risk === "high").map((tool) => tool.name));
    default: {
      const exhaustive: never = mode;
      return exhaustive;
    }
  }
}

/** Whether a mode holds any tool back, so that the check leaves out what is not approved. */
export const holdsBack = (mode: NewTools): boolean => mode !== "available";

/** Whether the mode's decision needs each change's risk (otherwise no change need be computed). */
export const needsRisk = (mode: NewTools): boolean => mode === "wait-if-risky";
