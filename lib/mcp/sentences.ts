import { formatCount } from "@/lib/engine/listing-size";
import { plural } from "@/lib/plural";
import type { Unavailable } from "@/lib/schemas/check";

// The pieces of the one-sentence reasons the reader and the tool call give (SPEC §7, §14).

/** `3 s`, `0.25 s`: a deadline as the sentences name it. */
export const seconds = (ms: number) => `${formatCount(ms / 1000)} s`;

/** `1 tool`, `1,200 tools`. */
/** A count with its noun (lib/plural.ts: one rule for every count). */
export const count = (n: number, one: string, many: string) => plural(n, one, many);

/** An app's own words, cut so that a sentence stays one. */
export const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Nothing listens at `where` (`host:port`): the reason a refused connection (ECONNREFUSED) gives. */
export const refusedReason = (where: string) => `nothing answers at ${where} (connection refused)`;

/**
 * Whether `app`'s reason says its connection was refused (`refusedReason`), not that it timed out
 * or failed otherwise: anchored at the start of the reason, which the reader writes itself, so an
 * app's own text cannot pass for it.
 */
export function connectionRefused(app: string, unavailable: Unavailable | null): boolean {
  if (unavailable?.code !== "connect-failed") return false;
  const prefix = `${app} is unavailable: `;
  if (!unavailable.message.startsWith(prefix)) return false;
  return /^nothing answers at \S+ \(connection refused\)\.$/.test(unavailable.message.slice(prefix.length));
}
