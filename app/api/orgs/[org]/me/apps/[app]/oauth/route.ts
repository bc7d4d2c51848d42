import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { connect, disconnect } from "@/lib/orgs/sign-in";
import { orgContext } from "@/lib/orgs/context";
import { signInStart } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** POST /api/orgs/{org}/me/apps/{app}/oauth: Connect one's own personal app. Answers `{authorizationUrl}`. */
export const POST = withOrg<Params>(
  "personal",
  async ({ request, params, access }) => {
    const input = await readJson(request, signInStart, 16 * 1024);
    return Response.json(await connect(orgContext(), { access, app: params.app, personal: true }, request.url, input));
  },
  { reads: 1 },
);

/** DELETE /api/orgs/{org}/me/apps/{app}/oauth: Disconnect one's own personal app. */
export const DELETE = withOrg<Params>("personal", async ({ params, access }) => Response.json(await disconnect(orgContext(), { access, app: params.app, personal: true })));
