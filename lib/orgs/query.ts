import { z } from "zod";
import { DEFAULT_HISTORY, MAX_HISTORY } from "./limits";

/** `?limit=` of a list request: `fallback` when absent, else 1 to `max` (a ZodError, so a 422, otherwise). */
export function limitParam(request: Request, fallback: number, max: number): number {
  const value = new URL(request.url).searchParams.get("limit");
  if (value === null || value === "") return fallback;
  return z.coerce
    .number({ error: "`limit` is a number." })
    .int("`limit` is a whole number.")
    .min(1, "`limit` is at least 1.")
    .max(max, `\`limit\` is at most ${max}.`)
    .parse(value);
}

/** `?limit=` of a history request: 1 to 100. */
export const historyLimit = (request: Request) => limitParam(request, DEFAULT_HISTORY, MAX_HISTORY);
