import "server-only";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { runCheck, type RunOptions } from "@/lib/check/run";
import type { AppListing } from "@/lib/engine/check";
import type { Conn } from "@/lib/db/client";
import { apps } from "@/lib/db/schema";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";
import type { AppCreate, AppList, AppUpdate, CheckRecord, StoredApp } from "@/lib/schemas/orgs";
import { ApiError } from "@/lib/api/errors";
import { allowListFromEnv, neverReadable, systemResolver, type Resolver } from "@/lib/mcp/address";
import { encryptSecret } from "@/lib/secrets";
import { DEFAULT_HISTORY, MAX_APPS_PER_ORG, MAX_HISTORY } from "./limits";
import type { AppRow, NewCheck } from "./store";
import { checkHistory, checkInput, insertChecks, orgApps, requireApp, requireOrg, toStoredApp } from "./store";

/**
 * What the Connections tab does to an organisation's apps. Names depend on the whole list
 * (short names in connection order, whole names across apps), so every check, even of one
 * app, reads every app of the organisation at once (so it costs about the slowest app) and
 * stores a record for each: after a change every app's `lastCheck` has the current names.
 */

export type CheckRunner = (request: CheckRequest, options?: Pick<RunOptions, "onRead">) => Promise<CheckResult>;
/** Told of each app of a re-check as soon as it has been read: its id and the read's outcome. */
export type OnAppRead = (app: string, listing: AppListing) => void;
export interface OrgContext {
  db: Conn;
  /** The live check; tests may read listings some other way. */
  check?: CheckRunner;
}


// One change or check of an organisation at a time (per process): a check's names are only
// right for the list it read, so a second change waits until the first is stored.
const locks = (globalThis as typeof globalThis & { __theoremOrgLocks?: Map<string, Promise<unknown>> }).__theoremOrgLocks ??= new Map();

async function serially<T>(org: string, work: () => Promise<T>): Promise<T> {
  const previous = locks.get(org) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  locks.set(org, settled);
  try {
    return await next;
  } finally {
    if (locks.get(org) === settled) locks.delete(org);
  }
}

/** Checks `rows` (the whole organisation, in connection order) and returns one record per app. */
async function checkAll(ctx: OrgContext, rows: AppRow[], onRead?: OnAppRead): Promise<NewCheck[]> {
  if (rows.length === 0) return [];
  const checkedAt = Date.now();
  const started = performance.now();
  const read = onRead === undefined ? undefined : (index: number, listing: AppListing) => onRead(rows[index]!.id, listing);
  const result = await (ctx.check ?? runCheck)({ apps: rows.map(checkInput) }, { onRead: read });
  const durationMs = Math.round(performance.now() - started);
  if (result.apps.length !== rows.length) throw new Error(`The check answered ${result.apps.length} apps for ${rows.length}.`);
  return rows.map((row, i) => ({ id: randomUUID(), app: row.id, checkedAt, durationMs, result: result.apps[i]! }));
}

/**
 * Refuses (422, on the `url` field) an app that could never be read: its address is refused
 * or its name does not exist (SPEC §10). Routes ask it before connecting or moving an app.
 */
export async function assertReadable(url: string, resolve: Resolver = systemResolver): Promise<void> {
  const reason = await neverReadable(url, resolve, allowListFromEnv());
  if (reason === null) return;
  const message = `This app could never be read: ${reason}.`;
  throw new ApiError("invalid-request", message, { issues: [{ path: ["url"], message }] });
}

/** Throws the 404 for an unknown organisation (or app), so a route can answer it before reading a body. */
export function assertExists(ctx: OrgContext, org: string, app?: string): void {
  requireOrg(ctx.db, org);
  if (app !== undefined) requireApp(ctx.db, org, app);
}

export function listApps(ctx: OrgContext, org: string): AppList {
  const found = requireOrg(ctx.db, org);
  return { org: found, apps: orgApps(ctx.db, org).map((row) => toStoredApp(ctx.db, row)) };
}

export function getApp(ctx: OrgContext, org: string, id: string): StoredApp {
  requireOrg(ctx.db, org);
  return toStoredApp(ctx.db, requireApp(ctx.db, org, id));
}

