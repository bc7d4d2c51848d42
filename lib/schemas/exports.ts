import { z } from "zod";

/**
 * The same decisions in the other assistants people use (SPEC §26): the hosts a leader's
 * decisions are written for, and the answer of `GET /api/orgs/{org}/exports/{host}`.
 */

export const EXPORT_HOSTS = ["claude-code", "gemini-cli", "codex", "openai-responses", "anthropic-messages", "copilot"] as const;
export const exportHost = z.enum(EXPORT_HOSTS, { error: `The host is one of ${EXPORT_HOSTS.join(", ")}.` });
export type ExportHost = z.infer<typeof exportHost>;

/** What a host cannot say (SPEC §26): `"strict"` leaves that tool, or that app, out; `"loose"` keeps it and lists it. */
export const exportFallback = z.enum(["strict", "loose"], { error: 'exportFallback is "strict" or "loose".' });
export type ExportFallback = z.infer<typeof exportFallback>;

export const exportFor = z.union([
  z.literal("everyone"),
  z.object({ group: z.object({ id: z.string(), name: z.string() }) }),
  z.object({ person: z.object({ id: z.string(), email: z.string() }) }),
]);
export type ExportFor = z.infer<typeof exportFor>;

export const exportFile = z.object({
  /** Where the host reads it (its managed or system location, or the request body for an API). */
  path: z.string(),
  format: z.enum(["json", "toml"]),
  text: z.string(),
  /** The host's published JSON Schema for that file, or null where none is published. */
  schema: z.string().nullable(),
});
export type ExportFile = z.infer<typeof exportFile>;

export const cannotDecision = z.enum(["blocked", "ask-first", "runs-freely", "no-access", "header"]);
export type CannotDecision = z.infer<typeof cannotDecision>;

/** One thing a host cannot say; with `app` and no `tool`, it covers every tool of that app. */
export const cannotEntry = z.object({
  tool: z.string().optional(),
  app: z.object({ id: z.string(), name: z.string() }).optional(),
  decision: cannotDecision,
  what: z.string(),
  applied: z.string(),
});
export type CannotEntry = z.infer<typeof cannotEntry>;

/**
 * Copilot's "Registry only" (SPEC §25, §26): whether the group's own registry (or, for everyone, the
 * organisation's) is on, and where its address goes. The address itself is answered once, when the
 * registry is turned on, and never stored: it is never in an export.
 */
export const exportRegistry = z.object({ of: z.enum(["group", "organisation"]), on: z.boolean(), what: z.string() });
export type ExportRegistry = z.infer<typeof exportRegistry>;

export const hostExport = z.object({ host: exportHost, for: exportFor, files: z.array(exportFile), cannot: z.array(cannotEntry), registry: exportRegistry.optional() });
export type HostExport = z.infer<typeof hostExport>;

/** `?group=ID` or `?person=ID` (a member id as GET …/people lists it, or `me`), not both; none: everyone. `fallback`, when given, instead of the organisation's `exportFallback`. */
export const exportQuery = z
  .object({
    group: z.string().min(1).max(200, "A group id is at most 200 characters.").optional(),
    person: z.string().min(1).max(200, "A person id is at most 200 characters.").optional(),
    fallback: exportFallback.optional(),
  })
  .strict()
  .refine((q) => q.group === undefined || q.person === undefined, { message: "Ask for a group or a person, not both.", path: ["person"] });
