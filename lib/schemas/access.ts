import { z } from "zod";
import { role } from "./roles";
import { plainName, storable } from "./names";
import { orgSlug } from "./orgs";

/**
 * Accounts, organisations, members, keys and the audit log (SPEC §9): what the routes parse
 * and answer, and what the forms validate with.
 */

const email = z.string().trim().toLowerCase().email("Give an email address.").max(254, "An email address is at most 254 characters.");
const password = z.string().min(8, "A password is at least 8 characters.").max(128, "A password is at most 128 characters.");

export const signIn = z.object({ email, password: z.string().min(1, "Give your password.") });
/** POST /api/auth/change-password, from the account page: every other session is signed out. */
export const passwordChange = z
  .object({ currentPassword: z.string().min(1, "Give your current password."), newPassword: password })
  .refine((p) => p.newPassword !== p.currentPassword, { path: ["newPassword"], message: "Choose a password other than the current one." });
export const displayName = plainName(z.string().trim().min(1, "Give your name.").max(100, "A name is at most 100 characters."));
export const signUp = z.object({ name: displayName, email, password });

/** POST /api/orgs */
export const orgCreate = z.object({
  name: plainName(z.string().trim().min(1, "Give the organisation a name.").max(100, "A name is at most 100 characters.")),
  // `/orgs/new` is the page that creates one: no organisation may take that address.
  slug: orgSlug.refine((slug) => slug !== "new", "“new” is taken by the page that creates organisations: choose another."),
});
export type OrgCreate = z.infer<typeof orgCreate>;

/** GET /api/orgs: the caller's organisations with their role. */
export const myOrg = z.object({ id: z.string(), slug: z.string(), name: z.string(), role });
export const myOrgs = z.object({ orgs: z.array(myOrg) });
export type MyOrg = z.infer<typeof myOrg>;

export const memberView = z.object({ id: z.string(), userId: z.string(), email: z.string(), name: z.string(), role, joinedAt: z.string() });
export type MemberView = z.infer<typeof memberView>;
export const invitationView = z.object({ id: z.string(), email: z.string(), role, expiresAt: z.string() });
export type InvitationView = z.infer<typeof invitationView>;
/** GET /api/orgs/{org}/members */
export const memberList = z.object({ members: z.array(memberView), invitations: z.array(invitationView) });
export type MemberList = z.infer<typeof memberList>;

/** POST /api/orgs/{org}/invitations */
export const invitationCreate = z.object({ email, role });
export type InvitationCreate = z.infer<typeof invitationCreate>;
/** POST /api/invitations/{id}/accept: the secret the invitation's link carries (`?secret=`). */
export const invitationAccept = z.object({ secret: z.string({ error: "Give the secret of the invitation's link." }).min(1, "Give the secret of the invitation's link.").max(200) });
/** PATCH /api/orgs/{org}/members/{id} */
export const memberUpdate = z.object({ role });

export const apiKeyCreate = z.object({ name: plainName(z.string().trim().min(1, "Give the key a name.").max(32, "A key's name is at most 32 characters.")) });
const apiKeyView = z.object({ id: z.string(), name: z.string().nullable(), start: z.string().nullable(), createdAt: z.string(), expiresAt: z.string().nullable() });
export type ApiKeyView = z.infer<typeof apiKeyView>;
/** POST /api/orgs/{org}/keys answers the key itself, once. */
export const apiKeyCreated = apiKeyView.extend({ key: z.string() });
export const apiKeyList = z.object({ keys: z.array(apiKeyView) });

export const auditAction = z.enum([
  "app.connected",
  "app.edited",
  "app.removed",
  "settings.changed",
  "member.invited",
  "member.invitation-cancelled",
  "member.joined",
  "member.removed",
  "member.role-changed",
  "changes.approved",
  "key.created",
  "key.revoked",
  "tool.tried",
  "tool.setting.changed",
  "app.settings.changed",
  "app.access.changed",
  "group.created",
  "group.changed",
  "group.removed",
  "alerts.changed",
]);
export type AuditAction = z.infer<typeof auditAction>;

const auditEntry = z.object({
  at: z.string(),
  actor: z.object({ id: z.string(), email: z.string() }),
  action: auditAction,
  app: z.object({ id: z.string(), name: z.string() }).optional(),
  member: z.object({ id: z.string(), email: z.string() }).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditList = z.object({ entries: z.array(auditEntry) });

/** GET /api/orgs/{org}/audit?app=&actor=&before=&limit= */
export const auditQuery = z.object({
  app: storable(z.string().max(200)).optional(),
  actor: storable(z.string().max(200)).optional(),
  before: z.iso.datetime({ error: "`before` is an ISO 8601 time." }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQuery>;
