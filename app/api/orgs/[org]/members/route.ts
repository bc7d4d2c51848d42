import { listMembers } from "@/lib/orgs/members";
import { withOrg } from "@/lib/auth/workspace";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/members: members with their role, and pending invitations. */
export const GET = withOrg("view", async ({ access }) => Response.json(await listMembers(access)));
