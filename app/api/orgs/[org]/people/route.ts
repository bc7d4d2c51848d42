import { listPeople } from "@/lib/auth/members";
import { withOrg } from "@/lib/auth/workspace";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/people (SPEC §12): the members, `id`, `email`, `name`, `role`. */
export const GET = withOrg("view", async ({ access }) => Response.json({ people: await listPeople(access) }));
