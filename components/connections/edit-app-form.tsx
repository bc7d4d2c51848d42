"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { baseShortName } from "@/lib/engine/short-name";
import { ApiRequestError } from "@/lib/queries/api";
import { updateAppMutation } from "@/lib/queries/orgs";
import { appUpdate, type StoredApp } from "@/lib/schemas/orgs";
import { Alert } from "@/components/ui/alert";

interface Values {
  name: string;
  url: string;
  headerName: string;
  headerValue: string;
  removeHeader: boolean;
}
type Field = Exclude<keyof Values, "removeHeader">;

/** Which field shows an issue of `appUpdate` (the form's and the route's 422 alike). */
function editFieldOf(path: readonly PropertyKey[]): Field {
  const [first, second] = path;
  if (first === "name") return "name";
  if (first === "header") return second === "name" ? "headerName" : "headerValue";
  return "url";
}

/**
 * The change the form asks for, only what differs from the app: a header is changed only with
 * its value given again (the stored value is never shown), or removed. Null when nothing changes.
 */
function changeOf(app: StoredApp, v: Values): { change: unknown } | { error: { field: Field; message: string } } | null {
  const change: Record<string, unknown> = {};
  if (v.name !== app.name) change["name"] = v.name;
  if (v.url !== app.url) change["url"] = v.url;
  if (v.removeHeader) {
    if (app.header !== null) change["header"] = null;
  } else if (v.headerValue !== "") {
    change["header"] = { name: v.headerName, value: v.headerValue };
  } else if (v.headerName.trim() !== (app.header?.name ?? "")) {
    return { error: { field: "headerValue", message: "Give the header's value again to change its name: the stored value is never shown." } };
  }
  return Object.keys(change).length === 0 ? null : { change };
}

/**
 * What a new name does to the app's tools, or null when it does nothing: a name whose short name
 * differs renames every whole name (`attendance_clock_in` → `time_clock_in`).
 */
export function renameText(app: StoredApp, name: string): string | null {
  const current = app.lastCheck?.result.shortName;
  if (current === undefined || name.trim() === "" || name === app.name) return null;
  const next = baseShortName(name);
  if (current === next || current.replace(/_\d+$/, "") === next) return null;
  return `Its tools will be named ${next}_… instead of ${current}_…: every whole name changes for everyone (or ${next}_2_… if another app already has that short name).`;
}

/**
 * Edits an app in place (leaders): name, URL, header. It keeps its place in the connection
 * order, so its short name moves only if its new name makes a different one.
 */
export function EditAppForm({ org, app, onDone }: { org: string; app: StoredApp; onDone: (saved: boolean) => void }) {
  const id = useId();
  const client = useQueryClient();
  const update = useMutation(updateAppMutation(client, org));
  const [unchanged, setUnchanged] = useState(false);
  const form = useForm<Values>({
    defaultValues: { name: app.name, url: app.url, headerName: app.header?.name ?? "", headerValue: "", removeHeader: false },
  });
  const { errors } = form.formState;
  const removing = useWatch({ control: form.control, name: "removeHeader" });
  const typedName = useWatch({ control: form.control, name: "name" });
  const renames = renameText(app, typedName);
  const f = (field: keyof Values) => `${id}-${field}`;

  const onSubmit = form.handleSubmit((values) => {
    setUnchanged(false);
    const asked = changeOf(app, values);
    if (asked === null) {
      setUnchanged(true);
      return;
    }
    if ("error" in asked) {
      form.setError(asked.error.field, { type: "form", message: asked.error.message }, { shouldFocus: true });
      return;
    }
    const parsed = appUpdate.safeParse(asked.change);
    if (!parsed.success) {
      parsed.error.issues.forEach((issue, i) => form.setError(editFieldOf(issue.path), { type: "schema", message: issue.message }, { shouldFocus: i === 0 }));
      return;
    }
    update.mutate(
      { app: app.id, change: parsed.data },
      {
        onSuccess: () => onDone(true),
        onError: (error) => {
          if (error instanceof ApiRequestError && error.status === 422 && Array.isArray(error.issues)) {
            for (const issue of error.issues as { path?: PropertyKey[]; message?: string }[]) {
              if (Array.isArray(issue.path) && typeof issue.message === "string") form.setError(editFieldOf(issue.path), { type: "server", message: issue.message }, { shouldFocus: true });
            }
          }
        },
      },
    );
  });

  const field = (name: Field) => ({ id: f(name), error: errors[name]?.message, ...form.register(name) });
  const serverError = update.error instanceof ApiRequestError && update.error.status !== 422 ? update.error.message : update.isError && !(update.error instanceof ApiRequestError) ? "Something went wrong reading the answer." : null;

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>Edit {app.name}</CardTitle>
      <p className="text-sm text-slate-700">It keeps its place in the connection order, and is read again once saved.</p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={`Edit ${app.name}`} className="grid gap-3 md:grid-cols-2">
        <TextField label="Name" autoComplete="off" {...field("name")}>
          {renames !== null && (
            <p className="mt-1 text-sm text-amber-900" data-testid="rename-effect">
              {renames}
            </p>
          )}
        </TextField>
        <TextField label="URL" type="url" inputMode="url" autoComplete="off" {...field("url")} />
        <TextField label="Header name" autoComplete="off" placeholder="Authorization" disabled={removing} {...field("headerName")} />
        <TextField
          label={<>Header value {app.header?.set ? "(blank keeps the stored one)" : ""}</>}
          type="password"
          autoComplete="off"
          disabled={removing}
          {...field("headerValue")}
        />
        {app.header !== null && (
          <label className="flex items-center gap-2 text-sm text-slate-800 md:col-span-2">
            <input type="checkbox" {...form.register("removeHeader")} /> Remove the header {app.header.name}
          </label>
        )}
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving and checking…" : "Save"}
          </Button>
          <Button type="button" variant="secondary" onClick={() => onDone(false)}>
            Cancel
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {update.isPending ? "Reading the app again…" : unchanged ? "Nothing changed." : ""}
          </p>
        </div>
        {serverError !== null && (
          <Alert title="The app could not be saved" className="md:col-span-2">{serverError}</Alert>
        )}
      </form>
    </Card>
  );
}
