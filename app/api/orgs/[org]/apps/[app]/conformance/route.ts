import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";
import { keptConformance, runOrgConformance } from "@/lib/orgs/conformance";

export const dynamic = "force-dynamic";
/** A run is bounded at 5 minutes (SPEC §27); the answer waits for it. */
export const maxDuration = 330;

type Params = { org: string; app: string };

/**
 * POST /api/orgs/{org}/apps/{app}/conformance: runs the official conformance suite's server
 * scenarios against the app (SPEC §27; leaders and developers, as running calls tools): 200 with
 * the result, which is kept; 409 while a run of the app is under way; 422 when its address is
 * refused (SPEC §10) or it cannot be reached.
 */
export const POST = withOrg<Params>(
  "try",
  async ({ params, access }) => Response.json(await runOrgConformance(orgContext(), access, params.app)),
  { reads: 1 },
);

/** GET /api/orgs/{org}/apps/{app}/conformance: the kept result of the app's last run (every member); 404 before the first. */
export const GET = withOrg<Params>("view", async ({ params, access }) => Response.json(await keptConformance(orgContext(), access.org.slug, params.app)));
