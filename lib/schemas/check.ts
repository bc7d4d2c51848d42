import { z } from "zod";
import { hostCheck, requestedHosts } from "./hosts";
import { plainName, storable } from "./names";

/**
 * The check API of SPEC §8: what `POST /api/check` takes and answers. The route, the
 * engine's types and the pages all come from these schemas.
 */

/** App names are free text (two apps may share one: that is how `_2` arises). */
export const appName = z
  .string({ error: "Give the app a name." })
  .trim()
  .min(1, "Give the app a name.")
  .max(200, "An app's name is at most 200 characters.");

/** The name of an app the dashboard stores and shows to others, typed or imported (SPEC §10, §25): no hidden characters. */
export const connectedAppName = plainName(appName);

/** Hop-by-hop and framing headers: the connection sets them, an app's header may not. */
const CONNECTION_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "upgrade", "keep-alive", "te", "trailer", "expect"]);

/**
 * A header an app is sent: an RFC 7230 token, and none of the headers the connection sets
 * itself (`Host`, `Content-Length`, `Transfer-Encoding`, `Connection`, `Upgrade`,
 * `Keep-Alive`, `TE`, `Trailer`, `Expect`, `Proxy-*`, in any case).
 */
export const headerName = z
  .string()
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "A header name is letters, digits and - only.")
  .superRefine((name, ctx) => {
    const lower = name.toLowerCase();
    if (CONNECTION_HEADERS.has(lower) || lower.startsWith("proxy-")) {
      ctx.addIssue({ code: "custom", message: `\`${name}\` is set by the connection itself and cannot be sent.` });
    }
  });

/** A header's value: visible ASCII (0x21–0x7E), spaces and tabs only (no line break, no emoji), at most 8,192 characters. */
export const headerValue = z
  .string()
  .max(8192, "A header value is at most 8,192 characters.")
  .regex(/^[\t\x20-\x7e]*$/, "A header value may hold only visible ASCII characters, spaces and tabs.");

/**
 * Each name that repeats an earlier one ignoring case, with the earlier: HTTP names ignore case, so
 * `X-Key` and `x-key` would both be sent, as one header (`x-key: second, first`).
 */
export function sameHeaderPairs(names: readonly string[]): [first: string, again: string][] {
  const seen = new Map<string, string>();
  const pairs: [string, string][] = [];
  for (const name of names) {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) pairs.push([first, name]);
    else seen.set(name.toLowerCase(), name);
  }
  return pairs;
}

/** What a pair of `sameHeaderPairs` is told. */
export const sameHeaderMessage = ([first, again]: readonly [string, string]) => `\`${first}\` and \`${again}\` are the same header (header names ignore case): give it once.`;

// The names are checked here rather than as the record's key schema, whose failure zod
// reports only as "Invalid key in record": the 422 should say what is wrong with the name.
export const appHeaders = z
  .record(z.string(), headerValue)
  .refine((h) => Object.keys(h).length <= 20, "At most 20 headers.")
  .superRefine((h, ctx) => {
    for (const name of Object.keys(h)) {
      for (const issue of headerName.safeParse(name).error?.issues ?? []) {
        ctx.addIssue({ code: "custom", message: issue.message, path: [name] });
      }
    }
    for (const pair of sameHeaderPairs(Object.keys(h))) ctx.addIssue({ code: "custom", message: sameHeaderMessage(pair), path: [pair[1]] });
  });

export const appUrl = storable(
  z
    .string()
    .trim()
    .max(2048, "A URL is at most 2,048 characters."),
).pipe(z.url({ protocol: /^https?$/, error: "Give an http:// or https:// URL." }));

/** One app of a check: either an inline listing (`tools`) or a live app (`url`). */
export const checkAppInput = z
  .object({
    name: appName,
    tools: z.array(z.unknown()).optional(),
    url: appUrl.optional(),
    headers: appHeaders.optional(),
  })
  .superRefine((a, ctx) => {
    if (a.tools === undefined && a.url === undefined) ctx.addIssue({ code: "custom", message: "Give the app `tools` (a listing) or `url` (a live app)." });
    if (a.tools !== undefined && a.url !== undefined) ctx.addIssue({ code: "custom", message: "Give the app either `tools` (a listing) or `url` (a live app), not both." });
  });
export type CheckAppInput = z.infer<typeof checkAppInput>;

/** Theorem's own short names and whole names; a check may override the configured ones. */
export const theoremNames = z.object({
  connections: z.array(z.string().max(200)).max(1000).optional(),
  tools: z.array(z.string().max(200)).max(10_000).optional(),
});
export type TheoremNamesInput = z.infer<typeof theoremNames>;

