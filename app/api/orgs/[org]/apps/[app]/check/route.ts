import { withOrg } from "@/lib/auth/workspace";
import { recheckApp } from "@/lib/orgs/rechecks";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

/** POST /api/orgs/{org}/apps/{app}/check: re-checks the app (reading the whole organisation, for its names; what the list kept at the version read with the access is not read again). */
export const POST = withOrg<{ org: string; app: string }>("recheck", async ({ params, access }) => Response.json(await recheckApp(orgContext(), access.org.slug, params.app, access.version)), { reads: 1 });
