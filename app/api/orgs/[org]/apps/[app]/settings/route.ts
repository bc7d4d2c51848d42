import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { listsIn } from "@/lib/orgs/lists";
import { orgContext } from "@/lib/orgs/context";
import { auditingExports } from "@/lib/orgs/export-changes";
import { appSettingsOf, changeAppSettings } from "@/lib/orgs/settings";
import { appSettingsUpdate } from "@/lib/schemas/settings";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** GET /api/orgs/{org}/apps/{app}/settings (SPEC §19): `{newTools, tools: [{name, setting, by, at, listed}]}`. */
export const GET = withOrg<Params>("view", async ({ params, access }) =>
  Response.json(await appSettingsOf(orgContext(), { org: access.org.slug, app: params.app, owner: null })),
);

/** PATCH …/settings `{newTools?, tools?: {"<name>": "default"|"ask-first"|"blocked"}, force?}` (leaders): every change audited, naming the hosts whose files it alters (`details.exports`, SPEC §26). */
export const PATCH = withOrg<Params>("manage", async ({ request, params, access }) => {
  const update = await readJson(request, appSettingsUpdate, 256 * 1024);
  const ctx = orgContext();
  const org = access.org.slug;
  return Response.json(await auditingExports(ctx, org, (tx) => changeAppSettings({ ...ctx, db: tx }, { org, app: params.app, owner: null }, update, access.actor, listsIn)));
});
