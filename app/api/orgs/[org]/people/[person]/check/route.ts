import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { personCheck, scopeOf } from "@/lib/orgs/people";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/people/{id}/check (SPEC §12): what that member's assistant has, named over their own list. */
export const GET = withOrg<{ org: string; person: string }>("view", async ({ params, access }) => Response.json(await personCheck(orgContext(), await scopeOf(access, params.person), access.version)));
