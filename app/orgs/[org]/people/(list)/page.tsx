import type { Metadata } from "next";
import { PeopleView } from "@/components/people/people-view";
import { pageOrgAccess } from "@/lib/auth/page";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `People of ${access.org.name}` };
}

export default async function PeoplePage({ params }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return <PeopleView org={access.org.slug} orgName={access.org.name} self={access.memberId} />;
}
