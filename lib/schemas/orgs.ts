import { z } from "zod";
import { appCheck, appUrl, connectedAppName, headerName, headerValue, riskyNoteCode, riskyText, timings, unavailable } from "./check";
import { storable } from "./names";
import { exportFallback } from "./exports";
import { appSource } from "./registry";

/**
 * The organisation API (`/api/orgs/{org}/…`): what the Connections tab stores and shows.
 * The add-app form validates with the same `appCreate` the route parses with.
 */

export const orgSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "An organisation is named by lower-case letters, digits and -.");

/** One optional header sent to the app (e.g. `Authorization`); its value is write-only. */
export const appHeaderInput = z.object({
  name: z.string().trim().min(1, "Give the header a name.").pipe(headerName),
  value: z.string().min(1, "Give the header a value.").pipe(headerValue),
});

export const appCreate = z.object({
  name: connectedAppName,
  url: appUrl,
  header: appHeaderInput.nullable().optional(),
});
export type AppCreate = z.infer<typeof appCreate>;

/** PATCH: any of the fields; `header: null` removes the stored header. */
export const appUpdate = appCreate.partial().refine((u) => Object.keys(u).length > 0, "Change at least one field.");
export type AppUpdate = z.infer<typeof appUpdate>;

const checkRecord = z.object({
  id: z.string(),
  appId: z.string(),
  checkedAt: z.string(), // ISO 8601
  durationMs: z.number(),
  result: appCheck,
});

/**
 * How the app signs in with OAuth (SPEC §17), when it does: `offered` (nobody has connected it),
 * `connected` (read with its token) or `expired` (the token could not be renewed: Reconnect).
 * Never a token or a secret.
 */
export const appSignIn = z.object({
  state: z.enum(["offered", "connected", "expired"]),
  issuer: z.string().nullable(),
  connectedAt: z.string().nullable(), // ISO 8601
  expiresAt: z.string().nullable(), // ISO 8601: the access token's, when the server said
  /** The app refused the token for want of scope: the scope a new sign-in asks for, or (`gaveUp`) that the dashboard stopped asking. */
  stepUp: z.object({ scope: z.string(), gaveUp: z.boolean() }).nullable().optional(),
});

/** POST …/oauth: Connect. A client the app's maker registered for the dashboard may be given (its secret is write-only). */
export const signInStart = z
  .object({
    clientId: storable(z.string().trim().max(500, "A client ID is at most 500 characters.")).optional(),
    clientSecret: z.string().max(2000, "A client secret is at most 2,000 characters.").pipe(headerValue).optional(),
  })
  .strict()
  .refine((input) => input.clientSecret === undefined || input.clientSecret === "" || (input.clientId ?? "") !== "", { message: "Give the client ID with its secret.", path: ["clientId"] });
export type SignInStart = z.infer<typeof signInStart>;

/** Connect's answer: where the browser goes to sign in. */
export const signInRedirect = z.object({ authorizationUrl: z.string().url() });

export const storedApp = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  /** A person's own app (SPEC §12), not the organisation's. */
  personal: z.boolean(),
  /** The header's name and whether a value is stored; the value itself is never returned. */
  header: z.object({ name: z.string(), set: z.boolean() }).nullable(),
  connectedAt: z.string(), // ISO 8601: the order that short names depend on
  /** When the scheduled re-check is next due (null: not placed yet, or scheduled re-checks are off). */
  nextCheckAt: z.string().nullable(),
  /** Why then (SPEC §18): the interval, the app's own `ttlMs`, or a back-off after `failedReads` failed reads in a row. */
  nextCheckWhy: z.enum(["interval", "app-asked", "back-off"]).nullable().optional(),
  failedReads: z.number().int().optional(),
  /** The latest check, with names computed over the whole organisation's current list. */
  lastCheck: checkRecord.nullable(),
  /** Its OAuth sign-in, when it has one (absent from answers made before SPEC §17). */
  signIn: appSignIn.nullable().optional(),
  /** The names of its headers beyond `header` (SPEC §24: a registry entry may need several); never their values. */
  moreHeaders: z.array(z.string()).optional(),
  /** Where its server.json came from (SPEC §24), when it was connected from one. */
  source: appSource.nullable().optional(),
});
export type StoredApp = z.infer<typeof storedApp>;

