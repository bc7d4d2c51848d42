import { z } from "zod";
import { isObject } from "@/lib/json-text";
import { appHeaders, appName, appUrl, policy, unavailableCode } from "./check";
import { orgSlug } from "./orgs";

/**
 * Trying a tool (SPEC §14): what `POST /api/orgs/{org}/apps/{app}/try` and `POST /api/try`
 * take and answer, and the arguments' schema made from a tool's `inputSchema`, which the route
 * checks before any call and the form validates with.
 */

/** SPEC §14's deadline on a call, and what of the answer the try carries for display (SPEC §7's bounds: lib/engine/limits.ts). */
export const CALL_TIMEOUT_MS = 60_000;
export const CONTENT_LIMIT = 64 * 1024;

const toolName = z.string({ error: "Name the tool to call." }).min(1, "Name the tool to call.").max(1000, "A tool's name is at most 1,000 characters.");
const callArguments = z.record(z.string(), z.unknown(), { error: "`arguments` is an object: the tool's arguments by name." });

/** Rounds of questions a tool may ask in one try (SPEC §18: the 2026-07-28 era's `input_required`). */
export const MAX_INPUT_ROUNDS = 5;
/** An app's `requestState` is at most 64 KiB; the seal of its round adds under 80 characters. */
const REQUEST_STATE_MAX = 64 * 1024 + 128;

/** POST /api/orgs/{org}/apps/{app}/try; a continued call adds the answers to the tool's questions, as the protocol says. */
export const tryRequest = z.object({
  tool: toolName,
  arguments: callArguments.default({}),
  /** The person's answers, by the key of each request (`{"confirm": {"action": "accept", "content": {…}}}`). */
  inputResponses: z.record(z.string().max(200), z.unknown(), { error: "`inputResponses` is an object: an answer per request, by its key." }).optional(),
  /** The answer's `requestState`, echoed exactly: the app's own, sealed with its round (lib/orgs/try-rounds.ts), so a client sends no round of its own. */
  requestState: z.string().max(REQUEST_STATE_MAX, `\`requestState\` is at most ${REQUEST_STATE_MAX.toLocaleString("en-US")} characters.`).optional(),
  /** SPEC §25: a leader tries a tool refused to them (blocked, awaiting review, of an app they do not have) all the same; developers may not (403). */
  anyway: z.boolean({ error: '`anyway` is true or false.' }).optional(),
  /** SPEC §27: the arguments are sent as given even where they do not fit the tool's schema; the answer's `notes` name those that did not. */
  asTyped: z.boolean({ error: "`asTyped` is true or false." }).optional(),
});
export type TryRequest = z.infer<typeof tryRequest>;

/** POST /api/try: a URL of the preview; `org`, when given, is whose leader or developer the account tries as (and whose audit log has it). No leader decides for a URL, so nothing is tried `anyway`. */
export const previewTryRequest = tryRequest.omit({ anyway: true }).extend({ url: appUrl, headers: appHeaders.optional(), name: appName.optional(), org: orgSlug.optional() });
export type PreviewTryRequest = z.infer<typeof previewTryRequest>;

/** POST /api/try/tool: the tool of a preview's URL, to build its form. */
export const previewToolRequest = z.object({ url: appUrl, headers: appHeaders.optional(), name: appName.optional(), tool: toolName, org: orgSlug.optional() });
export type PreviewToolRequest = z.infer<typeof previewToolRequest>;

/** A tool as the try form needs it: its title and policy (for the approval card) and its input schema. */
const toolToTry = z.object({ name: z.string(), title: z.string(), policy, inputSchema: z.unknown() });
export type ToolToTry = z.infer<typeof toolToTry>;

/** SPEC §25: a try refused before any connection, by what a leader decided for the person trying. */
export const decisionCode = z.enum(["blocked", "no-access", "awaiting-review"]);
export type DecisionCode = z.infer<typeof decisionCode>;

