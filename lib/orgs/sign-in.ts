import "server-only";
import { randomUUID } from "node:crypto";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/audit-log";
import type { OrgAccess } from "@/lib/auth/workspace";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { dashboardOrigin } from "@/lib/oauth/dashboard";
import { SignInFailure } from "@/lib/oauth/failures";
import { diagnoseSignIn } from "@/lib/oauth/doctor";
import { finishSignIn, startSignIn, takeCallback, type Finished } from "@/lib/oauth/flow";
import { forgetSignIn, loadSignIn } from "@/lib/oauth/sign-in-store";
import type { Diagnosis } from "@/lib/schemas/sign-in-doctor";
import type { SignInStart, StoredApp } from "@/lib/schemas/orgs";
import { personalApp, getApp } from "./lists";
import { recheckApp, recheckForSchedule } from "./rechecks";
import type { OrgContext } from "./context";
import { anyApp, requireApp, requirePersonalApp, type AppRow } from "./app-rows";
import { insertReads, readHistory } from "./reads";

/**
 * What the Connect, Disconnect and callback routes do (SPEC §17), for an organisation's app
 * (`personal: false`, a leader's) or the caller's own personal app. The routes name the
 * permission (`withOrg`); this finds the app in the right scope, keeps the audit log, stores a
 * failed sign-in as the app's reason and reads the app again once a sign-in is stored: lib/oauth
 * does the sign-in itself and never calls back into lib/orgs.
 */

interface Target {
  access: OrgAccess;
  app: string;
  personal: boolean;
}

async function rowOf(ctx: OrgContext, target: Target): Promise<AppRow> {
  const { slug } = target.access.org;
  return target.personal ? requirePersonalApp(ctx.db, slug, target.access.actor.id, target.app) : requireApp(ctx.db, slug, target.app);
}

/** The app as its page shows it, from its scope. */
function shown(ctx: OrgContext, target: Target, row: AppRow): Promise<StoredApp> {
  return target.personal ? personalApp(ctx, row.org, target.access.actor.id, row.id) : getApp(ctx, row.org, row.id);
}

/** Reads the app again (it is then read with its sign-in, or asks for one). */
async function reread(ctx: OrgContext, row: AppRow): Promise<void> {
  if (row.owner === null) await recheckApp(ctx, row.org, row.id);
  else await recheckForSchedule(ctx, row.org, row.id);
}

/** The `WWW-Authenticate` the app's newest read was refused with: where it said it signs in (SPEC §18). */
async function newestChallenge(db: Conn, row: AppRow): Promise<string | null> {
  const [read] = await readHistory(db, { org: row.org, app: row.id }, 1);
  return read?.challenge ?? null;
}

/**
 * Stores a failed sign-in as the app's newest read: its reason is what the app's page says (SPEC
 * §17), with the refusal the sign-in was found from, so that Connect again still starts from it.
 */
async function recordFailure(db: Conn, row: AppRow, failure: SignInFailure, startedAt: number, challenge: string | null): Promise<void> {
  await insertReads(db, [
    {
      id: randomUUID(),
      app: row.id,
      checkedAt: startedAt,
      durationMs: Date.now() - startedAt,
      readAs: row,
      listing: { name: row.name, entries: [], unavailable: { code: "auth-required", message: failure.message }, ...(challenge !== null ? { challenge } : {}) },
    },
  ]);
}

/** Connect: answers where to send the browser. A failure is the app's reason, and the 409's message. */
export async function connect(ctx: OrgContext, target: Target, requestUrl: string, input: SignInStart): Promise<{ authorizationUrl: string }> {
  const row = await rowOf(ctx, target);
  const startedAt = Date.now();
  const challenge = await newestChallenge(ctx.db, row);
  try {
    return await startSignIn(ctx.db, { ...row, challenge }, target.access.actor.id, dashboardOrigin(requestUrl), input);
  } catch (error) {
    if (!(error instanceof SignInFailure)) throw error;
    await recordFailure(ctx.db, row, error, startedAt, challenge);
    throw new ConflictError(error.message);
  }
}

