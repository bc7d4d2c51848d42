import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { approveApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { approveRequest } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/apps/{app}/approve: `{}` approves every tool of the newest read, `{"tools": [names]}` those (leaders), with its audit entry. */
export const POST = withOrg<{ org: string; app: string }>("manage", async ({ request, params, access }) => {
  const { tools } = await readJson(request, approveRequest, 1024 * 1024);
  const { app } = await approveApp(orgContext(), access.org.slug, params.app, access.actor, tools);
  return Response.json(app);
});
