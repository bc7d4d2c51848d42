import { logger } from "@/lib/log";

/** How many checks a history request answers by default, and at most. */
export const DEFAULT_HISTORY = 20;
export const MAX_HISTORY = 100;

/** Every answer names the whole list of an organisation's apps, and "re-check all" reads them all: their number bounds what one request costs. */
export const MAX_APPS_PER_ORG = 200;
/** A person may connect as many personal apps of their own, besides the organisation's (SPEC §12). */
export const MAX_PERSONAL_APPS = 100;

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

