import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { lookUpFor } from "@/lib/orgs/people";
import { lookupQuery } from "@/lib/schemas/people";

export const dynamic = "force-dynamic";

/**
 * GET /api/orgs/{org}/lookup?q=…[&person=…] (SPEC §12, §25): tools by whole name, listed name or
 * title, and why a whole name is missing, for the person asking, or (leaders and support) another.
 */
export const GET = withOrg("view", async ({ request, access }) => {
  const query = lookupQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await lookUpFor(orgContext(), access, query.person, query.q));
});
