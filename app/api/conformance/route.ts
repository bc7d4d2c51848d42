import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { requireActor } from "@/lib/auth/workspace";
import { runPreviewConformance } from "@/lib/orgs/conformance";
import { orgAllowing } from "@/lib/orgs/members";
import { conformanceRequest } from "@/lib/schemas/conformance";

export const dynamic = "force-dynamic";
/** A run is bounded at 5 minutes (SPEC §27); the answer waits for it. */
export const maxDuration = 330;

/**
 * POST /api/conformance {url, headers?, org?}: runs the official conformance suite's server
 * scenarios against a preview's URL (SPEC §27), as a leader or developer of some organisation
 * (running calls tools): no account 401, support only 403; a check plus one for the app from the
 * account's budget (SPEC §10, 429 past it); the result is answered, not kept.
 */
export const POST = withErrors(async (request: Request) => {
  const actor = await requireActor(request.headers);
  await orgAllowing(actor, "try"); // 403 before the body is read, for an account that may try nowhere
  const input = await readJson(request, conformanceRequest, 64 * 1024);
  return Response.json(await runPreviewConformance(actor, input));
});
