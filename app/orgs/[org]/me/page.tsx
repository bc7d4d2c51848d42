import type { Metadata } from "next";
import { PersonView } from "@/components/people/person-view";
import { Prefetched } from "@/components/prefetched";
import { pageOrgAccess } from "@/lib/auth/page";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string }> };

export const metadata: Metadata = { title: "My apps" };

/** One's own apps (SPEC §12): any role connects them here, and sees what their assistant has. */
export default async function MyAppsPage({ params }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return (
    <Prefetched queries={[pageQueries.personCheck(access, access.memberId), pageQueries.groups(access), pageQueries.myApps(access)]}>
      <PersonView org={access.org.slug} person={access.memberId} name={access.actor.name} mine />
    </Prefetched>
  );
}
