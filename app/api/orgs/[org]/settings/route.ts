import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { changeOrgSettings, orgSettingsOf } from "@/lib/orgs/settings";
import { orgSettingsUpdate } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/settings: `{newTools, riskyText}`. */
export const GET = withOrg("view", async ({ access }) => Response.json(await orgSettingsOf(orgContext().db, access.org.slug)));

/** PATCH /api/orgs/{org}/settings {newTools?, riskyText?} (leaders): each change with its audit entry, in one transaction. */
export const PATCH = withOrg("manage", async ({ request, access }) => {
  const update = await readJson(request, orgSettingsUpdate, 4096);
  return Response.json(await changeOrgSettings(orgContext().db, access.org.slug, update, access.actor));
});
