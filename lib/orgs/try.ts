import "server-only";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { newestEntryAbout, recordAudit } from "@/lib/audit/audit-log";
import { orgAllowing } from "@/lib/orgs/members";
import type { Actor, OrgAccess } from "@/lib/auth/workspace";
import { tryRefusalOf, type Decider } from "@/lib/engine/try-refusal";
import { isObject } from "@/lib/json-text";
import { describeInPool, tryInPool } from "@/lib/pool/engine-pool";
import { getDb } from "@/lib/db/client";
import { checkCost, spendChecks } from "@/lib/http/rate-limit";
import { refusedAnswer, toolToTryOf, type TryCall, type TryResult, type TryTarget } from "@/lib/mcp/call-tool";
import { riskyNoteCode, type LeftOutCode } from "@/lib/schemas/check";
import type { AuditAction, AuditEntry } from "@/lib/schemas/access";
import type { PreviewToolRequest, PreviewTryRequest, ToolToTry, ToolToTryAnswer, TryAnswer, TryRefusal, TryRequest } from "@/lib/schemas/try";
import { callSignedIn, type CallOutcome } from "@/lib/oauth/reads";
import { namedScope } from "./lists";
import type { OrgContext } from "./context";
import { checkInput, requireApp, type AppRow } from "./app-rows";
import { keptListState } from "./list-state";
import { appModeOf, modeInForce } from "./organisations";
import { latestReads, listingOf } from "./reads";
import { openQuestion, sealQuestion, type TryOf } from "./try-rounds";

/**
 * Trying a tool (SPEC §14), for the two routes: an organisation's app (its URL and stored
 * header from the store) or a preview's URL. Each try spends a check with one app read, is
 * made in the reads' worker pool, and is written to the audit log: the tool's name and the
 * outcome, never an argument's value (any may be a secret).
 */

/** Calls through the pool; tests and the benchmark may call some other way. */
type ToolCaller = (target: TryTarget, call: TryCall) => Promise<TryResult>;
const inPool: ToolCaller = (target, call) => tryInPool(target, call);

/**
 * The call a request asks for: its arguments, and when it continues one, the answers to the
 * tool's questions, with the app's state and the round answered as the seal of its
 * `requestState` says (lib/orgs/try-rounds.ts: never as the client says). Opened before anything
 * is spent or called: a continuation without a seal of this call is a 422.
 */
function continued(of: TryOf, input: TryRequest): TryCall {
  const { round, appState } = openQuestion(of, input);
  return {
    tool: input.tool,
    arguments: input.arguments,
    ...(input.inputResponses !== undefined ? { inputResponses: input.inputResponses } : {}),
    ...(appState !== undefined ? { requestState: appState } : {}),
    ...(round > 0 ? { round } : {}),
    ...(input.asTyped === true ? { asTyped: true } : {}),
  };
}

/** An answer with questions carries the app's state sealed with its round, for the next round to send back. */
function sealed(of: TryOf, result: TryResult): TryResult {
  if (result.kind !== "answer" || result.answer.outcome !== "input-required") return result;
  return { ...result, answer: { ...result.answer, requestState: sealQuestion(of, result.answer.round ?? 1, result.answer.requestState) } };
}

/** What the audit log keeps of a try: the tool and how it went; for arguments that did not fit (refused, or sent as typed), their names only. */
function auditDetails(tool: string, result: TryResult): Record<string, unknown> {
  if (result.kind === "invalid-arguments") {
    return { tool, outcome: "invalid-arguments", arguments: [...new Set(result.issues.map((i) => String(i.path[0] ?? "")))].filter((a) => a !== "") };
  }
  const { answer } = result;
  return {
    tool,
    outcome: answer.outcome,
    ...(answer.notes !== undefined ? { asTyped: answer.notes.flatMap((n) => (n.argument === null ? [] : [n.argument])) } : {}),
    ...(answer.refused ? { code: answer.refused.code } : {}),
    ...(answer.isError ? { isError: true } : {}),
    bytes: answer.bytes,
    ms: Math.round(answer.ms),
  };
}

/** The answer, or the 422 naming the arguments that do not fit (the tool was not called). */
function answerOf(result: TryResult): TryAnswer {
  if (result.kind === "invalid-arguments") throw new InvalidError(result.message, result.issues.map((i) => ({ ...i, path: ["arguments", ...i.path] })));
  return result.answer;
}

