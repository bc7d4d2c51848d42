import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppDetailView } from "@/components/connections/app-detail-view";
import { orgSlug } from "@/lib/schemas/orgs";

export const metadata: Metadata = { title: "App" };

export default async function AppPage({ params }: { params: Promise<{ org: string; app: string }> }) {
  const { org, app } = await params;
  if (!orgSlug.safeParse(org).success) notFound();
  return <AppDetailView org={org} appId={safeDecode(app)} />;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
