import { readJson } from "@/lib/api/body";
import { createWebhook, webhooksOf } from "@/lib/alerts/webhooks";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { webhookCreate } from "@/lib/schemas/alerts";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/alerts/webhooks (leaders): the hooks, never their secrets (SPEC §28). */
export const GET = withOrg("manage", async ({ access }) => Response.json({ webhooks: await webhooksOf(orgContext().db, access.org.slug) }));

/** POST /api/orgs/{org}/alerts/webhooks {url, events} (leaders): 201 with the signing secret, this once; a refused address is a 422 with the reason. */
export const POST = withOrg("manage", async ({ request, access }) => {
  const body = await readJson(request, webhookCreate, 16_384);
  return Response.json(await createWebhook(orgContext().db, access.org.slug, body, access.actor), { status: 201 });
});
