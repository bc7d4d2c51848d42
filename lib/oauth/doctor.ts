import "server-only";
import { randomBytes } from "node:crypto";
import {
  checkResourceAllowed,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  registerClient,
  resourceUrlFromServerUrl,
  startAuthorization,
  type AuthorizationServerMetadata,
  type OAuthClientInformationMixed,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/client";
import { signInChallenge } from "@/lib/mcp/guarded-fetch";
import type { DoctorStep, DoctorStepName } from "@/lib/schemas/sign-in-doctor";
import { callbackUrl, clientMetadataUrl } from "./dashboard";
import { challengeOf, sameIssuer, storedChallenge } from "./discovery";
import { quoted } from "./failures";
import { oauthFetch, type OAuthFetch, type OAuthFetchOptions } from "./fetch";
import { clientMetadataOf } from "./provider";
import type { SignIn } from "./sign-in-store";

/**
 * The sign-in doctor (SPEC §27): walks what Connect does (SPEC §17) with the SDK's own discovery,
 * registration, PKCE and token helpers, through the guarded fetch (SPEC §10), one bounded fetch per
 * step, and says at each step what it found and what it expected. It stops at the first step that
 * fails with the sentence the app's developer needs. Nothing it gets (a client, a code, a token)
 * is stored, shown or sent anywhere but where it came from and the app.
 */

export interface DoctorInput {
  url: string;
  /** The `WWW-Authenticate` the app's newest read was refused with, if it was (SPEC §18). */
  challenge: string | null;
  /** Its stored sign-in, if any: a client given at Connect, and where it was found to sign in. */
  stored: SignIn | null;
  /** The dashboard's origin as people reach it (the redirect URI, the client metadata document). */
  origin: string;
}

/** Hops of a sign-in that comes straight back (oidc-provider's auto-approval takes four). */
const MAX_SIGN_IN_HOPS = 10;

type Fields = Omit<DoctorStep, "step" | "ok" | "message">;
const step = (name: DoctorStepName, ok: boolean | null, message: string, fields: Fields = {}): DoctorStep => ({ step: name, ok, ...fields, message });

/** The URL as said in a sentence (inert, bounded). */
const at = (url: string) => quoted(url, 300);

/** An MCP request without a session (`tools/list`): an app that signs in refuses it with 401 and its challenge. */
function probeInit(token?: string): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  };
}

type Probed = { status: number; header: string | null } | { stopped: string };

async function probe(f: OAuthFetch, url: string, token?: string): Promise<Probed> {
  try {
    const response = await f.fetch(url, probeInit(token));
    await response.body?.cancel().catch(() => {});
    return { status: response.status, header: response.headers.get("www-authenticate") };
  } catch (error) {
    return { stopped: f.firstStop()?.reason ?? (error instanceof Error ? quoted(error.message, 200) : "it could not be reached") };
  }
}

/** The newest answer the fetch saw from `url`, or from any address when none is given. */
const seenAt = (f: OAuthFetch, url?: string) => [...f.seen].reverse().find((seen) => url === undefined || seen.url === url);

/** An OAuth error a server answered (`invalid_grant: …`), for the sentence. */
function serverWords(f: OAuthFetch): string | undefined {
  const answer = [...f.seen].reverse().find((seen) => seen.json !== null && typeof seen.json["error"] === "string");
  if (answer?.json == null) return undefined;
  const description = typeof answer.json["error_description"] === "string" ? `: ${quoted(answer.json["error_description"], 100)}` : "";
  return `${quoted(answer.json["error"], 60)}${description}`;
}

/** Why a step's fetch stopped: the guard's reason (an address refused, a deadline), else the server's answer. */
function whyStopped(f: OAuthFetch, error: unknown): string {
  const stop = f.firstStop();
  if (stop !== null) return stop.reason;
  const last = seenAt(f);
  if (last !== undefined && last.status >= 200 && last.status < 300) return `HTTP ${last.status}, but its answer is not what the protocol asks for there`;
  if (last !== undefined) return `HTTP ${last.status}${serverWords(f) !== undefined ? `, ${serverWords(f)}` : ""}`;
  return error instanceof Error ? quoted(error.message, 200) : "no answer";
}

