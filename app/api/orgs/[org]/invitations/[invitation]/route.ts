import { cancelInvitation } from "@/lib/orgs/members";
import { withOrg } from "@/lib/auth/workspace";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/{org}/invitations/{invitation}: 204 once cancelled. */
export const DELETE = withOrg<{ org: string; invitation: string }>("manage", async ({ params, access }) => {
  await cancelInvitation(access, params.invitation);
  return new Response(null, { status: 204 });
});
