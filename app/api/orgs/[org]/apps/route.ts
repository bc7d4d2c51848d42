import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { addApp, assertExists, listApps } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/db";
import { appCreate } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ org: string }>;
}

/** GET /api/orgs/{org}/apps: the apps in connection order, each with its latest check. */
export const GET = withErrors(async (_request: Request, { params }: Context) => {
  const { org } = await params;
  return Response.json(listApps(orgContext(), org));
});

/** POST /api/orgs/{org}/apps: connects an app; answers 201 once it (and the others) are checked. */
export const POST = withErrors(async (request: Request, { params }: Context) => {
  const { org } = await params;
  const ctx = orgContext();
  assertExists(ctx, org);
  const input = await readJson(request, appCreate, 64 * 1024);
  return Response.json(await addApp(ctx, org, input), { status: 201 });
});
