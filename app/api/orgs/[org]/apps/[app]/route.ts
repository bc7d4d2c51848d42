import { readJson } from "@/lib/api/body";
import { withErrors } from "@/lib/api/errors";
import { assertExists, getApp, removeApp, updateApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/db";
import { appUpdate } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ org: string; app: string }>;
}

/** GET /api/orgs/{org}/apps/{app} */
export const GET = withErrors(async (_request: Request, { params }: Context) => {
  const { org, app } = await params;
  return Response.json(getApp(orgContext(), org, app));
});

/** PATCH /api/orgs/{org}/apps/{app}: changes name, URL or header, then re-checks the organisation. */
export const PATCH = withErrors(async (request: Request, { params }: Context) => {
  const { org, app } = await params;
  const ctx = orgContext();
  assertExists(ctx, org, app);
  const input = await readJson(request, appUpdate, 64 * 1024);
  return Response.json(await updateApp(ctx, org, app, input));
});

/** DELETE /api/orgs/{org}/apps/{app}: 204 once removed and the others re-checked. */
export const DELETE = withErrors(async (_request: Request, { params }: Context) => {
  const { org, app } = await params;
  await removeApp(orgContext(), org, app);
  return new Response(null, { status: 204 });
});
