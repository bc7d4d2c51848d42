import "server-only";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/audit-log";
import { orgAllowing } from "@/lib/auth/members";
import type { Actor } from "@/lib/auth/workspace";
import { describeInPool, tryInPool } from "@/lib/pool/engine-pool";
import { getDb } from "@/lib/db/client";
import { checkCost, spendChecks } from "@/lib/http/rate-limit";
import { toolToTryOf, type TryCall, type TryResult, type TryTarget } from "@/lib/mcp/call-tool";
import type { PreviewToolRequest, PreviewTryRequest, ToolToTry, ToolToTryAnswer, TryAnswer, TryRequest } from "@/lib/schemas/try";
import { callSignedIn, type CallOutcome } from "@/lib/oauth/reads";
import type { OrgContext } from "./apps";
import { checkInput, requireApp } from "./app-rows";
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
  };
}

/** An answer with questions carries the app's state sealed with its round, for the next round to send back. */
function sealed(of: TryOf, result: TryResult): TryResult {
  if (result.kind !== "answer" || result.answer.outcome !== "input-required") return result;
  return { ...result, answer: { ...result.answer, requestState: sealQuestion(of, result.answer.round ?? 1, result.answer.requestState) } };
}

/** What the audit log keeps of a try: the tool and how it went; for arguments that did not fit, their names only. */
function auditDetails(tool: string, result: TryResult): Record<string, unknown> {
  if (result.kind === "invalid-arguments") {
    return { tool, outcome: "invalid-arguments", arguments: [...new Set(result.issues.map((i) => String(i.path[0] ?? "")))].filter((a) => a !== "") };
  }
  const { answer } = result;
  return {
    tool,
    outcome: answer.outcome,
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

/** Tries a tool of one of the organisation's apps, as `actor` (a leader or developer there: `withOrg("try", …, { reads: 1 })`, which spends its check). */
export async function tryOrgApp(ctx: OrgContext, org: string, appId: string, actor: Actor, input: TryRequest, call: ToolCaller = inPool): Promise<TryAnswer> {
  const row = await requireApp(ctx.db, org, appId);
  const of: TryOf = { actor: actor.id, target: `app:${org}/${row.id}`, tool: input.tool };
  const tried = continued(of, input);
  const stored = checkInput(row);
  // With its OAuth sign-in when it has one; a refusal for want of scope says to sign in again with more (SPEC §17).
  // What it was sent with comes back as `…` from the pool (lib/pool/engine-worker.ts).
  const signedIn = await callSignedIn(ctx.db, row, { name: row.name, url: stored.url ?? row.url, ...(stored.headers ? { headers: stored.headers } : {}) }, (target) => call(target, tried), outcomeOf);
  const result = sealed(of, signedIn.refusal === null ? signedIn.result : stepUpAnswer(signedIn.result, signedIn.refusal));
  await recordAudit(ctx.db, { org, actor, action: "tool.tried", app: { id: row.id, name: row.name }, details: auditDetails(input.tool, result) });
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
