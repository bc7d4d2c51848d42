"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useFieldArray, useForm, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import { Alert, errorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { FieldError, TextField, fieldClass } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/queries/api";
import { addAppMutation } from "@/lib/queries/orgs";
import { addMyAppMutation } from "@/lib/queries/people";
import { chooseRemote, fillTemplate, importedName, parseServerJson, urlVariables } from "@/lib/registry/server-json";
import { appImport, type AppImport, type Remote } from "@/lib/schemas/registry";
import type { StoredApp } from "@/lib/schemas/orgs";
import { DomainError } from "@/lib/errors";
import { CodeText } from "@/components/code-text";
import { RemoveAppButton } from "./remove-app-button";
import { sameAddress, twiceQuestion, type ConnectedAt } from "./same-address";

/**
 * Connects an app from an MCP Registry entry (SPEC §24): a server.json pasted or uploaded, or one
 * a registry serves. A pasted one shows at once the remote chosen and asks for its URL variables
 * and headers (secret ones as password fields); a registry's entry is read by the route, whose
 * 422 names what it needs, which then appears here as fields. Checked with the route's `appImport`.
 */

type Source = "paste" | "registry";
interface Row {
  name: string;
  value: string;
  secret: boolean;
  required: boolean;
  description: string;
}
export interface ImportFormValues {
  source: Source;
  text: string;
  registryUrl: string;
  serverName: string;
  version: string;
  name: string;
  variables: Row[];
  headers: Row[];
}

const EMPTY: ImportFormValues = { source: "paste", text: "", registryUrl: "", serverName: "", version: "", name: "", variables: [], headers: [] };

