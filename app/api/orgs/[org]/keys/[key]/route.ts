import { recordAudit } from "@/lib/audit/audit-log";
import { revokeKey } from "@/lib/auth/keys";
import { withOrg } from "@/lib/auth/workspace";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/{org}/keys/{key}: 204; the key stops working at once. */
export const DELETE = withOrg<{ org: string; key: string }>("view", async ({ params, access }) => {
  const revoked = await revokeKey(access, params.key);
  await recordAudit(getDb(), { org: access.org.slug, actor: access.actor, action: "key.revoked", details: { key: revoked.id, name: revoked.name } });
  return new Response(null, { status: 204 });
});
