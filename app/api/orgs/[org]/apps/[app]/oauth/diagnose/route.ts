import { withOrg } from "@/lib/auth/workspace";
import { diagnose } from "@/lib/orgs/sign-in";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/**
 * POST /api/orgs/{org}/apps/{app}/oauth/diagnose: the sign-in doctor (SPEC §27; leaders, developers,
 * support). Answers `{steps}`: each step of Connect with what was found and expected, ending at the
 * first that failed; 409 for an app that does not sign in.
 */
export const POST = withOrg<Params>("diagnose", async ({ request, params, access }) => Response.json(await diagnose(orgContext(), { access, app: params.app, personal: false }, request.url)), { reads: 1 });