/** One request reads at most this many apps by URL (SPEC §10): each is several outbound requests. */
const MAX_URL_APPS = 100;

/**
 * What a risky-text note (SPEC §20) does to a tool: `warn` (the note only, §4 decides), `ask-first`
 * (the tool asks first whatever its hints) or `block` (left out, no whole name). The organisation
 * setting, `/preview`'s and `theorem-check --risky`'s choice.
 */
export const riskyText = z.enum(["warn", "ask-first", "block"]);
export type RiskyText = z.infer<typeof riskyText>;

export const checkRequest = z.object({
  apps: z
    .array(checkAppInput)
    .min(1, "List at least one app.")
    .max(2000, "At most 2,000 apps in one check.")
    .refine((apps) => apps.filter((app) => app.url !== undefined).length <= MAX_URL_APPS, `At most ${MAX_URL_APPS} apps by URL in one check.`),
  theorem: theoremNames.optional(),
  riskyText: riskyText.optional(),
  /** Other hosts to answer for beside Theorem (SPEC §22), by id. */
  hosts: requestedHosts.optional(),
});
export type CheckRequest = z.infer<typeof checkRequest>;

// ---- The answer ----

export const unavailableCode = z.enum([
  "connect-timeout",
  "list-timeout",
  "connect-failed",
  "auth-required",
  "address-refused",
  "listing-too-large",
  "invalid-listing",
]);
export type UnavailableCode = z.infer<typeof unavailableCode>;

export const unavailable = z.object({ code: unavailableCode, message: z.string() });
export type Unavailable = z.infer<typeof unavailable>;

export const timings = z.object({ connectMs: z.number(), listMs: z.number().nullable() });
export type Timings = z.infer<typeof timings>;

export const leftOutCode = z.enum(["name-taken", "theorem-tool", "invalid", "awaiting-review", "blocked", "app-only", "risky-text", "invalid-header"]);
export type LeftOutCode = z.infer<typeof leftOutCode>;

export const leftOut = z.object({
  code: leftOutCode,
  message: z.string(),
  /** Who holds the whole name: the app's name and the tool's, with their 0-based places (two apps may share a name). */
  takenBy: z.object({ app: z.string(), tool: z.string(), appIndex: z.number().int().nonnegative(), toolIndex: z.number().int().nonnegative() }).optional(),
  /** SPEC §23: a tool blocked by one of the person's groups names the group. */
  by: z.object({ group: z.object({ id: z.string(), name: z.string() }) }).optional(),
});
export type LeftOut = z.infer<typeof leftOut>;

/** The notes of risky text (SPEC §20, lib/engine/risky-text.ts): each is also a reason a change is high risk. */
export const riskyNoteCode = z.enum(["hidden-text", "instructions-to-assistant", "mentions-other-tool", "link-in-text", "asks-for-secrets"]);

export const noteCode = z.enum([
  "characters-replaced",
  "name-cut",
  "prefix-kept",
  "title-made",
  "title-from-annotations",
  "hint-not-boolean",
  "card-empty",
  "card-cut",
  "schema-not-object",
  "annotations-not-object",
  "description-long",
  "short-name-made",
  "short-name-cut",
  "short-name-suffixed",
  ...riskyNoteCode.options,
]);
export const note = z.object({ code: noteCode, message: z.string() });
export type Note = z.infer<typeof note>;

export const policy = z.enum(["runs-freely", "asks-first"]);
export type Policy = z.infer<typeof policy>;

/** Where a tool's policy comes from (SPEC §19): its hints (§4), or a leader's (or, on a personal app, its owner's) "ask-first". */
export const policyFrom = z.enum(["hints", "leader", "group", "risky-text"]);
export type PolicyFrom = z.infer<typeof policyFrom>;

/**
 * The leader's say on one tool (SPEC §19): `default` (the rules of §4), `ask-first` (asks first
 * whatever its hints say) or `blocked` (left out, takes no name). No setting makes a tool run
 * freely: there is no `runs-freely` here.
 */
export const toolSetting = z.enum(["default", "ask-first", "blocked"], { error: 'A tool\'s setting is "default", "ask-first" or "blocked" (none makes a tool run freely).' });
export type ToolSetting = z.infer<typeof toolSetting>;

