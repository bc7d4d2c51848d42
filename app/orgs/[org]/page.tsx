import { redirect } from "next/navigation";

export default async function OrgPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  redirect(`/orgs/${encodeURIComponent(org)}/connections`);
}
