import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/audit-log";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { organization, orgRegistries, orgVersionOf } from "@/lib/db/tables";

/**
 * Whether an organisation publishes its registry (SPEC §24), and the address it does so at:
 * `/api/registry/{token}`, an unguessable token (32 random bytes) of which only the SHA-256 is
 * kept. The address is shown once, when the registry is turned on; turning it off, or on again,
 * revokes the old one.
 */

export const REGISTRY_PATH = "/api/registry/";

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export async function registryOn(db: Conn, org: string): Promise<boolean> {
  const [row] = await db.select({ org: orgRegistries.org }).from(orgRegistries).where(eq(orgRegistries.org, org)).limit(1);
  return row !== undefined;
}

interface Actor {
  id: string;
  email: string;
}

/**
 * Turns the registry on with a new token (answered, never stored) or off, with its audit entry in
 * the same transaction. Turning it off when it is off changes nothing and records nothing.
 */
export async function setRegistry(db: Conn, org: string, on: boolean, actor: Actor): Promise<{ token: string | null }> {
  return orgTransaction(db, org, async (tx) => {
    const was = await registryOn(tx, org);
    if (!on) {
      if (!was) return { token: null };
      await tx.delete(orgRegistries).where(eq(orgRegistries.org, org));
      await recordAudit(tx, { org, actor, action: "settings.changed", details: { registry: { from: true, to: false } } });
      return { token: null };
    }
    const token = randomBytes(32).toString("base64url");
    const row = { org, tokenHash: hashOf(token), createdAt: Date.now(), createdBy: actor.id };
    await tx.insert(orgRegistries).values(row).onConflictDoUpdate({ target: orgRegistries.org, set: { tokenHash: row.tokenHash, createdAt: row.createdAt, createdBy: row.createdBy } });
    // Never the token: the entry says a new address was made, and that any old one stopped.
    await recordAudit(tx, { org, actor, action: "settings.changed", details: { registry: { from: was, to: true, newAddress: true } } });
    return { token };
  });
}

/** The organisation whose registry `token` opens, with its version (one statement), or null. */
export async function orgOfToken(db: Conn, token: string): Promise<{ slug: string; name: string; version: string | null } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({ slug: organization.slug, name: organization.name, version: orgVersionOf() })
    .from(orgRegistries)
    .innerJoin(organization, eq(organization.slug, orgRegistries.org))
    .where(eq(orgRegistries.tokenHash, hashOf(token)))
    .limit(1);
  return row ?? null;
}
