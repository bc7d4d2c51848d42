import { z } from "zod";
import { appHeaders, appUrl, connectedAppName } from "./check";
import { plainName } from "./names";

/**
 * The MCP Registry (SPEC §24): the parts of a `server.json` (schema 2025-12-11,
 * https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json) that connecting
 * an app uses, with the official schema's own bounds, and the import request the add-app form and
 * `POST …/apps` share. Fields the official schema allows and we do not use pass through unread.
 */

export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** `Input` of the official schema: what a client asks a person for. */
const registryInput = z.looseObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.enum(["string", "number", "boolean", "filepath"]).optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});

/** `KeyValueInput`: a header a remote takes. */
const remoteHeader = registryInput.extend({ name: z.string({ error: "A header needs a name." }), variables: z.record(z.string(), registryInput).optional() });

/** `RemoteTransport`: streamable-http or sse, its URL template, headers and variables. */
const remote = z.looseObject({
  type: z.enum(["streamable-http", "sse"], { error: 'A remote\'s type is "streamable-http" or "sse".' }),
  url: z.string({ error: "A remote needs a url." }).regex(/^https?:\/\/[^\s]+$/, "A remote's url is an http:// or https:// URL with no spaces."),
  headers: z.array(remoteHeader).optional(),
  variables: z.record(z.string(), registryInput).optional(),
});
export type Remote = z.infer<typeof remote>;

export const serverJson = z.looseObject({
  $schema: z.string().optional(),
  name: z
    .string({ error: "A server.json needs a name." })
    .min(3, "A server's name is at least 3 characters.")
    .max(200, "A server's name is at most 200 characters.")
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, "A server's name is namespace/name in reverse-DNS form (e.g. io.github.user/weather), with exactly one /."),
  description: z.string({ error: "A server.json needs a description." }).min(1, "A server's description is at least 1 character.").max(100, "A server's description is at most 100 characters."),
  // Kept and shown as the app's source (SPEC §24): held to the names' characters (§10, §25).
  version: plainName(z.string({ error: "A server.json needs a version." }).max(255, "A server's version is at most 255 characters."), "A version"),
  title: z.string().min(1, "A server's title is at least 1 character.").max(100, "A server's title is at most 100 characters.").optional(),
  websiteUrl: z.string().optional(),
  remotes: z.array(remote).optional(),
  packages: z.array(z.unknown()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type ServerJson = z.infer<typeof serverJson>;

/** Where a registry entry is read from: `{url}/v0.1/servers/{name}/versions/{version or latest}`. */
const registryRef = z.object({
  url: appUrl,
  name: z.string().trim().min(1, "Give the server's name in the registry.").max(200, "A server's name is at most 200 characters."),
  version: z.string().trim().min(1).max(255, "A version is at most 255 characters.").optional(),
});
export type RegistryRef = z.infer<typeof registryRef>;

/**
 * POST /api/orgs/{org}/apps (and …/me/apps) from a registry entry: the `server.json` itself or
 * where to read it, the values of its URL's `{variables}`, and its headers (each kept as a secret).
 * `name` overrides the name the entry gives.
 */
export const appImport = z
  .object({
    serverJson: z.unknown().optional(),
    registry: registryRef.optional(),
    name: connectedAppName.optional(),
    variables: z.record(z.string(), z.string().max(2048, "A variable is at most 2,048 characters.")).optional(),
    headers: appHeaders.optional(),
  })
  .strict()
  .refine((input) => (input.serverJson === undefined) !== (input.registry === undefined), { message: "Give either serverJson or registry, not both.", path: ["serverJson"] });
export type AppImport = z.infer<typeof appImport>;

/** Where an app's server.json came from (SPEC §24), as its page shows it. */
export const appSource = z.object({
  registry: z.string().nullable(),
  name: z.string(),
  version: z.string(),
  /** The newest version the registry lists, when it is newer than the one connected. */
  latest: z.string().nullable(),
});
export type AppSource = z.infer<typeof appSource>;

/** What `dev.theorem/check` says of a published server: the check's verdict, never a secret. */
export const publishedCheck = z.object({
  checkedAt: z.string(),
  protocol: z.string().nullable(),
  tools: z.number().int(),
  included: z.number().int(),
  asksFirst: z.number().int(),
  blocked: z.number().int(),
  /** Tokens the included tools cost; null while the check does not count them (SPEC §21). */
  tokens: z.number().int().nullable(),
  notes: z.array(z.string()),
});
export type PublishedCheck = z.infer<typeof publishedCheck>;

export const CHECK_META = "dev.theorem/check";

/** PATCH /api/orgs/{org}/settings {registry}: a leader turns the organisation's registry on (a new address) or off. */
export const registryToggle = z.object({ registry: z.boolean({ error: "registry is true or false." }) }).strict();

/** GET /api/orgs/{org}/settings's registry part, and PATCH {registry}'s answer (the address only when just made). */
export const registrySetting = z.object({ registry: z.boolean(), registryUrl: z.string().optional() });

/** Servers on one page of a registry's list: the official registry's bounds and default. */
export const REGISTRY_PAGE = { min: 1, max: 100, default: 30 } as const;

/**
 * `GET …/v0.1/servers`'s query (SPEC §24), as the official registry bounds it: `limit` a whole
 * number from 1 to 100 (30 when left out), else 422, never a page of another size than asked.
 */
export const registryListQuery = z.object({
  cursor: z.string().optional(),
  limit: z
    .string()
    .regex(/^\d+$/, `limit is a whole number from ${REGISTRY_PAGE.min} to ${REGISTRY_PAGE.max}.`)
    .transform(Number)
    .pipe(z.number().int().min(REGISTRY_PAGE.min, `limit is at least ${REGISTRY_PAGE.min}.`).max(REGISTRY_PAGE.max, `limit is at most ${REGISTRY_PAGE.max}.`))
    .default(REGISTRY_PAGE.default),
  search: z.string().optional(),
});
export type RegistryListQuery = z.infer<typeof registryListQuery>;

/** What a registry entry adds to an app (SPEC §24): its headers beyond the first, and where it came from. */
export interface ImportedFields {
  moreHeaders?: readonly [string, string][];
  source?: { registry: string | null; name: string; version: string };
}
