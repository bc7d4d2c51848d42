import { z } from "zod";
import { DEFAULT_HISTORY, MAX_HISTORY } from "./limits";

const limit = z.coerce
  .number({ error: "`limit` is a number." })
  .int("`limit` is a whole number.")
  .min(1, "`limit` is at least 1.")
  .max(MAX_HISTORY, `\`limit\` is at most ${MAX_HISTORY}.`);

/** `?limit=` of a history request (a ZodError, so a 422, when it is not 1 to 100). */
export function historyLimit(request: Request): number {
  const value = new URL(request.url).searchParams.get("limit");
  return value === null || value === "" ? DEFAULT_HISTORY : limit.parse(value);
}
