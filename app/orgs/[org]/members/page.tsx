import type { Metadata } from "next";
import { MembersView } from "@/components/account/members-view";
import { Prefetched } from "@/components/prefetched";
import { pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `Members of ${access.org.name}` };
}

export default async function MembersPage({ params }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return (
    <Prefetched queries={[pageQueries.members(access), pageQueries.groups(access)]}>
      <MembersView org={access.org.slug} orgName={access.org.name} canManage={can(access.role, "manage")} selfMemberId={access.memberId} />
    </Prefetched>
  );
}
