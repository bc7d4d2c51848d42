import { readJson } from "@/lib/api/body";
import { recordAudit } from "@/lib/audit/audit-log";
import { withOrg } from "@/lib/auth/workspace";
import { spendAppCheck } from "@/lib/http/rate-limit";
import { appFields, assertReadable, getApp, removeApp, updateApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { querySecrets } from "@/lib/orgs/redact";
import { appUpdate } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** GET /api/orgs/{org}/apps/{app} */
export const GET = withOrg<Params>("view", async ({ params, access }) => Response.json(await getApp(orgContext(), access.org.slug, params.app, access.version)));

/** PATCH /api/orgs/{org}/apps/{app}: changes name, URL or header (leaders), then reads it again. */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const ctx = orgContext();
  const before = await appFields(ctx, access.org.slug, params.app);
  const input = await readJson(request, appUpdate, 64 * 1024);
  if (input.url !== undefined) await assertReadable(input.url);
  await spendAppCheck(access);
  const after = await updateApp(ctx, access.org.slug, params.app, input);
  // Which fields changed, never the header's value nor a URL's query secret (the URLs as shown, `…` in their place).
  const changed = {
    ...(input.name !== undefined && input.name !== before.name ? { name: { from: before.name, to: after.name } } : {}),
    ...(input.url !== undefined && after.url !== before.url ? { url: { from: before.url, to: after.url } } : {}),
    ...(input.url !== undefined && after.url === before.url && querySecrets(input.url).length > 0 ? { urlSecrets: "given" } : {}),
    ...(input.header !== undefined ? { header: input.header === null ? "removed" : `set (${input.header.name})` } : {}),
    ...(before.header && after.header === null && input.header === undefined ? { header: "dropped: the app moved to another origin" } : {}),
  };
  await recordAudit(ctx.db, { org: access.org.slug, actor: access.actor, action: "app.edited", app: { id: after.id, name: after.name }, details: changed });
  return Response.json(after);
});

/** DELETE /api/orgs/{org}/apps/{app}: 204 once removed (leaders); nothing is read. */
export const DELETE = withOrg<Params>("manage", async ({ params, access }) => {
  const ctx = orgContext();
  const app = await appFields(ctx, access.org.slug, params.app);
  await removeApp(ctx, access.org.slug, params.app);
  await recordAudit(ctx.db, { org: access.org.slug, actor: access.actor, action: "app.removed", app: { id: app.id, name: app.name } });
  return new Response(null, { status: 204 });
});
