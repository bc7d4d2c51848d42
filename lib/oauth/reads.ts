import "server-only";
import type { OAuthTokens } from "@modelcontextprotocol/client";
import type { Conn } from "@/lib/db/client";
import type { AppListing } from "@/lib/engine/check";
import { GuardError } from "@/lib/mcp/guarded-fetch";
import type { LiveApp } from "@/lib/mcp/read-app";
import { callbackUrl, dashboardOrigin } from "./dashboard";
import { challengeOf, discoverSignIn, withChallenge, type Discovery } from "./discovery";
import { failures, needsSignIn, quoted, SignInFailure } from "./failures";
import { oauthFetch, type OAuthFetch, type OAuthFetchOptions } from "./fetch";
import { AppOAuthProvider } from "./provider";
import { auth } from "./sdk-auth";
import { heldScope, scopeUnion, stepUpDone, stepUpNeeded } from "./step-up";
import { loadSignIn, markExpired, recordOffered, saveRenewed, type SignIn, type SignInApp } from "./sign-in-store";

/**
 * A read of an app that signs in with OAuth (SPEC §17), on the main thread around the read in the
 * worker pool: the stored access token goes as `Authorization: Bearer …`, renewed through the
 * SDK's `auth()` first when it expires within a minute (or has no stated expiry and was refused).
 * An app that answers 401 without a header is asked how it signs in, and says so in its reason.
 */

/** Renewed this long before it expires: a read takes up to 11 s, and clocks differ. */
const RENEW_MARGIN_MS = 60_000;

type Read = (app: LiveApp) => Promise<AppListing>;

const withReason = (listing: AppListing, message: string): AppListing => ({ ...listing, unavailable: { code: "auth-required", message } });
const bearer = (app: LiveApp, tokens: OAuthTokens): LiveApp => ({ ...app, headers: { Authorization: `Bearer ${tokens.access_token}` } });

type Renewal = { ok: true; signIn: SignIn & { tokens: OAuthTokens } } | { ok: false; failure: SignInFailure } | { ok: false; transient: string };

function refusal(f: OAuthFetch): string | undefined {
  const answer = [...f.seen].reverse().find((seen) => seen.json !== null && typeof seen.json["error"] === "string");
  return answer?.json == null ? undefined : `the sign-in server answered ${quoted(answer.json["error"], 60)}`;
}

const connected = (found: SignIn | null): (SignIn & { tokens: OAuthTokens }) | null => (found?.state === "connected" && found.tokens !== null ? (found as SignIn & { tokens: OAuthTokens }) : null);

/** Renews the tokens with the refresh token, by the SDK; a refusal is a failure (Reconnect), a network failure is transient. */
async function renew(db: Conn, row: SignInApp, signIn: SignIn & { tokens: OAuthTokens }, options: OAuthFetchOptions, refreshScope?: string): Promise<Renewal> {
  if (signIn.discovery === null || signIn.client === null) return { ok: false, failure: failures.expired("what it was signed in with can no longer be read") };
  if (signIn.tokens.refresh_token === undefined) return { ok: false, failure: failures.expired("the sign-in server gave no refresh token") };
  const registered = "redirect_uris" in signIn.client && Array.isArray(signIn.client.redirect_uris) ? signIn.client.redirect_uris[0] : undefined;
  const f = oauthFetch(options);
  try {
    const provider = new AppOAuthProvider({
      step: "renew",
      discovery: signIn.discovery,
      // Sent nowhere when refreshing; the SDK wants one to know the client signs in interactively.
      redirectUrl: typeof registered === "string" ? registered : callbackUrl(dashboardOrigin("http://localhost")),
      client: signIn.client,
      tokens: signIn.tokens,
      ...(refreshScope !== undefined ? { refreshScope } : {}),
    });
    const result = await auth(provider, { serverUrl: row.url, fetchFn: f.fetch }, row.id);
    if (result !== "AUTHORIZED" || provider.tokensSaved === undefined) return { ok: false, failure: failures.expired(refusal(f)) };
    // Stored only over the tokens renewed; if a new sign-in came meanwhile, its tokens are the ones to use.
    await saveRenewed(db, row.id, signIn.version, provider.tokensSaved);
    const now = connected(await loadSignIn(db, row.id));
    return now !== null ? { ok: true, signIn: now } : { ok: false, failure: failures.expired() };
  } catch (error) {
    const stop = error instanceof GuardError ? error : f.firstStop();
    if (stop !== null) return { ok: false, transient: stop.reason };
    return { ok: false, failure: failures.expired(refusal(f) ?? (error instanceof SignInFailure ? /\(([^)]*)\)/.exec(error.message)?.[1] : undefined)) };
  } finally {
    f.close();
  }
}

