import "server-only";
import { appCreate, type AppCreate } from "@/lib/schemas/orgs";
import { appImport, type ImportedFields } from "@/lib/schemas/registry";
import { shownUrl } from "@/lib/redact";
import { readRegistryEntry } from "./fetch";
import { importApp, parseServerJson } from "./server-json";

/** A body of POST …/apps that connects from a registry entry (SPEC §24) rather than by URL. */
const isImport = (body: unknown): boolean => typeof body === "object" && body !== null && ("serverJson" in body || "registry" in body);

/**
 * What POST /api/orgs/{org}/apps (and …/me/apps) connects: an app by URL as before, or one made
 * from a server.json, given or read from a registry. Every refusal is a 422 naming what is wrong,
 * before anything is stored or any app is read.
 */
export async function connectionOf(body: unknown): Promise<AppCreate & ImportedFields> {
  if (!isImport(body)) return appCreate.parse(body);
  const input = appImport.parse(body);
  const document = input.registry === undefined ? input.serverJson : await readRegistryEntry(input.registry);
  const field = input.registry === undefined ? ["serverJson"] : ["registry"];
  const server = parseServerJson(document, field);
  const app = importApp(server, input, field);
  const [first, ...more] = app.headers;
  return {
    name: app.name,
    url: app.url,
    header: first === undefined ? null : { name: first[0], value: first[1] },
    moreHeaders: more,
    // Shown to every member and audited: a `?token=`-style secret is `…`, as in an app's URL (SPEC §10, §25).
    // Nothing is lost: a registry is read without its query (lib/registry/fetch.ts).
    source: { registry: input.registry === undefined ? null : shownUrl(input.registry.url), name: server.name, version: server.version },
  };
}
