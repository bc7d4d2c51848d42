import type { Metadata } from "next";
import { ConnectionsView } from "@/components/connections/connections-view";
import { Prefetched } from "@/components/prefetched";
import { pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `Connections of ${access.org.name}` };
}

export default async function ConnectionsPage({ params }: Props) {
  const { org } = await params;
  // Signed out → sign-in; not a member → 404, the same as no such organisation.
  const access = await pageOrgAccess(org);
  // The apps are in the first HTML: computed here, as GET /api/orgs/{org}/apps would answer them,
  // with the viewer's own list (GET …/me/apps) for the tools that reach their assistant (SPEC §25).
  return (
    <Prefetched queries={[pageQueries.apps(access), pageQueries.settings(access), pageQueries.myApps(access)]}>
      <ConnectionsView org={access.org.slug} canManage={can(access.role, "manage")} self={access.memberId} canLookUpOthers={can(access.role, "lookUpOthers")} />
    </Prefetched>
  );
}
