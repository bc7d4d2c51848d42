import { withErrors } from "@/lib/api/errors";
import { recheckApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/db";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/apps/{app}/check: re-checks the app (reading the whole organisation, for its names). */
export const POST = withErrors(async (_request: Request, { params }: { params: Promise<{ org: string; app: string }> }) => {
  const { org, app } = await params;
  return Response.json(await recheckApp(orgContext(), org, app));
});
