import type { Metadata } from "next";
import { PeopleView } from "@/components/people/people-view";
import { Prefetched } from "@/components/prefetched";
import { pageOrgAccess } from "@/lib/auth/page";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `People of ${access.org.name}` };
}

export default async function PeoplePage({ params }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return (
    <Prefetched queries={[pageQueries.people(access)]}>
      <PeopleView org={access.org.slug} orgName={access.org.name} self={access.memberId} />
    </Prefetched>
  );
}
