import "server-only";
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/client";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/client";
import { ZodError } from "zod";
import { ConflictError, DomainError } from "@/lib/errors";
import type { Conn } from "@/lib/db/client";
import { GuardError } from "@/lib/mcp/guarded-fetch";
import { callbackUrl, clientMetadataUrl } from "./dashboard";
import { challengeOf, discoverSignIn, sameIssuer, storedChallenge } from "./discovery";
import { failures, quoted, SignInFailure } from "./failures";
import { oauthFetch, type OAuthFetch, type OAuthFetchOptions } from "./fetch";
import { AppOAuthProvider } from "./provider";
import { auth } from "./sdk-auth";
import { nextSignIn } from "./step-up";
import { FLOW_TTL_MS, loadSignIn, saveConnected, saveFlow, takeFlow, type Flow, type Registration, type SignInApp } from "./sign-in-store";

/**
 * Connect (SPEC §17): the start of a sign-in, which answers where to send the browser, and its
 * callback, which checks `state` and `iss` before the code is redeemed. Both run the SDK's
 * `auth()` with our provider and the guarded fetch; what a step learns is stored only when it ends.
 */

interface StartInput {
  /** A client the app's maker registered for the dashboard (first in the spec's order). */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

/** The last JSON error an authorization server answered (`invalid_grant: …`), for the sentence. */
function serverWords(f: OAuthFetch): string | undefined {
  const answer = [...f.seen].reverse().find((seen) => seen.json !== null && typeof seen.json["error"] === "string");
  if (answer?.json == null) return undefined;
  const description = typeof answer.json["error_description"] === "string" ? `: ${quoted(answer.json["error_description"], 100)}` : "";
  return `${quoted(answer.json["error"], 60)}${description}`;
}

/** The last answer's status and type, for a token endpoint that sent something other than a token. */
function lastAnswer(f: OAuthFetch): string {
  const answer = f.seen.at(-1);
  if (answer === undefined) return "no answer";
  return `HTTP ${answer.status}, ${answer.contentType === "" ? "no content type" : quoted(answer.contentType.split(";")[0], 60)}`;
}

/** Any error of a step, as the sentence the leader reads (never the SDK's raw text, which can quote a body). */
function describeFailure(error: unknown, step: "start" | "finish", issuer: string, f: OAuthFetch): SignInFailure {
  if (error instanceof SignInFailure) return error;
  const stop = f.firstStop();
  if (error instanceof GuardError || stop !== null) {
    const reason = (error instanceof GuardError ? error : stop)!.reason;
    return error instanceof GuardError && error.code === "address-refused" ? failures.addressRefused(`a server (${issuer})`, reason) : failures.notFound(`${issuer}: ${reason}`);
  }
  // The SDK's `server_error` stands for an answer that is no OAuth error at all.
  if ((error instanceof OAuthError && error.code === OAuthErrorCode.ServerError) || error instanceof SyntaxError || error instanceof ZodError) {
    // Not an OAuth answer at all: an HTML page, or JSON without a token.
    return step === "start" ? failures.registrationRefused(issuer, lastAnswer(f)) : failures.badAnswer(issuer, lastAnswer(f));
  }
  if (error instanceof OAuthError) {
    const words = serverWords(f) ?? error.code;
    return step === "start" ? failures.registrationRefused(issuer, words) : failures.signInRefused(issuer, words);
  }
  const message = error instanceof Error ? error.message : "";
  if (/dynamic client registration/i.test(message)) return failures.registrationRefused(issuer, "it lets no client register itself");
  if (/code challenge method|response type/i.test(message)) return failures.noPkce(issuer);
  if (/Protected resource .* does not match/i.test(message)) return failures.notFound("its metadata is for another address");
  return step === "start" ? failures.registrationRefused(issuer, serverWords(f)) : failures.signInRefused(issuer, serverWords(f));
}

/**
 * Starts a sign-in to the app `row` for `by` (an account id): discovery, the client (the one given,
 * the metadata document, or dynamic registration, in that order), PKCE and `state`, by the SDK.
 * Answers the authorization URL; the flow is stored, to be finished within 10 minutes. A failure
 * is thrown as a `SignInFailure`, whose sentence the caller keeps as the app's reason.
 */
export async function startSignIn(db: Conn, row: SignInApp, by: string, origin: string, input: StartInput = {}, options: OAuthFetchOptions = {}): Promise<{ authorizationUrl: string }> {
  if (row.headerName !== null) {
    throw new ConflictError(`This app is read with the header ${row.headerName} you gave: remove it (Edit) to sign in with OAuth instead.`);
  }
  const stored = await loadSignIn(db, row.id);
  const gaveUp = stored?.state === "connected" ? stored.discovery?.stepUp : undefined;
  // Never a loop of sign-ins for a scope the server does not grant (the app's reason already says so).
  if (gaveUp?.gaveUp === true) throw new ConflictError(failures.scopeNotGranted(gaveUp.scope, gaveUp.signIns).message);
  const f = oauthFetch(options);
  let issuer = new URL(row.url).origin;
  try {
    // Where the app said it signs in when its newest read was refused, else when a read or call was
    // (kept with its sign-in), else the well-known paths: never a request of the dashboard's choosing.
    const challenge = row.challenge !== undefined && row.challenge !== null ? challengeOf(row.challenge) : storedChallenge(stored?.discovery);
    const discovered = await discoverSignIn(row.url, f, challenge);
    if (discovered === null) throw failures.notFound("it does not answer with OAuth metadata");
    // A step-up asks for the scope held and the scope the app asked for, together.
    const found = nextSignIn(discovered, stored);
    issuer = found.authorizationServerMetadata.issuer;
    const redirectUrl = callbackUrl(origin);
    const metadataUrl = clientMetadataUrl(origin);
    // Stamped with the server it is for, as the SDK stamps what it stores: never shown to another.
    const given: OAuthClientInformationMixed | null =
      input.clientId !== undefined && input.clientId !== ""
        ? { client_id: input.clientId, ...(input.clientSecret ? { client_secret: input.clientSecret } : {}), issuer: found.authorizationServerUrl }
        : null;
    const provider = new AppOAuthProvider({ step: "start", discovery: found, redirectUrl, ...(metadataUrl !== undefined ? { clientMetadataUrl: metadataUrl } : {}), client: given });
    const result = await auth(provider, {
      serverUrl: row.url,
      fetchFn: f.fetch,
      ...(found.scope !== undefined ? { scope: found.scope } : {}),
      ...(found.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: new URL(found.resourceMetadataUrl) } : {}),
    });
    if (result !== "REDIRECT" || provider.authorizationUrl === undefined || provider.verifier === undefined || provider.client === undefined) {
      throw failures.signInRefused(issuer, "it did not start a sign-in");
    }
    const registration: Registration = given !== null ? "pre-registered" : provider.client.client_id === metadataUrl ? "metadata-document" : "dynamic";
    const flow: Flow = {
      app: row.id,
      org: row.org,
      startedBy: by,
      issuer,
      discovery: found,
      client: provider.client,
      registration,
      verifier: provider.verifier,
      redirectUrl,
      expiresAt: Date.now() + FLOW_TTL_MS,
    };
    await saveFlow(db, provider.stateValue, flow);
    return { authorizationUrl: provider.authorizationUrl.href };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // The caller stores it as the app's newest read: its reason is what the app's page says (SPEC §17).
    throw describeFailure(error, "start", issuer, f);
  } finally {
    f.close();
  }
}

