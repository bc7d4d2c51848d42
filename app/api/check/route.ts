import { readJson } from "@/lib/api/body";
import { ApiError, withErrors } from "@/lib/api/errors";
import { actorFrom } from "@/lib/auth/workspace";
import { runCheck } from "@/lib/check/run";
import { getDb } from "@/lib/db/client";
import { checkCost, clientAddress, spendChecks } from "@/lib/http/rate-limit";
import { checkRequest } from "@/lib/schemas/check";

export const dynamic = "force-dynamic";

/**
 * POST /api/check (SPEC §8): the check of a person's apps, given inline or by URL. Inline
 * listings need no account (the preview); reading any app by URL needs a session or an API key.
 */
export const POST = withErrors(async (request: Request) => {
  const body = await readJson(request, checkRequest);
  const urlApps = body.apps.filter((app) => app.url !== undefined).length;
  const actor = await actorFrom(request.headers);
  if (urlApps > 0 && actor === null) throw new ApiError("unauthorized", "Reading an app by URL needs an account: sign in, or send an API key as x-api-key.");
  await spendChecks(getDb(), actor === null ? { address: clientAddress(request.headers) } : { account: actor.id }, checkCost(urlApps));
  return Response.json(await runCheck(body));
});
