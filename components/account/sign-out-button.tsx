"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { authPost } from "@/lib/queries/access";

/** Signs out, forgets every cached answer (they were this account's), and goes to the sign-in page. */
export function SignOutButton({ next }: { next?: string }) {
  const router = useRouter();
  const client = useQueryClient();
  const [state, setState] = useState<"idle" | "pending" | "failed">("idle");
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="ghost"
        disabled={state === "pending"}
        onClick={async () => {
          setState("pending");
          try {
            await authPost("/sign-out", {});
          } catch {
            setState("failed");
            return;
          }
          client.clear();
          router.replace(next === undefined ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`);
          router.refresh();
        }}
      >
        {state === "pending" ? "Signing out…" : "Sign out"}
      </Button>
      {state === "failed" && (
        <span role="alert" className="text-sm text-rose-800">
          Could not sign out: try again.
        </span>
      )}
    </span>
  );
}
