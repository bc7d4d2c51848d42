"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { createOrgMutation } from "@/lib/queries/access";
import { ApiRequestError } from "@/lib/queries/api";
import { orgCreate } from "@/lib/schemas/access";
import { setIssues } from "./form-issues";
import { suggestSlug } from "./slug";
import { Alert, errorMessage } from "@/components/ui/alert";

type Input = z.input<typeof orgCreate>;

/** Name and address of a new organisation; the address follows the name until it is edited by hand. */
export function NewOrgForm() {
  const id = useId();
  const router = useRouter();
  const create = useMutation(createOrgMutation());
  const form = useForm<Input, unknown, z.output<typeof orgCreate>>({ resolver: zodResolver(orgCreate), defaultValues: { name: "", slug: "" } });
  const { errors, isSubmitting, dirtyFields } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const org = await create.mutateAsync(input);
      router.push(`/orgs/${encodeURIComponent(org.slug)}/connections`);
      router.refresh();
    } catch (error) {
      if (!(error instanceof ApiRequestError)) return;
      if (error.status === 409) form.setError("slug", { type: "server", message: error.message }, { shouldFocus: true });
      else if (error.status === 422) setIssues(error.issues, ["name", "slug"], form.setError);
    }
  });

  const name = form.register("name", {
    onChange: (e: { target: { value: string } }) => {
      // Typing in the address marks it dirty; a suggested value (setValue) does not.
      if (dirtyFields.slug !== true) form.setValue("slug", suggestSlug(e.target.value), { shouldValidate: form.formState.isSubmitted });
    },
  });
  const slug = form.register("slug");
  const shownError = create.error instanceof ApiRequestError && (create.error.status === 409 || create.error.status === 422) ? null : create.error;

  return (
    <Card className="max-w-lg space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">New organisation</h1>
      <p className="text-sm text-slate-700">You become its first leader: you can then connect apps and invite the others.</p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="New organisation" className="space-y-3">
        <TextField id={`${id}-name`} label="Name" error={errors.name?.message} autoComplete="organization" {...name} />
        <TextField
          id={`${id}-slug`}
          label="Address"
          error={errors.slug?.message}
          hint="Lower-case letters, digits and -. It never changes."
          prefix="/orgs/"
          autoComplete="off"
          spellCheck={false}
          inputClassName="font-mono"
          {...slug}
        />
        {shownError !== null && (
          <Alert>
            {errorMessage(shownError, "The organisation could not be created.")}
          </Alert>
        )}
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Creating…" : "Create organisation"}
        </Button>
      </form>
    </Card>
  );
}
