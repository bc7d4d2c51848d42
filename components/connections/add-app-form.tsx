"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { CodeText } from "@/components/code-text";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Card, CardTitle } from "@/components/ui/card";
import { ApiRequestError } from "@/lib/queries/api";
import { addAppMutation } from "@/lib/queries/orgs";
import { addMyAppMutation } from "@/lib/queries/people";
import { appCreate, type AppCreate, type StoredApp } from "@/lib/schemas/orgs";
import { assignShortNames, baseShortName } from "@/lib/engine/short-name";
import { resolveTheorem } from "@/lib/engine/theorem";
import { Alert, errorMessage } from "@/components/ui/alert";
import { ImportAppForm } from "./import-app-form";
import { sameAddress, twiceQuestion, type ConnectedAt } from "./same-address";

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

/**
 * What connecting `name` after `existing` (the list's names, in order) will be called, when it
 * is not its own base short name: whether Theorem holds the base, the earlier apps of the same
 * base with their short names, and the short name it will get. Null when it gets its base.
 */
function shortNameClash(existing: readonly string[], name: string): { theorem: boolean; earlier: { name: string; shortName: string }[]; shortName: string } | null {
  const { connections } = resolveTheorem(undefined);
  const base = baseShortName(name);
  const assigned = assignShortNames([...existing, name], connections);
  const shortName = assigned.at(-1)!.shortName;
  if (shortName === base) return null;
  const earlier = existing.flatMap((other, i) => (baseShortName(other) === base ? [{ name: other, shortName: assigned[i]!.shortName }] : []));
  return { theorem: connections.includes(base), earlier, shortName };
}

/** The question asked before connecting an app that will not get its base short name. */
function clashQuestion(name: string, clash: NonNullable<ReturnType<typeof shortNameClash>>): string {
  const base = baseShortName(name);
  const earlier = clash.earlier.map((e) => `${e.name} is \`${e.shortName}\``).join(", ");
  const why = clash.theorem
    ? `\`${base}\` is one of Theorem's own connections${earlier === "" ? "" : `, and ${earlier}`}.`
    : `There is already an app called ${clash.earlier[0]?.name ?? name}${clash.earlier.length > 1 ? ` (${earlier})` : ""}.`;
  return `${why} Connect another ${name}? It will be \`${clash.shortName}\`, and its tools \`${clash.shortName}_…\`.`;
}

/** The form's resolver: the values as `appCreate` takes them, or its issues on the form's fields. */
const appCreateResolver: Resolver<Values, unknown, AppCreate> = (values) => {
  const result = validate(values);
  if ("input" in result) return { values: result.input, errors: {} };
  return { values: {}, errors: Object.fromEntries(Object.entries(result.errors).map(([field, message]) => [field, { type: "schema", message }])) };
};

function issuesToErrors(issues: unknown): Errors {
  const errors: Errors = {};
  if (!Array.isArray(issues)) return errors;
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    if (Array.isArray(issue.path) && typeof issue.message === "string") errors[fieldOf(issue.path as PropertyKey[])] ??= issue.message;
  }
  return errors;
}

/**
 * Connects a new app by URL, or from a server.json or registry entry (SPEC §24): two ways of
 * adding, one at a time.
 */
export function AddAppForm(props: Parameters<typeof AddAppByUrlForm>[0]) {
  const [mode, setMode] = useState<"url" | "registry">("url");
  return (
    <div className="space-y-2">
      <div role="group" aria-label="How to add an app" className="flex flex-wrap gap-2">
        <Button variant={mode === "url" ? "primary" : "secondary"} aria-pressed={mode === "url"} onClick={() => setMode("url")}>
          By URL
        </Button>
        <Button variant={mode === "registry" ? "primary" : "secondary"} aria-pressed={mode === "registry"} onClick={() => setMode("registry")}>
          From server.json / registry
        </Button>
      </div>
      {mode === "url" ? (
        <AddAppByUrlForm {...props} />
      ) : (
        <ImportAppForm org={props.org} personal={props.personal ?? false} existingUrls={props.existingUrls ?? []} {...(props.onAdded ? { onAdded: props.onAdded } : {})} />
      )}
    </div>
  );
}

/**
 * Connects a new app to the organisation (or, `personal`, one of the person's own): it goes
 * last in the connection order and is checked once.
 */
