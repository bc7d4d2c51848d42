import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { recordAudit, type AuditRecord } from "@/lib/audit/audit-log";
import { ConflictError, InvalidError, noOrgApp, onField } from "@/lib/errors";
import { orgTransaction, type Conn } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import { allowListFromEnv, neverReadable, systemResolver, type Resolver } from "@/lib/mcp/address";
import { recordOfferOf } from "@/lib/oauth/reads";
import { forgetSignIn } from "@/lib/oauth/sign-in-store";
import type { AppCreate, AppUpdate, StoredApp } from "@/lib/schemas/orgs";
import type { ImportedFields } from "@/lib/schemas/registry";
import { sameHeaderMessage, sameHeaderPairs } from "@/lib/schemas/check";
import { encryptSecret } from "@/lib/secrets";
import { filledUrl, querySecrets, shownUrl } from "@/lib/redact";
import { noteBudget, noteHeld, noteHostProblems } from "./alert-events";
import { MAX_APPS_PER_ORG, MAX_PERSONAL_APPS, recheckInterval } from "./limits";
import type { OrgContext } from "./context";
import { requireOrg } from "./organisations";
import { anyApp, lastConnectedAt, moreHeaderNames, orgApps, personalCount, requireApp, requirePersonalApp, urlToRead, type AppRow } from "./app-rows";
import { dropUnusedSnapshots } from "./snapshots";
import { insertReads, latestReads, listingOf } from "./reads";
import { approveTools } from "./approvals";
import { getApp, listsIn, personalApp } from "./lists";
import { readRows, storeReads } from "./rechecks";

/**
 * What the Connections tab changes in an organisation's apps (SPEC §11): connecting one (the
 * organisation's, or a person's own), editing, removing, approving its tools. Connecting or
 * editing an app reads that app alone; the others' names are computed when next asked for
 * (lib/orgs/lists.ts).
 */

/**
 * Who makes a change, as the audit log names them (SPEC §9). A mutation given one writes the
 * change and its audit entry in one transaction: both are stored, or neither. Given only an
 * account id (tests, benchmarks, the schedule), it records nothing.
 */
type Doer = AuditRecord["actor"];
const doerOf = (by: string | Doer | null): Doer | null => (by === null || typeof by === "string" ? null : { id: by.id, email: by.email });
const idOf = (by: string | Doer | null): string | null => (by === null || typeof by === "string" ? by : by.id);

/**
 * Refuses (422, on the `url` field) an app that could never be read: its address is refused
 * or its name does not exist (SPEC §10). Routes ask it before connecting or moving an app.
 */
export async function assertReadable(url: string, resolve: Resolver = systemResolver): Promise<void> {
  const reason = await neverReadable(url, resolve, allowListFromEnv());
  if (reason === null) return;
  const message = `This app could never be read: ${reason}.`;
  throw new InvalidError(message, onField("url", message));
}

/** Headers beyond the first, as stored: JSON of each name and its encrypted value (null when none). */
function storedMoreHeaders(headers: readonly [string, string][] | undefined): string | null {
  if (headers === undefined || headers.length === 0) return null;
  return JSON.stringify(Object.fromEntries(headers.map(([name, value]) => [name, encryptSecret(value)])));
}

/** Refuses a new app past the organisation's, or the person's, number of apps. */
async function assertRoom(db: Conn, org: string, owner: string | null): Promise<void> {
  if (owner === null && (await orgApps(db, org)).length >= MAX_APPS_PER_ORG) {
    throw new InvalidError(`An organisation connects at most ${MAX_APPS_PER_ORG} apps: remove one first.`);
  }
  if (owner !== null && (await personalCount(db, org, owner)) >= MAX_PERSONAL_APPS) {
    throw new InvalidError(`A person connects at most ${MAX_PERSONAL_APPS} personal apps: remove one first.`);
  }
}

/**
 * Connects an app (after every app of the organisation, it is the last connected) and reads it:
 * one of the organisation's, or with `owner` (an account id) a personal app of that person.
 * Its first listing is approved by whoever connects it (`by`, an account id, or the actor, who is
 * then named in the audit log in the same transaction). Apps connected at once are placed in the
 * order they are stored.
 */
