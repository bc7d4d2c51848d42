import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/audit-log";
import { getDb, orgTransaction, type Conn } from "@/lib/db/client";
import { apikey, member } from "@/lib/db/tables";
import type { ApiKeyView } from "@/lib/schemas/access";
import { getAuth } from "./auth";
import { fromAuthError } from "./endpoints";
import type { OrgAccess } from "./workspace";

/**
 * API keys (better-auth's API-key plugin, which stores only their hash): a member's keys for
 * one organisation, sent as `x-api-key`, acting with the member's role there and only while
 * they are a member (SPEC §9: removing or leaving revokes them, and every use checks it).
 */

type KeyRow = typeof apikey.$inferSelect;

/** The organisation a key was made for (its metadata's `org`), or null. */
function keyOrg(row: Pick<KeyRow, "metadata">): string | null {
  try {
    const metadata = JSON.parse(row.metadata ?? "null") as unknown;
    const org = typeof metadata === "string" ? (JSON.parse(metadata) as { org?: unknown }).org : (metadata as { org?: unknown } | null)?.org;
    return typeof org === "string" ? org : null;
  } catch {
    return null;
  }
}

const view = (row: KeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  start: row.start,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
});

/** The caller's own keys for this organisation, newest first. */
export async function listKeys(access: OrgAccess): Promise<ApiKeyView[]> {
  const rows = await getDb().select().from(apikey).where(eq(apikey.referenceId, access.actor.id)).orderBy(desc(apikey.createdAt));
  return rows.filter((row) => keyOrg(row) === access.org.slug).map(view);
}

/** Whether the one asking is still a member here, read inside the change's transaction. */
async function stillMember(tx: Conn, access: OrgAccess): Promise<void> {
  const [row] = await tx.select({ id: member.id }).from(member).where(and(eq(member.organizationId, access.org.id), eq(member.userId, access.actor.id))).limit(1);
  if (row === undefined) throw new ForbiddenError("You are no longer a member of this organisation.");
}

/**
 * Makes a key; its text is in this answer only. better-auth writes the key itself; its audit
 * entry is written under the organisation's lock with a check that the maker is still a member,
 * and a key whose entry could not be written is deleted before anyone has seen its text.
 */
export async function createKey(access: OrgAccess, name: string): Promise<ApiKeyView & { key: string }> {
  const created = await getAuth()
    .api.createApiKey({ body: { name, userId: access.actor.id, metadata: { org: access.org.slug } } })
    .catch((error: unknown) => {
      throw fromAuthError(error);
    });
  try {
    await orgTransaction(getDb(), access.org.slug, async (tx) => {
      await stillMember(tx, access);
      await recordAudit(tx, { org: access.org.slug, actor: access.actor, action: "key.created", details: { key: created.id, name: created.name ?? name } });
    });
  } catch (error) {
    await getDb().delete(apikey).where(eq(apikey.id, created.id));
    throw error;
  }
  return {
    id: created.id,
    name: created.name ?? name,
    start: created.start ?? null,
    createdAt: new Date(created.createdAt).toISOString(),
    expiresAt: created.expiresAt ? new Date(created.expiresAt).toISOString() : null,
    key: created.key,
  };
}

/** Revokes one of the caller's keys of this organisation, with its audit entry. */
export async function revokeKey(access: OrgAccess, id: string): Promise<ApiKeyView> {
  return orgTransaction(getDb(), access.org.slug, async (tx) => {
    const [row] = await tx.select().from(apikey).where(and(eq(apikey.id, id), eq(apikey.referenceId, access.actor.id))).limit(1);
    if (row === undefined || keyOrg(row) !== access.org.slug) throw new NotFoundError("There is no such key.");
    await tx.delete(apikey).where(eq(apikey.id, id));
    await recordAudit(tx, { org: access.org.slug, actor: access.actor, action: "key.revoked", details: { key: row.id, name: row.name } });
    return view(row);
  });
}

/** Deletes `userId`'s keys for organisation `org` inside the caller's transaction (their membership there ended); answers how many. */
export async function revokeKeysOf(tx: Conn, userId: string, org: string): Promise<number> {
  const rows = await tx.select({ id: apikey.id, metadata: apikey.metadata }).from(apikey).where(eq(apikey.referenceId, userId));
  const ids = rows.filter((row) => keyOrg(row) === org).map((row) => row.id);
  if (ids.length > 0) await tx.delete(apikey).where(inArray(apikey.id, ids));
  return ids.length;
}
