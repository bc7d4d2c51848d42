import "server-only";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { Actor, OrgAccess } from "@/lib/auth/workspace";
import { ConformanceError, RUN_BOUND_MS, runConformance, spokenBy, type ConformanceTarget } from "@/lib/conformance/run";
import { getDb, type Conn } from "@/lib/db/client";
import { appConformance } from "@/lib/db/tables";
import { ConflictError, LimitError, NotFoundError } from "@/lib/errors";
import { checkCost, spendChecks } from "@/lib/http/rate-limit";
import { allowListFromEnv } from "@/lib/mcp/address";
import type { LiveApp } from "@/lib/mcp/read-app";
import { callSignedIn } from "@/lib/oauth/reads";
import { readInPool } from "@/lib/pool/engine-pool";
import { conformanceResult, type ConformanceRequest, type ConformanceResult } from "@/lib/schemas/conformance";
import { checkInput, requireApp } from "./app-rows";
import type { AppReader, OrgContext } from "./context";
import { orgAllowing } from "./members";

/**
 * Conformance runs of apps (SPEC §27): an organisation's app (`POST|GET …/apps/{app}/conformance`,
 * the result kept) and a preview's URL (`POST /api/conformance`, kept nowhere). One run per app at
 * a time: in this process, and across instances by a claim on the app's row.
 */

/** Runs the suite: the app's revision and tools from a read first, then the child process. Tests give their own. */
export type ConformanceRunner = (target: ConformanceTarget & { name: string }, read: AppReader) => Promise<ConformanceResult>;

export const runSuite: ConformanceRunner = async (target, read) => {
  const app: LiveApp = { name: target.name, url: target.url, ...(target.headers ? { headers: target.headers } : {}) };
  const spoken = spokenBy(await read(app));
  return runConformance(target, { ...spoken, allow: allowListFromEnv() });
};

const defaultRead: AppReader = (app) => readInPool(app);

/** What a run that could not happen answers: the address refused or the app unreachable, 422 with the reason; the suite not runnable, 500's words. */
function asApiError(error: unknown): unknown {
  if (!(error instanceof ConformanceError)) return error;
  if (error.code === "suite-failed") return new ApiError("internal", error.message);
  return new ApiError("invalid-request", `The conformance suite cannot run against it: ${error.message}.`, { issues: [{ path: ["url"], message: error.message }] });
}

/** Runs in this process, by key (`app:<id>`, `url:<account>:<url>`). */
const running = new Set<string>();

/** Runs this process makes at once: each is a child process of its own for up to 5 minutes. */
const AT_ONCE = 4;

const BUSY = "A conformance run of this app is under way: wait for it to finish (a run takes at most 5 minutes).";

async function once<T>(key: string, work: () => Promise<T>): Promise<T> {
  if (running.has(key)) throw new ConflictError(BUSY);
  if (running.size >= AT_ONCE) throw new LimitError(`${AT_ONCE} conformance runs are under way on this server: try again in a minute.`, 60);
  running.add(key);
  try {
    return await work();
  } finally {
    running.delete(key);
  }
}

/** Claims the app's row for a run; false when another instance's run holds it (and is not stale). */
async function claim(db: Conn, app: string, now: number): Promise<boolean> {
  const stale = now - RUN_BOUND_MS - 60_000;
  const taken = await db
    .insert(appConformance)
    .values({ app, runningSince: now })
    .onConflictDoUpdate({ target: appConformance.app, set: { runningSince: now }, setWhere: or(isNull(appConformance.runningSince), lt(appConformance.runningSince, stale)) })
    .returning({ app: appConformance.app });
  return taken.length > 0;
}

/** Runs the suite against an organisation's app (leaders, developers), with its stored headers, and keeps the result. 409 while one runs. */
export async function runOrgConformance(ctx: OrgContext, access: OrgAccess, appId: string, run: ConformanceRunner = runSuite): Promise<ConformanceResult> {
  const row = await requireApp(ctx.db, access.org.slug, appId);
  return once(`app:${row.id}`, async () => {
    const now = Date.now();
    if (!(await claim(ctx.db, row.id, now))) throw new ConflictError(BUSY);
    let result: ConformanceResult | null = null;
    try {
      const stored = checkInput(row);
      const app: LiveApp = { name: row.name, url: stored.url ?? row.url, ...(stored.headers ? { headers: stored.headers } : {}) };
      // With its OAuth sign-in when it has one (SPEC §17), as a try is made.
      const signedIn = await callSignedIn(ctx.db, row, app, (signed) => run(signed, ctx.read ?? defaultRead), () => ({ authRequired: false })).catch((e: unknown) => {
        throw asApiError(e);
      });
      result = signedIn.result;
      return result;
    } finally {
      const kept = result === null ? {} : { result: JSON.stringify(result), ranAt: Date.parse(result.ranAt) };
      await ctx.db
        .update(appConformance)
        .set({ runningSince: null, ...kept })
        .where(and(eq(appConformance.app, row.id), eq(appConformance.runningSince, now)));
    }
  });
}

/** The kept result of an app's last run (every member); 404 before its first. */
export async function keptConformance(ctx: OrgContext, org: string, appId: string): Promise<ConformanceResult> {
  const row = await requireApp(ctx.db, org, appId);
  const [kept] = await ctx.db.select({ result: appConformance.result }).from(appConformance).where(eq(appConformance.app, row.id));
  if (kept?.result == null) throw new NotFoundError(`No conformance run of ${row.name} yet: a leader or developer can run one.`);
  return conformanceResult.parse(JSON.parse(kept.result));
}

/**
 * Runs the suite against a preview's URL, for an account that may try tools in some organisation
 * (SPEC §27: running calls tools), spending one check plus one for the app read by URL (SPEC §10).
 */
export async function runPreviewConformance(actor: Actor, input: ConformanceRequest, run: ConformanceRunner = runSuite, read: AppReader = defaultRead): Promise<ConformanceResult> {
  await orgAllowing(actor, "try", input.org);
  await spendChecks(getDb(), { account: actor.id }, checkCost(1));
  return once(`url:${actor.id}:${input.url}`, () =>
    run({ name: new URL(input.url).host, url: input.url, ...(input.headers ? { headers: input.headers } : {}) }, read).catch((e: unknown) => {
      throw asApiError(e);
    }),
  );
}
