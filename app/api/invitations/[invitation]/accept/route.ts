import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { acceptInvitation } from "@/lib/orgs/members";
import { requireActor } from "@/lib/auth/workspace";
import { invitationAccept } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

/**
 * POST /api/invitations/{invitation}/accept {secret}: the signed-in invitee joins with the secret
 * of the invitation's link (SPEC §9); answers `{org}`.
 */
export const POST = withErrors(async (request: Request, { params }: { params: Promise<{ invitation: string }> }) => {
  const actor = await requireActor(request.headers);
  const { secret } = await readJson(request, invitationAccept, 4096);
  const joined = await acceptInvitation(actor, (await params).invitation, secret);
  return Response.json({ org: joined.org });
});
