import { z } from "zod";
import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { addApp, assertReadable } from "@/lib/orgs/connections";
import { orgContext } from "@/lib/orgs/context";
import { ownList } from "@/lib/orgs/people";
import { connectionOf } from "@/lib/registry/import";
import { REGISTRY_DOCUMENT_BYTES } from "@/lib/registry/fetch";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/me/apps (SPEC §12): the caller's list, the organisation's apps and their own, in connection order, as the organisation's list answers them. */
export const GET = withOrg("personal", async ({ access }) => Response.json(await ownList(orgContext(), access)));

/** POST /api/orgs/{org}/me/apps: connects a personal app (any role); 201 once read, named within the caller's list, and in the audit log with it. */
export const POST = withOrg(
  "personal",
  async ({ request, access }) => {
    // By URL, or from a server.json given or read from a registry (SPEC §24): room for a whole document.
    const input = await connectionOf(await readJson(request, z.unknown(), REGISTRY_DOCUMENT_BYTES + 64 * 1024));
    await assertReadable(input.url);
    return Response.json(await addApp(orgContext(), access.org.slug, input, access.actor, access.actor.id), { status: 201 });
  },
  { reads: 1 },
);