const tryRefusalCode = z.enum([
  ...unavailableCode.options,
  "unknown-tool",
  "answer-too-large",
  "event-too-large",
  "call-timeout",
  "connection-dropped",
  "invalid-answer",
  "call-failed",
  "too-many-rounds",
  "invalid-header",
  ...decisionCode.options,
]);
export type TryRefusalCode = z.infer<typeof tryRefusalCode>;

/**
 * Who made the decision a try is refused by (SPEC §25), and when, as stored: a leader's setting
 * on the tool (`tool`, or `group` for one of the person's groups), the organisation's
 * `riskyText`, the review mode in force (`newTools`, the app's own or the organisation's), or
 * the app's `access`. `by` and `at` are null where nothing stored says (a setting never changed).
 */
export const tryDecision = z.object({
  setting: z.enum(["tool", "group", "riskyText", "newTools", "access"]),
  by: z.object({ id: z.string(), email: z.string() }).nullable(),
  at: z.string().nullable(), // ISO 8601
  /** The group whose setting blocks the tool (`group`), or the groups the app is for (`access`). */
  groups: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});
export type TryDecision = z.infer<typeof tryDecision>;

const tryRefusal = z.object({ code: tryRefusalCode, message: z.string(), decided: tryDecision.optional() });
export type TryRefusal = z.infer<typeof tryRefusal>;

/** GET …/apps/{app}/try?tool= and POST /api/try/tool: the tool, or (a live read only) why it could not be read. */
export const toolToTryAnswer = z.object({ tool: toolToTry.nullable(), refused: tryRefusal.optional() });
export type ToolToTryAnswer = z.infer<typeof toolToTryAnswer>;

/** One piece of an answer's content as the page shows it: text inert, the rest named with its size. */
export const tryContentItem = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), bytes: z.number().int(), cut: z.boolean() }),
  z.object({ type: z.literal("structured"), json: z.string(), bytes: z.number().int(), cut: z.boolean() }),
  z.object({ type: z.literal("image"), mimeType: z.string().nullable(), bytes: z.number().int() }),
  z.object({ type: z.literal("audio"), mimeType: z.string().nullable(), bytes: z.number().int() }),
  z.object({ type: z.literal("resource"), uri: z.string().nullable(), mimeType: z.string().nullable(), text: z.string().nullable(), bytes: z.number().int(), cut: z.boolean() }),
  z.object({ type: z.literal("resource_link"), uri: z.string().nullable(), name: z.string().nullable(), mimeType: z.string().nullable() }),
  z.object({ type: z.literal("other"), kind: z.string(), bytes: z.number().int() }),
  /** Items past what was read for display. */
  z.object({ type: z.literal("more"), count: z.number().int() }),
]);
export type TryContentItem = z.infer<typeof tryContentItem>;

/** An argument sent as typed that does not fit the tool's schema (`argument`: its name; null for the arguments as a whole), in the 422's words. */
const tryNote = z.object({ argument: z.string().nullable(), message: z.string() });
export type TryNote = z.infer<typeof tryNote>;

export const tryAnswer = z.object({
  /** "input-required": the tool asks the person something first (2026-07-28 era); `requests` says what. */
  outcome: z.enum(["answered", "refused", "input-required"]),
  /** Bytes of the answer to tools/call (its whole body, decoded), against 16 MiB. */
  bytes: z.number().int(),
  /** Streamed events of it (0 for a plain JSON answer), and the largest's bytes, against 4 MiB. */
  events: z.number().int(),
  largestEventBytes: z.number().int(),
  /** From sending tools/call to its answer (or to the refusal). */
  ms: z.number(),
  /** What the tool answered, at most 64 KiB of it, for display. */
  content: z.array(tryContentItem),
  /** The tool's own error (`isError: true`): answered, and shown as the tool's. */
  isError: z.boolean(),
  /** Progress notifications the tool sent while it worked. */
  progress: z.number().int(),
  /** The tool that was called, as listed. */
  tool: z.string(),
  refused: tryRefusal.optional(),
  /** The tool's questions as the app sent them, by key: each an `elicitation/create` with a form's `requestedSchema`. */
  requests: z.record(z.string(), z.unknown()).optional(),
  /** Which round of questions this is (1 to 5), and the state to send back with the answers. */
  round: z.number().int().optional(),
  requestState: z.string().optional(),
  /** The questions were larger than Try shows (64 KiB, as content): their size as sent, and what was left out, in a sentence. */
  questionsCut: z.object({ bytes: z.number().int(), message: z.string() }).optional(),
  /** Sent `asTyped`: each argument that did not fit the tool's schema, once. */
  notes: z.array(tryNote).optional(),
});
export type TryAnswer = z.infer<typeof tryAnswer>;