/** Whether a stored read says the app asked to sign in (`unavailable` is `{code, message}` as JSON). */
function refusedForSignIn(unavailable: string | null | undefined): boolean {
  if (unavailable === null || unavailable === undefined) return false;
  try {
    return (JSON.parse(unavailable) as { code?: unknown }).code === "auth-required";
  } catch {
    return false;
  }
}

/**
 * The sign-in doctor (SPEC §27): for an app that signs in, what Connect does, step by step. An app
 * read with a header, or one that never asked to sign in, has no sign-in to walk: 409, saying so.
 * Nothing is stored: a diagnosis changes neither the app nor its sign-in.
 */
export async function diagnose(ctx: OrgContext, target: Target, requestUrl: string): Promise<Diagnosis> {
  const row = await rowOf(ctx, target);
  if (row.headerName !== null) {
    throw new ConflictError(`This app is read with the header ${row.headerName} you gave, not with an OAuth sign-in, so there is no sign-in to diagnose: remove the header (Edit) to sign in with OAuth instead.`);
  }
  const [read] = await readHistory(ctx.db, { org: row.org, app: row.id }, 1);
  const stored = await loadSignIn(ctx.db, row.id);
  const challenge = read?.challenge ?? null;
  if (stored === null && challenge === null && !refusedForSignIn(read?.unavailable)) {
    throw new ConflictError("This app does not sign in: its newest read was not refused for want of a sign-in, so there is no sign-in to diagnose.");
  }
  return { steps: await diagnoseSignIn({ url: row.url, challenge, stored, origin: dashboardOrigin(requestUrl) }) };
}

/** Disconnect: the tokens (and the client, and any flow) are forgotten with the audit entry saying so, then the app is read again. */
export async function disconnect(ctx: OrgContext, target: Target): Promise<StoredApp> {
  const row = await rowOf(ctx, target);
  await orgTransaction(ctx.db, row.org, async (tx) => {
    if (!(await forgetSignIn(tx, row.id))) throw new NotFoundError("This app has no sign-in to forget.");
    await recordAudit(tx, { org: row.org, actor: target.access.actor, action: "app.edited", app: { id: row.id, name: row.name }, details: { signIn: "disconnected", ...(target.personal ? { personal: true } : {}) } });
  });
  await reread(ctx, row);
  return shown(ctx, target, row);
}

/**
 * The callback: the flow `state` names is taken (once) before anything else; `authorize` is then
 * asked whether this caller may finish it (the one who started it, still allowed to connect the
 * app); then `iss`, the server's answer and the code. A signed-in app is read at once.
 */
export async function callback(ctx: OrgContext, query: URLSearchParams, authorize: (flow: { org: string; startedBy: string }, row: AppRow) => Promise<OrgAccess>): Promise<Finished & { row: AppRow }> {
  const flow = await takeCallback(ctx.db, query);
  const row = await anyApp(ctx.db, flow.org, flow.app);
  if (row === undefined) throw new NotFoundError("The app of this sign-in was removed meanwhile.");
  const access = await authorize(flow, row);
  const startedAt = Date.now();
  // The audit entry is written in the transaction that stores the tokens: both, or neither.
  const stored = (tx: Conn) =>
    recordAudit(tx, {
      org: row.org,
      actor: access.actor,
      action: "app.edited",
      app: { id: row.id, name: row.name },
      details: { signIn: "connected", issuer: flow.issuer, registration: flow.registration, ...(row.owner !== null ? { personal: true } : {}) },
    });
  const finished = await finishSignIn(ctx.db, flow, row, access.actor.id, query, { stored });
  if (!finished.ok) await recordFailure(ctx.db, row, finished.failure, startedAt, await newestChallenge(ctx.db, row));
  if (finished.ok) {
    try {
      await reread(ctx, row);
    } catch (error) {
      // The sign-in is stored: the page says what the read found, or the next check does.
      logger.error({ org: row.org, app: row.id, err: error }, "Reading an app after its sign-in failed");
    }
  }
  return { ...finished, row };
}
