import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { listsIn } from "@/lib/orgs/lists";
import { orgContext } from "@/lib/orgs/context";
import { appSettingsOf, changeAppSettings } from "@/lib/orgs/settings";
import { appSettingsUpdate } from "@/lib/schemas/settings";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** GET /api/orgs/{org}/me/apps/{app}/settings (SPEC §19): the caller's own personal app's settings; someone else's is 404. */
export const GET = withOrg<Params>("personal", async ({ params, access }) =>
  Response.json(await appSettingsOf(orgContext(), { org: access.org.slug, app: params.app, owner: access.actor.id })),
);

/** PATCH …/settings, as for an org app, by the app's owner alone. */
export const PATCH = withOrg<Params>("personal", async ({ request, params, access }) => {
  const update = await readJson(request, appSettingsUpdate, 256 * 1024);
  return Response.json(await changeAppSettings(orgContext(), { org: access.org.slug, app: params.app, owner: access.actor.id }, update, access.actor, listsIn));
});
