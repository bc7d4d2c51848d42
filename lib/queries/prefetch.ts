import "server-only";
import type { DataTag, QueryKey } from "@tanstack/react-query";
import { auditEntriesOf } from "@/lib/audit/audit-log";
import { listKeys } from "@/lib/auth/keys";
import { listMembers } from "@/lib/orgs/members";
import type { OrgAccess } from "@/lib/auth/workspace";
import { getDb } from "@/lib/db/client";
import { getApp, listApps, trends } from "@/lib/orgs/lists";
import { appChanges } from "@/lib/orgs/changes";
import { orgContext } from "@/lib/orgs/context";
import { ownList, peopleWithTokens, personCheck, scopeOf } from "@/lib/orgs/people";
import { groupsOf } from "@/lib/orgs/groups";
import { appSettingsOf, orgSettingsOf } from "@/lib/orgs/settings";
import { auditQuery as auditParams } from "@/lib/schemas/access";
import { auditQuery, keysQuery, membersQuery, type AuditFilter } from "./access";
import { appQuery, appSettingsQuery, appsQuery, CHANGES_SHOWN, changesQuery, settingsQuery, TREND_POINTS, trendsQuery } from "./orgs";
import { groupsQuery } from "./groups";
import { myAppsQuery, peopleQuery, personCheckQuery } from "./people";

/** One answer a page computes on the server, under the key its component's query asks for. */
export interface Prefetch {
  key: QueryKey;
  load: () => Promise<unknown>;
}

/**
 * Pairs a query (its factory's key, typed with its data) with the server's way to the same data:
 * a loader that answers another shape than the browser's query would does not compile.
 */
function prefetch<T>(query: { queryKey: DataTag<QueryKey, T, Error> }, load: () => Promise<T>): Prefetch {
  return { key: query.queryKey, load };
}

/**
 * Every query a page's first view needs, with its loader: what the route would answer, computed
 * in the page's request (`<Prefetched queries={[pageQueries.apps(access)]}>`).
 */
export const pageQueries = {
  apps: (access: OrgAccess) => prefetch(appsQuery(access.org.slug), () => listApps(orgContext(), access.org.slug, access.version)),
  app: (access: OrgAccess, id: string) => prefetch(appQuery(access.org.slug, id), () => getApp(orgContext(), access.org.slug, id, access.version)),
  settings: (access: OrgAccess) => prefetch(settingsQuery(access.org.slug), () => orgSettingsOf(orgContext().db, access.org.slug)),
  appSettings: (access: OrgAccess, id: string) => prefetch(appSettingsQuery(access.org.slug, id), () => appSettingsOf(orgContext(), { org: access.org.slug, app: id, owner: null })),
  changes: (access: OrgAccess, id: string) =>
    prefetch(changesQuery(access.org.slug, id), async () => ({ changes: await appChanges(orgContext(), access.org.slug, id, CHANGES_SHOWN) })),
  trends: (access: OrgAccess, id: string) => prefetch(trendsQuery(access.org.slug, id), async () => ({ points: await trends(orgContext(), access.org.slug, id, TREND_POINTS) })),
  members: (access: OrgAccess) => prefetch(membersQuery(access.org.slug), () => listMembers(access)),
  groups: (access: OrgAccess) => prefetch(groupsQuery(access.org.slug), async () => ({ groups: await groupsOf(orgContext().db, access.org.slug) })),
  keys: (access: OrgAccess) => prefetch(keysQuery(access.org.slug), async () => ({ keys: await listKeys(access) })),
  audit: (access: OrgAccess, filter: AuditFilter) =>
    prefetch(auditQuery(access.org.slug, filter), async () => ({ entries: await auditEntriesOf(getDb(), access.org.slug, auditParams.parse(filter)) })),
  people: (access: OrgAccess) => prefetch(peopleQuery(access.org.slug), () => peopleWithTokens(orgContext(), access)),
  personCheck: (access: OrgAccess, memberId: string) =>
    prefetch(personCheckQuery(access.org.slug, memberId), async () => personCheck(orgContext(), await scopeOf(access, memberId), access.version)),
  myApps: (access: OrgAccess) =>
    prefetch(myAppsQuery(access.org.slug), () => ownList(orgContext(), access)),
};