/** The text as JSON, or undefined when it is not JSON (the form says so). */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What the form sends: the route's `appImport` input, with only the values given. */
export function toImportInput(v: ImportFormValues): unknown {
  const given = (rows: Row[]) => Object.fromEntries(rows.filter((r) => r.value !== "").map((r) => [r.name, r.value]));
  const variables = given(v.variables);
  const headers = given(v.headers);
  return {
    ...(v.source === "paste" ? { serverJson: jsonOf(v.text) } : { registry: { url: v.registryUrl, name: v.serverName, ...(v.version.trim() === "" ? {} : { version: v.version }) } }),
    ...(v.name.trim() === "" ? {} : { name: v.name }),
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** A pasted server.json's remote, and the rows it asks for (keeping the values already typed); an error sentence when it cannot be read. */
export function remoteOf(text: string, rows: { variables: Row[]; headers: Row[] }): { remote: Remote; name: string; variables: Row[]; headers: Row[] } | { error: string } | null {
  if (text.trim() === "") return null;
  const json = jsonOf(text);
  if (json === undefined) return { error: "This is not JSON: paste the whole server.json." };
  try {
    const server = parseServerJson(json);
    const remote = chooseRemote(server);
    if (remote === null) return { error: "This server.json has no remote (streamable-http or sse) to connect to." };
    const kept = (list: Row[], name: string) => list.find((r) => r.name === name)?.value ?? "";
    return {
      remote,
      name: previewName(server),
      variables: urlVariables(remote).map((name) => {
        const declared = remote.variables?.[name];
        return { name, value: kept(rows.variables, name) || (declared?.default ?? ""), secret: declared?.isSecret === true, required: true, description: declared?.description ?? "" };
      }),
      headers: (remote.headers ?? []).filter((h) => h.value === undefined || h.value.includes("{")).map((h) => ({ name: h.name, value: kept(rows.headers, h.name), secret: h.isSecret === true, required: h.isRequired === true, description: h.description ?? "" })),
    };
  } catch (e) {
    return { error: e instanceof DomainError ? e.message : "This server.json cannot be read." };
  }
}

/**
 * The address a pasted server.json connects to, its URL variables filled from the values typed
 * (or their defaults); null for a registry's entry (the route reads it), a text that cannot be
 * read, or a variable still missing (the route's 422 asks for it).
 */
export function pastedUrl(v: ImportFormValues): string | null {
  if (v.source !== "paste") return null;
  const shown = remoteOf(v.text, v);
  if (shown === null || "error" in shown) return null;
  const filled = fillTemplate(shown.remote.url, Object.fromEntries(v.variables.filter((r) => r.value !== "").map((r) => [r.name, r.value])), shown.remote.variables);
  return filled.missing.length > 0 ? null : filled.text;
}

/** The name the preview says it connects: a title that cannot name the app (SPEC §25) is not shown, and submitting says so on Name. */
function previewName(server: Parameters<typeof importedName>[0]): string {
  try {
    return importedName(server);
  } catch (e) {
    if (e instanceof DomainError) return "this server (give it a name below)";
    throw e;
  }
}

/** Which field shows an issue of `appImport` (the form's or the route's 422), by its path. */
export function fieldOfIssue(path: readonly PropertyKey[], v: Pick<ImportFormValues, "variables" | "headers">): string {
  const [first, second] = path.map(String);
  if (first === "variables" && second !== undefined) {
    const i = v.variables.findIndex((r) => r.name === second);
    return i >= 0 ? `variables.${i}.value` : "variables";
  }
  if (first === "headers" && second !== undefined) {
    const i = v.headers.findIndex((r) => r.name.toLowerCase() === second.toLowerCase());
    return i >= 0 ? `headers.${i}.value` : "headers";
  }
  // A title that cannot name the app (SPEC §25): the person can give a name instead.
  if ((first === "serverJson" || first === "registry") && second === "title") return "name";
  if (first === "registry") return second === "name" ? "serverName" : second === "version" ? "version" : "registryUrl";
  if (first === "name") return "name";
  return "text";
}

const schemaResolver = zodResolver(appImport);

/** The shared schema (`appImport`) over what the form sends, its issues on the form's fields. */
const importResolver: Resolver<ImportFormValues, unknown, AppImport> = async (values, context, options) => {
  const errors: Record<string, { type: string; message: string }> = {};
  if (values.source === "paste" && jsonOf(values.text) === undefined) errors["text"] = { type: "json", message: "Paste a server.json (JSON), or upload its file." };
  for (const [i, row] of values.variables.entries()) if (row.required && row.value === "") errors[`variables.${i}.value`] = { type: "required", message: `Give a value for {${row.name}}.` };
  for (const [i, row] of values.headers.entries()) if (row.required && row.value === "") errors[`headers.${i}.value`] = { type: "required", message: `Give the header ${row.name}: the server requires it.` };
  const input = toImportInput(values) as AppImport;
  const parsed = await schemaResolver(input, context, options as never);
  if (Object.keys(errors).length === 0 && Object.keys(parsed.errors).length === 0) return { values: parsed.values as AppImport, errors: {} };
  // The schema's issues by their paths in what is sent, put on the form's own fields.
  for (const issue of appImport.safeParse(input).error?.issues ?? []) errors[fieldOfIssue(issue.path, values)] ??= { type: "schema", message: issue.message };
  return { values: {}, errors: nest(errors) };
};

/** Dotted field names as react-hook-form's nested errors. */
function nest(flat: Record<string, { type: string; message: string }>): FieldErrors<ImportFormValues> {
  const out: Record<string, unknown> = {};
  for (const [path, error] of Object.entries(flat)) {
    const keys = path.split(".");
    let at = out;
    for (const key of keys.slice(0, -1)) at = (at[key] ??= /^\d+$/.test(keys[keys.indexOf(key) + 1] ?? "") ? [] : {}) as Record<string, unknown>;
    at[keys.at(-1)!] = error;
  }
  return out;
}

const errorAt = (errors: FieldErrors<ImportFormValues>, path: string): string | undefined => {
  let at: unknown = errors;
  for (const key of path.split(".")) at = (at as Record<string, unknown> | undefined)?.[key];
  return (at as { message?: string } | undefined)?.message;
};

/**
 * `existingUrls`: the apps of the list it joins, with their addresses. A pasted server.json whose
 * address one of them is connected at is asked about before it is sent, as adding by URL asks; a
 * registry's entry, whose address only the route reads, is said to be there twice once added, with
 * the new app's Remove beside it.
 */
export function ImportAppForm({ org, personal = false, onAdded, existingUrls = [] }: { org: string; personal?: boolean; onAdded?: (app: StoredApp) => void; existingUrls?: readonly ConnectedAt[] }) {
  const id = useId();
  const client = useQueryClient();
  const add = useMutation(personal ? addMyAppMutation(client, org) : addAppMutation(client, org));
  const [added, setAdded] = useState<string | null>(null);
  // Asked before sending a pasted entry whose address is already connected: the input asked about, and the app there.
  const [confirm, setConfirm] = useState<{ input: AppImport; twice: ConnectedAt } | null>(null);
  // A registry's entry found, once added, at an address already connected: the new app, and the one there before.
  const [addedTwice, setAddedTwice] = useState<{ app: StoredApp; before: ConnectedAt } | null>(null);
  const form = useForm<ImportFormValues, unknown, AppImport>({ resolver: importResolver, mode: "onSubmit", defaultValues: EMPTY, shouldFocusError: true });
  const variables = useFieldArray({ control: form.control, name: "variables" });
  const headers = useFieldArray({ control: form.control, name: "headers" });
  const source = useWatch({ control: form.control, name: "source" });
  const text = useWatch({ control: form.control, name: "text" });
  const [preview, setPreview] = useState<ReturnType<typeof remoteOf>>(null);
  const errors = form.formState.errors;
  const f = (field: string) => `${id}-${field.replaceAll(".", "-")}`;

  /** A new text: its remote shown, and its variables and headers asked for. */
  function read(next: string) {
    const shown = remoteOf(next, { variables: form.getValues("variables"), headers: form.getValues("headers") });
    setPreview(shown);
    if (shown !== null && "remote" in shown) {
      variables.replace(shown.variables);
      headers.replace(shown.headers);
    }
  }

  const onSubmit = form.handleSubmit((input) => {
    setAdded(null);
    setAddedTwice(null);
    const url = pastedUrl(form.getValues());
    const twice = url === null ? undefined : sameAddress(existingUrls, url);
    if (twice !== undefined && JSON.stringify(confirm?.input) !== JSON.stringify(input)) return void setConfirm({ input, twice });
    connect(input);
  });

  function connect(input: AppImport) {
    setConfirm(null);
    const before = existingUrls;
    add.mutate(input, {
      onSuccess: (app) => {
        setAdded(app.name);
        const there = sameAddress(before.filter((a) => a.id !== app.id), app.url);
        if (there !== undefined && !("serverJson" in input)) setAddedTwice({ app, before: there });
        onAdded?.(app);
        form.reset(EMPTY);
        setPreview(null);
        variables.replace([]);
        headers.replace([]);
      },
      onError: (error) => {
        if (!(error instanceof ApiRequestError) || error.status !== 422 || !Array.isArray(error.issues)) return;
        // What the registry's entry needs appears as fields, then every issue lands on its field.
        for (const issue of error.issues as { path?: unknown[]; message?: string }[]) {
          const [kind, name] = (issue.path ?? []).map(String);
          if (name === undefined) continue;
          if (kind === "variables" && !form.getValues("variables").some((r) => r.name === name)) variables.append({ name, value: "", secret: false, required: true, description: "" });
          if (kind === "headers" && !form.getValues("headers").some((r) => r.name === name)) headers.append({ name, value: "", secret: true, required: true, description: "" });
        }
        const values = form.getValues();
        (error.issues as { path?: unknown[]; message?: string }[]).forEach((issue, i) =>
          form.setError(fieldOfIssue((issue.path ?? []) as PropertyKey[], values) as never, { type: "server", message: issue.message ?? "" }, { shouldFocus: i === 0 }),
        );
      },
    });
  }

  const described = (path: string) => ({
    id: f(path),
    "aria-invalid": errorAt(errors, path) !== undefined,
    "aria-describedby": errorAt(errors, path) !== undefined ? `${f(path)}-error` : undefined,
    className: fieldClass,
  });
  const title = personal ? "Add an app of your own from server.json or a registry" : "Add an app from server.json or a registry";
  const rows = (kind: "variables" | "headers", fields: typeof variables.fields) =>
    fields.map((row, i) => {
      const path = `${kind}.${i}.value`;
      return (
        <TextField
          key={row.id}
          id={f(path)}
          label={
            <>
              {kind === "variables" ? `URL variable {${row.name}}` : `Header ${row.name}`}
              {row.required ? "" : " (optional)"}
              {row.secret ? " (secret, never shown again)" : ""}
            </>
          }
          error={errorAt(errors, path)}
          type={row.secret || kind === "headers" ? "password" : "text"}
          autoComplete="off"
          placeholder={row.description}
          {...form.register(`${kind}.${i}.value` as const)}
        />
      );
    });

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>{title}</CardTitle>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={title} className="grid gap-3">
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="sr-only">Where the server.json comes from</legend>
          <label className="flex items-center gap-1">
            <input type="radio" value="paste" {...form.register("source")} /> Paste or upload a server.json
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" value="registry" {...form.register("source")} /> From a registry
          </label>
        </fieldset>
        {source === "paste" ? (
          <>
            <div>
              <label htmlFor={f("text")} className="block text-sm font-medium text-slate-800">
                server.json
              </label>
              <textarea rows={8} spellCheck={false} {...described("text")} {...form.register("text", { onChange: (e: { target: { value: string } }) => read(e.target.value) })} className={`${fieldClass} font-mono`} />
              <FieldError id={`${f("text")}-error`} message={errorAt(errors, "text")} />
            </div>
            <div>
              <label htmlFor={f("file")} className="block text-sm font-medium text-slate-800">
                Or upload its file
              </label>
              <input
                id={f("file")}
                type="file"
                accept="application/json,.json"
                className="mt-1 text-sm"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file === undefined) return;
                  void file.text().then((content) => {
                    form.setValue("text", content, { shouldDirty: true });
                    read(content);
                  });
                }}
              />
            </div>
            {preview !== null && "error" in preview && <p className="text-sm text-rose-800">{preview.error}</p>}
            {preview !== null && "remote" in preview && text !== "" && (
              <p role="note" className="text-sm text-slate-700" aria-label="Remote chosen">
                Connects {preview.name} to its {preview.remote.type} remote <code className="break-all">{preview.remote.url}</code>
                {preview.variables.length + preview.headers.length === 0 ? "." : ", with the values below."}
              </p>
            )}
          </>
        ) : (
          <div className="grid gap-3 md:grid-cols-3">
            <TextField
              id={f("registryUrl")}
              label="Registry URL"
              error={errorAt(errors, "registryUrl")}
              type="url"
              autoComplete="off"
              placeholder="https://registry.modelcontextprotocol.io"
              {...form.register("registryUrl")}
            />
            <TextField id={f("serverName")} label="Server name" error={errorAt(errors, "serverName")} autoComplete="off" placeholder="io.github.user/weather" {...form.register("serverName")} />
            <TextField id={f("version")} label="Version (optional: latest)" error={errorAt(errors, "version")} autoComplete="off" {...form.register("version")} />
          </div>
        )}
        <div className="grid gap-3 md:grid-cols-2">
          <TextField id={f("name")} label={"Name (optional: the entry's title)"} error={errorAt(errors, "name")} autoComplete="off" {...form.register("name")} />
          {rows("variables", variables.fields)}
          {rows("headers", headers.fields)}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? "Connecting and checking…" : "Connect"}
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {add.isPending ? "Reading the entry, connecting to the app and reading its tools…" : added !== null ? `Added ${added}.` : ""}
          </p>
        </div>
        {confirm !== null && (
          <div role="alertdialog" aria-labelledby={`${id}-confirm`} className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <p id={`${id}-confirm`}>
              <CodeText text={`${twiceQuestion(confirm.twice.name)} Connect it again?`} />
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button type="button" onClick={() => connect(confirm.input)}>
                Connect it again
              </Button>
              <Button type="button" variant="secondary" onClick={() => setConfirm(null)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
        {addedTwice !== null && (
          <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <p>
              <CodeText text={`${addedTwice.app.name} is connected at the address ${addedTwice.before.name} already was: people get its tools twice. Remove it if that is not what you meant.`} />
            </p>
            <div className="mt-2">
              <RemoveAppButton org={org} appId={addedTwice.app.id} appName={addedTwice.app.name} personal={personal} onRemoved={() => setAddedTwice(null)} />
            </div>
          </div>
        )}
        {add.isError && <Alert title="The app could not be added">{errorMessage(add.error, "Something went wrong reading the answer.")}</Alert>}
      </form>
    </Card>
  );
}
