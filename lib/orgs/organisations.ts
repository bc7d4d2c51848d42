import "server-only";
import { and, eq } from "drizzle-orm";
import { noOrg } from "@/lib/errors";
import type { Conn } from "@/lib/db/client";
import { effectiveNewTools } from "@/lib/engine/tool-settings";
import { member, organization, orgSettings } from "@/lib/db/tables";
import { riskyText as riskyTextSchema, type RiskyText } from "@/lib/schemas/check";
import type { ExportFallback } from "@/lib/schemas/exports";
import type { AppNewTools, NewTools, Org } from "@/lib/schemas/orgs";
import { appNewTools, newTools as newToolsSchema, orgSlug } from "@/lib/schemas/orgs";

/**
 * An organisation as stored: finding it, creating it, and its own settings (`newTools`,
 * `riskyText`, `tokenBudget`) as read and written, with how a stored mode is read back.
 */

export async function findOrg(db: Conn, slug: string): Promise<Org | undefined> {
  if (!orgSlug.safeParse(slug).success) return undefined;
  const [found] = await db.select({ slug: organization.slug, name: organization.name }).from(organization).where(eq(organization.slug, slug)).limit(1);
  return found;
}

export async function requireOrg(db: Conn, slug: string): Promise<Org> {
  const found = await findOrg(db, slug);
  if (found === undefined) throw noOrg(slug);
  return found;
}

/** Creates the organisation, or renames it when it exists. */
export async function ensureOrg(db: Conn, slug: string, name: string): Promise<void> {
  const valid = orgSlug.parse(slug);
  await db
    .insert(organization)
    .values({ id: valid, slug: valid, name, createdAt: new Date() })
    .onConflictDoUpdate({ target: organization.slug, set: { name } });
}

/** The organisation's `newTools` as stored: `available` when none is stored, or one no longer known. */
export const orgModeOf = (stored: string | null | undefined): NewTools => (newToolsSchema.options.find((mode) => mode === stored) ?? "available");
/** An app's own `newTools` as stored: `org` when none is stored, or one no longer known. */
export const appModeOf = (stored: string | null | undefined): AppNewTools => (appNewTools.options.find((mode) => mode === stored) ?? "org");
/** The review mode in force for an app (SPEC §11, §19), from its own `newTools` and the organisation's as stored. */
export const modeInForce = (own: string | null | undefined, org: string | null | undefined): NewTools => effectiveNewTools(appModeOf(own), orgModeOf(org));

/**
 * What a new organisation's `riskyText` is (SPEC §20: the safe default), stored with it when it is
 * created. One created before this keeps what it has: its stored value, or `warn` when none is stored
 * (the column's default stays `warn`, so a settings row written later for such an organisation keeps it too).
 */
export const NEW_ORG_RISKY_TEXT: RiskyText = "ask-first";

/** Stores a new organisation's own settings (SPEC §20's safe default); the caller has just created it. */
export async function startOrgSettings(db: Conn, org: string): Promise<void> {
  await db.insert(orgSettings).values({ org, riskyText: NEW_ORG_RISKY_TEXT }).onConflictDoNothing();
}

/** A person's role in the organisation as stored, or null when they are no member there. */
export async function roleOf(db: Conn, org: string, person: string): Promise<string | null> {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(organization.slug, org), eq(member.userId, person)))
    .limit(1);
  return row?.role ?? null;
}

/** Review modes from the one holding back least to the one holding back most. */
const HOLDING: readonly NewTools[] = ["available", "wait-if-risky", "wait-for-review"];

/**
 * Whose settings lift the organisation's rules on an app (SPEC §25): a leader's. An org app's are
 * (only leaders set them), and a personal app's when its owner is a leader (`ownerRole`, as
 * stored; null when not known, or no member); anyone else's own only make their app stricter.
 */
export const ownSettingsLift = (owner: string | null, ownerRole: string | null | undefined): boolean => owner === null || ownerRole === "leader";

/**
 * The review mode in force for an app (SPEC §11, §19, §25): `modeInForce` when its own settings
 * lift the organisation's rules (`ownSettingsLift`); else the stricter of that and the organisation's.
 */
export function reviewModeOf(own: string | null | undefined, org: string | null | undefined, lifts: boolean): NewTools {
  const mode = modeInForce(own, org);
  if (lifts) return mode;
  const orgMode = orgModeOf(org);
  return HOLDING.indexOf(orgMode) > HOLDING.indexOf(mode) ? orgMode : mode;
}

/** The organisation's `riskyText` as stored: `warn` when none is stored, or one no longer known (SPEC §20). */
export const riskyTextModeOf = (stored: string | null | undefined): RiskyText => (riskyTextSchema.options.find((mode) => mode === stored) ?? "warn");

export async function riskyTextOf(db: Conn, org: string): Promise<RiskyText> {
  const [row] = await db.select({ riskyText: orgSettings.riskyText }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return riskyTextModeOf(row?.riskyText);
}

/** Sets `riskyText` (SPEC §20): the organisation's version changes with it (its triggers), so every kept list is named again. */
export async function setRiskyText(db: Conn, org: string, value: RiskyText): Promise<void> {
  await db.insert(orgSettings).values({ org, riskyText: value }).onConflictDoUpdate({ target: orgSettings.org, set: { riskyText: value } });
}

/** The organisation's `tokenBudget` (SPEC §21): null when none is set. */
export async function tokenBudgetOf(db: Conn, org: string): Promise<number | null> {
  const [row] = await db.select({ tokenBudget: orgSettings.tokenBudget }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return row?.tokenBudget ?? null;
}

export async function setTokenBudget(db: Conn, org: string, value: number | null): Promise<void> {
  await db.insert(orgSettings).values({ org, tokenBudget: value }).onConflictDoUpdate({ target: orgSettings.org, set: { tokenBudget: value } });
}

/** The organisation's `exportFallback` (SPEC §26): `strict` unless a leader chose `loose`. */
export async function exportFallbackOf(db: Conn, org: string): Promise<ExportFallback> {
  const [row] = await db.select({ exportFallback: orgSettings.exportFallback }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return row?.exportFallback === "loose" ? "loose" : "strict";
}

export async function setExportFallback(db: Conn, org: string, value: ExportFallback): Promise<void> {
  await db.insert(orgSettings).values({ org, exportFallback: value }).onConflictDoUpdate({ target: orgSettings.org, set: { exportFallback: value } });
}

export async function newToolsOf(db: Conn, org: string): Promise<NewTools> {
  const [row] = await db.select({ newTools: orgSettings.newTools }).from(orgSettings).where(eq(orgSettings.org, org)).limit(1);
  return orgModeOf(row?.newTools);
}
