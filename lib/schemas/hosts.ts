import { z } from "zod";
import configured from "@/config/hosts.json";

/**
 * Other hosts' rules beside Theorem's (SPEC §22): the profiles kept in `config/hosts.json`, what
 * `GET /api/hosts` answers, what `POST /api/check` takes in `"hosts"` and answers per host.
 */

/** The placeholders a host's `nameForm` may hold: the app's short name (§1), the tool's name as listed, Theorem's whole name (§2). */
const NAME_FORM_PARTS = ["{app}", "{tool}", "{whole}"] as const;

/** Whether `pattern` compiles as the engine compiles it (with the `u` flag); the error's message when it does not. */
function patternError(pattern: string): string | null {
  try {
    new RegExp(pattern, "u");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A limit a host states, or null when it states none. */
const limit = z.number().int().positive().nullable();

export const hostId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "A host's id is 1–40 lower-case letters, digits and -.");

const hostProfile = z.object({
  id: hostId,
  name: z.string().trim().min(1, "Give the host a name.").max(80),
  /** The public page or thread the limits are taken from. */
  source: z.string({ error: "Give the page or thread its limits come from (`source`)." }).trim().min(1, "Give the page or thread its limits come from (`source`)."),
  /** When someone last checked the limits against the source. */
  checked: z.iso.date({ error: "Give the date the limits were checked (`checked`, YYYY-MM-DD)." }),
  /** Tools in one request. */
  maxTools: limit,
  /** How the host names a tool: `{tool}`, `mcp__{app}__{tool}`, `{app}__{tool}`, or `{whole}` (Theorem's §2). */
  nameForm: z
    .string()
    .min(1)
    .max(100)
    .refine((form) => /\{(tool|whole)\}/.test(form), "A name form holds `{tool}` or `{whole}`.")
    .refine((form) => (form.match(/\{[^}]*\}/g) ?? []).every((part) => (NAME_FORM_PARTS as readonly string[]).includes(part)), `A name form's placeholders are ${NAME_FORM_PARTS.join(", ")}.`),
  /** Characters (code points) of the name as the host forms it. */
  nameMax: limit,
  /** A regular expression the name as the host forms it must match. */
  namePattern: z
    .string()
    .max(500)
    .nullable()
    .superRefine((pattern, ctx) => {
      const error = pattern === null ? null : patternError(pattern);
      if (error !== null) ctx.addIssue({ code: "custom", message: `The name pattern ${JSON.stringify(pattern)} does not compile: ${error}` });
    }),
  /** Characters of a tool's description the host keeps. */
  descriptionMax: limit,
  /** UTF-8 bytes of a tool's `inputSchema` as JSON. */
  schemaMaxBytes: limit,
});
export type HostProfile = z.infer<typeof hostProfile>;

const hostProfilesFile = z.object({
  hosts: z
    .array(hostProfile)
    .min(1)
    .superRefine((hosts, ctx) => {
      const seen = new Set<string>();
      hosts.forEach((host, i) => {
        if (seen.has(host.id)) ctx.addIssue({ code: "custom", message: `The id "${host.id}" is given twice.`, path: [i, "id"] });
        seen.add(host.id);
      });
    }),
});

/** Host profiles that cannot be used: the dashboard does not start with them. */
export class HostProfilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostProfilesError";
  }
}

/**
 * The profiles of a hosts file, or a `HostProfilesError` saying which profile and which field is
 * wrong (`config/hosts.json: host 3 ("claude-code"): namePattern: The name pattern "(" does not compile: …`).
 */
export function parseHostProfiles(raw: unknown, file = "config/hosts.json"): HostProfile[] {
  const parsed = hostProfilesFile.safeParse(raw);
  if (parsed.success) return parsed.data.hosts;
  const hosts = (raw as { hosts?: unknown } | null)?.hosts;
  const lines = parsed.error.issues.map((issue) => {
    const [top, index, field] = issue.path;
    if (top !== "hosts" || typeof index !== "number") return `${issue.path.join(".") || "the file"}: ${issue.message}`;
    const id = Array.isArray(hosts) ? (hosts[index] as { id?: unknown } | undefined)?.id : undefined;
    const which = `host ${index + 1}${typeof id === "string" ? ` (${JSON.stringify(id)})` : ""}`;
    return `${which}${field !== undefined ? `: ${String(field)}` : ""}: ${issue.message}`;
  });
  return fail(`${file} has ${lines.length === 1 ? "a profile that cannot be used" : `${lines.length} problems`}: ${lines.join("; ")}`);
}

function fail(message: string): never {
  throw new HostProfilesError(message);
}

let loaded: HostProfile[] | undefined;

/** The profiles of `config/hosts.json`, validated once (the dashboard's start-up does it first, and refuses to start on an error). */
export function hostProfiles(): readonly HostProfile[] {
  loaded ??= parseHostProfiles(configured);
  return loaded;
}

/** The longest id a refusal repeats: an id is at most 40 characters, so a longer one is only said to be too long. */
const HOST_ID_ECHO_MAX = 100;

/** A request names at most this many hosts: every one of the seven and a few more, never a flood. */
const MAX_REQUESTED_HOSTS = 20;

/** The hosts a check is asked about, by id: each known, none twice; their profiles in the order asked. */
export const requestedHosts = z
  .array(z.string().max(HOST_ID_ECHO_MAX, `A host's id is at most 40 characters (GET /api/hosts lists them).`), { error: "`hosts` is a list of host ids." })
  .max(MAX_REQUESTED_HOSTS, `At most ${MAX_REQUESTED_HOSTS} hosts in one check (GET /api/hosts lists them).`)
  .superRefine((ids, ctx) => {
    const known = new Set(hostProfiles().map((h) => h.id));
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      // An id past the length bound is named by that issue alone, never repeated.
      if (id.length > HOST_ID_ECHO_MAX) return;
      if (!known.has(id)) ctx.addIssue({ code: "custom", message: `Unknown host "${id}": the hosts are ${[...known].join(", ")}.`, path: [i] });
      else if (seen.has(id)) ctx.addIssue({ code: "custom", message: `The host "${id}" is asked for twice.`, path: [i] });
      seen.add(id);
    });
  });

/** The profiles of `ids` (known ones, as `requestedHosts` checked), in their order. */
export function profilesOf(ids: readonly string[]): HostProfile[] {
  const byId = new Map(hostProfiles().map((h) => [h.id, h]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---- The answer ----

export const hostProblemCode = z.enum(["too-many-tools", "name-too-long", "name-not-allowed", "description-cut", "schema-too-large"]);
export type HostProblemCode = z.infer<typeof hostProblemCode>;

const hostProblem = z.object({
  code: hostProblemCode,
  /** The app's and the tool's 0-based places in the request (on every problem of one tool). */
  app: z.number().int().nonnegative().optional(),
  tool: z.number().int().nonnegative().optional(),
  message: z.string(),
});
export type HostProblem = z.infer<typeof hostProblem>;

export const hostCheck = z.object({
  id: z.string(),
  /** The included tools of the whole request, as this host would be sent them. */
  tools: z.number().int().nonnegative(),
  problems: z.array(hostProblem),
});
export type HostCheck = z.infer<typeof hostCheck>;

export const hostsAnswer = z.object({ hosts: z.array(hostProfile) });
