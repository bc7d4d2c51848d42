import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { runCheck } from "@/lib/check/run";
import { checkRequest } from "@/lib/schemas/check";

export const dynamic = "force-dynamic";

/** POST /api/check (SPEC §8): the check of a person's apps, given inline or by URL. */
export const POST = withErrors(async (request: Request) => {
  const body = await readJson(request, checkRequest);
  return Response.json(await runCheck(body));
});
