import type { Metadata } from "next";
import { AppDetailView } from "@/components/connections/app-detail-view";
import { Prefetched } from "@/components/prefetched";
import { TrySourceProvider } from "@/components/try/try-slot";
import { pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";
import { getApp } from "@/lib/orgs/apps";
import { orgContext } from "@/lib/orgs/context";
import { orgKeys } from "@/lib/queries/orgs";
import { lookUp, safeDecode } from "../lookup";

type Props = { params: Promise<{ org: string; app: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, app } = await params;
  await pageOrgAccess(org);
  const found = await lookUp(org, safeDecode(app));
  return { title: found?.app ?? "App" };
}

export default async function AppPage({ params }: Props) {
  const { org, app } = await params;
  const access = await pageOrgAccess(org);
  const id = safeDecode(app);
  // Leaders and developers may try its tools (SPEC §14); support sees no Try control.
  return (
    <Prefetched queries={[{ key: orgKeys.app(access.org.slug, id), load: () => getApp(orgContext(), access.org.slug, id) }]}>
      <TrySourceProvider source={can(access.role, "try") ? { kind: "org", org: access.org.slug, app: id } : null}>
        <AppDetailView org={access.org.slug} appId={id} canManage={can(access.role, "manage")} />
      </TrySourceProvider>
    </Prefetched>
  );
}
