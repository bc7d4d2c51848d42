import { withOrg } from "@/lib/auth/workspace";
import { spendAppCheck } from "@/lib/http/rate-limit";
import { recheckApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/apps/{app}/check: re-checks the app (reading the whole organisation, for its names). */
export const POST = withOrg<{ org: string; app: string }>("recheck", async ({ params, access }) => {
  const ctx = orgContext();
  await spendAppCheck(access);
  return Response.json(await recheckApp(ctx, access.org.slug, params.app));
});
