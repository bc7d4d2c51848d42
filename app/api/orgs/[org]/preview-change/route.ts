import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { previewChange } from "@/lib/orgs/preview";
import { previewChange as previewChangeBody } from "@/lib/schemas/preview";

export const dynamic = "force-dynamic";

/**
 * POST /api/orgs/{org}/preview-change (leaders, SPEC §23): `{"org"|"app"|"group"|"approve": …}`, one
 * change as its save route takes it; answers `{people, unchanged}` and saves nothing. It names
 * everyone's list, as a check does: it spends one check of the leader's budget.
 */
export const POST = withOrg(
  "manage",
  async ({ request, access }) => {
    const change = await readJson(request, previewChangeBody, 1024 * 1024);
    return Response.json(await previewChange(orgContext(), access, change));
  },
  { reads: 0 },
);
