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
import { signUp } from "@/lib/schemas/access";
import { TOO_MANY } from "./sign-in-form";
import { Alert } from "@/components/ui/alert";

type Input = z.input<typeof signUp>;
const FIELDS = ["name", "email", "password"] as const;
const LABELS: Record<(typeof FIELDS)[number], { label: string; type: string; autoComplete: string; hint?: string }> = {
  name: { label: "Name", type: "text", autoComplete: "name" },
  email: { label: "Email", type: "email", autoComplete: "email" },
  password: { label: "Password", type: "password", autoComplete: "new-password", hint: "At least 8 characters." },
};

/** Name, email and password; the account is signed in at once and goes to `next`. */
export function SignUpForm({ next, signInHref }: { next: string; signInHref: string }) {
  const id = useId();
  const router = useRouter();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Input, unknown, z.output<typeof signUp>>({ resolver: zodResolver(signUp), defaultValues: { name: "", email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    setRefusal(null);
    try {
      await authPost("/sign-up/email", input);
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 429) setRefusal(TOO_MANY);
      else if (error instanceof ApiRequestError && error.status === 422 && error.issues === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")
        form.setError("email", { type: "server", message: "An account with that email exists already: sign in instead." }, { shouldFocus: true });
      else if (error instanceof ApiRequestError && (error.status === 400 || error.status === 422)) setRefusal(error.message);
      else setRefusal(error instanceof ApiRequestError && error.status === 0 ? error.message : "The account could not be created: try again.");
      return;
    }
    router.replace(next);
    router.refresh();
  });

  return (
    <Card className="mx-auto max-w-sm space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">Create an account</h1>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Create an account" className="space-y-3">
        {FIELDS.map((name) => {
          const spec = LABELS[name];
          return (
            <TextField
              key={name}
              id={`${id}-${name}`}
              label={spec.label}
              error={errors[name]?.message}
              hint={spec.hint}
              type={spec.type}
              autoComplete={spec.autoComplete}
              {...form.register(name)}
            />
          );
        })}
        {refusal !== null && (
          <Alert>
            {refusal}
          </Alert>
        )}
        <Button type="submit" disabled={isSubmitting} className="w-full">
          {isSubmitting ? "Creating the account…" : "Create account"}
        </Button>
      </form>
      <p className="text-sm text-slate-700">
        Have an account?{" "}
        <Link href={signInHref} className="text-indigo-800 underline">
          Sign in
        </Link>
      </p>
    </Card>
  );
}
