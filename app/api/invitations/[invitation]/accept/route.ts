import { withErrors } from "@/lib/api/errors";
import { acceptInvitation } from "@/lib/auth/members";
import { requireActor } from "@/lib/auth/workspace";

export const dynamic = "force-dynamic";

/** POST /api/invitations/{invitation}/accept: the signed-in invitee joins; answers `{org}`. */
export const POST = withErrors(async (request: Request, { params }: { params: Promise<{ invitation: string }> }) => {
  const actor = await requireActor(request.headers);
  const joined = await acceptInvitation(actor, (await params).invitation);
  return Response.json({ org: joined.org });
});
