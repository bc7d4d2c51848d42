import { withErrors } from "@/lib/api/errors";
import { history } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/db";
import { historyLimit } from "@/lib/orgs/query";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/apps/{app}/checks?limit=N: the app's checks, newest first. */
export const GET = withErrors(async (request: Request, { params }: { params: Promise<{ org: string; app: string }> }) => {
  const { org, app } = await params;
  return Response.json({ checks: history(orgContext(), org, app, historyLimit(request)) });
});
