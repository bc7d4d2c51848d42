import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { approveApp } from "@/lib/orgs/connections";
import { orgContext } from "@/lib/orgs/context";
import { auditingExports } from "@/lib/orgs/export-changes";
import { approveRequest } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/apps/{app}/approve: `{}` approves every tool of the newest read, `{"tools": [names]}` those (leaders), with its audit entry (naming the hosts whose files it alters, SPEC §26). */
export const POST = withOrg<{ org: string; app: string }>("manage", async ({ request, params, access }) => {
  const { tools } = await readJson(request, approveRequest, 1024 * 1024);
  const ctx = orgContext();
  const { app } = await approveApp(ctx, access.org.slug, params.app, access.actor, tools, (work) => auditingExports(ctx, access.org.slug, work));
  return Response.json(app);
});
