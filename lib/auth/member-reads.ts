import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb, type Conn } from "@/lib/db/client";
import { member, user } from "@/lib/db/tables";
import { NotFoundError } from "@/lib/errors";
import type { MemberView } from "@/lib/schemas/access";
import { parseRole } from "./roles";
import type { OrgAccess } from "./workspace";

/**
 * Reading an organisation's members (SPEC §9): what pages and routes of every layer ask. Changes
 * to members (invitations, roles, removal, with what is theirs in the organisation) are
 * lib/orgs/members.ts.
 */

/** The organisation's members, earliest first; a stored role no longer known is left out. */
export async function membersOf(db: Conn, orgId: string): Promise<MemberView[]> {
  const rows = await db
    .select({ id: member.id, userId: user.id, email: user.email, name: user.name, role: member.role, joinedAt: member.createdAt })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, orgId))
    .orderBy(asc(member.createdAt));
  return rows.flatMap((row): MemberView[] => {
    const role = parseRole(row.role);
    return role === null ? [] : [{ ...row, role, joinedAt: row.joinedAt.toISOString() }];
  });
}

/** One member of the organisation the access is to, by member id; 404 when none. */
export async function findMember(access: OrgAccess, memberId: string): Promise<MemberView> {
  const found = (await membersOf(getDb(), access.org.id)).find((m) => m.id === memberId);
  if (found === undefined) throw new NotFoundError("There is no such member.");
  return found;
}