export async function addApp(ctx: OrgContext, org: string, input: AppCreate & ImportedFields, by: string | Doer | null = null, owner: string | null = null): Promise<StoredApp> {
  await requireOrg(ctx.db, org);
  await assertRoom(ctx.db, org, owner);
  const { url, urlSecret } = storedUrl(input.url, null);
  const draft: AppRow = {
    id: randomUUID(),
    org,
    owner,
    name: input.name,
    url,
    urlSecret,
    headerName: input.header?.name ?? null,
    headerValue: input.header ? encryptSecret(input.header.value) : null,
    connectedAt: Date.now(),
    // Read now, so next due one interval from now (lib/schedule/schedule.ts); null when the schedule is off.
    nextCheckAt: recheckInterval() > 0 ? Date.now() + recheckInterval() : null,
    nextCheckWhy: null,
    failedReads: 0,
    moreHeaders: storedMoreHeaders(input.moreHeaders),
    sourceRegistry: input.source?.registry ?? null,
    sourceName: input.source?.name ?? null,
    sourceVersion: input.source?.version ?? null,
    sourceLatest: null,
  };
  const reads = await readRows(ctx, [draft]);
  // The app and its first read are stored together, or neither is.
  await orgTransaction(ctx.db, org, async (tx) => {
    await assertRoom(tx, org, owner);
    // Strictly after the last app (of anyone), even within one millisecond: a new app is never earlier.
    const row = { ...draft, connectedAt: Math.max(Date.now(), (await lastConnectedAt(tx, org)) + 1) };
    await tx.insert(apps).values(row);
    await insertReads(tx, reads);
    await recordOfferOf(tx, row.id, reads[0]!.listing);
    const read = (await latestReads(tx, org)).get(row.id);
    await approveTools(tx, row.id, read, await listingOf(tx, row, read), idOf(by));
    const actor = doerOf(by);
    if (actor !== null) {
      const details = {
        url: row.url,
        header: input.header ? input.header.name : null,
        ...(input.source ? { source: input.source, moreHeaders: input.moreHeaders?.map(([name]) => name) ?? [] } : {}),
        ...(owner !== null ? { personal: true } : {}),
      };
      await recordAudit(tx, { org, actor, action: "app.connected", app: { id: row.id, name: row.name }, details });
    }
  });
  return owner === null ? getApp(ctx, org, draft.id) : personalApp(ctx, org, owner, draft.id);
}

const originOf = (url: string) => new URL(url).origin;

/**
 * An app's URL as stored (SPEC §10): shown with `…` for each secret query parameter's value, and
 * as given, encrypted, when it holds one. A `…` given (a shown URL, edited) stands for the value
 * `before` holds (the URL as last given, on the same origin only); with none to stand for: 422.
 */
function storedUrl(given: string, before: string | null): Pick<AppRow, "url" | "urlSecret"> & { read: string } {
  const url = filledUrl(given, before);
  if (url === null) {
    const message = "A query parameter of this URL says … where its secret goes: give its value (a secret is kept only for the origin it was given for).";
    throw new InvalidError(message, onField("url", message));
  }
  return { url: shownUrl(url), urlSecret: querySecrets(url).length > 0 ? encryptSecret(url) : null, read: url };
}

/** Tries of one change that found the app changed by someone else while it was read. */
const UPDATE_TRIES = 3;

const sameFields = (a: AppRow, b: AppRow) => a.name === b.name && a.url === b.url && a.urlSecret === b.urlSecret && a.headerName === b.headerName && a.headerValue === b.headerValue && a.moreHeaders === b.moreHeaders;

/**
 * Changes an app's name, URL or header (`header: null` removes it) and reads it again. A URL on
 * another origin (scheme, host, port) drops the stored header unless the same change gives one:
 * a secret is never sent where it was not given for. Changes to one app do not lose each other:
 * one that finds the app changed meanwhile (by another change that was stored while this one
 * read the app) starts again from what is stored, and after a few tries answers 409. With `by`,
 * what changed is in the audit log, stored with the change.
 */
