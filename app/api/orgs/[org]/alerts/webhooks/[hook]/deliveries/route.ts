import { attemptsOf } from "@/lib/alerts/webhooks";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/alerts/webhooks/{hook}/deliveries (leaders): each attempt, newest first, `{at, status, ms}` (SPEC §28). */
export const GET = withOrg<{ org: string; hook: string }>("manage", async ({ params, access }) => Response.json({ deliveries: await attemptsOf(orgContext().db, access.org.slug, params.hook) }));
