import { readJson } from "@/lib/api/body";
import { recordAudit } from "@/lib/audit/audit-log";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { setReviewMode } from "@/lib/orgs/review";
import { newToolsOf } from "@/lib/orgs/store";
import { orgSettingsUpdate } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/settings: `{newTools}`. */
export const GET = withOrg("view", async ({ access }) => Response.json({ newTools: await newToolsOf(orgContext().db, access.org.slug) }));

/** PATCH /api/orgs/{org}/settings {newTools} (leaders). Turning review on approves what every app lists now; "wait-if-risky" lets through what is not high risk. */
export const PATCH = withOrg("manage", async ({ request, access }) => {
  const { db } = orgContext();
  const { newTools } = await readJson(request, orgSettingsUpdate, 4096);
  const before = await newToolsOf(db, access.org.slug);
  await setReviewMode(db, access.org.slug, newTools, access.actor.id);
  if (before !== newTools) await recordAudit(db, { org: access.org.slug, actor: access.actor, action: "settings.changed", details: { newTools: { from: before, to: newTools } } });
  return Response.json({ newTools });
});
