import { InvalidError, type FieldIssue } from "@/lib/errors";
import { appHeaders, appUrl, connectedAppName } from "@/lib/schemas/check";
import { serverJson, type Remote, type ServerJson } from "@/lib/schemas/registry";

/**
 * An app made from a registry entry (SPEC §24): its first `streamable-http` remote, else its
 * first `sse` one; the URL's `{variables}` filled; every header it is given kept. Pure: the route,
 * the form and the tests call it alike, and it refuses with the sentence a person reads.
 */

interface ImportedApp {
  name: string;
  url: string;
  /** Every header, in the order given (the first is stored as the app's header; all are secrets). */
  headers: [string, string][];
  remote: Remote;
  server: ServerJson;
}

interface ImportValues {
  name?: string | undefined;
  variables?: Record<string, string> | undefined;
  headers?: Record<string, string> | undefined;
}

const where = (path: readonly PropertyKey[]) => (path.length === 0 ? "the server.json" : path.map(String).join("."));

/** The server.json, or a 422 naming each way it does not fit the schema (under `field` in the issues). */
export function parseServerJson(document: unknown, field: readonly string[] = ["serverJson"]): ServerJson {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    const message = "A server.json is a JSON object.";
    throw new InvalidError(message, [{ path: [...field], message }]);
  }
  const parsed = serverJson.safeParse(document);
  if (parsed.success) return parsed.data;
  const issues: FieldIssue[] = parsed.error.issues.map((issue) => ({ path: [...field, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], message: `${where(issue.path)}: ${issue.message}` }));
  throw new InvalidError(`This server.json does not fit its schema (2025-12-11): ${issues.map((i) => i.message).join("; ")}`, issues);
}

/** The remote an app is made from: the first streamable-http one, else the first sse one; null when there is none. */
export function chooseRemote(server: ServerJson): Remote | null {
  const remotes = server.remotes ?? [];
  return remotes.find((r) => r.type === "streamable-http") ?? remotes.find((r) => r.type === "sse") ?? null;
}

const VARIABLE = /\{([^{}]+)\}/g;

/** Fills `{name}` from `values` (or the variable's default), answering the names with no value. */
export function fillTemplate(template: string, values: Record<string, string>, declared: Remote["variables"] = {}): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = template.replace(VARIABLE, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : declared[name]?.default;
    if (value === undefined || value === "") {
      if (!missing.includes(name)) missing.push(name);
      return whole;
    }
    return value;
  });
  return { text, missing };
}

/** The variables a remote's URL needs (after its scheme), in order. */
export function urlVariables(remote: Remote): string[] {
  const afterScheme = remote.url.replace(/^https?:\/\//, "");
  return [...new Set([...afterScheme.matchAll(VARIABLE)].map((m) => m[1]!))];
}

/**
 * The app's name: the one given, else the entry's title, else the part of its name after `/`;
 * held to the rules of a typed name (SPEC §25), or a 422 naming the field it came from (under `field`).
 */
export function importedName(server: ServerJson, given?: string, field: readonly string[] = ["serverJson"]): string {
  const [name, path] =
    given !== undefined ? [given, ["name"]] : server.title !== undefined ? [server.title, [...field, "title"]] : [server.name.slice(server.name.indexOf("/") + 1), [...field, "name"]];
  const parsed = connectedAppName.safeParse(name);
  if (parsed.success) return parsed.data;
  const issues: FieldIssue[] = parsed.error.issues.map((issue) => ({ path: [...path], message: `${path.join(".")}: ${issue.message}` }));
  throw new InvalidError(`The app's name comes from ${path.join(".")}, which cannot name it: ${issues.map((i) => i.message).join("; ")}`, issues);
}

/**
 * Makes the app of `server` with the person's values, or refuses (422) naming what is missing:
 * no remote (a package a person runs on their machine), a URL variable, a required header.
 */
export function importApp(server: ServerJson, values: ImportValues, field: readonly string[] = ["serverJson"]): ImportedApp {
  const remote = chooseRemote(server);
  if (remote === null) {
    const message =
      (server.packages?.length ?? 0) > 0
        ? "This server.json has no remote (streamable-http or sse): only packages a person runs on their own machine, which a dashboard cannot connect to."
        : "This server.json has no remote (streamable-http or sse) to connect to.";
    throw new InvalidError(message, [{ path: ["serverJson", "remotes"], message }]);
  }
  const variables = values.variables ?? {};
  const issues: FieldIssue[] = [];
  const scheme = /^https?:\/\//.exec(remote.url)?.[0] ?? "";
  const filled = fillTemplate(remote.url.slice(scheme.length), variables, remote.variables);
  for (const name of filled.missing) issues.push({ path: ["variables", name], message: `Give a value for the URL variable {${name}}.` });

  const given = Object.entries(values.headers ?? {});
  const has = (name: string) => given.some(([n]) => n.toLowerCase() === name.toLowerCase());
  const headers: [string, string][] = [...given];
  for (const header of remote.headers ?? []) {
    if (has(header.name)) continue;
    // A fixed value (with its own variables filled) is sent as the entry says; otherwise a required header must be given.
    const fixed = header.value === undefined ? null : fillTemplate(header.value, variables, header.variables);
    if (fixed !== null && fixed.missing.length === 0) headers.push([header.name, fixed.text]);
    else if (header.isRequired === true) issues.push({ path: ["headers", header.name], message: `Give the header ${header.name}${header.description ? ` (${header.description.slice(0, 200)})` : ""}: the server requires it.` });
  }
  // What the entry fixes is held to the rules a header a person gives is (SPEC §10).
  for (const issue of appHeaders.safeParse(Object.fromEntries(headers)).error?.issues ?? []) issues.push({ path: ["headers", ...issue.path.map(String)], message: `Header ${issue.path.map(String).join(".")}: ${issue.message}` });
  if (issues.length > 0) throw new InvalidError(issues.map((i) => i.message).join(" "), issues);

  const url = appUrl.safeParse(scheme + filled.text);
  if (!url.success) {
    const message = `The remote's URL with its variables filled is not an http(s) URL: ${JSON.stringify((scheme + filled.text).slice(0, 300))}.`;
    throw new InvalidError(message, [{ path: ["variables"], message }]);
  }
  return { name: importedName(server, values.name, field), url: url.data, headers, remote, server };
}
