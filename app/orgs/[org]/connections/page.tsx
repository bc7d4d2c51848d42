import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ConnectionsView } from "@/components/connections/connections-view";
import { orgSlug } from "@/lib/schemas/orgs";

export const metadata: Metadata = { title: "Connections" };

export default async function ConnectionsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  if (!orgSlug.safeParse(org).success) notFound();
  return <ConnectionsView org={org} />;
}
