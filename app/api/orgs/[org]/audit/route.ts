import { auditEntriesOf } from "@/lib/audit/audit-log";
import { withOrg } from "@/lib/auth/workspace";
import { getDb } from "@/lib/db/client";
import { auditQuery } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/audit?app=&actor=&before=&limit=: newest first. */
export const GET = withOrg("view", async ({ request, access }) => {
  const query = auditQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json({ entries: await auditEntriesOf(getDb(), access.org.slug, query) });
});
