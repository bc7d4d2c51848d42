import { formatCount } from "@/lib/engine/listing-size";
import { plural } from "@/lib/plural";

// The pieces of the one-sentence reasons the reader and the tool call give (SPEC §7, §14).

/** `3 s`, `0.25 s`: a deadline as the sentences name it. */
export const seconds = (ms: number) => `${formatCount(ms / 1000)} s`;

/** `1 tool`, `1,200 tools`. */
/** A count with its noun (lib/plural.ts: one rule for every count). */
export const count = (n: number, one: string, many: string) => plural(n, one, many);

/** An app's own words, cut so that a sentence stays one. */
export const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);
