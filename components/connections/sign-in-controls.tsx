"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/queries/api";
import { connectMutation, disconnectMutation } from "@/lib/queries/oauth";
import type { StoredApp } from "@/lib/schemas/orgs";
import { formatWhen } from "./format";

/** What the sign-in part of an app's page says, by its state. */
export function signInWords(app: Pick<StoredApp, "signIn" | "header">): { heading: string; action: "Connect" | "Reconnect" | "Sign in again" | null } | null {
  if (app.header !== null || app.signIn == null) return null;
  const stepUp = app.signIn.state === "connected" ? app.signIn.stepUp : null;
  if (stepUp != null) {
    return stepUp.gaveUp ? { heading: "The app needs permission its sign-in server does not grant", action: null } : { heading: "The app needs more permission", action: "Sign in again" };
  }
  switch (app.signIn.state) {
    case "offered":
      return { heading: "Signs in with OAuth: not connected", action: "Connect" };
    case "expired":
      return { heading: "Its sign-in expired", action: "Reconnect" };
    case "connected":
      return { heading: "Signed in with OAuth", action: null };
    default: {
      const never: never = app.signIn.state;
      return never;
    }
  }
}

/**
 * Connect, Reconnect and Disconnect (SPEC §17) for whoever may connect the app (`canConnect`: a
 * leader for the organisation's, the person for their own). Connect sends the browser to the
 * app's sign-in server, which sends it back to this page.
 */
export function SignInControls({ org, app, canConnect, personal = false }: { org: string; app: Pick<StoredApp, "id" | "signIn" | "header">; canConnect: boolean; personal?: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const connect = useMutation(connectMutation(client, org, personal));
  const disconnect = useMutation(disconnectMutation(client, org, personal));
  const [clientId, setClientId] = useState("");
  const [clientSecret, setClientSecret] = useState("");
  const words = signInWords(app);
  if (words === null || app.signIn == null) return null;
  const { signIn } = app;
  const leaving = connect.isSuccess;

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 rounded-lg border border-slate-300 bg-white p-4">
      <h2 id={`${id}-title`} className="font-semibold text-slate-900">
        {words.heading}
      </h2>
      <p className="text-sm text-slate-700">
        {signIn.issuer !== null && (
          <>
            Sign-in server <span className="font-mono break-all">{signIn.issuer}</span>.{" "}
          </>
        )}
        {signIn.state === "connected" && signIn.connectedAt !== null && <>Connected {formatWhen(signIn.connectedAt)}. </>}
        {signIn.state === "connected" && signIn.expiresAt !== null && <>Its token is renewed before {formatWhen(signIn.expiresAt)}.</>}
      </p>
      {signIn.state === "connected" && signIn.stepUp != null && (
        <p className="text-sm text-slate-700">
          {signIn.stepUp.gaveUp ? "Sign-ins asking for " : "Sign in again to grant "}
          <span className="font-mono break-all">{signIn.stepUp.scope}</span>
          {signIn.stepUp.gaveUp ? " did not get it, so the dashboard stopped asking: Disconnect to start over." : "."}
        </p>
      )}
      {canConnect && words.action !== null && (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            connect.mutate(
              { app: app.id, input: clientId.trim() === "" ? {} : { clientId: clientId.trim(), ...(clientSecret !== "" ? { clientSecret } : {}) } },
              { onSuccess: ({ authorizationUrl }) => window.location.assign(authorizationUrl) },
            );
          }}
        >
          <details className="text-sm text-slate-700">
            <summary className="cursor-pointer">Use a client ID from the app&apos;s maker</summary>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              <label className="text-sm">
                Client ID
                <input className={fieldClass} value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" />
              </label>
              <label className="text-sm">
                Client secret (if it has one)
                <input className={fieldClass} type="password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} autoComplete="off" />
              </label>
            </div>
          </details>
          <Button type="submit" disabled={connect.isPending || leaving}>
            {connect.isPending || leaving ? "Going to the sign-in…" : words.action}
          </Button>
        </form>
      )}
      {canConnect && signIn.state === "connected" && (
        <Button variant="secondary" disabled={disconnect.isPending} onClick={() => disconnect.mutate(app.id)}>
          {disconnect.isPending ? "Disconnecting…" : "Disconnect"}
        </Button>
      )}
      {connect.isError && <Failure error={connect.error} fallback="The sign-in could not start." />}
      {disconnect.isError && <Failure error={disconnect.error} fallback="The sign-in could not be forgotten." />}
    </section>
  );
}

function Failure({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <p role="alert" className="text-sm text-rose-800">
      {error instanceof ApiRequestError ? error.message : fallback}
    </p>
  );
}
