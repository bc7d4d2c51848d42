import { withOrg } from "@/lib/auth/workspace";
import { personalApp } from "@/lib/orgs/lists";
import { removeApp } from "@/lib/orgs/connections";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** GET /api/orgs/{org}/me/apps/{app}: one of the caller's personal apps. */
export const GET = withOrg<Params>("personal", async ({ params, access }) => Response.json(await personalApp(orgContext(), access.org.slug, access.actor.id, params.app)));

/** DELETE /api/orgs/{org}/me/apps/{app}: 204 once the caller's personal app is removed (with its audit entry); an org app or someone else's is 404. */
export const DELETE = withOrg<Params>("personal", async ({ params, access }) => {
  await removeApp(orgContext(), access.org.slug, params.app, access.actor.id, access.actor);
  return new Response(null, { status: 204 });
});
