import "server-only";
import { logger } from "@/lib/log";
import { dashboardOrigins } from "./origins";

interface InvitationMail {
  id: string;
  email: string;
  role: string;
  organization: { name: string; slug: string };
  inviter: { user: { email: string; name: string } };
}

/** The link an invitee follows to join. */
export function invitationLink(id: string): string {
  return `${dashboardOrigins()[0]}/invite/${encodeURIComponent(id)}`;
}

/**
 * Mails the invitation when `SMTP_URL` is set (nodemailer); otherwise writes the link to the
 * server log (its `link` field), where whoever runs the dashboard finds it.
 */
export async function sendInvitation(data: InvitationMail): Promise<void> {
  const link = invitationLink(data.id);
  const smtp = process.env.SMTP_URL;
  if (smtp === undefined || smtp.trim() === "") {
    logger.info({ org: data.organization.slug, invitee: data.email, role: data.role, link }, "Invitation not mailed (no SMTP_URL): send its link to the invitee");
    return;
  }
  const { createTransport } = await import("nodemailer");
  await createTransport(smtp).sendMail({
    from: process.env.SMTP_FROM ?? `Theorem Connections <no-reply@${new URL(link).hostname}>`,
    to: data.email,
    subject: `${data.inviter.user.name} invites you to ${data.organization.name} on Theorem Connections`,
    text: `You are invited to join ${data.organization.name} as ${data.role}.\n\nJoin: ${link}\n`,
  });
}
