"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { get, useFieldArray, useForm, useWatch } from "react-hook-form";
import { AppCheckView, StatusPill } from "@/components/app-check-view";
import { PreviewConformance } from "@/components/conformance-panel";
import { HostPanel } from "@/components/host-panel";
import { jsonBytes } from "@/lib/engine/hosts";
import { Button } from "@/components/ui/button";
import { FieldError, TextField, fieldClass } from "@/components/ui/field";
import { Card, CardTitle } from "@/components/ui/card";
import { TrySourceProvider } from "@/components/try/try-slot";
import { ATTENDANCE_LISTING } from "@/lib/examples";
import { readListingText } from "@/lib/listing-input";
import { checkMutation } from "@/lib/queries/check";
import type { TrySource } from "@/lib/queries/try";
import { checkRequest, riskyText, type CheckAppInput, type CheckRequest, type RiskyText } from "@/lib/schemas/check";
import { RISKY_TEXT_CHOICES, RISKY_TEXT_DOES } from "@/components/risky-text-words";
import { Alert, errorMessage } from "@/components/ui/alert";

type Mode = "listing" | "url";
interface PreviewValues {
  name: string;
  mode: Mode;
  listing: string;
  url: string;
  headerName: string;
  headerValue: string;
  /** The apps the person connected before this one, in order. */
  others: { name: string; listing: string }[];
  /** What risky text does to a tool, as an organisation's setting would (SPEC §20). */
  riskyText: RiskyText;
}
type Errors = Record<string, string>;

/** Which form field shows a schema issue of the previewed app, by the issue's field. */
const FIELD_KEY: Record<string, string> = { name: "name", url: "url", headers: "headerValue", tools: "listing" };

/**
 * The check request the form's values ask for, or what is wrong, by field (`others.1.listing`
 * for the second earlier app's listing): the listings read as /preview reads them, then the
 * request checked by the route's own schema.
 */
function buildPreview(v: PreviewValues): { request: CheckRequest } | { errors: Errors } {
  const found: Errors = {};
  const apps: CheckAppInput[] = v.others.map((o, i) => {
    if (o.listing.trim() === "") return { name: o.name, tools: [] };
    const read = readListingText(o.listing);
    if (!read.ok) found[`others.${i}.listing`] = read.message;
    return { name: o.name, tools: read.ok ? read.tools : [] };
  });
  if (v.mode === "listing") {
    const read = readListingText(v.listing);
    if (!read.ok) found["listing"] = read.message;
    apps.push({ name: v.name, tools: read.ok ? read.tools : [] });
  } else {
    if (v.headerValue !== "" && v.headerName.trim() === "") found["headerName"] = "Give the header a name, such as Authorization.";
    const headers = v.headerValue !== "" ? { [v.headerName.trim()]: v.headerValue } : undefined;
    apps.push({ name: v.name, url: v.url, ...(headers ? { headers } : {}) });
  }
  const parsed = checkRequest.safeParse({ apps, ...(v.riskyText === "warn" ? {} : { riskyText: v.riskyText }) });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [, index, field] = issue.path;
      const key =
        index === v.others.length
          ? (FIELD_KEY[String(field)] ?? (v.mode === "listing" ? "listing" : "url"))
          : `others.${Number(index)}.${field === "name" ? "name" : "listing"}`;
      found[key] ??= issue.message;
    }
  }
  if (Object.keys(found).length > 0) return { errors: found };
  return { request: parsed.data! };
}

const EMPTY: PreviewValues = { name: "", mode: "listing", listing: "", url: "", headerName: "", headerValue: "", others: [], riskyText: "warn" };

/**
 * What an app developer uses before shipping: paste a listing (or give a URL), name the
 * app, list the apps the person connected before it, and see the check. With `canTry` (a
 * leader or developer of some organisation), the tools of a live URL may be tried (SPEC §14).
 */
