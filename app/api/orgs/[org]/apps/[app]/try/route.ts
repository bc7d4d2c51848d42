import { readJson } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { requireAction, withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { requireApp } from "@/lib/orgs/app-rows";
import { orgToolToTry, tryOrgApp } from "@/lib/orgs/try";
import { tryRequest } from "@/lib/schemas/try";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/**
 * POST /api/orgs/{org}/apps/{app}/try {tool, arguments, anyway?, asTyped?}: calls the tool (leaders
 * and developers, SPEC §14); 422 naming an argument that does not fit, before any call, unless it
 * is sent `asTyped` (SPEC §27: the answer's `notes` name each that did not fit). A tool refused
 * to the caller (SPEC §25) is answered refused without connecting; `anyway` is for leaders (403).
 */
export const POST = withOrg<Params>(
  "try",
  async ({ request, params, access }) => {
    const ctx = orgContext();
    await requireApp(ctx.db, access.org.slug, params.app); // the app's 404 before its body is read
    const input = await readJson(request, tryRequest, 1024 * 1024);
    if (input.anyway === true) requireAction(access, "tryAnyway");
    return Response.json(await tryOrgApp(ctx, access, params.app, input));
  },
  { reads: 1 },
);

/** GET /api/orgs/{org}/apps/{app}/try?tool=NAME: the tool as its newest read listed it (title, policy, input schema), for the try form. */
export const GET = withOrg<Params>("try", async ({ request, params, access }) => {
  const tool = new URL(request.url).searchParams.get("tool");
  if (tool === null || tool === "") throw new ApiError("invalid-request", "Name the tool: ?tool=NAME.", { issues: [{ path: ["tool"], message: "Name the tool." }] });
  return Response.json({ tool: await orgToolToTry(orgContext(), access.org.slug, params.app, tool) });
});
