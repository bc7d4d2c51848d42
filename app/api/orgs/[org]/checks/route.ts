import { withErrors } from "@/lib/api/errors";
import { history, recheckOrg } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/db";
import { historyLimit } from "@/lib/orgs/query";

export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ org: string }>;
}

/** GET /api/orgs/{org}/checks?limit=N: the checks of every app, newest first. */
export const GET = withErrors(async (request: Request, { params }: Context) => {
  const { org } = await params;
  return Response.json({ checks: history(orgContext(), org, undefined, historyLimit(request)) });
});

/** POST /api/orgs/{org}/checks: re-checks every app; answers the list. */
export const POST = withErrors(async (_request: Request, { params }: Context) => {
  const { org } = await params;
  return Response.json(await recheckOrg(orgContext(), org));
});
