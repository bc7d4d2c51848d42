"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { AppCheckView, StatusPill } from "@/components/app-check-view";
import { Button } from "@/components/ui/button";
import { FieldError, fieldClass } from "@/components/ui/field";
import { Card, CardTitle } from "@/components/ui/card";
import { TrySourceProvider } from "@/components/try/try-slot";
import { ATTENDANCE_LISTING } from "@/lib/examples";
import { readListingText } from "@/lib/listing-input";
import { ApiRequestError, checkMutation } from "@/lib/queries/check";
import type { TrySource } from "@/lib/queries/try";
import { checkRequest, type CheckAppInput, type CheckRequest } from "@/lib/schemas/check";

type Mode = "listing" | "url";
interface OtherApp {
  key: number;
  name: string;
  listing: string;
}
type Errors = Record<string, string>;

/** Which form field shows a schema issue of the previewed app, by the issue's field. */
const FIELD_KEY: Record<string, string> = { name: "name", url: "url", headers: "header", tools: "listing" };

/**
 * What an app developer uses before shipping: paste a listing (or give a URL), name the
 * app, list the apps the person connected before it, and see the check. With `canTry` (a
 * leader or developer of some organisation), the tools of a live URL may be tried (SPEC §14).
 */
export function PreviewForm({ canTry = false }: { canTry?: boolean }) {
  const id = useId();
  const [name, setName] = useState("");
  const [mode, setMode] = useState<Mode>("listing");
  const [listing, setListing] = useState("");
  const [url, setUrl] = useState("");
  const [headerName, setHeaderName] = useState("Authorization");
  const [headerValue, setHeaderValue] = useState("");
  const [others, setOthers] = useState<OtherApp[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const [errors, setErrors] = useState<Errors>({});
  const check = useMutation(checkMutation());
  /** The live URL the shown check read, with its header: where its tools are tried. */
  const [tried, setTried] = useState<TrySource | null>(null);

  const f = (field: string) => `${id}-${field}`;
  const invalid = (field: string) => ({
    "aria-invalid": errors[field] !== undefined,
    "aria-describedby": errors[field] !== undefined ? `${f(field)}-error` : undefined,
  });

  function build(): { request: CheckRequest } | { errors: Errors } {
    const found: Errors = {};
    const apps: CheckAppInput[] = others.map((o) => {
      if (o.listing.trim() === "") return { name: o.name, tools: [] };
      const read = readListingText(o.listing);
      if (!read.ok) found[`other-${o.key}-listing`] = read.message;
      return { name: o.name, tools: read.ok ? read.tools : [] };
    });
    if (mode === "listing") {
      const read = readListingText(listing);
      if (!read.ok) found["listing"] = read.message;
      apps.push({ name, tools: read.ok ? read.tools : [] });
    } else {
      const headers = headerValue !== "" ? { [headerName.trim()]: headerValue } : undefined;
      apps.push({ name, url, ...(headers ? { headers } : {}) });
    }
    const parsed = checkRequest.safeParse({ apps });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [, index, field] = issue.path;
        const isThis = index === others.length;
        const key = isThis
          ? (FIELD_KEY[String(field)] ?? (mode === "listing" ? "listing" : "url"))
          : `other-${others[Number(index)]?.key}-${field === "name" ? "name" : "listing"}`;
        found[key] ??= issue.message;
      }
    }
    if (Object.keys(found).length > 0) return { errors: found };
    return { request: parsed.data! };
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const built = build();
    if ("errors" in built) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    const previewed = built.request.apps.at(-1);
    setTried(previewed?.url !== undefined ? { kind: "preview", url: previewed.url, name: previewed.name, ...(previewed.headers ? { headers: previewed.headers } : {}) } : null);
    check.mutate(built.request);
  }

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
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Preview a listing">
        <Card className="space-y-4">
          <div>
            <label htmlFor={f("name")} className="block text-sm font-medium text-slate-800">
              App name
            </label>
            <input id={f("name")} className={fieldClass} value={name} onChange={(e) => setName(e.target.value)} placeholder="Attendance" {...invalid("name")} />
            <FieldError id={`${f("name")}-error`} message={errors["name"]} />
          </div>

          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Where its tools come from</legend>
            <div className="mt-1 flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-1.5">
                <input type="radio" name={f("mode")} checked={mode === "listing"} onChange={() => setMode("listing")} />
                Paste a listing
              </label>
              <label className="flex items-center gap-1.5">
                <input type="radio" name={f("mode")} checked={mode === "url"} onChange={() => setMode("url")} />
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
                    setName((n) => (n === "" ? "Attendance" : n));
                    setListing(JSON.stringify(ATTENDANCE_LISTING, null, 2));
                  }}
                >
                  Use the Attendance example
                </Button>
              </div>
              <textarea
                id={f("listing")}
                className={`${fieldClass} h-64 font-mono`}
                value={listing}
                onChange={(e) => setListing(e.target.value)}
                spellCheck={false}
                placeholder='{"tools": [{"name": "clock_in", "title": "Clock in", "inputSchema": {"type": "object"}}]}'
                {...invalid("listing")}
              />
              <FieldError id={`${f("listing")}-error`} message={errors["listing"]} />
            </div>
          ) : (
            <div className="grid gap-3 md:grid-cols-3">
              <div className="md:col-span-3">
                <label htmlFor={f("url")} className="block text-sm font-medium text-slate-800">
                  App URL
                </label>
                <input id={f("url")} type="url" className={fieldClass} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://mcp.example.com/mcp" {...invalid("url")} />
                <FieldError id={`${f("url")}-error`} message={errors["url"]} />
              </div>
              <div>
                <label htmlFor={f("header-name")} className="block text-sm font-medium text-slate-800">
                  Header name (optional)
                </label>
                <input id={f("header-name")} className={fieldClass} value={headerName} onChange={(e) => setHeaderName(e.target.value)} />
              </div>
              <div className="md:col-span-2">
                <label htmlFor={f("header-value")} className="block text-sm font-medium text-slate-800">
                  Header value (optional, never shown again)
                </label>
                <input
                  id={f("header-value")}
                  type="password"
                  autoComplete="off"
                  className={fieldClass}
                  value={headerValue}
                  onChange={(e) => setHeaderValue(e.target.value)}
                  {...invalid("header")}
                />
                <FieldError id={`${f("header")}-error`} message={errors["header"]} />
              </div>
            </div>
          )}
        </Card>

        <Card className="space-y-3">
          <CardTitle>Apps the person connected before this one</CardTitle>
          <p className="text-sm text-slate-700">
            Names depend on them: an earlier app with the same short name makes this one <span className="font-mono">_2</span>, and an earlier tool keeps
            its whole name.
          </p>
          {others.map((o, i) => (
            <div key={o.key} className="grid gap-2 rounded border border-slate-200 p-3 md:grid-cols-[1fr_2fr_auto]">
              <div>
                <label htmlFor={f(`other-${o.key}-name`)} className="block text-sm font-medium text-slate-800">
                  Earlier app {i + 1}: name
                </label>
                <input
                  id={f(`other-${o.key}-name`)}
                  className={fieldClass}
                  value={o.name}
                  onChange={(e) => setOthers((list) => list.map((x) => (x.key === o.key ? { ...x, name: e.target.value } : x)))}
                  {...invalid(`other-${o.key}-name`)}
                />
                <FieldError id={`${f(`other-${o.key}-name`)}-error`} message={errors[`other-${o.key}-name`]} />
              </div>
              <div>
                <label htmlFor={f(`other-${o.key}-listing`)} className="block text-sm font-medium text-slate-800">
                  Earlier app {i + 1}: listing (optional)
                </label>
                <textarea
                  id={f(`other-${o.key}-listing`)}
                  className={`${fieldClass} h-20 font-mono`}
                  value={o.listing}
                  spellCheck={false}
                  onChange={(e) => setOthers((list) => list.map((x) => (x.key === o.key ? { ...x, listing: e.target.value } : x)))}
                  {...invalid(`other-${o.key}-listing`)}
                />
                <FieldError id={`${f(`other-${o.key}-listing`)}-error`} message={errors[`other-${o.key}-listing`]} />
              </div>
              <div className="self-end">
                <Button variant="danger" onClick={() => setOthers((list) => list.filter((x) => x.key !== o.key))}>
                  Remove<span className="sr-only"> earlier app {i + 1}</span>
                </Button>
              </div>
            </div>
          ))}
          <Button
            variant="secondary"
            onClick={() => {
              setOthers((list) => [...list, { key: nextKey, name: "", listing: "" }]);
              setNextKey((k) => k + 1);
            }}
          >
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
        <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-3 text-sm text-rose-950">
          <p className="font-semibold">The check could not run</p>
          <p className="mt-1">{check.error instanceof ApiRequestError ? check.error.message : "Something went wrong reading the answer."}</p>
        </div>
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
        </Card>
      )}
    </div>
  );
}
