import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { peopleWithTokens } from "@/lib/orgs/people";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/people (SPEC §12): the members, `id`, `email`, `name`, `role`, with the tokens their assistant is sent and how far past the budget (SPEC §21). */
export const GET = withOrg("view", async ({ access }) => Response.json(await peopleWithTokens(orgContext(), access)));
