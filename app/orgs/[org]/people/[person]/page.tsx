import type { Metadata } from "next";
import { PersonView } from "@/components/people/person-view";
import { Prefetched } from "@/components/prefetched";
import { pageMember, pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string; person: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, person } = await params;
  const access = await pageOrgAccess(org);
  const found = await pageMember(access, person);
  return { title: `${found.name || found.email}'s assistant` };
}

/** What one member's assistant has (SPEC §12): every member may look, as support does. */
export default async function PersonPage({ params }: Props) {
  const { org, person } = await params;
  const access = await pageOrgAccess(org);
  const found = await pageMember(access, person);
  return (
    <Prefetched queries={[pageQueries.personCheck(access, found.id), pageQueries.groups(access), ...(found.id === access.memberId ? [pageQueries.myApps(access)] : [])]}>
      <PersonView
        org={access.org.slug}
        person={found.id}
        name={found.name || found.email}
        mine={found.id === access.memberId}
        lookUp={found.id === access.memberId || can(access.role, "lookUpOthers")}
        exports={found.id === access.memberId || can(access.role, "exportOthers")}
      />
    </Prefetched>
  );
}
