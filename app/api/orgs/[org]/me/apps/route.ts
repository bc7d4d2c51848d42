import { z } from "zod";
import { readJson } from "@/lib/api/body";
import { recordAudit } from "@/lib/audit/audit-log";
import { withOrg } from "@/lib/auth/workspace";
import { spendAppCheck } from "@/lib/http/rate-limit";
import { addApp, assertReadable } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { ownList } from "@/lib/orgs/people";
import { connectionOf } from "@/lib/registry/import";
import { REGISTRY_DOCUMENT_BYTES } from "@/lib/registry/fetch";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/me/apps (SPEC §12): the caller's list, the organisation's apps and their own, in connection order, as the organisation's list answers them. */
export const GET = withOrg("personal", async ({ access }) => Response.json(await ownList(orgContext(), access)));

/** POST /api/orgs/{org}/me/apps: connects a personal app (any role); 201 once read, named within the caller's list. */
export const POST = withOrg("personal", async ({ request, access }) => {
  const ctx = orgContext();
  // By URL, or from a server.json given or read from a registry (SPEC §24): room for a whole document.
  const input = await connectionOf(await readJson(request, z.unknown(), REGISTRY_DOCUMENT_BYTES + 64 * 1024));
  await assertReadable(input.url);
  await spendAppCheck(access);
  const app = await addApp(ctx, access.org.slug, input, access.actor.id, access.actor.id);
  await recordAudit(ctx.db, {
    org: access.org.slug,
    actor: access.actor,
    action: "app.connected",
    app: { id: app.id, name: app.name },
    details: { url: app.url, header: input.header ? input.header.name : null, ...(input.source ? { source: input.source, moreHeaders: input.moreHeaders?.map(([name]) => name) ?? [] } : {}), personal: true },
  });
  return Response.json(app, { status: 201 });
});
