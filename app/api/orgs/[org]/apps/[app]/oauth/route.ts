import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { connect, disconnect } from "@/lib/orgs/sign-in";
import { orgContext } from "@/lib/orgs/context";
import { signInStart } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

type Params = { org: string; app: string };

/** POST /api/orgs/{org}/apps/{app}/oauth: Connect (leaders). Answers `{authorizationUrl}`, where the browser signs in. */
export const POST = withOrg<Params>(
  "manage",
  async ({ request, params, access }) => {
    const input = await readJson(request, signInStart, 16 * 1024);
    return Response.json(await connect(orgContext(), { access, app: params.app, personal: false }, request.url, input));
  },
  { reads: 1 },
);

/** DELETE /api/orgs/{org}/apps/{app}/oauth: Disconnect (leaders): forgets the tokens, reads the app again. */
export const DELETE = withOrg<Params>("manage", async ({ params, access }) => Response.json(await disconnect(orgContext(), { access, app: params.app, personal: false })));
