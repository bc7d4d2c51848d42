import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/audit-log";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { groupRegistries, groups, organization, orgRegistries, orgVersionOf } from "@/lib/db/tables";
import { NotFoundError } from "@/lib/errors";

/**
 * Whether an organisation publishes its registry (SPEC §24), and the address it does so at:
 * `/api/registry/{token}`, an unguessable token (32 random bytes) of which only the SHA-256 is
 * kept. The address is shown once, when the registry is turned on; turning it off, or on again,
 * revokes the old one. A group's own registry (SPEC §25) is kept the same way.
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

/** What a registry's token opens: an organisation's registry, or (`group`) one of its groups' (SPEC §25), with the organisation's version. */
export interface RegistryOf {
  slug: string;
  name: string;
  version: string | null;
  group?: { id: string; name: string };
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/** The registry `token` opens (one statement each for the organisation's and a group's), or null. */
export async function registryOfToken(db: Conn, token: string): Promise<RegistryOf | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const hash = hashOf(token);
  const [org] = await db
    .select({ slug: organization.slug, name: organization.name, version: orgVersionOf() })
    .from(orgRegistries)
    .innerJoin(organization, eq(organization.slug, orgRegistries.org))
    .where(eq(orgRegistries.tokenHash, hash))
    .limit(1);
  if (org !== undefined) return org;
  const [group] = await db
    .select({ slug: organization.slug, name: organization.name, version: orgVersionOf(), id: groups.id, groupName: groups.name })
    .from(groupRegistries)
    .innerJoin(groups, eq(groups.id, groupRegistries.group))
    .innerJoin(organization, eq(organization.slug, groups.org))
    .where(eq(groupRegistries.tokenHash, hash))
    .limit(1);
  return group === undefined ? null : { slug: group.slug, name: group.name, version: group.version, group: { id: group.id, name: group.groupName } };
}

/** The ids of `org`'s groups that publish their own registry (SPEC §25). */
export async function groupRegistriesOn(db: Conn, org: string): Promise<Set<string>> {
  return new Set((await db.select({ group: groupRegistries.group }).from(groupRegistries).where(eq(groupRegistries.org, org))).map((r) => r.group));
}

/**
 * Turns a group's own registry (SPEC §25) on with a new token (answered, never stored) or off, as
 * the organisation's (`setRegistry`): audited `group.changed` in the same transaction, never with
 * the token. A group of another organisation, or none, is the 404.
 */
export async function setGroupRegistry(db: Conn, org: string, group: string, on: boolean, actor: Actor): Promise<{ token: string | null }> {
  return orgTransaction(db, org, async (tx) => {
    const [found] = await tx.select({ id: groups.id, name: groups.name }).from(groups).where(and(eq(groups.org, org), eq(groups.id, group))).limit(1);
    if (found === undefined) throw new NotFoundError(`There is no group "${group}".`, [{ path: ["group"], message: `There is no group "${group}".` }]);
    const [held] = await tx.select({ group: groupRegistries.group }).from(groupRegistries).where(eq(groupRegistries.group, group)).limit(1);
    const was = held !== undefined;
    const ref = { id: found.id, name: found.name };
    if (!on) {
      if (!was) return { token: null };
      await tx.delete(groupRegistries).where(eq(groupRegistries.group, group));
      await recordAudit(tx, { org, actor, action: "group.changed", details: { group: ref, registry: { from: true, to: false } } });
      return { token: null };
    }
    const token = randomBytes(32).toString("base64url");
    const row = { group, org, tokenHash: hashOf(token), createdAt: Date.now(), createdBy: actor.id };
    await tx.insert(groupRegistries).values(row).onConflictDoUpdate({ target: groupRegistries.group, set: { tokenHash: row.tokenHash, createdAt: row.createdAt, createdBy: row.createdBy } });
    await recordAudit(tx, { org, actor, action: "group.changed", details: { group: ref, registry: { from: was, to: true, newAddress: true } } });
    return { token };
  });
}
