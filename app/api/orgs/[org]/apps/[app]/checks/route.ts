import { withOrg } from "@/lib/auth/workspace";
import { history } from "@/lib/orgs/lists";
import { orgContext } from "@/lib/orgs/context";
import { historyLimit } from "@/lib/orgs/query";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/apps/{app}/checks?limit=N: the app's checks, newest first. */
export const GET = withOrg<{ org: string; app: string }>("view", async ({ request, params, access }) =>
  Response.json({ checks: await history(orgContext(), access.org.slug, params.app, historyLimit(request)) }),
);
