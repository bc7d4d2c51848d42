import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeNext } from "@/components/account/next-path";
import { SignInForm } from "@/components/account/sign-in-form";
import { pageActor } from "@/lib/auth/page";
import { DEMO_ACCOUNTS } from "@/lib/demo/accounts";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const given = safeNext((await searchParams).next, "") || null;
  const next = given ?? "/";
  if ((await pageActor()) !== null) redirect(next);
  // `next` goes on to the sign-up form only when it names somewhere: a bare sign-up then goes to /orgs/new.
  // The demo's accounts exist when npm start gave them a password (never shown here: it is in the terminal that started the server).
  const demoAccounts = (process.env.THEOREM_DEMO_PASSWORD ?? "") === "" ? [] : DEMO_ACCOUNTS.map((a) => a.email);
  return <SignInForm next={next} signUpHref={given === null ? "/sign-up" : `/sign-up?next=${encodeURIComponent(given)}`} demoAccounts={demoAccounts} />;
}
