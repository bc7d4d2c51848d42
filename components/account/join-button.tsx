"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { acceptInvitation } from "@/lib/queries/access";
import { Alert, errorMessage } from "@/components/ui/alert";

/** Accepts the invitation, then opens the organisation joined. */
export function JoinButton({ invitationId, secret, orgName }: { invitationId: string; secret: string; orgName: string }) {
  const router = useRouter();
  const join = useMutation({
    mutationKey: ["accept-invitation", invitationId],
    mutationFn: () => acceptInvitation(invitationId, secret),
    // The header's organisations are rendered on the server: the refresh brings the one joined.
    onSuccess: ({ org }) => {
      router.push(`/orgs/${encodeURIComponent(org)}/connections`);
      router.refresh();
    },
  });
  return (
    <div className="space-y-2">
      <Button onClick={() => join.mutate()} disabled={join.isPending || join.isSuccess}>
        {join.isPending || join.isSuccess ? "Joining…" : `Join ${orgName}`}
      </Button>
      {join.isError && (
        <Alert inline>
          {errorMessage(join.error, "The invitation could not be accepted.")}
        </Alert>
      )}
    </div>
  );
}
