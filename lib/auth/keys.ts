import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { getDb } from "@/lib/db/client";
import { apikey } from "@/lib/db/tables";
import type { ApiKeyView } from "@/lib/schemas/access";
import { getAuth } from "./auth";
import { fromAuthError } from "./endpoints";
import type { OrgAccess } from "./workspace";

/**
 * API keys (better-auth's API-key plugin, which stores only their hash): a member's keys for
 * one organisation, sent as `x-api-key`, acting with the member's role there.
 */

type KeyRow = typeof apikey.$inferSelect;

function keyOrg(row: KeyRow): string | null {
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
  return rows
    .filter((row) => keyOrg(row) === access.org.slug)
    .map(view);
}

/** Makes a key; its text is in this answer only. */
export async function createKey(access: OrgAccess, name: string): Promise<ApiKeyView & { key: string }> {
  const created = await getAuth()
    .api.createApiKey({ body: { name, userId: access.actor.id, metadata: { org: access.org.slug } } })
    .catch((error: unknown) => {
      throw fromAuthError(error);
    });
  return {
    id: created.id,
    name: created.name ?? name,
    start: created.start ?? null,
    createdAt: new Date(created.createdAt).toISOString(),
    expiresAt: created.expiresAt ? new Date(created.expiresAt).toISOString() : null,
    key: created.key,
  };
}

/** Revokes one of the caller's keys of this organisation. */
export async function revokeKey(access: OrgAccess, id: string): Promise<ApiKeyView> {
  const db = getDb();
  const [row] = await db.select().from(apikey).where(and(eq(apikey.id, id), eq(apikey.referenceId, access.actor.id))).limit(1);
  if (row === undefined || keyOrg(row) !== access.org.slug) throw new NotFoundError("There is no such key.");
  await db.delete(apikey).where(eq(apikey.id, id));
  return view(row);
}
