import { testWebhook } from "@/lib/alerts/webhooks";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/alerts/webhooks/{hook}/test (leaders): sends a signed test now; answers the attempt `{at, status, ms}` (SPEC §28). */
export const POST = withOrg<{ org: string; hook: string }>("manage", async ({ params, access }) => Response.json(await testWebhook(orgContext().db, access.org.slug, params.hook)));
