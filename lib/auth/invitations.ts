import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { logger } from "@/lib/log";
import { dashboardOrigins } from "./origins";

interface InvitationMail {
  id: string;
  email: string;
  role: string;
  organization: { name: string; slug: string };
  inviter: { user: { email: string; name: string } };
}

/**
 * An invitation's secret (SPEC §9): random, in its link only, stored as its SHA-256. Its id,
 * which members and the audit log see, grants nothing without it.
 */
export function newInvitationSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: hashSecret(secret) };
}

const hashSecret = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");

/** Whether `secret` is the one whose hash was stored (an invitation stored with none matches nothing). */
export function secretMatches(storedHash: string | null, secret: string | undefined): boolean {
  if (storedHash === null || secret === undefined || secret === "" || secret.length > 200) return false;
  const given = Buffer.from(hashSecret(secret), "utf8");
  const stored = Buffer.from(storedHash, "utf8");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The link an invitee follows to join: the invitation and its secret. */
export function invitationLink(id: string, secret: string): string {
  return `${dashboardOrigins()[0]}/invite/${encodeURIComponent(id)}?secret=${encodeURIComponent(secret)}`;
}

/** Whether mail is set up (`SMTP_URL`): invitations are then mailed, and accepting one needs a verified address. */
export function smtpConfigured(): boolean {
  const smtp = process.env.SMTP_URL;
  return smtp !== undefined && smtp.trim() !== "";
}

/** Sends one plain-text mail through `SMTP_URL` (nodemailer). */
export async function sendMail(to: string, subject: string, text: string): Promise<void> {
  const smtp = process.env.SMTP_URL ?? "";
  const { createTransport } = await import("nodemailer");
  await createTransport(smtp).sendMail({
    from: process.env.SMTP_FROM ?? `Theorem Connections <no-reply@${new URL(dashboardOrigins()[0]!).hostname}>`,
    to,
    subject,
    text,
  });
}

/**
 * Mails the invitation when `SMTP_URL` is set; otherwise writes the link to the server log (its
 * `link` field), where whoever runs the dashboard finds it.
 */
export async function sendInvitation(data: InvitationMail, link: string): Promise<void> {
  if (!smtpConfigured()) {
    logger.info({ org: data.organization.slug, invitee: data.email, role: data.role, link }, "Invitation not mailed (no SMTP_URL): send its link to the invitee");
    return;
  }
  await sendMail(
    data.email,
    `${data.inviter.user.name} invites you to ${data.organization.name} on Theorem Connections`,
    `You are invited to join ${data.organization.name} as ${data.role}.\n\nJoin: ${link}\n\nThe link works once, for 7 days.\n`,
  );
}

/** Mails the link that verifies an account's address (SMTP only: without mail there is nothing to send). */
export async function sendVerification(email: string, url: string): Promise<void> {
  if (!smtpConfigured()) return;
  await sendMail(email, "Verify your email address for Theorem Connections", `Verify your address: ${url}\n`);
}