export interface SignedInReadOptions extends OAuthFetchOptions {
  /**
   * Read as a new app is: without the stored sign-in (an app given another address signs in
   * anew), the offer of a sign-in kept for the caller to record with the change (`recordOfferOf`).
   */
  fresh?: boolean;
  /** The caller knows the app has no stored sign-in (the list kept at the request's version says so): it is not asked for. */
  noneStored?: boolean;
}

const offers = new WeakMap<AppListing, Discovery>();

/** Records that the app of a read offers OAuth, when the read found so before the app was stored. */
export async function recordOfferOf(db: Conn, app: string, listing: AppListing): Promise<void> {
  const found = offers.get(listing);
  if (found !== undefined) await recordOffered(db, app, found);
}

/**
 * Reads `app` (the row's check input) with its sign-in: the leader's own header always wins; a
 * connected app is read with its token; any other app answering 401 is told how it signs in.
 */
export async function readSignedIn(db: Conn, row: SignInApp, app: LiveApp, read: Read, options: SignedInReadOptions = {}, now: () => number = Date.now): Promise<AppListing> {
  if (app.headers !== undefined) return read(app);
  const signIn = options.fresh === true || options.noneStored === true ? null : await loadSignIn(db, row.id);
  let current = connected(signIn);
  if (current !== null) {
    const expire = async (failure: SignInFailure, listing: AppListing) => {
      // Where the app now says it signs in is where Reconnect goes (a new sign-in server included, SEP-2352).
      const found = listing.challenge !== undefined && current!.discovery !== null ? withChallenge(current!.discovery, challengeOf(listing.challenge)) : undefined;
      await markExpired(db, row.id, current!.version, failure.message, found);
      return withReason(listing, failure.message);
    };
    const unreachable = (reason: string, listing: AppListing) => withReason(listing, failures.unreachable(reason).message);
    let renewed = false;
    let transient: string | null = null;
    if (current.expiresAt !== null && current.expiresAt - now() < RENEW_MARGIN_MS) {
      const renewal = await renew(db, row, current, options);
      if (renewal.ok) [current, renewed] = [renewal.signIn, true];
      else if ("failure" in renewal) return expire(renewal.failure, { name: app.name, entries: [] });
      else transient = renewal.transient;
    }
    const listing = await read(bearer(app, current.tokens));
    // A token refused for want of scope asks for a new sign-in with more (step-up), not a renewal.
    if (listing.insufficientScope !== undefined) return withReason(listing, await stepUpNeeded(db, current, listing.insufficientScope, "read"));
    if (listing.unavailable?.code !== "auth-required") {
      await stepUpDone(db, current, "read");
      return listing;
    }
    if (transient !== null) return unreachable(transient, listing);
    if (renewed || current.tokens.refresh_token === undefined) {
      return expire(failures.expired(renewed ? "the app refused the renewed token" : "the app no longer accepts its token, and there is no refresh token"), listing);
    }
    // Refused before its time (revoked, or no expiry was said): renewed once, read once more.
    const renewal = await renew(db, row, current, options);
    if (!renewal.ok) return "failure" in renewal ? expire(renewal.failure, listing) : unreachable(renewal.transient, listing);
    current = renewal.signIn;
    const again = await read(bearer(app, current.tokens));
    if (again.unavailable?.code !== "auth-required") return again;
    return expire(failures.expired("the app refused the renewed token"), again);
  }
  const listing = await read(app);
  if (listing.unavailable?.code !== "auth-required") return listing;
  if (signIn?.state === "expired" && signIn.failure !== null) return withReason(listing, signIn.failure);
  const f = oauthFetch(options);
  try {
    const found = await discoverSignIn(row.url, f, challengeOf(listing.challenge ?? ""));
    if (found === null) return listing;
    const told = withReason(listing, needsSignIn(found.authorizationServerMetadata.issuer));
    // An app being connected is not stored yet: its caller records the offer with it (`recordOfferOf`).
    if (options.fresh === true || !(await recordOffered(db, row.id, found))) offers.set(told, found);
    return told;
  } catch (error) {
    return error instanceof SignInFailure ? withReason(listing, error.message) : listing;
  } finally {
    f.close();
  }
}

