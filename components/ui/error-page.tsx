"use client";

import { Button } from "@/components/ui/button";

/**
 * What a page that failed on the server shows (each segment's `error.tsx`): no detail of the
 * failure, and a way to try again.
 */
export function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-rose-300 bg-rose-50 p-4 text-rose-950">
      <h1 className="text-lg font-semibold">This page could not be shown</h1>
      <p className="text-sm">Something went wrong on our side. Try again in a moment.</p>
      <Button variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