export async function updateApp(ctx: OrgContext, org: string, id: string, input: AppUpdate, by?: Doer): Promise<StoredApp> {
  await requireOrg(ctx.db, org);
  for (let tries = 1; ; tries++) {
    const current = await requireApp(ctx.db, org, id);
    if (await updateOnce(ctx, org, current, input, by)) return getApp(ctx, org, id);
    if (tries >= UPDATE_TRIES) throw new ConflictError("This app was changed by someone else at the same time, again and again: reload it and try again.");
  }
}

/** What an edit changed, for the audit log: the fields, never the header's value nor a URL's query secret (the URLs as shown, `…` in their place). */
function editDetails(input: AppUpdate, before: AppRow, after: AppRow): Record<string, unknown> {
  return {
    ...(input.name !== undefined && input.name !== before.name ? { name: { from: before.name, to: after.name } } : {}),
    ...(input.url !== undefined && after.url !== before.url ? { url: { from: before.url, to: after.url } } : {}),
    ...(input.url !== undefined && after.url === before.url && querySecrets(input.url).length > 0 ? { urlSecrets: "given" } : {}),
    ...(input.header !== undefined ? { header: input.header === null ? "removed" : `set (${input.header.name})` } : {}),
    ...(before.headerName !== null && after.headerName === null && input.header === undefined ? { header: "dropped: the app moved to another origin" } : {}),
  };
}

/** One try of `updateApp` from `current`: false when the app was changed meanwhile (nothing is stored then). */
async function updateOnce(ctx: OrgContext, org: string, current: AppRow, input: AppUpdate, by?: Doer): Promise<boolean> {
  const id = current.id;
  const before = urlToRead(current);
  const moves = input.url !== undefined && originOf(input.url) !== originOf(current.url);
  // The same URL given again keeps its stored form (a fresh encryption would look like a change).
  const url = input.url === undefined ? undefined : storedUrl(input.url, moves ? null : before);
  const same = url?.read === before;
  const changed: AppRow = {
    ...current,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(url !== undefined && !same ? { url: url.url, urlSecret: url.urlSecret } : {}),
    ...(input.header !== undefined
      ? { headerName: input.header?.name ?? null, headerValue: input.header ? encryptSecret(input.header.value) : null }
      : moves
        ? { headerName: null, headerValue: null }
        : {}),
    // Headers beyond the first go with the header removed, and never to another origin (the change gives one header at most).
    ...(input.header === null || (input.url !== undefined && originOf(input.url) !== originOf(current.url)) ? { moreHeaders: null } : {}),
  };
  // The header given is sent beside the ones an import kept (in place of one of the same name): a name
  // one of those has in another case would be sent as one header with both values.
  const [pair] = input.header ? sameHeaderPairs([...moreHeaderNames(changed), input.header.name]).filter(([first, again]) => first !== again) : [];
  if (pair !== undefined) {
    const message = sameHeaderMessage(pair);
    throw new InvalidError(message, [{ path: ["header", "name"], message }]);
  }
  // Tokens are for the app's URL (its resource): a new URL, or a header given instead, signs in anew.
  const signsInAnew = (url !== undefined && !same) || (input.header !== undefined && input.header !== null);
  const reads = await readRows(ctx, [changed], undefined, { fresh: signsInAnew });
  return orgTransaction(ctx.db, org, async (tx) => {
    const now = await requireApp(tx, org, id); // removed meanwhile: the 404
    if (!sameFields(now, current)) return false;
    const { name, url, urlSecret, headerName, headerValue, moreHeaders } = changed;
    await tx.update(apps).set({ name, url, urlSecret, headerName, headerValue, moreHeaders }).where(eq(apps.id, id));
    // In the same transaction as the new address: a sign-in finishing meanwhile is stored before (and forgotten here) or refused after.
    if (signsInAnew) await forgetSignIn(tx, id);
    await storeReads(tx, org, reads);
    if (signsInAnew) await recordOfferOf(tx, id, reads[0]!.listing);
    if (by !== undefined) await recordAudit(tx, { org, actor: doerOf(by)!, action: "app.edited", app: { id, name: changed.name }, details: editDetails(input, current, changed) });
    return true;
  });
}

