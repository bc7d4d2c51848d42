import "server-only";
import { createHash } from "node:crypto";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/client";
import { and, eq, lt, sql } from "drizzle-orm";
import { orgTransaction, runPrepared, transaction, type Conn } from "@/lib/db/client";
import { apps, appSignIns, oauthFlows } from "@/lib/db/tables";
import { decryptSecret, encryptSecret } from "@/lib/secrets";
import { discovery as discoverySchema, type Discovery } from "./discovery";

/**
 * Where sign-ins and flows are kept (SPEC §17): client information, tokens and the PKCE
 * verifier are encrypted here and decrypted only on their way to the authorization server.
 */

/** An app as a sign-in needs it: lib/orgs' row has these and more, and lib/oauth never asks lib/orgs for one. */
export interface SignInApp {
  id: string;
  org: string;
  url: string;
  /** The leader's own header, when the app is read with one instead of a sign-in. */
  headerName: string | null;
  /** The `WWW-Authenticate` its newest read was refused with, if it was (where Connect finds it signs in, SPEC §18). */
  challenge?: string | null;
}

/** How the dashboard came to have its client: given by a leader, its metadata document, or registered. */
export type Registration = "pre-registered" | "metadata-document" | "dynamic";
export type SignInState = "offered" | "connected" | "expired";

export interface SignIn {
  app: string;
  state: SignInState;
  issuer: string | null;
  discovery: Discovery | null;
  client: OAuthClientInformationMixed | null;
  registration: Registration | null;
  tokens: OAuthTokens | null;
  expiresAt: number | null;
  failure: string | null;
  connectedBy: string | null;
  connectedAt: number | null;
  version: number;
}

/** A flow as the callback takes it back. */
export interface Flow {
  app: string;
  org: string;
  startedBy: string;
  issuer: string;
  discovery: Discovery;
  client: OAuthClientInformationMixed;
  registration: Registration;
  verifier: string;
  redirectUrl: string;
  expiresAt: number;
}

/** A flow lives this long: the person signs in within it, or starts again. */
export const FLOW_TTL_MS = 10 * 60 * 1000;

const stateHash = (state: string) => createHash("sha256").update(state, "utf8").digest("hex");

const sealed = (value: unknown) => encryptSecret(JSON.stringify(value));

/** A stored secret that no longer decrypts (the key changed) reads as missing: the app then asks for a sign-in. */
function opened<T>(stored: string | null): T | null {
  if (stored === null) return null;
  try {
    return JSON.parse(decryptSecret(stored)) as T;
  } catch {
    return null;
  }
}

function parsedDiscovery(text: string | null): Discovery | null {
  if (text === null) return null;
  const found = discoverySchema.safeParse(JSON.parse(text));
  return found.success ? found.data : null;
}

export async function loadSignIn(db: Conn, app: string): Promise<SignIn | null> {
  const [row] = await runPrepared(db, "theorem_load_sign_in", () => db.select().from(appSignIns).where(eq(appSignIns.app, sql.placeholder("app"))).limit(1), { app });
  if (row === undefined) return null;
  return {
    app: row.app,
    state: row.state === "connected" || row.state === "expired" ? row.state : "offered",
    issuer: row.issuer,
    discovery: parsedDiscovery(row.discovery),
    client: opened<OAuthClientInformationMixed>(row.client),
    registration: (row.registration as Registration | null) ?? null,
    tokens: opened<OAuthTokens>(row.tokens),
    expiresAt: row.expiresAt,
    failure: row.failure,
    connectedBy: row.connectedBy,
    connectedAt: row.connectedAt,
    version: row.version,
  };
}

/** A sign-in as a list's summary shows it (no secret is decrypted). */
interface SignInSummary {
  state: SignInState;
  issuer: string | null;
  connectedAt: number | null;
  expiresAt: number | null;
  stepUp: { scope: string; gaveUp: boolean } | null;
}

/** A stored sign-in's summary, from its row's state, issuer, times and (when connected) discovery. */
export function signInSummary(r: { state: string; issuer: string | null; connectedAt: number | null; expiresAt: number | null; discovery: string | null }): SignInSummary {
  const state: SignInState = r.state === "connected" || r.state === "expired" ? r.state : "offered";
  const stepUp = state === "connected" ? parsedDiscovery(r.discovery)?.stepUp : undefined;
  return { state, issuer: r.issuer, connectedAt: r.connectedAt, expiresAt: r.expiresAt, stepUp: stepUp === undefined ? null : { scope: stepUp.scope, gaveUp: stepUp.gaveUp } };
}

/**
 * Remembers that the app offers OAuth (nobody connected it yet); a connected or expired sign-in
 * is left as it is. Answers false when the app is not stored (yet).
 */
export async function recordOffered(db: Conn, app: string, found: Discovery, now = Date.now()): Promise<boolean> {
  const issuer = found.authorizationServerMetadata.issuer;
  if ((await db.select({ id: apps.id }).from(apps).where(eq(apps.id, app)).limit(1)).length === 0) return false;
  await db
    .insert(appSignIns)
    .values({ app, state: "offered", issuer, discovery: JSON.stringify(found), updatedAt: now })
    .onConflictDoUpdate({ target: appSignIns.app, set: { issuer, discovery: JSON.stringify(found), updatedAt: now }, setWhere: eq(appSignIns.state, "offered") });
  return true;
}

const expiry = (tokens: OAuthTokens, now: number) => (typeof tokens.expires_in === "number" && Number.isFinite(tokens.expires_in) && tokens.expires_in > 0 ? now + tokens.expires_in * 1000 : null);

