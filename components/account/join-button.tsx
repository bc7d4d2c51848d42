"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { accessKeys, acceptInvitation } from "@/lib/queries/access";
import { ApiRequestError } from "@/lib/queries/api";

/** Accepts the invitation, then opens the organisation joined. */
export function JoinButton({ invitationId, orgName }: { invitationId: string; orgName: string }) {
  const router = useRouter();
  const client = useQueryClient();
  const join = useMutation({
    mutationKey: ["accept-invitation", invitationId],
    mutationFn: () => acceptInvitation(invitationId),
    onSuccess: async ({ org }) => {
      await client.invalidateQueries({ queryKey: accessKeys.myOrgs() });
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
        <p role="alert" className="text-sm text-rose-800">
          {join.error instanceof ApiRequestError ? join.error.message : "The invitation could not be accepted."}
        </p>
      )}
    </div>
  );
}
