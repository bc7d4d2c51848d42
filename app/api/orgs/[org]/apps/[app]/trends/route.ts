import { withOrg } from "@/lib/auth/workspace";
import { trends } from "@/lib/orgs/lists";
import { orgContext } from "@/lib/orgs/context";
import { MAX_TREND_POINTS } from "@/lib/orgs/history";
import { limitParam } from "@/lib/orgs/query";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/apps/{app}/trends?limit=N: the size and timings of the app's newest reads, oldest first. */
export const GET = withOrg<{ org: string; app: string }>("view", async ({ request, params, access }) =>
  Response.json({ points: await trends(orgContext(), access.org.slug, params.app, limitParam(request, 100, MAX_TREND_POINTS)) }),
);
