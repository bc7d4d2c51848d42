import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { ConflictError, ForbiddenError, NotFoundError, onField } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/audit-log";
import { getDb, orgTransaction, type Conn } from "@/lib/db/client";
import { invitation, member, organization, user } from "@/lib/db/tables";
import { removePersonalApps } from "./connections";
import { leaveGroups } from "./groups";
import { startOrgSettings } from "./organisations";
import type { InvitationCreate, InvitationView, MemberList, MemberView, MyOrg, OrgCreate } from "@/lib/schemas/access";
import type { Person } from "@/lib/schemas/people";
import { revokeKeysOf } from "@/lib/auth/keys";
import { invitationLink, newInvitationSecret, secretMatches, sendInvitation, smtpConfigured } from "@/lib/auth/invitations";
import type { Role } from "@/lib/schemas/roles";
import { can, parseRole, roleNeeded, roleNeededAnywhere, type Action } from "@/lib/auth/roles";
import { membership, requireAction, type Actor, type OrgAccess } from "@/lib/auth/workspace";
import { membersOf } from "@/lib/auth/member-reads";

/**
 * Organisations, members and invitations (SPEC §9), stored by us: each change is one transaction
 * under the organisation's lock, with its audit entry, and checks SPEC's rules inside it (one role
 * of three per member, an organisation always keeps a leader, the one asking is still a leader).
 * better-auth keeps accounts and sessions only; none of its organisation endpoints is mounted.
 */

const INVITATION_DAYS = 7;
const keepsLeader = "An organisation always keeps a leader: make someone else a leader first.";
const noInvitation = "There is no such invitation, or it has expired or been used: ask the organisation's leader for a new link.";
const unverified = "Verify your email address first: follow the link mailed to you when you signed up, then join.";

/** The caller's organisations with their role there, oldest membership first. */
export async function myOrgs(userId: string): Promise<MyOrg[]> {
  const rows = await getDb()
    .select({ id: organization.id, slug: organization.slug, name: organization.name, role: member.role })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt));
  return rows.flatMap((row) => {
    const role = parseRole(row.role);
    return role === null ? [] : [{ id: row.id, slug: row.slug, name: row.name, role }];
  });
}

/** The actor's organisations where they act: every one of the account's, or an API key's own. */
async function actingOrgs(actor: Actor): Promise<MyOrg[]> {
  return (await myOrgs(actor.id)).filter((o) => actor.via.kind === "session" || o.slug === actor.via.org);
}

/** The first of the actor's organisations whose role there allows `action`, or null. */
export async function firstOrgAllowing(actor: Actor, action: Action): Promise<MyOrg | null> {
  return (await actingOrgs(actor)).find((o) => can(o.role, action)) ?? null;
}

/**
 * Where `actor` does `action` outside an organisation's routes (a preview's try): the organisation
 * named, answered as `withOrg` answers it (404 for a non-member, 403 naming the role needed), or
 * else the first whose role allows it (403 when none does).
 */
export async function orgAllowing(actor: Actor, action: Action, slug?: string): Promise<string> {
  if (slug !== undefined) {
    const access = await membership(slug, actor);
    requireAction(access, action);
    return access.org.slug;
  }
  const orgs = await actingOrgs(actor);
  const allowed = orgs.find((o) => can(o.role, action));
  if (allowed !== undefined) return allowed.slug;
  throw new ForbiddenError(orgs[0] === undefined ? roleNeededAnywhere(action) : roleNeeded(action, orgs[0].role));
}

/** Creates an organisation whose first leader is `actor`; a taken address is the 409. */
export async function createOrg(actor: Actor, input: OrgCreate): Promise<MyOrg> {
  const id = randomUUID();
  const takenSentence = "That address is taken by another organisation: choose another.";
  const taken = new ConflictError(takenSentence, onField("slug", takenSentence));
  try {
    await orgTransaction(getDb(), input.slug, async (tx) => {
      const [existing] = await tx.select({ id: organization.id }).from(organization).where(eq(organization.slug, input.slug)).limit(1);
      if (existing !== undefined) throw taken;
      const now = new Date();
      await tx.insert(organization).values({ id, slug: input.slug, name: input.name, createdAt: now });
      await tx.insert(member).values({ id: randomUUID(), organizationId: id, userId: actor.id, role: "leader", createdAt: now });
      await startOrgSettings(tx, input.slug);
    });
  } catch (error) {
    // Two instances creating one address at once: the unique index answers for the later one.
    if (!(error instanceof ConflictError) && isUniqueViolation(error)) throw taken;
    throw error;
  }
  return { id, slug: input.slug, name: input.name, role: "leader" };
}