/** Whether the app refused the credentials a try was sent with, and for want of which scope. */
const outcomeOf = (result: TryResult): CallOutcome =>
  result.kind === "answer"
    ? {
        authRequired: result.answer.refused?.code === "auth-required",
        ...(result.insufficientScope !== undefined ? { insufficientScope: result.insufficientScope } : {}),
        ...(result.challenge !== undefined ? { challenge: result.challenge } : {}),
      }
    : { authRequired: false };

/** A try refused for want of scope, answered with what to do about it. */
const stepUpAnswer = (result: TryResult, message: string): TryResult =>
  result.kind === "answer" ? { kind: "answer", answer: { ...result.answer, content: [], refused: { code: "auth-required", message } } } : result;

/**
 * Who last set `key` of a setting to `value` and when (SPEC §25), from the audit log: the newest
 * entry of `action` that changed `key`, if it changed it to what is in force.
 */
async function decider(ctx: OrgContext, org: string, action: AuditAction, key: string, value: unknown, app?: string): Promise<Decider> {
  const entry: AuditEntry | null = await newestEntryAbout(ctx.db, org, action, (details) => isObject(details[key]), app);
  const change = entry?.details?.[key];
  return entry !== null && isObject(change) && JSON.stringify(change["to"]) === JSON.stringify(value) ? { by: entry.actor, at: entry.at } : { by: null, at: null };
}

/** What a leader decided that leaves a tool out for a person (SPEC §19, §20, §11); the check's other reasons are the app's to answer. */
const DECIDED: ReadonlySet<LeftOutCode> = new Set(["blocked", "risky-text", "awaiting-review"]);

/**
 * Why Try does not call `tool` of `row` for the one trying (SPEC §25), as their own check decides
 * it: the list their assistant has (`namedScope` of their scope, which their check and `sees`
 * answer from) leaves the tool out as blocked (by a leader, a group or risky text) or awaiting
 * review, or does not have the app (only for groups they are not in). Null when nothing stands in
 * the way, or their check does not know the tool (the app then answers for it).
 */
async function refusalFor(ctx: OrgContext, access: OrgAccess, row: AppRow, tool: string): Promise<TryRefusal | null> {
  const org = access.org.slug;
  const scope = { org, person: access.actor.id };
  const { apps, hidden } = await namedScope(ctx, scope, access.version);
  const notTheirs = hidden.find((app) => app.id === row.id);
  if (notTheirs !== undefined) {
    // Who made it only for groups: the newest change of its access to some groups.
    const changed = notTheirs.onlyFor.length === 0 ? null : await newestEntryAbout(ctx.db, org, "app.access.changed", (d) => d["to"] !== "everyone", row.id);
    return tryRefusalOf({ kind: "no-access", app: row.name, groups: notTheirs.onlyFor, decided: changed === null ? { by: null, at: null } : { by: changed.actor, at: changed.at } });
  }
  const named = apps.find((app) => app.id === row.id)?.lastCheck?.result.tools.filter((t) => t.name === tool) ?? [];
  const held = named.find((t) => t.leftOut !== null && DECIDED.has(t.leftOut.code));
  switch (held?.leftOut?.code) {
    case "blocked":
      return tryRefusalOf({ kind: "setting", app: row.name, tool, setting: held.leaderSetting ?? { setting: "blocked", by: null, at: null } });
    case "risky-text": {
      const notes = held.notes.map((n) => n.code).filter((c) => riskyNoteCode.safeParse(c).success);
      return tryRefusalOf({ kind: "risky-text", app: row.name, tool, notes, decided: await decider(ctx, org, "settings.changed", "riskyText", "block") });
    }
    case "awaiting-review": {
      const state = await keptListState(ctx.db, scope, access.version);
      const own = state.apps.find((app) => app.row.id === row.id)?.newTools ?? null;
      const mode = modeInForce(own, state.newTools);
      const ofApp = appModeOf(own) !== "org";
      const decided = ofApp ? await decider(ctx, org, "app.settings.changed", "newTools", mode, row.id) : await decider(ctx, org, "settings.changed", "newTools", mode);
      return tryRefusalOf({ kind: "awaiting-review", app: row.name, tool, mode, of: ofApp ? "app" : "organisation", decided });
    }
    default:
      return null;
  }
}

/**
 * Tries a tool of one of the organisation's apps, as the member `access` says (a leader or
 * developer there: `withOrg("try", …, { reads: 1 })`, which spends its check). A tool refused to
 * them (SPEC §25) is answered refused before any connection, unless a leader sends `anyway`
 * (the route allows it to leaders only), which the audit log says.
 */
