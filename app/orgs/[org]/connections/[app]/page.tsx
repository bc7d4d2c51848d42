import type { Metadata } from "next";
import { AppDetailView } from "@/components/connections/app-detail-view";
import { Prefetched } from "@/components/prefetched";
import { TrySourceProvider } from "@/components/try/try-slot";
import { pageOrgAccess } from "@/lib/auth/page";
import { can } from "@/lib/auth/roles";
import { pageQueries } from "@/lib/queries/prefetch";
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
  // Leaders and developers may try its tools (SPEC §14); support sees no Try control. Leaders may try a tool refused to them anyway (SPEC §25).
  return (
    <Prefetched
      queries={[
        pageQueries.app(access, id),
        pageQueries.settings(access),
        pageQueries.appSettings(access, id),
        pageQueries.groups(access),
        pageQueries.changes(access, id),
        pageQueries.trends(access, id),
      ]}
    >
      <TrySourceProvider source={can(access.role, "try") ? { kind: "org", org: access.org.slug, app: id, anyway: can(access.role, "tryAnyway") } : null}>
        <AppDetailView org={access.org.slug} appId={id} canManage={can(access.role, "manage")} canTry={can(access.role, "try")} />
      </TrySourceProvider>
    </Prefetched>
  );
}
