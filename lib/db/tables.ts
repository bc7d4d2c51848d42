import { sql, type SQL } from "drizzle-orm";
import * as pg from "./schema-pg";
import * as sqlite from "./schema";
import { isPostgresUrl } from "./path";

/**
 * The tables the store reads and writes, of the database `DATABASE_URL` names: SQLite's
 * (lib/db/schema.ts) or PostgreSQL's (lib/db/schema-pg.ts). Both have the same row types (the
 * parity test holds them to it), so the store is written once against SQLite's types and handed
 * PostgreSQL's tables at run time.
 */
const chosen = (isPostgresUrl() ? pg : sqlite) as unknown as typeof sqlite;

export const schema = chosen;
export const apps = chosen.apps;
export const snapshots = chosen.snapshots;
export const checkResults = chosen.checkResults;
export const orgSettings = chosen.orgSettings;
export const orgAlerts = chosen.orgAlerts;
export const appAlertStates = chosen.appAlertStates;
export const alertMarks = chosen.alertMarks;
export const appConformance = chosen.appConformance;
export const alertOutbox = chosen.alertOutbox;
export const alertWebhooks = chosen.alertWebhooks;
export const alertWebhookMessages = chosen.alertWebhookMessages;
export const alertWebhookAttempts = chosen.alertWebhookAttempts;
export const orgVersions = chosen.orgVersions;
export const toolApprovals = chosen.toolApprovals;
export const appSettings = chosen.appSettings;
export const toolSettings = chosen.toolSettings;
export const groups = chosen.groups;
export const groupMembers = chosen.groupMembers;
export const appAccessGroups = chosen.appAccessGroups;
export const groupToolSettings = chosen.groupToolSettings;
export const user = chosen.user;
export const session = chosen.session;
export const account = chosen.account;
export const organization = chosen.organization;
export const member = chosen.member;
export const invitation = chosen.invitation;
export const apikey = chosen.apikey;
export const auditEntries = chosen.auditEntries;
export const appSignIns = chosen.appSignIns;
export const oauthFlows = chosen.oauthFlows;
export const orgRegistries = chosen.orgRegistries;
export const groupRegistries = chosen.groupRegistries;

/** The version of the organisation a query on `organization` reads (`orgVersions`; null when none is stored), as a column of it. */
export function orgVersionOf(): SQL<string | null> {
  return sql<string | null>`(SELECT ${orgVersions.version} FROM ${orgVersions} WHERE ${orgVersions.org} = ${organization.slug})`;
}
