import type { Metadata } from "next";
import { PersonView } from "@/components/people/person-view";
import { pageMember, pageOrgAccess } from "@/lib/auth/page";

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
  return <PersonView org={access.org.slug} person={found.id} name={found.name || found.email} mine={found.id === access.memberId} />;
}
