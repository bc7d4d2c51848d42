import { readJson } from "@/lib/api/body";
import { createKey, listKeys } from "@/lib/auth/keys";
import { withOrg } from "@/lib/auth/workspace";
import { apiKeyCreate } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/keys: the caller's own keys here (never the keys themselves). */
export const GET = withOrg("view", async ({ access }) => Response.json({ keys: await listKeys(access) }));

/** POST /api/orgs/{org}/keys {name}: 201 with the key, shown this once. */
export const POST = withOrg("view", async ({ request, access }) => {
  const { name } = await readJson(request, apiKeyCreate, 4096);
  const created = await createKey(access, name);
  return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});
