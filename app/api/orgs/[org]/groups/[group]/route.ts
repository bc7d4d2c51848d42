import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { changeGroup, groupOf, removeGroup } from "@/lib/orgs/groups";
import { groupUpdate } from "@/lib/schemas/groups";

export const dynamic = "force-dynamic";

type Params = { org: string; group: string };

/** GET /api/orgs/{org}/groups/{group} (every member): `{id, name, members: [{id, email}]}`. */
export const GET = withOrg<Params>("view", async ({ params, access }) => Response.json(await groupOf(orgContext().db, access.org.slug, params.group)));

/** PATCH …/groups/{group} `{name?, members?: [member ids]}` (leaders; `members` is the whole list): audited `group.changed`. */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const update = await readJson(request, groupUpdate, 256 * 1024);
  return Response.json(await changeGroup(orgContext().db, access, params.group, update));
});

/** DELETE …/groups/{group} (leaders): 204; its members, its place in apps' access and its tool settings go with it. Audited `group.removed`. */
export const DELETE = withOrg<Params>("manage", async ({ params, access }) => {
  await removeGroup(orgContext().db, access, params.group);
  return new Response(null, { status: 204 });
});
