/**
 * The process's cache budget (issue 53), read from `THEOREM_CACHE_MIB` without a logger, so the
 * worker threads and the CLI, which count tokens, do not load one to read it (lib/cache/caches.ts warns).
 */

const MIB = 2 ** 20;
/** The default budget, in MiB: an eighth of a 2-core / 4 GiB instance's memory, leaving the rest to the heaps of Next and of the engine's worker threads. */
export const CACHE_MIB_DEFAULT = 512;
export const CACHE_MIB_LEAST = 16;
/** The share of the budget kept as token counts in shared memory (lib/cache/token-counts.ts). */
const COUNTS_SHARE = 1 / 8;

/** `THEOREM_CACHE_MIB` in bytes (whole MiB, at least 16), or null when it is set to something else. */
export function cacheBudgetOf(value = process.env.THEOREM_CACHE_MIB): number | null {
  if (value === undefined || value.trim() === "") return CACHE_MIB_DEFAULT * MIB;
  const n = Number(value);
  return Number.isInteger(n) && n >= CACHE_MIB_LEAST ? n * MIB : null;
}

/** The budget's share kept as token counts, and the rest, which the named caches share. */
export function budgetShares(budget: number): { counts: number; caches: number } {
  const counts = Math.floor(budget * COUNTS_SHARE);
  return { counts, caches: budget - counts };
}
