import { readJson } from "@/lib/api/body";
import { changeRole, removeMember } from "@/lib/orgs/members";
import { withOrg } from "@/lib/auth/workspace";
import { memberUpdate } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

type Params = { org: string; member: string };

/** PATCH /api/orgs/{org}/members/{member} {role}: leaders only; an organisation always keeps a leader. */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const { role } = await readJson(request, memberUpdate, 4096);
  return Response.json(await changeRole(access, params.member, role));
});

/** DELETE /api/orgs/{org}/members/{member}: 204; the member's personal apps here go with them. */
export const DELETE = withOrg<Params>("manage", async ({ params, access }) => {
  await removeMember(access, params.member);
  return new Response(null, { status: 204 });
});
