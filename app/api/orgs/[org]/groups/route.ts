import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { createGroup, groupsOf } from "@/lib/orgs/groups";
import { groupCreate } from "@/lib/schemas/groups";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/groups (SPEC §23; every member): `{"groups": [{id, name, members: [{id, email}]}]}`, by name. */
export const GET = withOrg("view", async ({ access }) => Response.json({ groups: await groupsOf(orgContext().db, access.org.slug) }));

/** POST /api/orgs/{org}/groups `{name, members?}` (leaders): 201 with the group; audited `group.created`. */
export const POST = withOrg("manage", async ({ request, access }) => {
  const input = await readJson(request, groupCreate, 256 * 1024);
  return Response.json(await createGroup(orgContext().db, access, input), { status: 201 });
});
