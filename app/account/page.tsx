import type { Metadata } from "next";
import { PasswordForm } from "@/components/account/password-form";
import { Card } from "@/components/ui/card";
import { requirePageActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Your account" };

/** The signed-in account: who it is, and a new password. */
export default async function AccountPage() {
  const actor = await requirePageActor("/account");
  return (
    <Card className="mx-auto max-w-sm space-y-4">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Your account</h1>
        <p className="text-sm break-all text-slate-700">
          {actor.name} · {actor.email}
        </p>
      </div>
      <PasswordForm />
    </Card>
  );
}
