import type { ReactNode } from "react";
import { Link } from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/queries/api";
import { Alert, errorMessage } from "@/components/ui/alert";

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}

export function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-700">{label}</p>
      <div aria-hidden="true" className="h-3 w-2/3 animate-pulse rounded bg-slate-200" />
      <div aria-hidden="true" className="h-3 w-1/2 animate-pulse rounded bg-slate-200" />
    </div>
  );
}

export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert title={`${what} could not be loaded`}>
      <p>{errorMessage(error, "Something went wrong reading the answer.")}</p>
      {onRetry !== undefined && (
        <Button variant="secondary" className="mt-2" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}

/** What an unknown organisation or app shows: said plainly, with a way back. */
export function NotFoundNotice({ title, children, back }: { title: string; children: ReactNode; back: { href: string; label: string } }) {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="max-w-2xl text-slate-700">{children}</p>
      <Link href={back.href} className="inline-block text-indigo-800 underline hover:text-indigo-950">
        {back.label}
      </Link>
    </div>
  );
}
