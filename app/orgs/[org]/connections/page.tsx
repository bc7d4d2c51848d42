import type { Metadata } from "next";
import { ConnectionsView } from "@/components/connections/connections-view";
import { pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";

type Props = { params: Promise<{ org: string }> };

const path = (org: string) => `/orgs/${encodeURIComponent(org)}/connections`;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org, path(org));
  return { title: `Connections of ${access.org.name}` };
}

export default async function ConnectionsPage({ params }: Props) {
  const { org } = await params;
  // Signed out → sign-in; not a member → 404, the same as no such organisation.
  const access = await pageOrgAccess(org, path(org));
  return <ConnectionsView org={access.org.slug} canManage={can(access.role, "manage")} />;
}