/** Runs `body` with a guarded fetch of its own (each step is bounded in time by itself), closed after. */
async function withFetch<T>(options: OAuthFetchOptions, body: (f: OAuthFetch) => Promise<T>): Promise<T> {
  const f = oauthFetch(options);
  try {
    return await body(f);
  } finally {
    f.close();
  }
}

/** The audiences a JWT access token names (`aud`), or null for an opaque token. */
function jwtAudience(token: string): string[] | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
    const aud = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)["aud"] : undefined;
    if (typeof aud === "string") return [aud];
    if (Array.isArray(aud) && aud.every((a) => typeof a === "string")) return aud;
    return null;
  } catch {
    return null;
  }
}

/** Steps 1–2 as walked: failed (after an ok first step, or at it), or where the sign-in server is. */
type Refusal =
  | { fail: DoctorStep; ok?: DoctorStep }
  | { ok: DoctorStep; metadata: OAuthProtectedResourceMetadata; metadataUrl: string | undefined; status: number | undefined; scope: string | undefined }
  | { ok: DoctorStep; fallback: DoctorStep; asUrl: string; scope: string | undefined };

type SignInAnswer = { back: URLSearchParams; url: string } | { person: string; status: number } | { refused: string; status: number; words?: string } | { stopped: string };

/**
 * Follows the authorization request as a browser would, keeping each origin's cookies, until it
 * comes back to `redirectUrl` (never fetched: the dashboard's callback would refuse an unknown
 * state anyway) or shows a page a person must answer.
 */
async function followSignIn(f: OAuthFetch, start: URL, redirectUrl: string): Promise<SignInAnswer> {
  const back = new URL(redirectUrl);
  const jars = new Map<string, Map<string, string>>();
  let url = start;
  for (let hop = 0; hop < MAX_SIGN_IN_HOPS; hop++) {
    const jar = jars.get(url.origin) ?? new Map<string, string>();
    jars.set(url.origin, jar);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let response: Response;
    try {
      response = await f.fetch(url.href, { redirect: "manual", headers: cookie === "" ? {} : { cookie } });
    } catch (error) {
      return { stopped: whyStopped(f, error) };
    }
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { refused: url.href, status: response.status, words: `it redirected to ${quoted(location, 200)}, which is not a URL` };
      }
      if (next.origin === back.origin && next.pathname === back.pathname) return { back: next.searchParams, url: url.href };
      url = next;
      continue;
    }
    if (response.status >= 200 && response.status < 300) return { person: url.href, status: response.status };
    const words = serverWords(f);
    return { refused: url.href, status: response.status, ...(words !== undefined ? { words } : {}) };
  }
  return { stopped: `it redirected more than ${MAX_SIGN_IN_HOPS} times without coming back` };
}

