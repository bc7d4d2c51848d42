import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppDetailView } from "@/components/connections/app-detail-view";
import { lookUp } from "../lookup";

type Props = { params: Promise<{ org: string; app: string }> };

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, app } = await params;
  const found = lookUp(org, safeDecode(app));
  return { title: found?.app ?? "App" };
}

export default async function AppPage({ params }: Props) {
  const { org, app } = await params;
  const id = safeDecode(app);
  if (lookUp(org, id) === null) notFound();
  return <AppDetailView org={org} appId={id} />;
}
