import type { Metadata } from "next";
import { KeysView } from "@/components/account/keys-view";
import { pageOrgAccess } from "@/lib/auth/page";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `API keys for ${access.org.name}` };
}

export default async function KeysPage({ params }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return <KeysView org={access.org.slug} orgName={access.org.name} role={access.role} />;
}