function isUniqueViolation(error: unknown): boolean {
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505" || (cause !== undefined && cause !== error && isUniqueViolation(cause));
}

async function pendingInvitations(db: Conn, orgId: string): Promise<InvitationView[]> {
  const rows = await db
    .select()
    .from(invitation)
    .where(and(eq(invitation.organizationId, orgId), eq(invitation.status, "pending"), gt(invitation.expiresAt, new Date())))
    .orderBy(asc(invitation.createdAt));
  return rows.flatMap((row): InvitationView[] => {
    const role = parseRole(row.role);
    return role === null ? [] : [{ id: row.id, email: row.email, role, expiresAt: row.expiresAt.toISOString() }];
  });
}

export async function listMembers(access: OrgAccess): Promise<MemberList> {
  const db = getDb();
  return { members: await membersOf(db, access.org.id), invitations: await pendingInvitations(db, access.org.id) };
}

/** The members as SPEC §12's people: `id`, `email`, `name`, `role`. */
export async function listPeople(access: OrgAccess): Promise<Person[]> {
  return (await membersOf(getDb(), access.org.id)).map(({ id, email, name, role }) => ({ id, email, name, role }));
}

/**
 * A change to the organisation's members, by a leader: inside the transaction the one asking is
 * still a leader (two leaders re-roling each other at once: the second finds it is not one any more).
 */
async function asLeader<T>(access: OrgAccess, work: (tx: Conn, members: MemberView[]) => Promise<T>): Promise<T> {
  return orgTransaction(getDb(), access.org.slug, async (tx) => {
    const members = await membersOf(tx, access.org.id);
    const mine = members.find((m) => m.userId === access.actor.id);
    if (mine === undefined || !can(mine.role, "manage")) {
      throw new ForbiddenError("Only a leader may manage members; you are no longer a leader here.");
    }
    return work(tx, members);
  });
}

function memberIn(members: MemberView[], memberId: string): MemberView {
  const found = members.find((m) => m.id === memberId);
  if (found === undefined) throw new NotFoundError("There is no such member.");
  return found;
}

const leaders = (members: MemberView[]) => members.filter((m) => m.role === "leader").length;

/**
 * Invites `input.email` as `input.role` (a pending invitation to the same address is replaced).
 * The link carries the invitation's secret, stored as its hash only: it is mailed or logged, and
 * answered to the leader this once.
 */
export async function invite(access: OrgAccess, input: InvitationCreate): Promise<InvitationView & { link: string }> {
  const id = randomUUID();
  const { secret, hash } = newInvitationSecret();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  await asLeader(access, async (tx, members) => {
    if (members.some((m) => m.email.toLowerCase() === input.email)) throw new ConflictError("That person is already a member.");
    await tx
      .update(invitation)
      .set({ status: "canceled" })
      .where(and(eq(invitation.organizationId, access.org.id), eq(invitation.status, "pending"), sql`lower(${invitation.email}) = ${input.email}`));
    await tx.insert(invitation).values({ id, organizationId: access.org.id, email: input.email, role: input.role, status: "pending", expiresAt, createdAt: new Date(), inviterId: access.actor.id, secretHash: hash });
    await recordAudit(tx, { org: access.org.slug, actor: access.actor, action: "member.invited", member: { id, email: input.email }, details: { role: input.role } });
  });
  const link = invitationLink(id, secret);
  await sendInvitation({ id, email: input.email, role: input.role, organization: access.org, inviter: { user: { email: access.actor.email, name: access.actor.name } } }, link);
  return { id, email: input.email, role: input.role, expiresAt: expiresAt.toISOString(), link };
}

export async function cancelInvitation(access: OrgAccess, id: string): Promise<InvitationView> {
  return asLeader(access, async (tx) => {
    const found = (await pendingInvitations(tx, access.org.id)).find((i) => i.id === id);
    if (found === undefined) throw new NotFoundError("There is no such invitation, or it has expired.");
    await tx.update(invitation).set({ status: "canceled" }).where(eq(invitation.id, id));
    await recordAudit(tx, { org: access.org.slug, actor: access.actor, action: "member.invitation-cancelled", member: { id, email: found.email }, details: { role: found.role } });
    return found;
  });
}

