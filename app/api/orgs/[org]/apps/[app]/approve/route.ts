import { readJson } from "@/lib/api/body";
import { recordAudit } from "@/lib/audit/audit-log";
import { withOrg } from "@/lib/auth/workspace";
import { approveApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { approveRequest } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/apps/{app}/approve: `{}` approves every tool of the newest read, `{"tools": [names]}` those (leaders). */
export const POST = withOrg<{ org: string; app: string }>("manage", async ({ request, params, access }) => {
  const ctx = orgContext();
  const { tools } = await readJson(request, approveRequest, 1024 * 1024);
  const { app, approved, snapshot } = await approveApp(ctx, access.org.slug, params.app, access.actor.id, tools);
  await recordAudit(ctx.db, {
    org: access.org.slug,
    actor: access.actor,
    action: "changes.approved",
    app: { id: app.id, name: app.name },
    details: { tools: approved.length > 50 ? `${approved.length} tools` : approved, snapshot },
  });
  return Response.json(app);
});
