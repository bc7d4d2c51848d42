import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { JoinButton } from "@/components/account/join-button";
import { SignOutButton } from "@/components/account/sign-out-button";
import { Card } from "@/components/ui/card";
import { VerifyEmailButton } from "@/components/account/verify-email-button";
import { invitationFor, needsVerifiedEmail } from "@/lib/orgs/members";
import { pageActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Invitation" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ secret?: string | string[] }> };

type Lookup = { kind: "found"; orgName: string; role: string; verified: boolean } | { kind: "not-yours" } | { kind: "missing" };

/**
 * The invitation as its signed-in recipient sees it, with its link's secret (SPEC §9); anyone else
 * is told only that it is not theirs, and without the secret it is not found.
 */
async function lookUpInvitation(actor: { id: string; email: string }, id: string, secret: string | undefined): Promise<Lookup> {
  const found = await invitationFor(actor, id, secret);
  if (found === null) return { kind: "missing" };
  if (!found.mine) return { kind: "not-yours" };
  return { kind: "found", orgName: found.org.name, role: found.role, verified: !(await needsVerifiedEmail(actor)) };
}

export default async function InvitePage({ params, searchParams }: Props) {
  const { id } = await params;
  const given = (await searchParams).secret;
  const secret = typeof given === "string" ? given : undefined;
  // The way back here after signing in keeps the link's secret.
  const here = `/invite/${encodeURIComponent(id)}${secret === undefined ? "" : `?secret=${encodeURIComponent(secret)}`}`;
  const actor = await pageActor();

  if (actor === null) {
    const next = `?next=${encodeURIComponent(here)}`;
    return (
      <Card className="mx-auto max-w-md space-y-3">
        <h1 className="text-xl font-semibold text-slate-900">You are invited</h1>
        <p className="text-slate-700">Sign in, or create an account with the email address the invitation was sent to: you then come back here to join.</p>
        <div className="flex flex-wrap gap-3">
          <Link href={`/sign-in${next}`} className="rounded-md bg-indigo-700 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-800">
            Sign in
          </Link>
          <Link href={`/sign-up${next}`} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50">
            Create an account
          </Link>
        </div>
      </Card>
    );
  }

  const invitation = await lookUpInvitation(actor, id, secret);
  return (
    <Card className="mx-auto max-w-md space-y-3">
      {invitation.kind === "found" ? (
        <>
          <h1 className="text-xl font-semibold break-words text-slate-900">Join {invitation.orgName}</h1>
          <p className="text-slate-700">
            You are invited as <strong>{invitation.role}</strong>. You are signed in as <span className="break-all">{actor.email}</span>.
          </p>
          {invitation.verified ? (
            <JoinButton invitationId={id} secret={secret ?? ""} orgName={invitation.orgName} />
          ) : (
            <>
              <p className="text-slate-700">Verify your email address first: follow the link mailed to you when you signed up, and you come back here to join.</p>
              <VerifyEmailButton email={actor.email} next={here} />
            </>
          )}
        </>
      ) : invitation.kind === "not-yours" ? (
        <>
          <h1 className="text-xl font-semibold text-slate-900">This invitation is for someone else</h1>
          <p className="text-slate-700">
            You are signed in as <span className="break-all">{actor.email}</span>, but the invitation was sent to another address. Sign out, then sign in with
            that address.
          </p>
          <SignOutButton next={here} />
        </>
      ) : (
        <>
          <h1 className="text-xl font-semibold text-slate-900">Invitation not found</h1>
          <p className="text-slate-700">
            It may have expired, been cancelled or been used already, or the link was not copied whole. Ask the organisation&apos;s leader for a new one.
          </p>
          <Link href="/" className="text-indigo-800 underline">
            Go to your organisations
          </Link>
        </>
      )}
    </Card>
  );
}
