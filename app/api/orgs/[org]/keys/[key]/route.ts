import { revokeKey } from "@/lib/auth/keys";
import { withOrg } from "@/lib/auth/workspace";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/{org}/keys/{key}: 204; the key stops working at once (revoked and audited together). */
export const DELETE = withOrg<{ org: string; key: string }>("view", async ({ params, access }) => {
  await revokeKey(access, params.key);
  return new Response(null, { status: 204 });
});
