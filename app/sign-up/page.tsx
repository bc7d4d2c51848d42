import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeNext } from "@/components/account/next-path";
import { SignUpForm } from "@/components/account/sign-up-form";
import { pageActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Create an account" };

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignUpPage({ searchParams }: Props) {
  const given = safeNext((await searchParams).next, "") || null;
  const next = given ?? "/orgs/new";
  if ((await pageActor()) !== null) redirect(next);
  return <SignUpForm next={next} signInHref={given === null ? "/sign-in" : `/sign-in?next=${encodeURIComponent(given)}`} />;
}
