import { withErrors } from "@/lib/api/errors";
import { recordAudit } from "@/lib/audit/log";
import { acceptInvitation } from "@/lib/auth/members";
import { requireActor } from "@/lib/auth/workspace";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** POST /api/invitations/{invitation}/accept: the signed-in invitee joins; answers `{org}`. */
export const POST = withErrors(async (request: Request, { params }: { params: Promise<{ invitation: string }> }) => {
  const actor = await requireActor(request.headers);
  const joined = await acceptInvitation(request.headers, (await params).invitation);
  await recordAudit(getDb(), { org: joined.org, actor, action: "member.joined", member: { id: joined.memberId, email: actor.email }, details: { role: joined.role } });
  return Response.json({ org: joined.org });
});