/** Records that the app offers OAuth, found from the challenge it refused a call with; one it cannot be signed in to is left for the read to say. */
async function offerFrom(db: Conn, row: SignInApp, challenge: string, options: OAuthFetchOptions): Promise<void> {
  const f = oauthFetch(options);
  try {
    const found = await discoverSignIn(row.url, f, challengeOf(challenge));
    if (found !== null) await recordOffered(db, row.id, found);
  } catch (error) {
    if (!(error instanceof SignInFailure)) throw error;
  } finally {
    f.close();
  }
}

/** How a call with a sign-in went, as the caller reads its result. */
export interface CallOutcome {
  /** The app refused the token with 403 `insufficient_scope`, asking for this scope. */
  insufficientScope?: string;
  /** The app refused the credentials for another reason (or asked for some). */
  authRequired: boolean;
  /** The `WWW-Authenticate` it refused with: where it signs in (SPEC §18). */
  challenge?: string;
}

/**
 * Calls `send` with `app` as a Try sends it (SPEC §14, §17): with the leader's own header when it
 * has one; else with its connected sign-in's token, renewed first when it is due (a renewal that
 * fails leaves the read to say so). When the app refused the token for want of scope, the step-up
 * is remembered and `refusal` is the sentence to answer instead of the app's.
 */
export async function callSignedIn<T>(
  db: Conn,
  row: SignInApp,
  app: LiveApp,
  send: (app: LiveApp) => Promise<T>,
  outcome: (result: T) => CallOutcome,
  options: OAuthFetchOptions = {},
  now: () => number = Date.now,
): Promise<{ result: T; refusal: string | null; sent: string[] }> {
  if (app.headers !== undefined) return { result: await send(app), refusal: null, sent: Object.values(app.headers) };
  const signIn = await loadSignIn(db, row.id);
  let current = connected(signIn);
  if (current === null) {
    const result = await send(app);
    const { authRequired, challenge } = outcome(result);
    // A call refused for want of a sign-in says where the app signs in, as a read does (SPEC §18).
    if (authRequired && challenge !== undefined && (signIn === null || signIn.state === "offered")) await offerFrom(db, row, challenge, options);
    return { result, refusal: null, sent: [] };
  }
  if (current.expiresAt !== null && current.expiresAt - now() < RENEW_MARGIN_MS) {
    const renewal = await renew(db, row, current, options);
    if (renewal.ok) current = renewal.signIn;
  }
  const sent = [current.tokens.access_token];
  let result = await send(bearer(app, current.tokens));
  let seen = outcome(result);
  if (seen.insufficientScope !== undefined && current.tokens.refresh_token !== undefined) {
    // Within the one action, once: a server may grant the scope held and asked on a refresh (the SDK's
    // auth() with the scope); one that will not leaves the person to sign in again, below.
    const wanted = scopeUnion(heldScope(current.tokens, current.discovery), seen.insufficientScope);
    const renewal = await renew(db, row, current, options, wanted);
    if (renewal.ok && covers(renewal.signIn.tokens.scope, seen.insufficientScope)) {
      current = renewal.signIn;
      sent.push(current.tokens.access_token);
      result = await send(bearer(app, current.tokens));
      seen = outcome(result);
    }
  }
  if (seen.insufficientScope !== undefined) return { result, refusal: await stepUpNeeded(db, current, seen.insufficientScope, "call"), sent };
  if (!seen.authRequired) await stepUpDone(db, current, "call");
  return { result, refusal: null, sent };
}

/** Whether a granted scope (unsaid: as asked) holds every scope `asked` names. */
function covers(granted: string | undefined, asked: string): boolean {
  if (granted === undefined) return true;
  const held = new Set(granted.split(/\s+/));
  return asked.split(/\s+/).every((s) => held.has(s));
}
