import "server-only";
import { InvalidError } from "@/lib/errors";
import { CONNECT_TIMEOUT_MS } from "@/lib/engine/limits";
import { allowListFromEnv, systemResolver, type Resolver } from "@/lib/mcp/address";
import { GuardError, guardedFetch } from "@/lib/mcp/guarded-fetch";
import { shownUrl } from "@/lib/redact";
import { serverJson, type RegistryRef } from "@/lib/schemas/registry";

/**
 * Reads one entry of an MCP Registry (SPEC §24): `{url}/v0.1/servers/{name}/versions/{version}`,
 * through the guarded fetch and its address rules (SPEC §10: a refused address is never
 * connected to, nor is a redirect to one followed), at most 1 MiB, within the connect deadline.
 */

export const REGISTRY_DOCUMENT_BYTES = 1024 * 1024;

/** The address of one version of a server in a registry whose base address is `base`. */
function entryUrl(base: string, name: string, version = "latest"): URL {
  const root = new URL(base);
  if (!root.pathname.endsWith("/")) root.pathname += "/";
  root.search = "";
  root.hash = "";
  return new URL(`v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`, root);
}

const refuse = (message: string, field = "url"): never => {
  throw new InvalidError(message, [{ path: ["registry", field], message }]);
};

/**
 * The registry's answer for `ref` as JSON: its `server` (a v0.1 ServerResponse), or the document
 * itself when it is a bare server.json. Refuses (422) what is wrong, in a sentence naming it.
 */
export async function readRegistryEntry(ref: RegistryRef, resolve: Resolver = systemResolver): Promise<unknown> {
  const url = entryUrl(ref.url, ref.name, ref.version);
  const what = `${ref.name} (${ref.version ?? "latest"})`;
  let stopped: GuardError | null = null;
  const guard = guardedFetch({
    resolve,
    allow: allowListFromEnv(),
    signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
    onStop: (error) => (stopped ??= error),
    responseByteLimit: REGISTRY_DOCUMENT_BYTES,
  });
  const failed = (e: unknown): never => {
    const cause = (e as { cause?: unknown } | null)?.cause;
    const error = stopped ?? (e instanceof GuardError ? e : cause instanceof GuardError ? cause : null);
    if (error !== null) return refuse(`The registry could not be read: ${error.reason}.`);
    if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) return refuse(`The registry did not answer within ${CONNECT_TIMEOUT_MS / 1000} s.`);
    return refuse(`The registry could not be read: ${e instanceof Error ? e.message : String(e)}.`);
  };
  try {
    const response = await guard.fetch(url, { headers: { accept: "application/json" } }).catch(failed);
    if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      return refuse(`The registry has no server ${what} (HTTP 404).`, "name");
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      return refuse(`The registry answered HTTP ${response.status} for ${what}.`);
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json" && !type.endsWith("+json")) {
      await response.body?.cancel().catch(() => {});
      return refuse(`The registry answered ${type === "" ? "with no content type" : type}, not JSON: is ${shownUrl(ref.url)} an MCP Registry (it serves /v0.1/servers)?`);
    }
    const text = await response.text().catch(failed);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      return refuse("The registry's answer is not valid JSON.");
    }
    if (typeof document === "object" && document !== null && "server" in document) return document.server;
    return document;
  } finally {
    guard.end();
  }
}

/**
 * The version the registry calls latest of `ref.name`, null when it has none (404), or undefined
 * when it could not be asked (the re-check keeps what it knew).
 */
export async function latestVersion(ref: Omit<RegistryRef, "version">, resolve: Resolver = systemResolver): Promise<string | null | undefined> {
  try {
    const server = await readRegistryEntry(ref, resolve);
    // Stored and shown beside the app: a version a server.json could not give (hidden characters) says nothing new.
    const version = serverJson.shape.version.safeParse((server as { version?: unknown } | null)?.version);
    return version.success ? version.data : undefined;
  } catch (e) {
    if (e instanceof InvalidError && /HTTP 404/.test(e.message)) return null;
    return undefined;
  }
}
