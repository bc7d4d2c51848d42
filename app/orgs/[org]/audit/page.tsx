import type { Metadata } from "next";
import { AuditView } from "@/components/account/audit-view";
import { Prefetched } from "@/components/prefetched";
import { pageOrgAccess } from "@/lib/auth/page";
import type { AuditFilter } from "@/lib/queries/access";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One value of a query parameter, or undefined when absent, empty or repeated. */
function one(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `Audit log of ${access.org.name}` };
}

export default async function AuditPage({ params, searchParams }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  const query = await searchParams;
  const filter: AuditFilter = {};
  const app = one(query.app);
  const actor = one(query.actor);
  const before = one(query.before);
  if (app !== undefined) filter.app = app;
  if (actor !== undefined) filter.actor = actor;
  if (before !== undefined) filter.before = before;
  return (
    <Prefetched queries={[pageQueries.audit(access, filter), pageQueries.members(access), pageQueries.apps(access)]}>
      <AuditView org={access.org.slug} orgName={access.org.name} filter={filter} />
    </Prefetched>
  );
}
