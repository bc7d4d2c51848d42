import { readJson } from "@/lib/api/body";
import { alertsOf, changeAlerts } from "@/lib/alerts/alerts";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { alertsUpdate } from "@/lib/schemas/alerts";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/alerts (every member): which events are told, to whom, how (SPEC §28). */
export const GET = withOrg("view", async ({ access }) => Response.json(await alertsOf(orgContext().db, access.org.slug)));

/** PATCH /api/orgs/{org}/alerts {events?, recipients?, channels?} (leaders): the change with its audit entry, in one transaction. */
export const PATCH = withOrg("manage", async ({ request, access }) => {
  const body = await readJson(request, alertsUpdate, 16_384);
  return Response.json(await changeAlerts(orgContext().db, access.org.slug, body, access.actor));
});