/**
 * A pending, unexpired invitation whose link's secret is `secret`, with its organisation and whether
 * it is addressed to `actor` (by email); without its secret an invitation is not found, whoever asks.
 */
export async function invitationFor(actor: Pick<Actor, "email">, id: string, secret: string | undefined, db: Conn = getDb()) {
  if (id.length > 200) return null;
  const [row] = await db
    .select({ invitation, org: { id: organization.id, slug: organization.slug, name: organization.name } })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .where(and(eq(invitation.id, id), eq(invitation.status, "pending"), gt(invitation.expiresAt, new Date())))
    .limit(1);
  const role = parseRole(row?.invitation.role);
  if (row === undefined || role === null || !secretMatches(row.invitation.secretHash, secret)) return null;
  return { id: row.invitation.id, email: row.invitation.email, role, org: row.org, mine: row.invitation.email.toLowerCase() === actor.email.toLowerCase() };
}

/** Whether the account's address must be verified before it joins (SPEC §9: when mail is set up), and is not. */
export async function needsVerifiedEmail(actor: Pick<Actor, "id">, db: Conn = getDb()): Promise<boolean> {
  if (!smtpConfigured()) return false;
  const [row] = await db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, actor.id)).limit(1);
  return row?.verified !== true;
}

/**
 * Accepts an invitation with its link's secret, for the signed-in account it is addressed to (with
 * mail set up, once that address is verified); the invitation is then used. Answers the organisation joined.
 */
export async function acceptInvitation(actor: Actor, id: string, secret: string): Promise<{ org: string; memberId: string; role: Role }> {
  const seen = await invitationFor(actor, id, secret);
  if (seen === null) throw new NotFoundError(noInvitation);
  if (!seen.mine) throw new NotFoundError("There is no such invitation for the account you are signed in with.");
  if (await needsVerifiedEmail(actor)) throw new ForbiddenError(unverified);
  return orgTransaction(getDb(), seen.org.slug, async (tx) => {
    const found = await invitationFor(actor, id, secret, tx);
    if (found === null || !found.mine) throw new NotFoundError(noInvitation);
    if (await needsVerifiedEmail(actor, tx)) throw new ForbiddenError(unverified);
    const [already] = await tx.select({ id: member.id }).from(member).where(and(eq(member.organizationId, found.org.id), eq(member.userId, actor.id))).limit(1);
    if (already !== undefined) throw new ConflictError("You are already a member of that organisation.");
    const memberId = randomUUID();
    await tx.insert(member).values({ id: memberId, organizationId: found.org.id, userId: actor.id, role: found.role, createdAt: new Date() });
    await tx.update(invitation).set({ status: "accepted" }).where(eq(invitation.id, id));
    await recordAudit(tx, { org: found.org.slug, actor, action: "member.joined", member: { id: memberId, email: actor.email }, details: { role: found.role } });
    return { org: found.org.slug, memberId, role: found.role };
  });
}

export async function changeRole(access: OrgAccess, memberId: string, role: Role): Promise<MemberView> {
  return asLeader(access, async (tx, members) => {
    const before = memberIn(members, memberId);
    if (before.role === role) return before;
    if (before.role === "leader" && leaders(members) <= 1) throw new ConflictError(keepsLeader);
    await tx.update(member).set({ role }).where(eq(member.id, memberId));
    await recordAudit(tx, { org: access.org.slug, actor: access.actor, action: "member.role-changed", member: { id: before.id, email: before.email }, details: { from: before.role, to: role } });
    return { ...before, role };
  });
}

/**
 * Removes a member (a leader removing themselves leaves) with what was theirs here: their personal
 * apps, with those apps' sign-ins and history, and their API keys for this organisation (SPEC §9).
 */
export async function removeMember(access: OrgAccess, memberId: string): Promise<MemberView> {
  return asLeader(access, async (tx, members) => {
    const before = memberIn(members, memberId);
    if (before.role === "leader" && leaders(members) <= 1) throw new ConflictError(keepsLeader);
    await leaveGroups(tx, access.org.slug, memberId);
    await tx.delete(member).where(eq(member.id, memberId));
    await removePersonalApps(tx, access.org.slug, before.userId);
    const keys = await revokeKeysOf(tx, before.userId, access.org.slug);
    await recordAudit(tx, { org: access.org.slug, actor: access.actor, action: "member.removed", member: { id: before.id, email: before.email }, details: { role: before.role, keysRevoked: keys } });
    return before;
  });
}
