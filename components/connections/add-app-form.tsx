"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, fieldClass } from "@/components/ui/field";
import { Card, CardTitle } from "@/components/ui/card";
import { ApiRequestError } from "@/lib/queries/check";
import { addAppMutation } from "@/lib/queries/orgs";
import { addMyAppMutation } from "@/lib/queries/people";
import { appCreate, type AppCreate, type StoredApp } from "@/lib/schemas/orgs";

type Field = "name" | "url" | "headerName" | "headerValue";
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

const EMPTY: Values = { name: "", url: "", headerName: "", headerValue: "" };

/** Which field shows a schema issue, by the issue's path (the same for the form and the route's 422). */
function fieldOf(path: readonly PropertyKey[]): Field {
  const [first, second] = path;
  if (first === "name") return "name";
  if (first === "header") return second === "name" ? "headerName" : "headerValue";
  return "url";
}

function toInput(v: Values): unknown {
  const header = v.headerName.trim() === "" && v.headerValue === "" ? undefined : { name: v.headerName, value: v.headerValue };
  return { name: v.name, url: v.url, ...(header !== undefined ? { header } : {}) };
}

function validate(v: Values): { input: AppCreate } | { errors: Errors } {
  const parsed = appCreate.safeParse(toInput(v));
  if (parsed.success) return { input: parsed.data };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) errors[fieldOf(issue.path)] ??= issue.message;
  return { errors };
}

function issuesToErrors(issues: unknown): Errors {
  const errors: Errors = {};
  if (!Array.isArray(issues)) return errors;
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    if (Array.isArray(issue.path) && typeof issue.message === "string") errors[fieldOf(issue.path as PropertyKey[])] ??= issue.message;
  }
  return errors;
}

/**
 * Connects a new app to the organisation (or, `personal`, one of the person's own): it goes
 * last in the connection order and is checked once.
 */
export function AddAppForm({ org, onAdded, personal = false }: { org: string; onAdded?: (app: StoredApp) => void; personal?: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const add = useMutation(personal ? addMyAppMutation(client, org) : addAppMutation(client, org));
  const title = personal ? "Add an app of your own" : "Add an app";
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [added, setAdded] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const f = (field: Field) => `${id}-${field}`;

  function set(field: Field, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    // Once a field has been left, it is re-validated as the person types.
    if (touched[field]) {
      const result = validate(next);
      setErrors("errors" in result ? pick(result.errors, touched) : {});
    }
  }

  function blur(field: Field) {
    const nextTouched = { ...touched, [field]: true };
    setTouched(nextTouched);
    const result = validate(values);
    setErrors("errors" in result ? pick(result.errors, nextTouched) : {});
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setAdded(null);
    const result = validate(values);
    if ("errors" in result) {
      setTouched({ name: true, url: true, headerName: true, headerValue: true });
      setErrors(result.errors);
      const first = (["name", "url", "headerName", "headerValue"] as Field[]).find((k) => result.errors[k] !== undefined);
      if (first !== undefined) document.getElementById(f(first))?.focus();
      return;
    }
    setErrors({});
    add.mutate(result.input, {
      onSuccess: (app) => {
        setValues(EMPTY);
        setTouched({});
        setAdded(app.name);
        onAdded?.(app);
        nameRef.current?.focus();
      },
      onError: (error) => {
        if (error instanceof ApiRequestError && error.status === 422) setErrors(issuesToErrors(error.issues));
      },
    });
  }

  const serverFieldErrors = add.error instanceof ApiRequestError && add.error.status === 422 && Object.keys(issuesToErrors(add.error.issues)).length > 0;

  const fieldProps = (field: Field) => ({
    id: f(field),
    value: values[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    onBlur: () => blur(field),
    "aria-invalid": errors[field] !== undefined,
    "aria-describedby": errors[field] !== undefined ? `${f(field)}-error` : undefined,
    className: fieldClass,
  });

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>{title}</CardTitle>
      <p className="text-sm text-slate-700">
        {personal
          ? "Only your assistant gets its tools. It is connected after every app so far and checked once before it appears in your list."
          : "It is connected after the others and checked once before it appears in the list."}
      </p>
      <form onSubmit={onSubmit} noValidate aria-label={title} className="grid gap-3 md:grid-cols-2">
        <div>
          <label htmlFor={f("name")} className="block text-sm font-medium text-slate-800">
            Name
          </label>
          <input ref={nameRef} autoComplete="off" placeholder="Attendance" {...fieldProps("name")} />
          <FieldError id={`${f("name")}-error`} message={errors.name} />
        </div>
        <div>
          <label htmlFor={f("url")} className="block text-sm font-medium text-slate-800">
            URL
          </label>
          <input type="url" inputMode="url" autoComplete="off" placeholder="https://mcp.example.com/mcp" {...fieldProps("url")} />
          <FieldError id={`${f("url")}-error`} message={errors.url} />
        </div>
        <div>
          <label htmlFor={f("headerName")} className="block text-sm font-medium text-slate-800">
            Header name (optional)
          </label>
          <input autoComplete="off" placeholder="Authorization" {...fieldProps("headerName")} />
          <FieldError id={`${f("headerName")}-error`} message={errors.headerName} />
        </div>
        <div>
          <label htmlFor={f("headerValue")} className="block text-sm font-medium text-slate-800">
            Header value (optional, never shown again)
          </label>
          <input type="password" autoComplete="off" {...fieldProps("headerValue")} />
          <FieldError id={`${f("headerValue")}-error`} message={errors.headerValue} />
        </div>
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? "Adding and checking…" : "Add app"}
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {add.isPending ? "Connecting to the app and reading its tools…" : added !== null ? `Added ${added}.` : ""}
          </p>
        </div>
        {add.isError && !serverFieldErrors && (
          <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-3 text-sm text-rose-950 md:col-span-2">
            <p className="font-semibold">The app could not be added</p>
            <p className="mt-1">{add.error instanceof ApiRequestError ? add.error.message : "Something went wrong reading the answer."}</p>
          </div>
        )}
      </form>
    </Card>
  );
}

/** The errors of the fields the person has left; leaving the header's value also shows a missing header name. */
function pick(errors: Errors, touched: Partial<Record<Field, boolean>>): Errors {
  const shown: Errors = {};
  for (const k of Object.keys(errors) as Field[]) {
    if (touched[k] || (k === "headerName" && touched.headerValue)) shown[k] = errors[k];
  }
  return shown;
}

