import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { requireActor } from "@/lib/auth/workspace";
import { previewTryOrg, tryPreview } from "@/lib/orgs/try";
import { previewTryRequest } from "@/lib/schemas/try";

export const dynamic = "force-dynamic";

/**
 * POST /api/try {url, headers?, name?, org?, tool, arguments, asTyped?}: calls a tool of a preview's URL
 * (SPEC §14), as a leader or developer of some organisation: no account 401, support only 403.
 */
export const POST = withErrors(async (request: Request) => {
  const actor = await requireActor(request.headers);
  await previewTryOrg(actor); // 403 before the body is read, for an account that may try nowhere
  const input = await readJson(request, previewTryRequest, 1024 * 1024);
  return Response.json(await tryPreview(actor, input));
});