// ---- The arguments' schema ----

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SCHEMA_ONE = new Set(["items", "additionalItems", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"]);

/**
 * The schema without `format`: JSON Schema 2020-12 makes formats annotations, and an app that
 * says `format: "uuid"` may well take IDs that are not; the app judges them itself.
 */
function withoutFormats(schema: unknown, depth = 0): unknown {
  if (depth > 64 || !isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "format") continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFormats(v, depth + 1)]));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map((v) => withoutFormats(v, depth + 1));
    else if (SCHEMA_ONE.has(key)) out[key] = Array.isArray(value) ? value.map((v) => withoutFormats(v, depth + 1)) : withoutFormats(value, depth + 1);
    else out[key] = value;
  }
  return out;
}

function fromJsonSchema(schema: unknown): z.ZodType | null {
  try {
    return z.fromJSONSchema(withoutFormats(schema) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return null;
  }
}

const anyArguments = z.record(z.string(), z.unknown());

/**
 * The zod schema of a tool's arguments, made from its `inputSchema`: the whole schema when zod
 * can read it, else property by property (a property it cannot read takes anything), else any
 * object. Formats are not checked (see `withoutFormats`).
 */
function argumentsSchema(inputSchema: unknown): z.ZodType {
  if (!isObject(inputSchema)) return anyArguments;
  const whole = fromJsonSchema(inputSchema);
  if (whole !== null) return anyArguments.and(whole);
  const properties = isObject(inputSchema["properties"]) ? inputSchema["properties"] : {};
  const required = new Set(Array.isArray(inputSchema["required"]) ? inputSchema["required"].filter((r): r is string => typeof r === "string") : []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const one = fromJsonSchema(schema) ?? z.unknown();
    shape[name] = required.has(name) ? one : one.optional();
  }
  for (const name of required) if (!Object.hasOwn(shape, name)) shape[name] = z.unknown().refine((v) => v !== undefined);
  return z.looseObject(shape);
}

export interface ArgumentIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

/** The issues of `args` against the tool's schema, each worded with the argument it concerns; empty when they fit. */
export function argumentIssues(inputSchema: unknown, args: Record<string, unknown>): ArgumentIssue[] {
  const parsed = argumentsSchema(inputSchema).safeParse(args);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    const name = path[0];
    const missing = name !== undefined && path.length === 1 && !Object.hasOwn(args, String(name));
    if (name === undefined) return { path, code: issue.code, message: issue.message };
    const where = `“${path.join(".")}”`;
    return { path, code: issue.code, message: missing ? `The argument ${where} is required.` : `The argument ${where} is wrong: ${issue.message.replace(/^Invalid input: /, "")}.` };
  });
}

/** What an answer sent `asTyped` notes: each argument that did not fit, once, with its first issue's words. */
export function argumentNotes(issues: readonly ArgumentIssue[]): TryNote[] {
  const notes = new Map<string | null, TryNote>();
  for (const issue of issues) {
    const argument = issue.path[0] === undefined ? null : String(issue.path[0]);
    if (!notes.has(argument)) notes.set(argument, { argument, message: issue.message });
  }
  return [...notes.values()];
}

/** The 422 sentence for argument issues: the first, and how many more. */
export function argumentIssuesMessage(issues: readonly ArgumentIssue[]): string {
  const first = issues[0]?.message ?? "The arguments do not fit the tool's input schema.";
  return issues.length > 1 ? `${first} (and ${issues.length - 1} more)` : first;
}
