import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { personSeesBody } from "@/lib/orgs/people";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/people/{person}/sees (SPEC §21): the tools that person's assistant is sent, in characters and o200k_base tokens; `me` for the caller. */
export const GET = withOrg<{ org: string; person: string }>(
  "view",
  async ({ params, access }) => new Response(await personSeesBody(orgContext(), access, params.person), { headers: { "content-type": "application/json" } }),
);
