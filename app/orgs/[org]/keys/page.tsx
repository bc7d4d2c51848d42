import type { Metadata } from "next";
import { KeysView } from "@/components/account/keys-view";
import { Prefetched } from "@/components/prefetched";
import { pageOrgAccess } from "@/lib/auth/page";
import { pageQueries } from "@/lib/queries/prefetch";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return { title: `API keys for ${access.org.name}` };
}

export default async function KeysPage({ params }: Props) {
  const { org } = await params;
  const access = await pageOrgAccess(org);
  return (
    <Prefetched queries={[pageQueries.keys(access)]}>
      <KeysView org={access.org.slug} orgName={access.org.name} role={access.role} />
    </Prefetched>
  );
}
