import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { planIn, scopeOf } from "@/lib/orgs/people";
import { planRequest } from "@/lib/schemas/people";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/plan (SPEC §13): which calls run at the same time and which alone, in order. */
export const POST = withOrg("view", async ({ request, access }) => {
  const input = await readJson(request, planRequest, 1024 * 1024);
  return Response.json(await planIn(orgContext(), await scopeOf(access, input.person), input.calls, access.version));
});
