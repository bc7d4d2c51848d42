import { formatCount } from "@/lib/engine/listing-size";
import { plural } from "@/lib/plural";
import type { AppCheck, ListingCache } from "@/lib/schemas/check";

// How an app's protocol revision and cache hint are said (SPEC §18), the same on the app page and in
// the CLI: "2026-07-28 · list valid 10 min, the same for everyone".

/** A duration as a person reads it: `45 s`, `10 min`, `1.5 h`, `1 day`. */
export function durationWords(ms: number): string {
  if (ms < 60_000) return `${formatCount(Math.round(ms / 1000))} s`;
  if (ms < 3_600_000) return `${formatCount(Math.round(ms / 60_000))} min`;
  if (ms < 86_400_000) return `${formatCount(Math.round(ms / 360_000) / 10)} h`;
  const days = Math.round(ms / 8_640_000) / 10;
  return plural(days, "day");
}

/** What the hint says: how long the list stays valid, and whether it is the same for everyone. */
export function cacheWords(cache: ListingCache): string {
  const valid = cache.ttlMs > 0 ? `list valid ${durationWords(cache.ttlMs)}` : "list not to be kept";
  const whom = cache.scope === "public" ? "the same for everyone" : "private: the app may list other tools for other credentials";
  return `${valid}, ${whom}`;
}

/** The revision and the hint in one line; null when the app was given inline or never reached. */
export function protocolWords(app: Pick<AppCheck, "protocol" | "listing">): string | null {
  if (app.protocol === null) return null;
  return app.listing.cache === null ? app.protocol : `${app.protocol} · ${cacheWords(app.listing.cache)}`;
}
