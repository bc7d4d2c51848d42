import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { listsIn } from "@/lib/orgs/lists";
import { orgContext } from "@/lib/orgs/context";
import { changeGroup, groupOf, removeGroup } from "@/lib/orgs/groups";
import { groupUpdate } from "@/lib/schemas/groups";
import { registryToggle } from "@/lib/schemas/registry";
import { REGISTRY_PATH, setGroupRegistry } from "@/lib/registry/store";
import { z } from "zod";

export const dynamic = "force-dynamic";

type Params = { org: string; group: string };

/** GET /api/orgs/{org}/groups/{group} (every member): `{id, name, members: [{id, email}], registry}`. */
export const GET = withOrg<Params>("view", async ({ params, access }) => Response.json(await groupOf(orgContext().db, access.org.slug, params.group)));

/**
 * PATCH …/groups/{group} `{name?, members?: [member ids]}` (leaders; `members` is the whole list), or
 * `{registry: true|false}` (SPEC §25: the group's own registry, as the organisation's settings turn
 * theirs, §24; its address answered once as `registryUrl`): audited `group.changed`.
 */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const { db } = orgContext();
  const body = await readJson(request, z.unknown(), 256 * 1024);
  if (typeof body === "object" && body !== null && "registry" in body) {
    const { registry } = registryToggle.parse(body);
    const { token } = await setGroupRegistry(db, access.org.slug, params.group, registry, access.actor);
    const registryUrl = token === null ? {} : { registryUrl: new URL(REGISTRY_PATH + token, process.env.THEOREM_URL ?? request.url).toString() };
    return Response.json({ ...(await groupOf(db, access.org.slug, params.group)), ...registryUrl });
  }
  return Response.json(await changeGroup(db, access, params.group, groupUpdate.parse(body), access.actor, listsIn));
});

/** DELETE …/groups/{group} (leaders): 204; its members, its place in apps' access and its tool settings go with it. Audited `group.removed`. */
export const DELETE = withOrg<Params>("manage", async ({ params, access }) => {
  await removeGroup(orgContext().db, access, params.group, access.actor, listsIn);
  return new Response(null, { status: 204 });
});
