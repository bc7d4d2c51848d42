import { logger } from "@/lib/log";

/** How many checks a history request answers by default, and at most. */
export const DEFAULT_HISTORY = 20;
export const MAX_HISTORY = 100;

/** Every answer names the whole list of an organisation's apps, and "re-check all" reads them all: their number bounds what one request costs. */
export const MAX_APPS_PER_ORG = 200;
/** A person may connect as many personal apps of their own, besides the organisation's (SPEC §12). */
export const MAX_PERSONAL_APPS = 100;
/** How many apps one organisation's "re-check all" may read in a minute, whoever asks: five re-checks of the largest organisation (lib/http/rate-limit.ts `spendRecheckAll`). */
export const RECHECK_ALL_READS_PER_MINUTE = 5 * MAX_APPS_PER_ORG;

/** The interval in milliseconds, or 0 when scheduled re-checks are off. */
export function recheckInterval(value = process.env.THEOREM_RECHECK_MINUTES): number {
  if (value === undefined || value.trim() === "") return 60 * 60_000;
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes < 0) {
    logger.warn({ value }, "THEOREM_RECHECK_MINUTES is not a number of minutes: checking every 60 minutes");
    return 60 * 60_000;
  }
  return Math.round(minutes * 60_000);
}


/**
 * Scheduled reads one instance's worker runs at once (THEOREM_RECHECK_READS_AT_ONCE, 5 by
 * default, 1 to 50): each waits mostly on its app, so on apps that answer slowly this, not the
 * CPU, sets how many re-checks an instance does a minute (docs/capacity.md).
 */
export function recheckReadsAtOnce(value = process.env.THEOREM_RECHECK_READS_AT_ONCE): number {
  if (value === undefined || value.trim() === "") return 5;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 50) {
    logger.warn({ value }, "THEOREM_RECHECK_READS_AT_ONCE is not a whole number from 1 to 50: running 5 reads at once");
    return 5;
  }
  return n;
}
