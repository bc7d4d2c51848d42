import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { listsIn } from "@/lib/orgs/lists";
import { auditingExports } from "@/lib/orgs/export-changes";
import { changeOrgSettings, orgSettingsOf } from "@/lib/orgs/settings";
import { orgSettingsUpdate } from "@/lib/schemas/orgs";
import { registryToggle } from "@/lib/schemas/registry";
import { REGISTRY_PATH, registryOn, setRegistry } from "@/lib/registry/store";
import { z } from "zod";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/settings: `{newTools, riskyText, tokenBudget, exportFallback, registry}` (whether the organisation publishes its registry, SPEC §24; never its address). */
export const GET = withOrg("view", async ({ access }) => {
  const { db } = orgContext();
  return Response.json({ ...(await orgSettingsOf(db, access.org.slug)), registry: await registryOn(db, access.org.slug) });
});

/** PATCH /api/orgs/{org}/settings {newTools?, riskyText?, tokenBudget?, exportFallback?} (leaders): each change with its audit entry (naming the hosts whose files it alters, SPEC §26), in one transaction. */
export const PATCH = withOrg("manage", async ({ request, access }) => {
  const { db } = orgContext();
  const body = await readJson(request, z.unknown(), 4096);
  // SPEC §24: the registry's address is answered once, when it is made; on again makes a new one.
  if (typeof body === "object" && body !== null && "registry" in body) {
    const { registry } = registryToggle.parse(body);
    const { token } = await setRegistry(db, access.org.slug, registry, access.actor);
    return Response.json({ registry, ...(token === null ? {} : { registryUrl: new URL(REGISTRY_PATH + token, process.env.THEOREM_URL ?? request.url).toString() }) });
  }
  const update = orgSettingsUpdate.parse(body);
  return Response.json(await auditingExports(orgContext(), access.org.slug, (tx) => changeOrgSettings(tx, access.org.slug, update, access.actor, listsIn)));
});