/** What the callback did: which app it was for (to go back to its page), and whether it signed in. */
export type Finished = { flow: Flow; ok: true } | { flow: Flow; ok: false; failure: SignInFailure };

/**
 * Takes the flow `state` names (once; an unknown, reused or expired state is refused before
 * anything else), and hands it to `allowed`, which throws unless the caller may finish it.
 */
export async function takeCallback(db: Conn, query: URLSearchParams): Promise<Flow> {
  const state = query.get("state");
  const flow = state === null || state === "" || state.length > 512 ? null : await takeFlow(db, state);
  if (flow === null) throw failures.flowUnknown();
  return flow;
}

/**
 * Finishes a sign-in whose flow was taken: RFC 9207's `iss` is checked first (a mismatch ignores
 * the error fields, SEP-2468), then the server's refusal, and only then is the code redeemed by
 * the SDK (`auth()` with the code, as the transport's `finishAuth` does). The tokens are stored
 * with the flow's client, together; a failure is answered, for the caller to keep as the app's reason.
 */
export async function finishSignIn(db: Conn, flow: Flow, row: SignInApp, by: string, query: URLSearchParams, options: OAuthFetchOptions & { stored?: (tx: Conn) => Promise<void> } = {}): Promise<Finished> {
  const expected = flow.discovery.authorizationServerMetadata.issuer;
  const iss = query.get("iss");
  const fail = (failure: SignInFailure): Finished => ({ flow, ok: false, failure });
  if (iss !== null && !sameIssuer(iss, expected)) return fail(failures.issuerMismatch(expected, iss));
  if (iss === null && flow.discovery.issParameter) return fail(failures.issuerMismatch(expected, "no issuer at all"));
  const error = query.get("error");
  if (error !== null) {
    const description = query.get("error_description");
    return fail(failures.signInRefused(expected, `${quoted(error, 60)}${description ? `: ${quoted(description, 100)}` : ""}`));
  }
  const code = query.get("code");
  if (code === null || code === "") return fail(failures.signInRefused(expected, "it sent back no code"));
  // A header given meanwhile is what the app is read with: the sign-in is not stored over it.
  if (row.headerName !== null) return fail(failures.signInRefused(expected, "the app was given a header meanwhile"));

  const f = oauthFetch(options);
  try {
    const provider = new AppOAuthProvider({ step: "finish", discovery: flow.discovery, redirectUrl: flow.redirectUrl, client: flow.client, verifier: flow.verifier });
    // `iss` was checked above; the SDK checks it again against the metadata (RFC 9207).
    const result = await auth(provider, { serverUrl: row.url, authorizationCode: code, ...(iss !== null ? { iss } : {}), fetchFn: f.fetch }, row.id);
    if (result !== "AUTHORIZED" || provider.tokensSaved === undefined) return fail(failures.badAnswer(expected, lastAnswer(f)));
    if (!(await saveConnected(db, flow, row.url, provider.client ?? flow.client, provider.tokensSaved, by, Date.now(), options.stored))) {
      return fail(failures.signInRefused(expected, "the app was given another address or a header meanwhile"));
    }
    return { flow, ok: true };
  } catch (caught) {
    return fail(describeFailure(caught, "finish", expected, f));
  } finally {
    f.close();
  }
}