/** A setting in force on a tool, as the check shows it: which, and who set it when (null when not known, as from a CLI settings file). */
export const leaderSetting = z.object({
  setting: toolSetting.exclude(["default"]),
  by: z.object({ id: z.string(), email: z.string() }).nullable(),
  at: z.string().nullable(), // ISO 8601
  /** SPEC §23: set for one of the person's groups, not the whole organisation. */
  group: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type LeaderSetting = z.infer<typeof leaderSetting>;

export const titleFrom = z.enum(["title", "annotations", "name"]);
export type TitleFrom = z.infer<typeof titleFrom>;

/** One behaviour hint as it counts: the value used, and whether the app declared it. */
export const hint = z.object({
  value: z.boolean(),
  declared: z.boolean(),
  /** What the app sent when it was not a JSON boolean (rendered as JSON text). */
  invalid: z.string().optional(),
});
export type Hint = z.infer<typeof hint>;

export const hints = z.object({
  readOnlyHint: hint,
  destructiveHint: hint,
  idempotentHint: hint,
  openWorldHint: hint,
});
export type Hints = z.infer<typeof hints>;

export const cardLine = z.object({
  argument: z.string(),
  label: z.string(),
  /** Present for a card of a call: the value on one line. */
  value: z.string().optional(),
  /** Present for a preview's line whose argument allows only some values (an `enum`): them, as the card shows them. */
  values: z.array(z.string()).optional(),
});
export type CardLine = z.infer<typeof cardLine>;

export const approvalCard = z.object({
  title: z.string(),
  lines: z.array(cardLine),
  hiddenIds: z.array(z.string()),
  cut: z.array(z.string()),
});
export type ApprovalCard = z.infer<typeof approvalCard>;

export const toolCheck = z.object({
  index: z.number().int(),
  /** The tool's own name as listed; null for an entry with no string name. */
  name: z.string().nullable(),
  /**
   * The whole name the model sees (or would, for a tool left out by the names: taken, Theorem's own,
   * awaiting review); null for an entry that is not a tool, one for the app's own view or with an
   * invalid `x-mcp-header`, and a blocked one (by a leader, a group or risky text: SPEC §19, §20,
   * §25), which takes no name.
   */
  wholeName: z.string().nullable(),
  /** SPEC §2.7: what the 64-character cut took off the whole name's end (with the note `name-cut`); null when it was not cut, and for checks stored before. */
  cutOff: z.string().nullable().default(null),
  included: z.boolean(),
  leftOut: leftOut.nullable(),
  title: z.string(),
  titleFrom: titleFrom,
  description: z.string().nullable(),
  policy: policy,
  /** Checks stored before SPEC §19 had no setting: their policy came from the hints. */
  policyFrom: policyFrom.default("hints"),
  /** The setting a leader (or the personal app's owner) put on this tool, or null for the default. */
  leaderSetting: leaderSetting.nullable().default(null),
  runsTogether: z.boolean(),
  hints: hints,
  card: approvalCard,
  chars: z.number().int(),
  /** SPEC §21: o200k_base tokens of the tool as sent, for an included tool; null otherwise (and for checks stored before). */
  tokens: z.number().int().nullable().default(null),
  notes: z.array(note),
});
export type ToolCheck = z.infer<typeof toolCheck>;

export const largestTool = z.object({ index: z.number().int(), name: z.string().nullable(), chars: z.number().int() });
export type LargestTool = z.infer<typeof largestTool>;

/** How long an app said its listing stays valid, and for whom (SPEC §18: the first `tools/list` page's `ttlMs` and `cacheScope`). */
export const listingCache = z.object({
  ttlMs: z.number().int().min(0),
  /** "private": the app may list other tools for other credentials. */
  scope: z.enum(["public", "private"]),
});
export type ListingCache = z.infer<typeof listingCache>;

export const listingSize = z.object({
  chars: z.number().int(),
  limit: z.number().int(),
  entries: z.number().int(),
  /** True when reading stopped at a bound: `chars` is then a lower bound. */
  stopped: z.boolean(),
  largest: z.array(largestTool),
  /** SPEC §21: the o200k_base tokens of its included tools, summed. */
  tokens: z.number().int().default(0),
  /** The app's cache hint (2026-07-28 era); null for 2025 apps and inline listings. */
  cache: listingCache.nullable(),
});
export type ListingSize = z.infer<typeof listingSize>;

export const appCheck = z.object({
  name: z.string(),
  shortName: z.string(),
  status: z.enum(["available", "unavailable"]),
  unavailable: unavailable.nullable(),
  timings: timings.nullable(),
  /** The MCP revision agreed with the app, e.g. "2026-07-28" or "2025-11-25"; null when given inline or never reached. */
  protocol: z.string().nullable(),
  listing: listingSize,
  tools: z.array(toolCheck),
  notes: z.array(note),
});
export type AppCheck = z.infer<typeof appCheck>;

export const checkResult = z.object({
  apps: z.array(appCheck),
  /** Each host the request named (SPEC §22): its count of the included tools and its problems. */
  hosts: z.array(hostCheck).optional(),
});
export type CheckResult = z.infer<typeof checkResult>;
