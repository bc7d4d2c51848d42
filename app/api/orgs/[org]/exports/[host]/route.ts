import { withOrg } from "@/lib/auth/workspace";
import { NotFoundError } from "@/lib/errors";
import { orgContext } from "@/lib/orgs/context";
import { hostExportFor } from "@/lib/orgs/exports";
import { EXPORT_HOSTS, exportHost, exportQuery } from "@/lib/schemas/exports";

export const dynamic = "force-dynamic";

/**
 * GET /api/orgs/{org}/exports/{host}?group=ID|person=ID[&fallback=strict|loose] (SPEC §26): the
 * host's own files for a group's, a person's or (neither) everyone's decisions, and what it cannot say;
 * `fallback` given instead of the organisation's `exportFallback`.
 */
export const GET = withOrg<{ org: string; host: string }>("view", async ({ request, params, access }) => {
  const host = exportHost.safeParse(params.host);
  if (!host.success) throw new NotFoundError(`There is no host "${params.host.slice(0, 100)}"; the hosts are ${EXPORT_HOSTS.join(", ")}.`);
  const query = exportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await hostExportFor(orgContext(), access, { host: host.data, ...query }));
});
