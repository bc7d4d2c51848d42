import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PersonView } from "@/components/people/person-view";
import { ApiError } from "@/lib/api/errors";
import { findMember } from "@/lib/auth/members";
import { pageOrgAccess } from "@/lib/auth/page";
import type { OrgAccess } from "@/lib/auth/workspace";

type Props = { params: Promise<{ org: string; person: string }> };

const path = (org: string, person: string) => `/orgs/${encodeURIComponent(org)}/people/${person}`;

/** The member, or the 404 page: a member of another organisation is no one here. */
async function memberOr404(access: OrgAccess, person: string) {
  try {
    return await findMember(access, decodeURIComponent(person));
  } catch (error) {
    if (error instanceof ApiError || error instanceof URIError) notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, person } = await params;
  const access = await pageOrgAccess(org, path(org, person));
  const found = await memberOr404(access, person);
  return { title: `${found.name || found.email}'s assistant` };
}

/** What one member's assistant has (SPEC §12): every member may look, as support does. */
export default async function PersonPage({ params }: Props) {
  const { org, person } = await params;
  const access = await pageOrgAccess(org, path(org, person));
  const found = await memberOr404(access, person);
  return <PersonView org={access.org.slug} person={found.id} name={found.name || found.email} mine={found.id === access.memberId} />;
}