/**
 * Removes an app with its history (a personal app of `owner`, when given); reads nothing (the
 * others' names are computed when next asked for). With `by`, the removal is in the audit log,
 * stored with it.
 */
export async function removeApp(ctx: OrgContext, org: string, id: string, owner: string | null = null, by?: Doer): Promise<void> {
  await requireOrg(ctx.db, org);
  await orgTransaction(ctx.db, org, async (tx) => {
    const row = await (owner === null ? requireApp(tx, org, id) : requirePersonalApp(tx, org, owner, id));
    await tx.delete(apps).where(eq(apps.id, id));
    await dropUnusedSnapshots(tx);
    if (by !== undefined) await recordAudit(tx, { org, actor: doerOf(by)!, action: "app.removed", app: { id, name: row.name }, ...(owner !== null ? { details: { personal: true } } : {}) });
  });
}

/** Removes, in the caller's transaction, every personal app `owner` has in `org`, with their sign-ins and history (a member who leaves takes theirs along). */
export async function removePersonalApps(tx: Conn, org: string, owner: string): Promise<void> {
  await tx.delete(apps).where(and(eq(apps.org, org), eq(apps.owner, owner)));
  await dropUnusedSnapshots(tx);
}

/**
 * Approves the tools of the app's newest read (all, or those named) as they are, by the leader
 * `by` (an account id, or the actor, then named in the audit log in the same transaction);
 * answers the app with its names (SPEC §11). What is approved is always what was really read:
 * the newest stored read, taken under the organisation's lock, so never half a re-check.
 */
export async function approveApp(
  ctx: OrgContext,
  org: string,
  id: string,
  by: string | Doer,
  names?: readonly string[],
  around: <T>(work: (db: Conn) => Promise<T>) => Promise<T> = (work) => work(ctx.db),
): Promise<{ app: StoredApp; approved: string[]; snapshot: string | null }> {
  await requireOrg(ctx.db, org);
  const row = await reviewedApp(ctx.db, org, id);
  // `around`: the route's transaction the approval is part of (lib/orgs/export-changes.ts adds what it does to the exports to its audit entry).
  const { approved, snapshot } = await around((db) => approveIn(db, org, id, by, names));
  // A member's personal app is held by the organisation's review too (SPEC §25): a leader approves it, and it answers as its owner has it.
  return { app: row.owner === null ? await getApp(ctx, org, id) : await personalApp(ctx, org, row.owner, id), approved, snapshot };
}

/** An app a leader may approve: the organisation's, or a member's personal app (SPEC §25); else the 404. */
async function reviewedApp(db: Conn, org: string, id: string): Promise<AppRow> {
  const row = await anyApp(db, org, id);
  if (row === undefined) throw noOrgApp(org, id);
  return row;
}

/** `approveApp`'s change itself, in its own transaction or in `db`'s (a preview's, lib/orgs/preview.ts, runs it too, with `alerts` false: a pretend change tells no one). */
export async function approveIn(db: Conn, org: string, id: string, by: string | Doer, names?: readonly string[], alerts = true): Promise<{ approved: string[]; snapshot: string | null }> {
  return orgTransaction(db, org, async (tx) => {
    const row = await reviewedApp(tx, org, id);
    const read = (await latestReads(tx, org)).get(id);
    if (read === undefined) throw new ConflictError("This app has not been read yet: re-check it first.");
    const approved = await approveTools(tx, id, read, await listingOf(tx, row, read), idOf(by), names);
    // What is still held is what was told, without telling it again; tools approved are sent from now on: a person may go over the budget, an app gain a problem on a chosen host (SPEC §28).
    if (alerts) {
      await noteHeld(tx, org, [id], undefined, false);
      await noteHostProblems(tx, org, listsIn);
      await noteBudget(tx, org, listsIn);
    }
    const actor = doerOf(by);
    if (actor !== null) {
      const details = { tools: approved.length > 50 ? `${approved.length} tools` : approved, snapshot: read.snapshot };
      await recordAudit(tx, { org, actor, action: "changes.approved", app: { id, name: row.name }, details });
    }
    return { approved, snapshot: read.snapshot };
  });
}
