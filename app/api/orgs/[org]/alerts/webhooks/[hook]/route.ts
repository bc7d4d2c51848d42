import { readJson } from "@/lib/api/body";
import { changeWebhook, removeWebhook } from "@/lib/alerts/webhooks";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { webhookUpdate } from "@/lib/schemas/alerts";

export const dynamic = "force-dynamic";

/** PATCH /api/orgs/{org}/alerts/webhooks/{hook} {events?, on?} (leaders): its events, or switched on again after 24 h of failures switched it off (SPEC §28); audited. */
export const PATCH = withOrg<{ org: string; hook: string }>("manage", async ({ request, params, access }) => {
  const body = await readJson(request, webhookUpdate, 16_384);
  return Response.json(await changeWebhook(orgContext().db, access.org.slug, params.hook, body, access.actor));
});

/** DELETE /api/orgs/{org}/alerts/webhooks/{hook} (leaders): removes it with its delivery log; audited. 204. */
export const DELETE = withOrg<{ org: string; hook: string }>("manage", async ({ params, access }) => {
  await removeWebhook(orgContext().db, access.org.slug, params.hook, access.actor);
  return new Response(null, { status: 204 });
});