/**
 * Stores a finished sign-in: the flow's client and its tokens together (whoever finishes last is
 * the sign-in kept), only while the app is still at `resource`, the address it signed in for, with
 * no header: answers false, storing nothing, when a change moved it meanwhile (the tokens are never
 * sent to another address). Under the organisation's lock, as the change is.
 */
export async function saveConnected(db: Conn, flow: Flow, resource: string, client: OAuthClientInformationMixed, tokens: OAuthTokens, by: string, now = Date.now(), stored?: (tx: Conn) => Promise<void>): Promise<boolean> {
  const values = {
    state: "connected",
    issuer: flow.issuer,
    discovery: JSON.stringify(flow.discovery),
    client: sealed(client),
    registration: flow.registration,
    tokens: sealed(tokens),
    expiresAt: expiry(tokens, now),
    failure: null,
    connectedBy: by,
    connectedAt: now,
    updatedAt: now,
  };
  return orgTransaction(db, flow.org, async (tx) => {
    const [app] = await tx.select({ url: apps.url, headerName: apps.headerName }).from(apps).where(eq(apps.id, flow.app)).limit(1);
    if (app === undefined || app.url !== resource || app.headerName !== null) return false;
    const [current] = await tx.select({ version: appSignIns.version }).from(appSignIns).where(eq(appSignIns.app, flow.app)).limit(1);
    const version = (current?.version ?? 0) + 1;
    await tx.insert(appSignIns).values({ app: flow.app, ...values, version }).onConflictDoUpdate({ target: appSignIns.app, set: { ...values, version } });
    // What the caller writes with it (its audit entry): stored together, or neither.
    await stored?.(tx);
    return true;
  });
}

/** Stores renewed tokens, only over the ones that were renewed (`version`): answers whether they were stored. */
export async function saveRenewed(db: Conn, app: string, version: number, tokens: OAuthTokens, now = Date.now()): Promise<boolean> {
  const stored = await db
    .update(appSignIns)
    .set({ tokens: sealed(tokens), expiresAt: expiry(tokens, now), version: version + 1, updatedAt: now })
    .where(and(eq(appSignIns.app, app), eq(appSignIns.version, version), eq(appSignIns.state, "connected")))
    .returning({ app: appSignIns.app });
  return stored.length > 0;
}

/**
 * The tokens could not be renewed: they are forgotten, the client kept for Reconnect, and why is
 * kept; with `found`, where the app's refusal now says it signs in.
 */
export async function markExpired(db: Conn, app: string, version: number, failure: string, found?: Discovery, now = Date.now()): Promise<void> {
  await db
    .update(appSignIns)
    .set({ state: "expired", tokens: null, expiresAt: null, failure, version: version + 1, updatedAt: now, ...(found !== undefined ? { discovery: JSON.stringify(found) } : {}) })
    .where(and(eq(appSignIns.app, app), eq(appSignIns.version, version)));
}

/** Keeps what a refusal for scope changed of a connected sign-in's discovery (its `stepUp`), leaving its tokens as they are. */
export async function saveDiscovery(db: Conn, app: string, found: Discovery, now = Date.now()): Promise<void> {
  await db
    .update(appSignIns)
    .set({ discovery: JSON.stringify(found), updatedAt: now })
    .where(and(eq(appSignIns.app, app), eq(appSignIns.state, "connected")));
}

/** Disconnect: the sign-in is forgotten whole (tokens, client, metadata), and any flow under way. */
export async function forgetSignIn(db: Conn, app: string): Promise<boolean> {
  return transaction(db, async (tx) => {
    await tx.delete(oauthFlows).where(eq(oauthFlows.app, app));
    return (await tx.delete(appSignIns).where(eq(appSignIns.app, app)).returning({ app: appSignIns.app })).length > 0;
  });
}

export async function saveFlow(db: Conn, state: string, flow: Flow, now = Date.now()): Promise<void> {
  await transaction(db, async (tx) => {
    await tx.delete(oauthFlows).where(lt(oauthFlows.expiresAt, now));
    await tx.insert(oauthFlows).values({
        stateHash: stateHash(state),
        app: flow.app,
        org: flow.org,
        startedBy: flow.startedBy,
        issuer: flow.issuer,
        discovery: JSON.stringify(flow.discovery),
        client: sealed(flow.client),
        registration: flow.registration,
        verifier: encryptSecret(flow.verifier),
        redirectUrl: flow.redirectUrl,
        createdAt: now,
        expiresAt: flow.expiresAt,
      });
  });
}

/**
 * Takes the flow a `state` names, once: it is deleted in the same transaction, so a second
 * callback with the same state finds nothing. An expired flow is taken and answers null.
 */
export async function takeFlow(db: Conn, state: string, now = Date.now()): Promise<Flow | null> {
  // Deleting is the taking: of two callbacks with one state, only one gets the row back.
  const [row] = await db.delete(oauthFlows).where(eq(oauthFlows.stateHash, stateHash(state))).returning();
  if (row === undefined || row.expiresAt <= now) return null;
  const client = opened<OAuthClientInformationMixed>(row.client);
  const found = parsedDiscovery(row.discovery);
  let verifier: string;
  try {
    verifier = decryptSecret(row.verifier);
  } catch {
    return null;
  }
  if (client === null || found === null) return null;
  return {
    app: row.app,
    org: row.org,
    startedBy: row.startedBy,
    issuer: row.issuer,
    discovery: found,
    client,
    registration: row.registration as Registration,
    verifier,
    redirectUrl: row.redirectUrl,
    expiresAt: row.expiresAt,
  };
}