export function PreviewForm({ canTry = false }: { canTry?: boolean }) {
  const id = useId();
  const form = useForm<PreviewValues>({ defaultValues: EMPTY });
  const others = useFieldArray({ control: form.control, name: "others" });
  const mode = useWatch({ control: form.control, name: "mode" });
  const riskyChoice = useWatch({ control: form.control, name: "riskyText" });
  const check = useMutation(checkMutation());
  /** The live URL the shown check read, with its header: where its tools are tried. */
  const [tried, setTried] = useState<TrySource | null>(null);
  /** The request of the shown check: its listings give the host rules each tool's schema size (SPEC §22). */
  const asked = check.variables;
  const schemaBytes = useMemo(() => {
    if (asked === undefined) return undefined;
    return (app: number, tool: number) => {
      const entry = asked.apps[app]?.tools?.[tool];
      return typeof entry === "object" && entry !== null && !Array.isArray(entry) ? jsonBytes((entry as Record<string, unknown>)["inputSchema"]) : undefined;
    };
  }, [asked]);

  const f = (field: string) => `${id}-${field}`;
  const errorOf = (field: string): string | undefined => {
    const found: { message?: string } | undefined = get(form.formState.errors, field);
    return found?.message;
  };
  const invalid = (field: string) => ({
    "aria-invalid": errorOf(field) !== undefined,
    "aria-describedby": errorOf(field) !== undefined ? `${f(field)}-error` : undefined,
  });

  const onSubmit = form.handleSubmit((values) => {
    form.clearErrors();
    const built = buildPreview(values);
    if ("errors" in built) {
      Object.entries(built.errors).forEach(([field, message], i) => form.setError(field as keyof PreviewValues, { type: "check", message }, { shouldFocus: i === 0 }));
      return;
    }
    const previewed = built.request.apps.at(-1);
    setTried(previewed?.url !== undefined ? { kind: "preview", url: previewed.url, name: previewed.name, ...(previewed.headers ? { headers: previewed.headers } : {}) } : null);
    check.mutate(built.request);
  });

  const result = check.data;
  const previewed = result?.apps[result.apps.length - 1];
  // Each new result is brought into view and focused: it appears below the form, out of sight.
  const resultRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (result === undefined || resultRef.current === null) return;
    resultRef.current.scrollIntoView({ block: "start" });
    resultRef.current.focus({ preventScroll: true });
  }, [result]);
  const earlier = result?.apps.slice(0, -1) ?? [];

  return (
    <div className="space-y-6">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4" aria-label="Preview a listing">
        <Card className="space-y-4">
          <TextField id={f("name")} label="App name" error={errorOf("name")} placeholder="Attendance" {...form.register("name")} />

          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Where its tools come from</legend>
            <div className="mt-1 flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-1.5">
                <input type="radio" value="listing" {...form.register("mode")} />
                Paste a listing
              </label>
              <label className="flex items-center gap-1.5">
                <input type="radio" value="url" {...form.register("mode")} />
                A live app (URL)
              </label>
            </div>
          </fieldset>

          {mode === "listing" ? (
            <div>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <label htmlFor={f("listing")} className="block text-sm font-medium text-slate-800">
                  Tools listing (JSON)
                </label>
                <Button
                  variant="ghost"
                  onClick={() => {
                    if (form.getValues("name") === "") form.setValue("name", "Attendance");
                    form.setValue("listing", JSON.stringify(ATTENDANCE_LISTING, null, 2));
                  }}
                >
                  Use the Attendance example
                </Button>
              </div>
              <textarea
                id={f("listing")}
                className={`${fieldClass} h-64 font-mono`}
                {...form.register("listing")}
                spellCheck={false}
                placeholder='{"tools": [{"name": "clock_in", "title": "Clock in", "inputSchema": {"type": "object"}}]}'
                {...invalid("listing")}
              />
              <FieldError id={`${f("listing")}-error`} message={errorOf("listing")} />
            </div>
          ) : (
            <div className="grid gap-3 md:grid-cols-3">
              <TextField id={f("url")} label="App URL" error={errorOf("url")} className="md:col-span-3" type="url" placeholder="https://mcp.example.com/mcp" {...form.register("url")} />
              <TextField id={f("header-name")} label="Header name (optional)" error={errorOf("headerName")} autoComplete="off" placeholder="Authorization" {...form.register("headerName")} />
              <TextField
                id={f("header-value")}
                label="Header value (optional, never shown again)"
                error={errorOf("headerValue")}
                className="md:col-span-2"
                type="password"
                autoComplete="off"
                {...form.register("headerValue")}
              />
            </div>
          )}
          <div>
            <label htmlFor={f("risky-text")} className="block text-sm font-medium text-slate-800">
              Risky text
            </label>
            <select id={f("risky-text")} aria-describedby={`${f("risky-text")}-what`} className="mt-1 rounded border border-slate-300 bg-white px-2 py-1 text-sm" {...form.register("riskyText")}>
              {riskyText.options.map((o) => (
                <option key={o} value={o}>
                  {RISKY_TEXT_CHOICES[o]}
                </option>
              ))}
            </select>
            <p id={`${f("risky-text")}-what`} className="mt-1 text-sm text-slate-700">
              As an organisation&apos;s setting would: {RISKY_TEXT_DOES[riskyChoice].replace(/^A/, "a")}
            </p>
          </div>
        </Card>

        <Card className="space-y-3">
          <CardTitle>Apps the person connected before this one</CardTitle>
          <p className="text-sm text-slate-700">
            Names depend on them: an earlier app with the same short name makes this one <span className="font-mono">_2</span>, and an earlier tool keeps
            its whole name.
          </p>
          {others.fields.map((o, i) => (
            <div key={o.id} className="grid gap-2 rounded border border-slate-200 p-3 md:grid-cols-[1fr_2fr_auto]">
              <TextField id={f(`others.${i}.name`)} label={<>Earlier app {i + 1}: name</>} error={errorOf(`others.${i}.name`)} {...form.register(`others.${i}.name`)} />
              <div>
                <label htmlFor={f(`others.${i}.listing`)} className="block text-sm font-medium text-slate-800">
                  Earlier app {i + 1}: listing (optional)
                </label>
                <textarea
                  id={f(`others.${i}.listing`)}
                  className={`${fieldClass} h-20 font-mono`}
                  spellCheck={false}
                  {...form.register(`others.${i}.listing`)}
                  {...invalid(`others.${i}.listing`)}
                />
                <FieldError id={`${f(`others.${i}.listing`)}-error`} message={errorOf(`others.${i}.listing`)} />
              </div>
              <div className="self-end">
                <Button variant="danger" onClick={() => others.remove(i)}>
                  Remove<span className="sr-only"> earlier app {i + 1}</span>
                </Button>
              </div>
            </div>
          ))}
          <Button variant="secondary" onClick={() => others.append({ name: "", listing: "" })}>
            Add an earlier app
          </Button>
        </Card>

        <div className="flex items-center gap-3">
          <Button type="submit" disabled={check.isPending}>
            {check.isPending ? "Checking…" : "Check"}
          </Button>
          {check.isPending && (
            <span role="status" className="text-sm text-slate-700">
              Running the check…
            </span>
          )}
        </div>
      </form>

      {check.isError && (
        <Alert title="The check could not run">{errorMessage(check.error, "Something went wrong reading the answer.")}</Alert>
      )}

      {previewed !== undefined && (
        <Card ref={resultRef} tabIndex={-1} className="space-y-4 focus:outline-none focus-visible:outline-2 focus-visible:outline-indigo-600" aria-label="Check result">
          {earlier.length > 0 && (
            <div className="text-sm">
              <h2 className="font-medium text-slate-800">Connected before</h2>
              <ul className="mt-1 space-y-1">
                {earlier.map((a, i) => (
                  <li key={i} className="flex flex-wrap items-center gap-2">
                    <span>{a.name}</span>
                    <span className="font-mono">{a.shortName}</span>
                    <StatusPill status={a.status} />
                  </li>
                ))}
              </ul>
            </div>
          )}
          <TrySourceProvider source={canTry ? tried : null}>
            <AppCheckView app={previewed} />
          </TrySourceProvider>
          <HostPanel apps={result!.apps} {...(schemaBytes ? { schemaBytes } : {})} />
          {/* SPEC §27: the conformance suite against the live URL checked, for those who may try its tools. */}
          {canTry && tried?.kind === "preview" && <PreviewConformance key={tried.url} url={tried.url} {...(tried.headers ? { headers: tried.headers } : {})} />}
        </Card>
      )}
    </div>
  );
}
