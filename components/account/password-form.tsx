"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { authPost } from "@/lib/queries/access";
import { ApiRequestError } from "@/lib/queries/api";
import { passwordChange } from "@/lib/schemas/access";

type Input = z.input<typeof passwordChange>;

/** What a refused change says: a wrong current password, too many tries, or the server's own sentence. */
function refusalText(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return "Something went wrong: try again.";
  if (error.status === 429) return "Too many attempts: wait a minute and try again.";
  if (error.status === 400 || error.status === 401) return "That is not your current password.";
  return error.message;
}

/** Changes the password (better-auth's change-password); the account's other sessions are signed out. */
export function PasswordForm() {
  const id = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const form = useForm<Input, unknown, z.output<typeof passwordChange>>({ resolver: zodResolver(passwordChange), defaultValues: { currentPassword: "", newPassword: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    setRefusal(null);
    setDone(false);
    try {
      await authPost("/change-password", { ...input, revokeOtherSessions: true });
    } catch (error) {
      setRefusal(refusalText(error));
      form.setFocus("currentPassword");
      return;
    }
    form.reset();
    setDone(true);
  });

  const f = (name: keyof Input) => `${id}-${name}`;
  const field = (name: keyof Input, label: string, autoComplete: string) => (
    <TextField id={f(name)} label={label} error={errors[name]?.message} type="password" autoComplete={autoComplete} {...form.register(name)} />
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Change password" className="space-y-3">
      <h2 className="text-base font-semibold text-slate-900">Change password</h2>
      {field("currentPassword", "Current password", "current-password")}
      {field("newPassword", "New password (at least 8 characters)", "new-password")}
      {refusal !== null && <Alert>{refusal}</Alert>}
      {done && (
        <p role="status" className="text-sm text-emerald-800">
          Password changed. Your other sessions are signed out.
        </p>
      )}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
