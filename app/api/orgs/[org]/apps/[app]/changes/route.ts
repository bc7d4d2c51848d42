import { withOrg } from "@/lib/auth/workspace";
import { appChanges, DEFAULT_CHANGES, MAX_CHANGES } from "@/lib/orgs/changes";
import { orgContext } from "@/lib/orgs/context";
import { limitParam } from "@/lib/orgs/query";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/apps/{app}/changes?limit=N: what changed between the app's snapshots, newest first. */
export const GET = withOrg<{ org: string; app: string }>("view", async ({ request, params, access }) =>
  Response.json({ changes: await appChanges(orgContext(), access.org.slug, params.app, limitParam(request, DEFAULT_CHANGES, MAX_CHANGES)) }),
);