export async function tryOrgApp(ctx: OrgContext, access: OrgAccess, appId: string, input: TryRequest, call: ToolCaller = inPool): Promise<TryAnswer> {
  const { actor } = access;
  const org = access.org.slug;
  const row = await requireApp(ctx.db, org, appId);
  const of: TryOf = { actor: actor.id, target: `app:${org}/${row.id}`, tool: input.tool };
  const tried = continued(of, input);
  const app = { id: row.id, name: row.name };
  const refusal = await refusalFor(ctx, access, row, input.tool);
  if (refusal !== null && input.anyway !== true) {
    const result: TryResult = { kind: "answer", answer: refusedAnswer(input.tool, refusal) };
    await recordAudit(ctx.db, { org, actor, action: "tool.tried", app, details: auditDetails(input.tool, result) });
    return answerOf(result);
  }
  const stored = checkInput(row);
  // With its OAuth sign-in when it has one; a refusal for want of scope says to sign in again with more (SPEC §17).
  // What it was sent with comes back as `…` from the pool (lib/pool/engine-worker.ts).
  const signedIn = await callSignedIn(ctx.db, row, { name: row.name, url: stored.url ?? row.url, ...(stored.headers ? { headers: stored.headers } : {}) }, (target) => call(target, tried), outcomeOf);
  const result = sealed(of, signedIn.refusal === null ? signedIn.result : stepUpAnswer(signedIn.result, signedIn.refusal));
  const lifted = refusal === null ? {} : { anyway: true, lifted: refusal.code };
  await recordAudit(ctx.db, { org, actor, action: "tool.tried", app, details: { ...auditDetails(input.tool, result), ...lifted } });
  return answerOf(result);
}

/** One tool of an organisation's app as its newest read listed it, for the try form. */
export async function orgToolToTry(ctx: OrgContext, org: string, appId: string, tool: string): Promise<ToolToTry> {
  const row = await requireApp(ctx.db, org, appId);
  const { entries } = await listingOf(ctx.db, row, (await latestReads(ctx.db, org)).get(row.id));
  const entry = entries.find((e): e is Record<string, unknown> => typeof e === "object" && e !== null && (e as { name?: unknown }).name === tool);
  if (entry === undefined) throw new NotFoundError(`The newest read of ${row.name} lists no tool named ${JSON.stringify(tool)}: re-check the app.`);
  return toolToTryOf(entry);
}

/**
 * The organisation a preview's try is made as (SPEC §14: an account that is a leader or
 * developer of some organisation): the one named, or the first where the account may try.
 * Support only: 403; naming one the account is not a member of: 404, as for none.
 */
export function previewTryOrg(actor: Actor, slug?: string): Promise<string> {
  return orgAllowing(actor, "try", slug);
}

const previewName = (input: { url: string; name?: string | undefined }) => input.name ?? new URL(input.url).host;
const previewTarget = (input: PreviewTryRequest | PreviewToolRequest): TryTarget => ({ name: previewName(input), url: input.url, ...(input.headers ? { headers: input.headers } : {}) });

/** Tries a tool of a preview's URL, recorded in the audit log of the organisation it is made as (the URL's origin, never its path or headers). */
export async function tryPreview(actor: Actor, input: PreviewTryRequest, call: ToolCaller = inPool): Promise<TryAnswer> {
  const org = await previewTryOrg(actor, input.org);
  const of: TryOf = { actor: actor.id, target: `url:${input.url}`, tool: input.tool };
  const tried = continued(of, input);
  const db = getDb();
  await spendChecks(db, { account: actor.id }, checkCost(1));
  const result = sealed(of, await call(previewTarget(input), tried));
  await recordAudit(db, { org, actor, action: "tool.tried", details: { ...auditDetails(input.tool, result), url: new URL(input.url).origin, name: previewName(input) } });
  return answerOf(result);
}

/** One tool of a preview's URL, read live, for the try form; or why it could not be read. */
export async function previewToolToTry(actor: Actor, input: PreviewToolRequest): Promise<ToolToTryAnswer> {
  await previewTryOrg(actor, input.org);
  await spendChecks(getDb(), { account: actor.id }, checkCost(1));
  const described = await describeInPool(previewTarget(input), input.tool);
  return described.kind === "refused" ? { tool: null, refused: described.refused } : { tool: described.tool };
}
