import { readJson } from "@/lib/api/body";
import { ApiError, withErrors } from "@/lib/api/errors";
import { createOrg, myOrgs } from "@/lib/orgs/members";
import { requireActor } from "@/lib/auth/workspace";
import { orgCreate } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

/** GET /api/orgs: the caller's organisations with their role (an API key sees its own only). */
export const GET = withErrors(async (request: Request) => {
  const actor = await requireActor(request.headers);
  const { via } = actor;
  const orgs = await myOrgs(actor.id);
  return Response.json({ orgs: via.kind === "api-key" ? orgs.filter((o) => o.slug === via.org) : orgs });
});

/** POST /api/orgs {name, slug}: 201, and the caller is its first leader. */
export const POST = withErrors(async (request: Request) => {
  const actor = await requireActor(request.headers);
  if (actor.via.kind === "api-key") throw new ApiError("forbidden", "An API key acts in its own organisation only: sign in to create one.");
  const input = await readJson(request, orgCreate, 16 * 1024);
  return Response.json(await createOrg(actor, input), { status: 201 });
});
