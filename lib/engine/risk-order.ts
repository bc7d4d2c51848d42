import type { Risk } from "@/lib/schemas/orgs";

const RANK: Record<Risk, number> = { high: 0, medium: 1, low: 2 };

/** Orders risks highest first (SPEC §20): sort by it to show the riskiest on top. */
export const byRisk = (a: Risk, b: Risk) => RANK[a] - RANK[b];

/** The highest of some risks; "low" for none. */
export function highestRisk(risks: Iterable<Risk>): Risk {
  let top: Risk = "low";
  for (const risk of risks) if (RANK[risk] < RANK[top]) top = risk;
  return top;
}