/** Walks the sign-in of the app `input` describes; the steps in order, ending at the first that failed. */
export async function diagnoseSignIn(input: DoctorInput, options: OAuthFetchOptions = {}): Promise<DoctorStep[]> {
  const steps: DoctorStep[] = [];
  const done = (last: DoctorStep) => [...steps, last];
  const appUrl = input.url;
  const expectedResource = resourceUrlFromServerUrl(appUrl).href;

  // 1–2. The app's refusal, and its protected resource metadata (RFC 9728).
  let prm: OAuthProtectedResourceMetadata | undefined;
  let asUrl: string;
  let scope: string | undefined;
  {
    const first = await withFetch(options, async (f): Promise<Refusal> => {
      const probed = await probe(f, appUrl);
      if ("stopped" in probed) return { fail: step("www-authenticate", false, `The app at ${at(appUrl)} could not be asked without a token: ${probed.stopped}.`, { url: appUrl }) };
      const refused = probed.status === 401 || probed.status === 403;
      let said: string;
      let from: string;
      if (refused) {
        said = signInChallenge(probed.header ?? "");
        if (probed.header !== null && probed.header.trim() !== "" && said === "") {
          return {
            fail: step("www-authenticate", false, `The app answered HTTP ${probed.status} with a challenge that is not Bearer (${quoted(probed.header.split(/\s/)[0], 40)}): it does not sign in with OAuth, so give its credentials as a header instead.`, {
              url: appUrl,
              status: probed.status,
              found: quoted(probed.header, 200),
              expected: "Bearer resource_metadata=\"…\"",
            }),
          };
        }
        from = `The app answered HTTP ${probed.status} without a token`;
      } else {
        // It let this request through: where it signs in is what it said when it refused a read (SPEC §18).
        said = input.challenge ?? "";
        from = `The app answered HTTP ${probed.status} to tools/list without a token; its newest read was refused${said === "" ? " (its sign-in as stored is used)" : ""}`;
      }
      const challenge = refused || input.challenge !== null ? challengeOf(said) : storedChallenge(input.stored?.discovery);
      const named = challenge.resourceMetadataUrl;
      const status = probed.status;
      // The scope the sign-in asks for: the challenge's, else all the metadata lists (as the SDK's auth()).
      const scopeOf = (m?: OAuthProtectedResourceMetadata) => challenge.scope ?? (m?.scopes_supported !== undefined && m.scopes_supported.length > 0 ? m.scopes_supported.join(" ") : undefined);
      const found = said === "" ? (refused ? "no WWW-Authenticate" : undefined) : said;
      let metadata: OAuthProtectedResourceMetadata | undefined;
      let failure: unknown = null;
      try {
        metadata = await discoverOAuthProtectedResourceMetadata(appUrl, named !== undefined ? { resourceMetadataUrl: named } : undefined, f.fetch);
      } catch (error) {
        failure = error;
      }
      const tried = f.seen.filter((seen) => seen.method === "GET").map((seen) => seen.url);
      const where = tried.at(-1);
      const common = { url: appUrl, status, ...(found !== undefined ? { found } : {}) };
      if (named !== undefined) {
        const ok = step("www-authenticate", true, `${from}, naming its protected resource metadata at ${at(named)}.`, common);
        if (metadata === undefined) {
          const answer = seenAt(f, named);
          const why = f.firstStop() !== null ? f.firstStop()!.reason : answer === undefined ? whyStopped(f, failure) : answer.status === 200 ? "its answer is not protected resource metadata (JSON with `resource`)" : `it answered HTTP ${answer.status}`;
          return {
            ok,
            fail: step("protected-resource-metadata", false, `The app's WWW-Authenticate names its protected resource metadata at ${at(named)}, but ${why}: serve the metadata there, or name the right address in resource_metadata (RFC 9728 §3, RFC 9728 §5.1).`, {
              url: named,
              ...(answer !== undefined ? { status: answer.status } : {}),
              expected: "200 with JSON protected resource metadata",
            }),
          };
        }
        return { ok, metadata, metadataUrl: named, status: seenAt(f, named)?.status, scope: scopeOf(metadata) };
      }
      if (metadata !== undefined) {
        const ok = step("www-authenticate", true, `${from}, naming no resource_metadata; clients then look at the well-known address ${at(where ?? appUrl)}, where the metadata is (RFC 9728 §5.1 makes the parameter optional).`, common);
        return { ok, metadata, metadataUrl: where, status: where !== undefined ? seenAt(f, where)?.status : undefined, scope: scopeOf(metadata) };
      }
      if (f.firstStop() !== null) return { fail: step("www-authenticate", false, `The app's protected resource metadata could not be asked for: ${f.firstStop()!.reason}.`, common) };
      // No metadata anywhere: the 2025-03-26 rule makes the app's origin its sign-in server, if it serves metadata.
      const origin = new URL("/", appUrl).href;
      const fallback = await discoverAuthorizationServerMetadata(origin, { fetchFn: f.fetch, skipIssuerValidation: true }).catch(() => undefined);
      if (fallback !== undefined) {
        return {
          ok: step("www-authenticate", true, `${from}, naming no resource_metadata.`, common),
          fallback: step("protected-resource-metadata", null, `There is no protected resource metadata at ${tried.map(at).join(" or ")}; the dashboard falls back to the app's origin as its sign-in server (the 2025-03-26 revision), but clients of later revisions need the metadata: serve it at ${at(tried[0] ?? origin)} (RFC 9728).`, { ...(tried[0] !== undefined ? { url: tried[0] } : {}), expected: "protected resource metadata" }),
          asUrl: origin,
          scope: scopeOf(),
        };
      }
      return {
        fail: step(
          "www-authenticate",
          false,
          `The app's ${refused ? `${status} ` : ""}refusal names no resource_metadata, and there is no protected resource metadata at the well-known address${tried.length > 1 ? "es" : ""} ${tried.map(at).join(" or ")} either: name it in WWW-Authenticate (Bearer resource_metadata="…") or serve it at ${at(tried[0] ?? appUrl)} (RFC 9728 §3, RFC 9728 §5.1).`,
          { ...common, expected: 'Bearer resource_metadata="…", or metadata at the well-known address' },
        ),
      };
    });
    if ("fail" in first) return [...(first.ok !== undefined ? [first.ok] : []), first.fail];
    steps.push(first.ok);
    scope = first.scope;
    if ("fallback" in first) {
      steps.push(first.fallback);
      asUrl = first.asUrl;
    } else {
      prm = first.metadata;
      const prmUrl = first.metadataUrl;
      const fields = { ...(prmUrl !== undefined ? { url: prmUrl } : {}), ...(first.status !== undefined ? { status: first.status } : {}) };
      if (!checkResourceAllowed({ requestedResource: expectedResource, configuredResource: prm.resource })) {
        return done(step("protected-resource-metadata", false, `The protected resource metadata${prmUrl !== undefined ? ` at ${at(prmUrl)}` : ""} is for the resource ${quoted(prm.resource, 200)}, but the app is at ${at(appUrl)}: its resource must be the app's address (RFC 9728 §3.3).`, { ...fields, found: quoted(prm.resource, 200), expected: expectedResource }));
      }
      const named = prm.authorization_servers?.[0];
      if (named === undefined) {
        return done(step("protected-resource-metadata", false, `The protected resource metadata${prmUrl !== undefined ? ` at ${at(prmUrl)}` : ""} names no authorization server: list it in authorization_servers (RFC 9728 §2).`, { ...fields, found: "no authorization_servers", expected: "authorization_servers: [\"https://…\"]" }));
      }
      asUrl = named;
      steps.push(step("protected-resource-metadata", true, `The protected resource metadata is for ${quoted(prm.resource, 200)} and names the authorization server ${at(named)}.`, { ...fields, found: quoted(prm.resource, 200), expected: expectedResource }));
    }
  }

  // 3. The authorization server's metadata (RFC 8414, OpenID Discovery), its issuer and PKCE.
  const as = await withFetch(options, async (f): Promise<{ fail: DoctorStep } | { metadata: AuthorizationServerMetadata; raw: Record<string, unknown>; ok: DoctorStep }> => {
    let metadata: AuthorizationServerMetadata | undefined;
    try {
      metadata = await discoverAuthorizationServerMetadata(asUrl, { fetchFn: f.fetch, skipIssuerValidation: true });
    } catch (error) {
      const last = seenAt(f);
      return { fail: step("authorization-server-metadata", false, `The authorization server ${at(asUrl)}'s metadata could not be read: ${whyStopped(f, error)}.`, { url: last?.url ?? asUrl, ...(last !== undefined ? { status: last.status } : {}) }) };
    }
    if (metadata === undefined) {
      const tried = f.seen.map((seen) => seen.url);
      return {
        fail: step("authorization-server-metadata", false, `There is no authorization server metadata for ${at(asUrl)} at ${tried.map(at).join(", ") || "its well-known addresses"}: serve it at ${at(tried[0] ?? asUrl)} (RFC 8414 §3, OpenID Connect Discovery).`, {
          url: tried[0] ?? asUrl,
          ...(seenAt(f, tried[0]) !== undefined ? { status: seenAt(f, tried[0])!.status } : {}),
          expected: "authorization server metadata",
        }),
      };
    }
    const answer = [...f.seen].reverse().find((seen) => seen.json !== null && seen.json["issuer"] === metadata.issuer);
    const fields = { ...(answer !== undefined ? { url: answer.url, status: answer.status } : { url: asUrl }) };
    const where = answer?.url ?? asUrl;
    if (!sameIssuer(metadata.issuer, asUrl)) {
      return {
        fail: step("authorization-server-metadata", false, `The authorization server's metadata at ${at(where)} has issuer ${quoted(metadata.issuer, 200)}, but it was fetched from ${at(asUrl)}: they must match (RFC 8414 §3.3).`, { ...fields, found: quoted(metadata.issuer, 200), expected: asUrl }),
      };
    }
    const methods = metadata.code_challenge_methods_supported;
    if (!methods?.includes("S256")) {
      return {
        fail: step("authorization-server-metadata", false, `The authorization server's metadata at ${at(where)} does not list S256 in code_challenge_methods_supported, so no client may use it: support PKCE with S256 and say so (MCP authorization; RFC 7636).`, {
          ...fields,
          found: methods === undefined ? "no code_challenge_methods_supported" : quoted(methods.join(" "), 100),
          expected: "S256",
        }),
      };
    }
    if (!metadata.response_types_supported.includes("code")) {
      return { fail: step("authorization-server-metadata", false, `The authorization server's metadata at ${at(where)} does not offer response_type code: the sign-in is made with a code (OAuth 2.1).`, { ...fields, found: quoted(metadata.response_types_supported.join(" "), 100), expected: "code" }) };
    }
    return { metadata, raw: answer?.json ?? {}, ok: step("authorization-server-metadata", true, `The authorization server's metadata at ${at(where)} has the issuer it was fetched for and supports PKCE (S256).`, { ...fields, found: quoted(metadata.issuer, 200), expected: asUrl }) };
  });
  if ("fail" in as) return done(as.fail);
  steps.push(as.ok);
  const metadata = as.metadata;
  const issuer = metadata.issuer;

  // 4. A client: one given at Connect, the client ID metadata document, or dynamic registration (in Connect's order).
  const redirectUrl = callbackUrl(input.origin);
  const metadataUrl = clientMetadataUrl(input.origin);
  const storedClient = input.stored?.registration === "pre-registered" ? input.stored.client : null;
  const cimd = as.raw["client_id_metadata_document_supported"] === true || metadata.client_id_metadata_document_supported === true;
  const registration = await withFetch(options, async (f): Promise<{ fail: DoctorStep } | { ok: DoctorStep; client: OAuthClientInformationMixed }> => {
    const stamped = storedClient === null ? undefined : (storedClient as { issuer?: unknown }).issuer;
    if (storedClient !== null && (typeof stamped !== "string" || sameIssuer(stamped, asUrl))) {
      return { ok: step("client-registration", true, "The client ID given at Connect is used, as Connect does.", { found: "client ID given at Connect" }), client: storedClient };
    }
    if (cimd && metadataUrl !== undefined) {
      return { ok: step("client-registration", true, `The authorization server accepts client ID metadata documents: the dashboard's client ID is ${at(metadataUrl)}.`, { url: metadataUrl, found: "client_id_metadata_document_supported" }), client: { client_id: metadataUrl } };
    }
    const endpoint = metadata.registration_endpoint;
    if (endpoint === undefined) {
      const noHttps = cimd ? " (it accepts client ID metadata documents, but the dashboard is not served over https, so it has none: set THEOREM_URL to its https address)" : "";
      return {
        fail: step(
          "client-registration",
          false,
          `The authorization server ${quoted(issuer, 200)} has no registration_endpoint and does not say client_id_metadata_document_supported${noHttps}, so a client cannot get a client ID: support client ID metadata documents or dynamic client registration (RFC 7591), or give people a client ID to enter at Connect.`,
          { found: cimd ? "client_id_metadata_document_supported, over http" : "no registration_endpoint, no client_id_metadata_document_supported", expected: "client_id_metadata_document_supported: true, or a registration_endpoint" },
        ),
      };
    }
    try {
      const client = await registerClient(asUrl, { metadata, clientMetadata: clientMetadataOf(redirectUrl, metadataUrl), ...(scope !== undefined ? { scope } : {}), fetchFn: f.fetch });
      const answer = seenAt(f, endpoint);
      return { ok: step("client-registration", true, `The dashboard registered itself at ${at(endpoint)} (dynamic client registration, RFC 7591).`, { url: endpoint, ...(answer !== undefined ? { status: answer.status } : {}), found: "registered" }), client };
    } catch (error) {
      const answer = seenAt(f, endpoint);
      return {
        fail: step("client-registration", false, `The authorization server's registration endpoint ${at(endpoint)} refused to register the dashboard (${whyStopped(f, error)}): it must accept the client's metadata, redirect URI ${at(redirectUrl)} and application_type "web" included (RFC 7591 §3).`, {
          url: endpoint,
          ...(answer !== undefined ? { status: answer.status } : {}),
          expected: "201 with a client_id",
        }),
      };
    }
  });
  if ("fail" in registration) return done(registration.fail);
  steps.push(registration.ok);

  // 5. The authorization request, followed where it comes straight back; `iss` in its answer (RFC 9207, SEP-2468).
  const issAdvertised = as.raw["authorization_response_iss_parameter_supported"] === true;
  const state = randomBytes(24).toString("base64url");
  const resource = prm?.resource;
  const started = await startAuthorization(asUrl, { metadata, clientInformation: registration.client, redirectUrl, ...(scope !== undefined ? { scope } : {}), state, ...(resource !== undefined ? { resource } : {}) });
  const authorizationEndpoint = `${started.authorizationUrl.origin}${started.authorizationUrl.pathname}`;
  const answered = await withFetch({ ...options, answerRedirects: true }, (f) => followSignIn(f, started.authorizationUrl, redirectUrl));
  const expectedIss = issAdvertised ? `${issuer} (authorization_response_iss_parameter_supported)` : `${issuer}, or none (not advertised)`;
  if ("person" in answered) {
    return [
      ...steps,
      step("iss", null, `The authorization server shows a page at ${at(answered.person)} (HTTP ${answered.status}): a person must sign in there, so the doctor cannot see its answer. Use Connect to sign in; ${issAdvertised ? `its answer must carry iss ${quoted(issuer, 200)}` : "its answer is then checked for iss"}.`, { url: answered.person, status: answered.status, expected: expectedIss }),
      step("token-audience", null, "Not checked: the code to redeem comes only after a person signs in.", { expected: resource ?? expectedResource }),
    ];
  }
  if ("stopped" in answered) return done(step("iss", false, `The sign-in at ${at(authorizationEndpoint)} could not be followed: ${answered.stopped}.`, { url: authorizationEndpoint }));
  if ("refused" in answered) {
    return done(step("iss", false, `The authorization endpoint ${at(answered.refused)} refused the sign-in request with HTTP ${answered.status}${answered.words !== undefined ? ` (${answered.words})` : ""}: it must accept the client, the redirect URI, PKCE S256${resource !== undefined ? " and the resource" : ""} it was sent.`, { url: answered.refused, status: answered.status }));
  }
  const query = answered.back;
  const iss = query.get("iss");
  const issFields = { url: authorizationEndpoint, ...(iss !== null ? { found: quoted(iss, 200) } : { found: "no iss" }), expected: expectedIss };
  if (iss !== null && !sameIssuer(iss, issuer)) {
    return done(step("iss", false, `The authorization server's answer to the sign-in carries iss ${quoted(iss, 200)}, but its issuer is ${quoted(issuer, 200)}: they must match, or clients stop the sign-in (RFC 9207 §2.4, SEP-2468).`, issFields));
  }
  if (iss === null && issAdvertised) {
    return done(step("iss", false, `The authorization server's metadata says authorization_response_iss_parameter_supported, but its answer to the sign-in carries no iss: send iss=${quoted(issuer, 200)} with every answer, or clients stop the sign-in (RFC 9207 §2, SEP-2468).`, issFields));
  }
  if (query.get("state") !== state) return done(step("iss", false, "The authorization server's answer does not carry back the state it was sent: it must, unchanged (RFC 6749 §4.1.2).", { url: authorizationEndpoint, expected: "the state sent" }));
  const error = query.get("error");
  if (error !== null) {
    const description = query.get("error_description");
    return done(step("iss", false, `The authorization server answered the sign-in with the error ${quoted(error, 60)}${description !== null ? `: ${quoted(description, 150)}` : ""}.`, { ...issFields, found: quoted(error, 60) }));
  }
  const code = query.get("code");
  if (code === null || code === "") return done(step("iss", false, "The authorization server's answer to the sign-in carries no code.", { ...issFields, expected: "code" }));
  steps.push(step("iss", true, iss !== null ? `The sign-in came straight back with a code and iss ${quoted(iss, 200)}, the server's issuer.` : "The sign-in came straight back with a code; the server does not advertise iss, and sent none.", issFields));

  // 6. The code redeemed (PKCE), and the token's audience: for the app, and taken by it.
  const audience = await withFetch(options, async (f) => {
    const tokenUrl = metadata.token_endpoint;
    let tokens;
    try {
      tokens = await exchangeAuthorization(asUrl, { metadata, clientInformation: registration.client, authorizationCode: code, ...(iss !== null ? { iss } : {}), codeVerifier: started.codeVerifier, redirectUri: redirectUrl, ...(resource !== undefined ? { resource } : {}), fetchFn: f.fetch });
    } catch (caught) {
      const answer = seenAt(f, tokenUrl);
      return step("token-audience", false, `The token endpoint ${at(tokenUrl)} would not redeem the code (${whyStopped(f, caught)}): it must take the code with its PKCE verifier${resource !== undefined ? " and the resource" : ""} (RFC 7636, RFC 8707).`, { url: tokenUrl, ...(answer !== undefined ? { status: answer.status } : {}) });
    }
    const expected = resource ?? expectedResource;
    const aud = jwtAudience(tokens.access_token);
    if (aud !== null && !aud.some((a) => sameIssuer(a, expected))) {
      return step("token-audience", false, `The access token the authorization server issued is for ${quoted(aud.join(" "), 200)}, but the app is ${at(expected)}: the authorization server must issue it for the resource it was asked for (RFC 8707 §2), and the app take only tokens issued for itself.`, {
        url: tokenUrl,
        found: quoted(aud.join(" "), 200),
        expected,
      });
    }
    const used = await probe(f, appUrl, tokens.access_token);
    if ("stopped" in used) return step("token-audience", false, `The app could not be asked with the new token: ${used.stopped}.`, { url: appUrl });
    if (used.status === 401 || used.status === 403) {
      return step("token-audience", false, `The app refused the token its authorization server had just issued for it (HTTP ${used.status}): the server must issue tokens for ${at(expected)}, and the app must take them (RFC 8707, RFC 9068).`, {
        url: appUrl,
        status: used.status,
        ...(aud !== null ? { found: quoted(aud.join(" "), 200) } : { found: "an opaque token, refused" }),
        expected,
      });
    }
    return step("token-audience", true, `The code was redeemed (PKCE S256) and the app took the token${aud !== null ? `, whose audience is ${quoted(aud.join(" "), 200)}` : ""} (HTTP ${used.status}).`, { url: appUrl, status: used.status, ...(aud !== null ? { found: quoted(aud.join(" "), 200) } : {}), expected });
  });
  return done(audience);
}
