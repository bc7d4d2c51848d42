import { readJson } from "@/lib/api/body";
import { invite, listMembers } from "@/lib/orgs/members";
import { withOrg } from "@/lib/auth/workspace";
import { invitationCreate } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/invitations: the pending ones. */
export const GET = withOrg("view", async ({ access }) => Response.json({ invitations: (await listMembers(access)).invitations }));

/** POST /api/orgs/{org}/invitations {email, role}: 201 with the link (mailed when SMTP is set, else in the server log). */
export const POST = withOrg("manage", async ({ request, access }) => {
  const input = await readJson(request, invitationCreate, 4096);
  return Response.json(await invite(access, input), { status: 201 });
});
