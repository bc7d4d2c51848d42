import { readJson } from "@/lib/api/body";
import { recordAudit } from "@/lib/audit/log";
import { changeRole, findMember, removeMember } from "@/lib/auth/members";
import { withOrg } from "@/lib/auth/workspace";
import { getDb } from "@/lib/db/client";
import { removePersonalApps } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { memberUpdate } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

type Params = { org: string; member: string };

/** PATCH /api/orgs/{org}/members/{member} {role}: leaders only; an organisation always keeps a leader. */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const { role } = await readJson(request, memberUpdate, 4096);
  const before = await findMember(access, params.member);
  const changed = await changeRole(request.headers, access, params.member, role);
  await recordAudit(getDb(), { org: access.org.slug, actor: access.actor, action: "member.role-changed", member: { id: changed.id, email: changed.email }, details: { from: before.role, to: role } });
  return Response.json(changed);
});

/** DELETE /api/orgs/{org}/members/{member}: 204; the member's personal apps here go with them. */
export const DELETE = withOrg<Params>("manage", async ({ request, params, access }) => {
  const removed = await removeMember(request.headers, access, params.member);
  await removePersonalApps(orgContext(), access.org.slug, removed.userId);
  await recordAudit(getDb(), { org: access.org.slug, actor: access.actor, action: "member.removed", member: { id: removed.id, email: removed.email }, details: { role: removed.role } });
  return new Response(null, { status: 204 });
});
