"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/field";
import type { Role } from "@/lib/schemas/roles";
import { createKeyMutation, keysQuery, revokeKeyMutation } from "@/lib/queries/access";
import { ApiRequestError } from "@/lib/queries/api";
import { apiKeyCreate, type ApiKeyView } from "@/lib/schemas/access";
import { setIssues } from "./form-issues";
import { Alert, errorMessage } from "@/components/ui/alert";


/** The caller's own API keys for this organisation: made here, shown once, revoked here. */
export function KeysView({ org, orgName, role }: { org: string; orgName: string; role: Role }) {
  const keys = useQuery(keysQuery(org));
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm break-words text-slate-600">{orgName}</p>
        <h1 className="text-2xl font-semibold text-slate-900">API keys</h1>
        <p className="mt-1 max-w-3xl text-slate-700">
          Send a key as the <code className="font-mono">x-api-key</code> header. It acts as you, with your role here ({role}), in this organisation only.
        </p>
      </div>
      <CreateKeyForm org={org} />
      <section aria-labelledby="keys-title" className="space-y-2">
        <h2 id="keys-title" className="text-lg font-semibold text-slate-900">
          Your keys
        </h2>
        {keys.isPending ? (
          <Loading label="Loading your keys…" />
        ) : keys.isError ? (
          <LoadError what="Your keys" error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.keys.length === 0 ? (
          <p className="text-sm text-slate-700">You have no keys for this organisation.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {keys.data.keys.map((k) => (
              <KeyRow key={k.id} org={org} apiKey={k} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function CreateKeyForm({ org }: { org: string }) {
  const id = useId();
  const client = useQueryClient();
  const create = useMutation(createKeyMutation(client, org));
  const form = useForm<z.input<typeof apiKeyCreate>, unknown, z.output<typeof apiKeyCreate>>({ resolver: zodResolver(apiKeyCreate), defaultValues: { name: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await create.mutateAsync(input);
      form.reset({ name: "" });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 422) setIssues(error.issues, ["name"], form.setError);
    }
  });
  const onField = create.error instanceof ApiRequestError && create.error.status === 422 && errors.name !== undefined;

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>Create a key</CardTitle>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Create a key" className="flex flex-wrap items-start gap-3">
        <TextField id={`${id}-name`} label="Name" error={errors.name?.message} className="min-w-0 flex-1 basis-56" autoComplete="off" placeholder="CI" {...form.register("name")} />
        <Button type="submit" disabled={isSubmitting} className="sm:mt-6">
          {isSubmitting ? "Creating…" : "Create key"}
        </Button>
      </form>
      {create.isError && !onField && (
        <Alert inline>
          {errorMessage(create.error, "The key could not be created.")}
        </Alert>
      )}
      {create.isSuccess && (
        <div role="status" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">
            Your new key <span className="break-words">{create.data.name ?? ""}</span>: copy it now, you will not see it again.
          </p>
          <p className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-1.5 py-0.5 font-mono">{create.data.key}</code>
            <CopyButton text={create.data.key} label="the new key" />
          </p>
          <Button variant="ghost" onClick={() => create.reset()}>
            I have copied it: hide the key
          </Button>
        </div>
      )}
    </Card>
  );
}

function KeyRow({ org, apiKey }: { org: string; apiKey: ApiKeyView }) {
  const client = useQueryClient();
  const revoke = useMutation(revokeKeyMutation(client, org));
  const name = apiKey.name ?? "Unnamed key";
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
      <span className="min-w-0">
        <span className="font-medium break-words">{name}</span>{" "}
        {apiKey.start !== null && (
          <span className="font-mono text-slate-700">
            {apiKey.start}…
          </span>
        )}
        <span className="text-slate-600">
          {" "}
          · created <time dateTime={apiKey.createdAt}>{formatWhen(apiKey.createdAt)}</time>
          {apiKey.expiresAt !== null && (
            <>
              {" "}
              · expires <time dateTime={apiKey.expiresAt}>{formatWhen(apiKey.expiresAt)}</time>
            </>
          )}
        </span>
      </span>
      <ConfirmButton
        label={
          <>
            Revoke<span className="sr-only"> {name}</span>
          </>
        }
        title={<>Revoke {name}?</>}
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        error={revoke.isError ? errorMessage(revoke.error, "The key could not be revoked.") : null}
        onOpen={() => revoke.reset()}
        onConfirm={(close) => revoke.mutate(apiKey.id, { onSuccess: close })}
      >
        Anything using it is refused from now on. This cannot be undone.
      </ConfirmButton>
    </li>
  );
}
