import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { requireActor } from "@/lib/auth/workspace";
import { previewToolToTry, previewTryOrg } from "@/lib/orgs/try";
import { previewToolRequest } from "@/lib/schemas/try";

export const dynamic = "force-dynamic";

/** POST /api/try/tool {url, headers?, tool}: one tool of a preview's URL, read live, for the try form (who may try only). */
export const POST = withErrors(async (request: Request) => {
  const actor = await requireActor(request.headers);
  await previewTryOrg(actor);
  const input = await readJson(request, previewToolRequest, 64 * 1024);
  return Response.json(await previewToolToTry(actor, input));
});
