import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { getApp } from "@/lib/orgs/lists";
import { assertReadable, removeApp, updateApp } from "@/lib/orgs/connections";
import { orgContext } from "@/lib/orgs/context";
import { requireApp } from "@/lib/orgs/app-rows";
import { appUpdate } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** GET /api/orgs/{org}/apps/{app} */
export const GET = withOrg<Params>("view", async ({ params, access }) => Response.json(await getApp(orgContext(), access.org.slug, params.app, access.version)));

/** PATCH /api/orgs/{org}/apps/{app}: changes name, URL or header (leaders), then reads it again; what changed is in the audit log with it. */
export const PATCH = withOrg<Params>(
  "manage",
  async ({ request, params, access }) => {
    const ctx = orgContext();
    await requireApp(ctx.db, access.org.slug, params.app); // the app's 404 before its body is read
    const input = await readJson(request, appUpdate, 64 * 1024);
    if (input.url !== undefined) await assertReadable(input.url);
    return Response.json(await updateApp(ctx, access.org.slug, params.app, input, access.actor));
  },
  { reads: 1 },
);

/** DELETE /api/orgs/{org}/apps/{app}: 204 once removed with its audit entry (leaders); nothing is read. */
export const DELETE = withOrg<Params>("manage", async ({ params, access }) => {
  await removeApp(orgContext(), access.org.slug, params.app, null, access.actor);
  return new Response(null, { status: 204 });
});
