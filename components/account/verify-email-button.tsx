"use client";

import { useMutation } from "@tanstack/react-query";
import { Alert, errorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { authPost } from "@/lib/queries/access";

/** Mails the link that verifies the signed-in account's address again; following it comes back to `next`. */
export function VerifyEmailButton({ email, next }: { email: string; next: string }) {
  const send = useMutation({ mutationFn: () => authPost("/send-verification-email", { email, callbackURL: next }) });
  return (
    <div className="space-y-2">
      <Button variant="secondary" onClick={() => send.mutate()} disabled={send.isPending || send.isSuccess}>
        {send.isSuccess ? "Sent: look in your mail" : send.isPending ? "Sending…" : "Mail the link again"}
      </Button>
      {send.isError && <Alert inline>{errorMessage(send.error, "The mail could not be sent.")}</Alert>}
    </div>
  );
}