const org = z.object({ slug: orgSlug, name: z.string() });
export type Org = z.infer<typeof org>;

/** An app's check as the list shows it: every field but the tools, and their counts (lib/schemas/summary.ts). */
const appSummary = appCheck.omit({ tools: true }).extend({
  counts: z.object({
    tools: z.number().int(),
    included: z.number().int(),
    runsFreely: z.number().int(),
    asksFirst: z.number().int(),
    leftOut: z.number().int(),
    waiting: z.number().int(),
    /** The leader's say (SPEC §19): tools blocked, and tools that ask first only because a leader said so. */
    blocked: z.number().int().default(0),
    madeToAskFirst: z.number().int().default(0),
  }),
});
export type AppSummary = z.infer<typeof appSummary>;
const listedApp = storedApp.extend({ lastCheck: checkRecord.extend({ result: appSummary }).nullable() });
export type ListedApp = z.infer<typeof listedApp>;

/** GET /api/orgs/{org}/apps: each app with its check's summary (its page has the tools). */
export const appList = z.object({ org, apps: z.array(listedApp) });
export type AppList = z.infer<typeof appList>;

/**
 * One row of history (SPEC §11): a run of reads of one app with the same outcome (the same
 * snapshot, the same availability and reason), folded: `count` reads from `from` to `to`.
 */
