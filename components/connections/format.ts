import { connectionRefused } from "@/lib/mcp/sentences";
import type { Unavailable } from "@/lib/schemas/check";

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });

/** A stored ISO time as people read it (in the browser's time zone). */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** When the scheduled re-check comes, as people say it: "in 41 min", "in 2 h 5 min", "due now"; "not scheduled" without one. */
export function nextCheckText(iso: string | null, now: number): string {
  if (iso === null) return "not scheduled";
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return "not scheduled";
  if (ms <= 30_000) return "due now";
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "in less than a minute";
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `in ${hours} h` : `in ${hours} h ${minutes % 60} min`;
}

/** Why the next check is when it is (SPEC §18), after `nextCheckText`: ", as the app asked". */
export function nextCheckWhyText(why: "interval" | "app-asked" | "back-off" | null | undefined, failedReads = 0): string {
  switch (why) {
    case "app-asked":
      return ", as the app asked (its list stays valid that long)";
    case "back-off":
      return `, later than usual: its last ${failedReads === 1 ? "read" : `${failedReads} reads`} failed`;
    case "interval":
    case null:
    case undefined:
      return "";
    default: {
      const never: never = why;
      return never;
    }
  }
}

/**
 * A listing's size against its bound, in words (SPEC §7): "12,400 of 250,000 characters",
 * "296,000 of 250,000 characters · over the limit", and for a listing whose reading stopped past
 * the bound, where it stopped, which is no size: no "more than N of 250,000", no share of the bound.
 */
export function listingSizeWords(listing: { chars: number; limit: number; stopped: boolean }): string {
  const chars = listing.chars.toLocaleString("en-US");
  const limit = listing.limit.toLocaleString("en-US");
  if (listing.stopped) return `reading stopped at ${chars} characters, past the limit of ${limit} · over the limit`;
  return `${chars} of ${limit} characters${listing.chars > listing.limit ? " · over the limit" : ""}`;
}

/**
 * The timings of a check that has none, in words: why nothing was measured, as its reason says
 * (SPEC §7). A refused connection is not a slow one: "the connection was refused" is not "did not
 * finish connecting", which only a connect deadline passed says.
 */
export function noTimingsWords(app: string, unavailable: Unavailable | null): string {
  if (unavailable === null) return "not measured";
  switch (unavailable.code) {
    case "connect-timeout":
      return "none: it did not finish connecting";
    case "address-refused":
      return "none: its address is refused, so it was not contacted";
    case "auth-required":
      return "none: it asks for sign-in before it can be read";
    case "connect-failed":
      return connectionRefused(app, unavailable) ? "none: the connection was refused (nothing listens at its address)" : "none: connecting to it failed";
    case "list-timeout":
    case "listing-too-large":
    case "invalid-listing":
      return "none: it could not be read";
    default: {
      const never: never = unavailable.code;
      return never;
    }
  }
}