/** Connects an app (after every app of the organisation, it is the last connected) and checks it. */
export async function addApp(ctx: OrgContext, org: string, input: AppCreate): Promise<StoredApp> {
  requireOrg(ctx.db, org);
  return serially(org, async () => {
    const existing = orgApps(ctx.db, org);
    if (existing.length >= MAX_APPS_PER_ORG) {
      throw new ApiError("invalid-request", `An organisation connects at most ${MAX_APPS_PER_ORG} apps: remove one first.`);
    }
    const last = existing.at(-1);
    const row: AppRow = {
      id: randomUUID(),
      org,
      name: input.name,
      url: input.url,
      headerName: input.header?.name ?? null,
      headerValue: input.header ? encryptSecret(input.header.value) : null,
      // Strictly after the last app, even within one millisecond: a new app is never earlier.
      connectedAt: Math.max(Date.now(), (last?.connectedAt ?? 0) + 1),
    };
    const records = await checkAll(ctx, [...existing, row]);
    // The app and its first check are stored together, or neither is.
    ctx.db.transaction((tx) => {
      tx.insert(apps).values(row).run();
      insertChecks(tx, records);
    });
    return toStoredApp(ctx.db, row);
  });
}

const originOf = (url: string) => new URL(url).origin;

/**
 * Changes an app's name, URL or header (`header: null` removes it) and re-checks the
 * organisation. A URL on another origin (scheme, host, port) drops the stored header unless
 * the same change gives one: a secret is never sent where it was not given for.
 */
export async function updateApp(ctx: OrgContext, org: string, id: string, input: AppUpdate): Promise<StoredApp> {
  requireOrg(ctx.db, org);
  requireApp(ctx.db, org, id);
  return serially(org, async () => {
    const current = requireApp(ctx.db, org, id);
    const changed: AppRow = {
      ...current,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.header !== undefined
        ? { headerName: input.header?.name ?? null, headerValue: input.header ? encryptSecret(input.header.value) : null }
        : input.url !== undefined && originOf(input.url) !== originOf(current.url)
          ? { headerName: null, headerValue: null }
          : {}),
    };
    const rows = orgApps(ctx.db, org).map((r) => (r.id === id ? changed : r));
    const records = await checkAll(ctx, rows);
    ctx.db.transaction((tx) => {
      const { name, url, headerName, headerValue } = changed;
      tx.update(apps).set({ name, url, headerName, headerValue }).where(eq(apps.id, id)).run();
      insertChecks(tx, records);
    });
    return toStoredApp(ctx.db, changed);
  });
}

/**
 * Removes an app with its history, then re-checks the others (their names may move back).
 * The removal stands even if that re-check fails; the next check fixes the names.
 */
export async function removeApp(ctx: OrgContext, org: string, id: string): Promise<void> {
  requireOrg(ctx.db, org);
  requireApp(ctx.db, org, id);
  await serially(org, async () => {
    requireApp(ctx.db, org, id);
    ctx.db.delete(apps).where(eq(apps.id, id)).run();
    try {
      insertChecks(ctx.db, await checkAll(ctx, orgApps(ctx.db, org)));
    } catch (error) {
      console.error(`Re-checking "${org}" after a removal failed:`, error instanceof Error ? error.message : error);
    }
  });
}

/** Re-checks every app of the organisation; `onRead` hears of each app as its read ends. */
export async function recheckOrg(ctx: OrgContext, org: string, onRead?: OnAppRead): Promise<AppList> {
  requireOrg(ctx.db, org);
  await serially(org, async () => insertChecks(ctx.db, await checkAll(ctx, orgApps(ctx.db, org), onRead)));
  return listApps(ctx, org);
}

/** Re-checks one app: the whole organisation is read, so that its names are right. */
export async function recheckApp(ctx: OrgContext, org: string, id: string): Promise<StoredApp> {
  requireOrg(ctx.db, org);
  requireApp(ctx.db, org, id);
  await serially(org, async () => {
    requireApp(ctx.db, org, id);
    insertChecks(ctx.db, await checkAll(ctx, orgApps(ctx.db, org)));
  });
  return getApp(ctx, org, id);
}

export function history(ctx: OrgContext, org: string, app: string | undefined, limit = DEFAULT_HISTORY): CheckRecord[] {
  requireOrg(ctx.db, org);
  if (app !== undefined) requireApp(ctx.db, org, app);
  return checkHistory(ctx.db, { org, app }, Math.min(Math.max(1, Math.trunc(limit)), MAX_HISTORY));
}
