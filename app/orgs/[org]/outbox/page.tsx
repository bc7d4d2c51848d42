import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { outboxOf } from "@/lib/alerts/alerts";
import { pageOrgAccess } from "@/lib/auth/page";
import { can, roleNeeded } from "@/lib/auth/roles";
import { orgContext } from "@/lib/orgs/context";
import type { OutboxMail } from "@/lib/schemas/alerts";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const access = await pageOrgAccess((await params).org);
  return { title: `Outbox of ${access.org.name}` };
}

const STATE_WORDS: Record<OutboxMail["state"], string> = {
  pending: "Waiting to be sent",
  sent: "Sent",
  logged: "Not mailed (no SMTP_URL): written to the log, kept here",
};

const when = (iso: string) => new Date(iso).toUTCString();

/** The organisation's outbox (SPEC §28, leaders): every alert mail, sent or kept, newest first. */
export default async function OutboxPage({ params }: Props) {
  const access = await pageOrgAccess((await params).org);
  if (!can(access.role, "manage")) {
    return (
      <main className="mx-auto max-w-6xl px-4 py-8">
        <h1 className="text-2xl font-semibold text-slate-900">Outbox</h1>
        <p className="mt-4 text-slate-700">{roleNeeded("manage", access.role)}</p>
      </main>
    );
  }
  const mails = await outboxOf(orgContext().db, access.org.slug);
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900">Outbox</h1>
      <p className="mt-2 text-sm text-slate-600">
        The alerts mailed to {access.org.name}&apos;s recipients, newest first. Without <code>SMTP_URL</code> they are written to the server log and kept here.
      </p>
      {mails.length === 0 ? (
        <p className="mt-6 text-slate-700">No alerts yet.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {mails.map((mail) => (
            <li key={mail.id} className="rounded border border-slate-200 bg-white p-4">
              <h2 className="font-medium text-slate-900">{mail.subject}</h2>
              <p className="mt-1 text-sm text-slate-600">
                To {mail.to}, {when(mail.at)} · {STATE_WORDS[mail.state]}
                {mail.sentAt === null ? "" : ` ${when(mail.sentAt)}`}
              </p>
              <p className="mt-2 whitespace-pre-line text-sm text-slate-800">{mail.body.split("\n")[0]}</p>
              <p className="mt-1 text-sm text-slate-700">Since {when(mail.since)}</p>
              <p className="mt-2 text-sm">
                <Link href={new URL(mail.link).pathname} className="text-indigo-800 underline">
                  {mail.app === null ? "What fixes it" : `Open ${mail.app.name}`}
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
