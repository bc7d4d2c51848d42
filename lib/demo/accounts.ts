import "server-only";
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import { transaction, type Conn } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/audit-log";
import { account, auditEntries, member, organization, user } from "@/lib/db/tables";
import { orgApps } from "@/lib/orgs/app-rows";
import type { Role } from "@/lib/schemas/roles";
import { DEMO_ORG } from "./seed";

/** The demo organisation's three accounts, one per role (SPEC §9). */
export const DEMO_ACCOUNTS: readonly { email: string; name: string; role: Role }[] = [
  { email: "leader@demo.test", name: "Demo leader", role: "leader" },
  { email: "developer@demo.test", name: "Demo developer", role: "developer" },
  { email: "support@demo.test", name: "Demo support", role: "support" },
];

/**
 * Makes sure each demo account exists with `password` (its hash is set again on every start,
 * so the printed password always works) and is a member of the demo organisation in its role.
 * Run after `seedDemo`, which makes the organisation.
 */
export async function seedDemoAccounts(db: Conn, password: string): Promise<void> {
  const hash = await hashPassword(password);
  const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, DEMO_ORG.slug)).limit(1);
  if (org === undefined) throw new Error("The demo organisation is seeded before its accounts.");
  const now = new Date();
  await transaction(db, async (tx) => {
    for (const demo of DEMO_ACCOUNTS) {
      let userId = (await tx.select({ id: user.id }).from(user).where(eq(user.email, demo.email)).limit(1))[0]?.id;
      if (userId === undefined) {
        userId = randomUUID();
        await tx.insert(user).values({ id: userId, name: demo.name, email: demo.email, emailVerified: true, createdAt: now, updatedAt: now });
      }
      const credential = (await tx.select({ id: account.id }).from(account).where(and(eq(account.userId, userId), eq(account.providerId, "credential"))).limit(1))[0];
      if (credential === undefined) {
        await tx.insert(account).values({ id: randomUUID(), accountId: userId, providerId: "credential", userId, password: hash, createdAt: now, updatedAt: now });
      } else {
        await tx.update(account).set({ password: hash, updatedAt: now }).where(eq(account.id, credential.id));
      }
      const membership = (await tx.select({ id: member.id }).from(member).where(and(eq(member.organizationId, org.id), eq(member.userId, userId))).limit(1))[0];
      if (membership === undefined) {
        await tx.insert(member).values({ id: randomUUID(), organizationId: org.id, userId, role: demo.role, createdAt: now });
      } else {
        await tx.update(member).set({ role: demo.role }).where(eq(member.id, membership.id));
      }
    }
  });
}

/**
 * The demo's audit log starts with what its leader did: connecting each app and inviting the two
 * other accounts, at the times they were connected. Written once, when the log is empty.
 */
export async function seedDemoAudit(db: Conn): Promise<void> {
  await transaction(db, async (tx) => {
    if ((await tx.$count(auditEntries, eq(auditEntries.org, DEMO_ORG.slug))) > 0) return;
    const [leader] = await tx.select({ id: user.id, email: user.email }).from(user).where(eq(user.email, DEMO_ACCOUNTS[0]!.email)).limit(1);
    if (leader === undefined) return;
    const connected = await orgApps(tx, DEMO_ORG.slug);
    for (const app of connected) await recordAudit(tx, { org: DEMO_ORG.slug, actor: leader, action: "app.connected", app: { id: app.id, name: app.name }, details: { url: app.url } }, app.connectedAt);
    const at = (connected[0]?.connectedAt ?? Date.now()) - 1000;
    for (const demo of DEMO_ACCOUNTS.slice(1)) {
      const [invited] = await tx.select({ id: user.id }).from(user).where(eq(user.email, demo.email)).limit(1);
      if (invited !== undefined) await recordAudit(tx, { org: DEMO_ORG.slug, actor: leader, action: "member.invited", member: { id: invited.id, email: demo.email }, details: { role: demo.role } }, at);
    }
  });
}
