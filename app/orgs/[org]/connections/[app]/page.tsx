import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppDetailView } from "@/components/connections/app-detail-view";
import { pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";
import { lookUp } from "../lookup";

type Props = { params: Promise<{ org: string; app: string }> };

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const path = (org: string, app: string) => `/orgs/${encodeURIComponent(org)}/connections/${app}`;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, app } = await params;
  await pageOrgAccess(org, path(org, app));
  const found = lookUp(org, safeDecode(app));
  return { title: found?.app ?? "App" };
}

export default async function AppPage({ params }: Props) {
  const { org, app } = await params;
  const access = await pageOrgAccess(org, path(org, app));
  const id = safeDecode(app);
  if (lookUp(org, id) === null) notFound();
  return <AppDetailView org={access.org.slug} appId={id} canManage={can(access.role, "manage")} />;
}