function AddAppByUrlForm({
  org,
  onAdded,
  personal = false,
  existing = [],
  existingUrls = [],
}: {
  org: string;
  onAdded?: (app: StoredApp) => void;
  personal?: boolean;
  /** The names of the list the app joins, in connection order: to say before connecting when it will be named `…_2`. */
  existing?: readonly string[];
  /** The apps of that list with their addresses: to ask before connecting an address twice. */
  existingUrls?: readonly ConnectedAt[];
}) {
  const id = useId();
  const client = useQueryClient();
  const add = useMutation(personal ? addMyAppMutation(client, org) : addAppMutation(client, org));
  const title = personal ? "Add an app of your own" : "Add an app";
  const [added, setAdded] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<{ input: AppCreate; question: string; yes: string } | null>(null);
  // The shared schema checks the form (lib/schemas/orgs.ts `appCreate`), each issue on its field; a field is checked once left, then as it is typed.
  const form = useForm<Values, unknown, AppCreate>({ resolver: appCreateResolver, mode: "onTouched", defaultValues: EMPTY, shouldFocusError: true });
  const errors = Object.fromEntries(Object.entries(form.formState.errors).map(([k, e]) => [k, e?.message])) as Errors;

  const f = (field: Field) => `${id}-${field}`;

  const onSubmit = form.handleSubmit((input) => {
    setAdded(null);
    const clash = shortNameClash(existing, input.name);
    const twice = sameAddress(existingUrls, input.url);
    const asked = confirm !== null && JSON.stringify(confirm.input) === JSON.stringify(input);
    if ((clash !== null || twice !== undefined) && !asked) {
      const questions = [twice === undefined ? null : twiceQuestion(twice.name), clash === null ? null : clashQuestion(input.name, clash)];
      setConfirm({
        input,
        question: questions.filter((q): q is string => q !== null).join(" ") + (clash === null ? " Connect it again?" : ""),
        yes: clash === null ? "Connect it again" : `Connect it as ${clash.shortName}`,
      });
      return;
    }
    connect(input);
  });

  function connect(input: AppCreate) {
    setConfirm(null);
    const submitted = JSON.stringify(form.getValues());
    add.mutate(input, {
      onSuccess: (app) => {
        setAdded(app.name);
        onAdded?.(app);
        // Cleared only if still what was sent: never what the person typed since.
        if (JSON.stringify(form.getValues()) === submitted) {
          form.reset(EMPTY);
          form.setFocus("name");
        }
      },
      onError: (error) => {
        if (!(error instanceof ApiRequestError) || error.status !== 422) return;
        // The route's 422 issues land on the same fields.
        Object.entries(issuesToErrors(error.issues)).forEach(([field, message], i) => form.setError(field as Field, { type: "server", message }, { shouldFocus: i === 0 }));
      },
    });
  }

  const serverFieldErrors = add.error instanceof ApiRequestError && add.error.status === 422 && Object.keys(issuesToErrors(add.error.issues)).length > 0;

  const fieldProps = (field: Field) => ({
    id: f(field),
    error: errors[field],
    // A header's name is checked again when its value changes: a value needs a name.
    ...form.register(field, field === "headerValue" ? { deps: ["headerName"] } : {}),
  });

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>{title}</CardTitle>
      <p className="text-sm text-slate-700">
        {personal
          ? "Only your assistant gets its tools. It is connected after every app so far and checked once before it appears in your list."
          : "It is connected after the others and checked once before it appears in the list."}
      </p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={title} className="grid gap-3 md:grid-cols-2">
        <TextField label="Name" autoComplete="off" placeholder="Attendance" {...fieldProps("name")} />
        <TextField label="URL" type="url" inputMode="url" autoComplete="off" placeholder="https://mcp.example.com/mcp" {...fieldProps("url")} />
        <TextField label="Header name (optional)" autoComplete="off" placeholder="Authorization" {...fieldProps("headerName")} />
        <TextField label="Header value (optional, never shown again)" type="password" autoComplete="off" {...fieldProps("headerValue")} />
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? "Adding and checking…" : "Add app"}
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {add.isPending ? "Connecting to the app and reading its tools…" : added !== null ? `Added ${added}.` : ""}
          </p>
        </div>
        {confirm !== null && (
          <div role="alertdialog" aria-labelledby={`${id}-confirm`} className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 md:col-span-2">
            <p id={`${id}-confirm`}>
              <CodeText text={confirm.question} />
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button type="button" onClick={() => connect(confirm.input)}>
                {confirm.yes}
              </Button>
              <Button
                type="button"
                variant="secondary"
                onClick={() => {
                  setConfirm(null);
                  form.setFocus("name");
                }}
              >
                Change the name
              </Button>
            </div>
          </div>
        )}
        {add.isError && !serverFieldErrors && (
          <Alert title="The app could not be added" className="md:col-span-2">{errorMessage(add.error, "Something went wrong reading the answer.")}</Alert>
        )}
      </form>
    </Card>
  );
}
