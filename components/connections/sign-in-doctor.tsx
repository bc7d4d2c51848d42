"use client";

import { useMutation } from "@tanstack/react-query";
import { useId } from "react";
import { Alert, errorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { diagnoseMutation } from "@/lib/queries/oauth";
import type { StoredApp } from "@/lib/schemas/orgs";
import { DOCTOR_STEP_LABELS, doctorVerdict } from "./sign-in-doctor-words";

/** Whether the app signs in (SPEC §17): it has a sign-in, or its newest read was refused for want of one; never one read with a header. */
export function signsIn(app: Pick<StoredApp, "signIn" | "header" | "lastCheck">): boolean {
  return app.header === null && (app.signIn != null || app.lastCheck?.result.unavailable?.code === "auth-required");
}

/**
 * "Why can't it sign in?" (SPEC §27): runs the sign-in doctor on an organisation's app and lists
 * its steps, each with what was found and expected, ending at the first that fails.
 */
export function SignInDoctor({ org, app }: { org: string; app: Pick<StoredApp, "id" | "signIn" | "header" | "lastCheck"> }) {
  const id = useId();
  const diagnose = useMutation(diagnoseMutation(org));
  if (!signsIn(app)) return null;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 rounded-lg border border-slate-300 bg-white p-4">
      <h2 id={`${id}-title`} className="font-semibold text-slate-900">
        Sign-in doctor
      </h2>
      <p className="text-sm text-slate-700">Walks what Connect does, step by step, and stops at the first step that fails with what the app&apos;s developer must change. Nothing is stored.</p>
      <Button variant="secondary" disabled={diagnose.isPending} onClick={() => diagnose.mutate(app.id)}>
        {diagnose.isPending ? "Walking the sign-in…" : "Why can't it sign in?"}
      </Button>
      {diagnose.isError && <Alert inline>{errorMessage(diagnose.error, "The sign-in could not be walked.")}</Alert>}
      {diagnose.data !== undefined && (
        <ol aria-label="Sign-in steps" className="space-y-2">
          {diagnose.data.steps.map((step) => {
            const verdict = doctorVerdict(step.ok);
            return (
              <li key={step.step} className="rounded border border-slate-200 p-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={verdict.tone}>{verdict.word}</Badge>
                  <span className="font-medium text-slate-900">{DOCTOR_STEP_LABELS[step.step]}</span>
                  {step.status !== undefined && <span className="text-slate-600">HTTP {step.status}</span>}
                </div>
                <p className="mt-1 break-words text-slate-800">{step.message}</p>
                {(step.url !== undefined || step.found !== undefined || step.expected !== undefined) && (
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-700">
                    {step.url !== undefined && (
                      <>
                        <dt>Asked</dt>
                        <dd className="font-mono break-all">{step.url}</dd>
                      </>
                    )}
                    {step.found !== undefined && (
                      <>
                        <dt>Found</dt>
                        <dd className="font-mono break-all">{step.found}</dd>
                      </>
                    )}
                    {step.expected !== undefined && (
                      <>
                        <dt>Expected</dt>
                        <dd className="font-mono break-all">{step.expected}</dd>
                      </>
                    )}
                  </dl>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