export const historyEntry = z.object({
  appId: z.string(),
  from: z.string(), // ISO 8601: the run's first read
  to: z.string(), // and its last
  count: z.number().int().min(1),
  status: z.enum(["available", "unavailable"]),
  unavailable: unavailable.nullable(),
  /** The snapshot's hash; null when nothing was listed, or for a read stored before snapshots. */
  snapshot: z.string().nullable(),
  tools: z.number().int().nullable(),
  chars: z.number().int().nullable(),
  stopped: z.boolean(),
  /** Of the run's newest read: this app's own connect and list times, and its whole read. */
  timings: timings.nullable(),
  durationMs: z.number(),
  /** What is different from the run before it (null for the oldest run shown, or when nothing but time differs). */
  change: z
    .object({
      status: z.object({ from: z.string(), to: z.string() }).nullable(),
      reason: z.boolean(),
      added: z.number().int(),
      removed: z.number().int(),
      changed: z.number().int(),
      chars: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
    })
    .nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

/**
 * GET/PATCH /api/orgs/{org}/settings (SPEC §11, §20): whether new and changed tools wait for a
 * leader's review: none, all, or only the high-risk ones. The one list of the modes (lib/engine/review.ts decides by it).
 */
export const newTools = z.enum(["available", "wait-for-review", "wait-if-risky"]);
export type NewTools = z.infer<typeof newTools>;
/** SPEC §21: the o200k_base tokens a person's assistant may be sent (People marks who is over); null: none. */
const tokenBudget = z.number().int("A token budget is a whole number.").min(1000, "A token budget is at least 1,000.").max(1_000_000, "A token budget is at most 1,000,000.").nullable();
export const orgSettings = z.object({ newTools, riskyText, tokenBudget, exportFallback });
export type OrgSettings = z.infer<typeof orgSettings>;
/** PATCH …/settings: one setting or several; an unknown value is a 422 naming its field. */
export const orgSettingsUpdate = z
  .object({ newTools: newTools.optional(), riskyText: riskyText.optional(), tokenBudget: tokenBudget.optional(), exportFallback: exportFallback.optional() })
  .strict()
  .refine((u) => u.newTools !== undefined || u.riskyText !== undefined || u.tokenBudget !== undefined || u.exportFallback !== undefined, "Change `newTools`, `riskyText`, `tokenBudget` or `exportFallback`.");
export type OrgSettingsUpdate = z.infer<typeof orgSettingsUpdate>;

/**
 * An app's own `newTools` (SPEC §19): `org` follows the organisation's setting; the others are the
 * organisation's choices, made for this app alone (built from them, so each new choice is an app's too).
 */
export const appNewTools = z.enum(["org", ...newTools.options], { error: `An app's newTools is ${["org", ...newTools.options].map((o) => `"${o}"`).join(", ")}.` });
export type AppNewTools = z.infer<typeof appNewTools>;

/** POST /api/orgs/{org}/apps/{app}/approve: every tool of the newest read, or those named. */
export const approveRequest = z
  .object({ tools: z.array(z.string().min(1).max(500)).min(1, "Name at least one tool, or send {} to approve them all.").max(10_000).optional() })
  .strict();

/** GET /api/orgs/{org}/apps/{app}/trends?limit=N: each read's size and timings, oldest first, for the app page's charts. */
const trendPoint = z.object({
  at: z.string(),
  status: z.enum(["available", "unavailable"]),
  chars: z.number().int().nullable(),
  connectMs: z.number().nullable(),
  listMs: z.number().nullable(),
});
export type TrendPoint = z.infer<typeof trendPoint>;
export const trendList = z.object({ points: z.array(trendPoint) });

/** A tool as a snapshot lists it: its name and fingerprint (SHA-256 of its canonical JSON). */
const toolPrint = z.object({ name: z.string(), fingerprint: z.string() });

/** SPEC §20: how risky a new or changed tool is for people (lib/engine/risk.ts), and why, highest first. */
const risk = z.enum(["high", "medium", "low"]);
export type Risk = z.infer<typeof risk>;
export const riskWhy = z.enum([
  // high
  "policy-loosened",
  "read-only-claimed",
  "destructive-denied",
  ...riskyNoteCode.options,
  // medium
  "new-tool",
  "new-required-argument",
  "argument-type-changed",
  "policy-tightened",
  "name-changed",
  "card-changed",
  // low
  "reworded",
  "other-change",
]);
export type RiskWhy = z.infer<typeof riskWhy>;
const riskOf = { risk, why: z.array(riskWhy) };

/** GET /api/orgs/{org}/apps/{app}/changes (SPEC §11): what changed between snapshots, newest first. */
const snapshotChange = z.object({
  /** When the app first listed `to`. */
  at: z.string(),
  from: z.string(),
  to: z.string(),
  /** The highest risk of its added and changed tools. */
  risk,
  added: z.array(toolPrint.extend(riskOf)),
  removed: z.array(toolPrint),
  changed: z.array(
    z.object({
      name: z.string(),
      fields: z.array(z.enum(["title", "description", "inputSchema", "outputSchema", "annotations", "other"])),
      effects: z.array(z.object({ what: z.enum(["wholeName", "policy", "runsTogether", "card", "leftOut"]), from: z.string().nullable(), to: z.string().nullable() })),
      fingerprints: z.object({ from: z.string(), to: z.string() }),
      ...riskOf,
      /** When the description changed: before and after (each at most 10,000 characters), for a word diff. */
      descriptions: z.object({ from: z.string().nullable(), to: z.string().nullable(), cut: z.boolean() }).optional(),
    }),
  ),
});
export type SnapshotChange = z.infer<typeof snapshotChange>;
export const changeList = z.object({ changes: z.array(snapshotChange) });
export type ChangeList = z.infer<typeof changeList>;

/** GET /api/orgs/{org}/apps/{app}/checks (and GET /api/orgs/{org}/checks): newest first. */
export const checkHistory = z.object({ checks: z.array(historyEntry) });

/**
 * POST /api/orgs/{org}/checks with `Accept: application/x-ndjson`: one line per app as soon as
 * it has been read (whether it could be), then the list with the names computed over all of
 * them; a failure of the whole check ends the stream with an `error` line.
 */
export const recheckEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("read"), app: z.string(), unavailable: unavailable.nullable(), timings: timings.nullable() }),
  z.object({ type: z.literal("done"), list: appList }),
  z.object({ type: z.literal("error"), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type RecheckEvent = z.infer<typeof recheckEvent>;
export const RECHECK_STREAM_TYPE = "application/x-ndjson";

// Answers of the other routes, for the record:
// POST   /api/orgs/{org}/apps             appCreate → 201 storedApp (checked once before answering)
// GET    /api/orgs/{org}/apps/{app}       → storedApp
// PATCH  /api/orgs/{org}/apps/{app}       appUpdate → storedApp
// DELETE /api/orgs/{org}/apps/{app}       → 204
// POST   /api/orgs/{org}/apps/{app}/check → storedApp (with the new lastCheck)
// POST   /api/orgs/{org}/checks           → appList (every app re-checked)

