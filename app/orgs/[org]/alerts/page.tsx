import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { AlertsForm } from "@/components/alerts/alerts-form";
import { WebhooksList } from "@/components/alerts/webhooks-list";
import { alertsOf, membersOf } from "@/lib/alerts/alerts";
import { webhooksOf } from "@/lib/alerts/webhooks";
import { pageOrgAccess } from "@/lib/auth/page";
import { can, roleNeeded } from "@/lib/auth/roles";
import { orgContext } from "@/lib/orgs/context";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const access = await pageOrgAccess((await params).org);
  return { title: `Alerts of ${access.org.name}` };
}

/** The leaders' Alerts page (SPEC §28): which events are told, to whom, how; the webhooks, on or off. */
export default async function AlertsPage({ params }: Props) {
  const access = await pageOrgAccess((await params).org);
  const { db } = orgContext();
  const base = `/orgs/${encodeURIComponent(access.org.slug)}`;
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900">Alerts</h1>
      <p className="mt-2 text-sm text-slate-600">
        What {access.org.name}&apos;s leaders are told, and to whom. The mails sent or kept are in the{" "}
        <Link href={`${base}/outbox`} className="text-indigo-800 underline">
          outbox
        </Link>
        .
      </p>
      {can(access.role, "manage") ? (
        <>
          <AlertsForm org={access.org.slug} initial={await alertsOf(db, access.org.slug)} members={await membersOf(db, access.org.slug)} />
          <WebhooksList org={access.org.slug} initial={await webhooksOf(db, access.org.slug)} />
        </>
      ) : (
        <p className="mt-4 text-slate-700">{roleNeeded("manage", access.role)}</p>
      )}
    </main>
  );
}
