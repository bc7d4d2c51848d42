"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FieldError, fieldClass } from "@/components/ui/field";
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
        <div>
          <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-800">
            Name
          </label>
          <input
            id={`${id}-name`}
            autoComplete="organization"
            className={fieldClass}
            aria-invalid={errors.name !== undefined}
            aria-describedby={errors.name !== undefined ? `${id}-name-error` : undefined}
            {...name}
          />
          <FieldError id={`${id}-name-error`} message={errors.name?.message} />
        </div>
        <div>
          <label htmlFor={`${id}-slug`} className="block text-sm font-medium text-slate-800">
            Address
          </label>
          <div className="flex items-baseline gap-1">
            <span className="shrink-0 text-sm text-slate-600" aria-hidden="true">
              /orgs/
            </span>
            <input
              id={`${id}-slug`}
              autoComplete="off"
              spellCheck={false}
              className={`${fieldClass} font-mono`}
              aria-invalid={errors.slug !== undefined}
              aria-describedby={`${id}-slug-hint${errors.slug !== undefined ? ` ${id}-slug-error` : ""}`}
              {...slug}
            />
          </div>
          <p id={`${id}-slug-hint`} className="mt-1 text-xs text-slate-600">
            Lower-case letters, digits and -. It never changes.
          </p>
          <FieldError id={`${id}-slug-error`} message={errors.slug?.message} />
        </div>
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
