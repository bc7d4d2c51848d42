import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { listsIn } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { appSettingsOf, changeAppSettings } from "@/lib/orgs/settings";
import { appSettingsUpdate } from "@/lib/schemas/settings";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** GET /api/orgs/{org}/apps/{app}/settings (SPEC §19): `{newTools, tools: [{name, setting, by, at, listed}]}`. */
export const GET = withOrg<Params>("view", async ({ params, access }) =>
  Response.json(await appSettingsOf(orgContext(), { org: access.org.slug, app: params.app, owner: null })),
);

/** PATCH …/settings `{newTools?, tools?: {"<name>": "default"|"ask-first"|"blocked"}, force?}` (leaders): every change audited. */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const update = await readJson(request, appSettingsUpdate, 256 * 1024);
  return Response.json(await changeAppSettings(orgContext(), { org: access.org.slug, app: params.app, owner: null }, update, access.actor, listsIn));
});
