import "server-only";
import { APIError } from "better-auth/api";
import { and, asc, eq, gt } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { invitation, member, organization, user } from "@/lib/db/tables";
import type { InvitationCreate, InvitationView, MemberList, MemberView, MyOrg, OrgCreate } from "@/lib/schemas/access";
import { getAuth } from "./auth";
import { invitationLink } from "./invitations";
import { parseRole, type Role } from "./roles";
import type { OrgAccess } from "./workspace";

/**
 * Members and invitations, done by better-auth's organization plugin (which keeps an
 * organisation's last leader, refuses duplicate slugs and members); this module only turns
 * its errors into ours. The caller's permission has been checked by `withOrg` already.
 */

const SENTENCES: Record<string, [ApiError["code"], string]> = {
  ORGANIZATION_ALREADY_EXISTS: ["conflict", "That address is taken by another organisation: choose another."],
  ORGANIZATION_SLUG_ALREADY_TAKEN: ["conflict", "That address is taken by another organisation: choose another."],
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: ["conflict", "That person is already a member."],
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: ["conflict", "That person is already invited."],
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: ["conflict", "An organisation always keeps a leader: make someone else a leader first."],
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: ["conflict", "An organisation always keeps a leader: make someone else a leader first."],
  MEMBER_NOT_FOUND: ["not-found", "There is no such member."],
  INVITATION_NOT_FOUND: ["not-found", "There is no such invitation, or it has expired."],
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: ["not-found", "There is no such invitation for the account you are signed in with."],
  ROLE_NOT_FOUND: ["invalid-request", "A role is leader, developer or support."],
};

/** Runs a better-auth call, answering its refusals as our errors. */
async function viaAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const body = error.body as { code?: string; message?: string } | undefined;
    const known = body?.code === undefined ? undefined : SENTENCES[body.code];
    if (known !== undefined) throw new ApiError(known[0], known[1]);
    const status = Number(error.statusCode);
    const code = status === 401 ? "unauthorized" : status === 403 ? "forbidden" : status === 404 ? "not-found" : status === 429 ? "rate-limited" : "invalid-request";
    throw new ApiError(code, body?.message ?? "The request was refused.");
  }
}

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

/** Creates an organisation whose first leader is the caller. */
export async function createOrg(headers: Headers, input: OrgCreate): Promise<MyOrg> {
  const created = await viaAuth(() => getAuth().api.createOrganization({ headers, body: { name: input.name, slug: input.slug, keepCurrentActiveOrganization: true } }));
  if (created === null) throw new ApiError("invalid-request", "The organisation could not be created.");
  return { id: created.id, slug: created.slug, name: created.name, role: "leader" };
}

export async function listMembers(access: OrgAccess): Promise<MemberList> {
  const db = getDb();
  const members = (
    await db
    .select({ id: member.id, userId: user.id, email: user.email, name: user.name, role: member.role, joinedAt: member.createdAt })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, access.org.id))
      .orderBy(asc(member.createdAt))
  ).flatMap((row): MemberView[] => {
      const role = parseRole(row.role);
      return role === null ? [] : [{ ...row, role, joinedAt: row.joinedAt.toISOString() }];
    });
  const invitations = (
    await db
      .select()
      .from(invitation)
      .where(and(eq(invitation.organizationId, access.org.id), eq(invitation.status, "pending"), gt(invitation.expiresAt, new Date())))
      .orderBy(asc(invitation.createdAt))
  ).flatMap((row): InvitationView[] => {
      const role = parseRole(row.role);
      return role === null ? [] : [{ id: row.id, email: row.email, role, expiresAt: row.expiresAt.toISOString() }];
    });
  return { members, invitations };
}

export async function findMember(access: OrgAccess, memberId: string): Promise<MemberView> {
  const found = (await listMembers(access)).members.find((m) => m.id === memberId);
  if (found === undefined) throw new ApiError("not-found", "There is no such member.");
  return found;
}

export async function invite(headers: Headers, access: OrgAccess, input: InvitationCreate): Promise<InvitationView & { link: string }> {
  if ((await listMembers(access)).members.some((m) => m.email === input.email)) throw new ApiError("conflict", "That person is already a member.");
  const created = await viaAuth(() =>
    getAuth().api.createInvitation({ headers, body: { email: input.email, role: input.role, organizationId: access.org.id, resend: true } }),
  );
  return { id: created.id, email: created.email, role: input.role, expiresAt: new Date(created.expiresAt).toISOString(), link: invitationLink(created.id) };
}

export async function cancelInvitation(headers: Headers, access: OrgAccess, id: string): Promise<InvitationView> {
  const found = (await listMembers(access)).invitations.find((i) => i.id === id);
  if (found === undefined) throw new ApiError("not-found", "There is no such invitation, or it has expired.");
  await viaAuth(() => getAuth().api.cancelInvitation({ headers, body: { invitationId: id } }));
  return found;
}

/** Accepts an invitation addressed to the signed-in account; answers the organisation joined. */
export async function acceptInvitation(headers: Headers, id: string): Promise<{ org: string; memberId: string; role: Role }> {
  const accepted = await viaAuth(() => getAuth().api.acceptInvitation({ headers, body: { invitationId: id } }));
  if (accepted === null) throw new ApiError("not-found", "There is no such invitation, or it has expired.");
  const [org] = await getDb().select({ slug: organization.slug }).from(organization).where(eq(organization.id, accepted.invitation.organizationId)).limit(1);
  if (org === undefined) throw new ApiError("not-found", "That organisation no longer exists.");
  return { org: org.slug, memberId: accepted.member.id, role: parseRole(accepted.member.role) ?? "support" };
}

export async function changeRole(headers: Headers, access: OrgAccess, memberId: string, role: Role): Promise<MemberView> {
  const before = await findMember(access, memberId);
  const leaders = (await listMembers(access)).members.filter((m) => m.role === "leader");
  if (before.role === "leader" && role !== "leader" && leaders.length <= 1) {
    throw new ApiError("conflict", "An organisation always keeps a leader: make someone else a leader first.");
  }
  await viaAuth(() => getAuth().api.updateMemberRole({ headers, body: { memberId, role, organizationId: access.org.id } }));
  return { ...before, role };
}

export async function removeMember(headers: Headers, access: OrgAccess, memberId: string): Promise<MemberView> {
  const before = await findMember(access, memberId);
  const leaders = (await listMembers(access)).members.filter((m) => m.role === "leader");
  if (before.role === "leader" && leaders.length <= 1) throw new ApiError("conflict", "An organisation always keeps a leader: make someone else a leader first.");
  await viaAuth(() => getAuth().api.removeMember({ headers, body: { memberIdOrEmail: memberId, organizationId: access.org.id } }));
  return before;
}
