"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { authPost } from "@/lib/queries/access";
import { ApiRequestError } from "@/lib/queries/api";
import { signIn } from "@/lib/schemas/access";
import { Alert } from "@/components/ui/alert";

type Input = z.input<typeof signIn>;

const WRONG_CREDENTIALS = "That email and password do not match.";
export const TOO_MANY = "Too many attempts: wait a minute and try again.";

/** What a refused sign-in or sign-up says: never which of email and password was wrong. */
function refusalText(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return "Something went wrong: try again.";
  if (error.status === 429) return TOO_MANY;
  if (error.status === 401) return WRONG_CREDENTIALS;
  if (error.status === 0) return error.message;
  return "The sign-in could not be completed: try again.";
}

/** Email and password; on success goes to `next` (already checked to be a path on this site). */
export function SignInForm({ next, signUpHref, demoAccounts = [] }: { next: string; signUpHref: string; demoAccounts?: readonly string[] }) {
  const id = useId();
  const router = useRouter();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Input, unknown, z.output<typeof signIn>>({ resolver: zodResolver(signIn), defaultValues: { email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    setRefusal(null);
    try {
      await authPost("/sign-in/email", input);
    } catch (error) {
      setRefusal(refusalText(error));
      form.setFocus("password");
      return;
    }
    router.replace(next);
    router.refresh();
  });

  const f = (name: keyof Input) => `${id}-${name}`;
  return (
    <Card className="mx-auto max-w-sm space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Sign in" className="space-y-3">
        <TextField id={f("email")} label="Email" error={errors.email?.message} type="email" autoComplete="email" inputMode="email" {...form.register("email")} />
        <TextField
          id={f("password")}
          label="Password"
          error={errors.password?.message}
          invalid={refusal !== null}
          describedBy={refusal !== null ? `${id}-refusal` : undefined}
          type="password"
          autoComplete="current-password"
          {...form.register("password")}
        />
        {refusal !== null && (
          <Alert id={`${id}-refusal`}>
            {refusal}
          </Alert>
        )}
        <Button type="submit" disabled={isSubmitting} className="w-full">
          {isSubmitting ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      {demoAccounts.length > 0 && (
        <div className="rounded border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950">
          <p className="font-medium">Trying the demo?</p>
          <p>
            Sign in as <span className="font-mono">{demoAccounts.join(", ")}</span> (one per role), with the password that <span className="font-mono">npm start</span> printed
            in its terminal when it started, or the one you gave it as <span className="font-mono">THEOREM_DEMO_PASSWORD</span>.
          </p>
        </div>
      )}
      <p className="text-sm text-slate-700">
        No account yet?{" "}
        <Link href={signUpHref} className="text-indigo-800 underline">
          Create one
        </Link>
      </p>
    </Card>
  );
}
