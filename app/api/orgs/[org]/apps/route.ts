import { z } from "zod";
import { readJson } from "@/lib/api/body";
import { withOrg } from "@/lib/auth/workspace";
import { listApps } from "@/lib/orgs/lists";
import { addApp, assertReadable } from "@/lib/orgs/connections";
import { orgContext } from "@/lib/orgs/context";
import { connectionOf } from "@/lib/registry/import";
import { REGISTRY_DOCUMENT_BYTES } from "@/lib/registry/fetch";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/apps: the apps in connection order, each with its latest check. */
export const GET = withOrg("view", async ({ access }) => Response.json(await listApps(orgContext(), access.org.slug, access.version)));

/** POST /api/orgs/{org}/apps: connects an app (leaders); answers 201 once it is read and stored with its audit entry, with the names of the whole list. */
export const POST = withOrg(
  "manage",
  async ({ request, access }) => {
    // By URL, or from a server.json given or read from a registry (SPEC §24): room for a whole document.
    const input = await connectionOf(await readJson(request, z.unknown(), REGISTRY_DOCUMENT_BYTES + 64 * 1024));
    await assertReadable(input.url);
    return Response.json(await addApp(orgContext(), access.org.slug, input, access.actor), { status: 201 });
  },
  { reads: 1 },
);
