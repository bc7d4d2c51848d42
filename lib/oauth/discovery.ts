import "server-only";
import {
  checkResourceAllowed,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  resourceUrlFromServerUrl,
  type OAuthDiscoveryState,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import type { GuardError } from "@/lib/mcp/guarded-fetch";
import { failures, quoted, SignInFailure } from "./failures";
import type { OAuthFetch } from "./fetch";

/**
 * Where and how an app signs in (SPEC §17, §18, MCP authorization 2025-11-25): the protected-resource
 * metadata (from the `WWW-Authenticate` the app refused with, else the well-known paths), then the authorization server's,
 * fetched by the SDK through the guarded fetch and then checked here where the SDK does not:
 * the document's `issuer` is the server it was fetched for, and PKCE S256 is advertised.
 */

/** What the SDK's `auth()` is handed back as its discovery state, plus what it does not keep. */
export const discovery = z.object({
  authorizationServerUrl: z.string(),
  /** Checked: its `issuer` is `authorizationServerUrl`, and it lists S256. */
  authorizationServerMetadata: z.looseObject({ issuer: z.string() }),
  resourceMetadata: z.looseObject({ resource: z.string() }).optional(),
  resourceMetadataUrl: z.string().optional(),
  /** The scope `WWW-Authenticate` asked for, if any (else the SDK takes the metadata's). */
  scope: z.string().optional(),
  /** RFC 9207: the server says it sends `iss` back, so a callback without one is refused. */
  issParameter: z.boolean(),
  /**
   * The app refused the signed-in token for want of scope (403 `insufficient_scope`) on a read or
   * a call: the scope the next sign-in asks for (held ∪ asked), the sign-ins made in a row without
   * it, and whether the dashboard stopped asking (lib/oauth/step-up.ts).
   */
  stepUp: z.object({ scope: z.string(), signIns: z.number().int().min(1), for: z.enum(["read", "call"]), gaveUp: z.boolean() }).optional(),
});
export type Discovery = z.infer<typeof discovery>;

/** The SDK's view of it (its types are stricter than what we keep). */
export const discoveryState = (found: Discovery): OAuthDiscoveryState => found as unknown as OAuthDiscoveryState;

/** Two issuers are the same server: compared as parsed URLs, a single trailing `/` aside (as the SDK binds them). */
export function sameIssuer(a: string, b: string): boolean {
  const norm = (s: string) => {
    try {
      return new URL(s).href.replace(/\/$/, "");
    } catch {
      return s.replace(/\/$/, "");
    }
  };
  return norm(a) === norm(b);
}

const guardReason = (stop: GuardError | null) => (stop === null ? null : stop.reason);

/**
 * What the app answered when it refused a read, a call or `server/discover` (SPEC §18): the
 * `WWW-Authenticate` of its 401 or 403, as `resource_metadata`, `scope` and whether it was a
 * Bearer challenge. Never found by a request of the dashboard's own choosing, which an app that
 * serves `initialize` without a token would let through.
 */
interface Challenge {
  resourceMetadataUrl?: string;
  scope?: string;
  /** A Bearer challenge: with no metadata anywhere, the app's own origin may still be its sign-in server (2025-03-26). */
  bearer: boolean;
}

/** The challenge a `WWW-Authenticate` makes (`""`: a 401 that said nothing, so the well-known paths alone). */
export function challengeOf(header: string): Challenge {
  let said: ReturnType<typeof extractWWWAuthenticateParams> = {};
  try {
    said = extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { "www-authenticate": header } }));
  } catch {
    // a header the WHATWG Headers refuses names nothing usable
  }
  return {
    ...(said.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: said.resourceMetadataUrl.href } : {}),
    ...(said.scope !== undefined ? { scope: said.scope } : {}),
    bearer: /^\s*bearer\b/i.test(header),
  };
}

/**
 * The challenge a stored sign-in was found from, for Connect (which sends the app nothing itself):
 * with none stored, the well-known paths, as for a Bearer challenge (the person asked to sign in).
 */
export function storedChallenge(found: Discovery | null | undefined): Challenge {
  if (found === null || found === undefined) return { bearer: true };
  return { ...(found.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: found.resourceMetadataUrl } : {}), ...(found.scope !== undefined ? { scope: found.scope } : {}), bearer: true };
}

/** A stored discovery with where the app's newest refusal said it signs in (its metadata's address and scope). */
export function withChallenge(found: Discovery, challenge: Challenge): Discovery {
  const next: Discovery = { ...found };
  delete next.resourceMetadataUrl;
  delete next.scope;
  return { ...next, ...(challenge.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}), ...(challenge.scope !== undefined ? { scope: challenge.scope } : {}) };
}

/**
 * How the app at `appUrl` signs in, from what it answered when it refused (`challenge`), then the
 * well-known paths: null when it does not offer OAuth (it wants some other credential, given as a
 * header); a `SignInFailure` thrown when it offers OAuth that cannot be used safely (a refused
 * address, no such server, another issuer, no PKCE).
 */
export async function discoverSignIn(appUrl: string, f: OAuthFetch, challenge: Challenge): Promise<Discovery | null> {
  const named = challenge.resourceMetadataUrl !== undefined ? new URL(challenge.resourceMetadataUrl) : undefined;
  const before = f.firstStop();
  let resourceMetadata: OAuthProtectedResourceMetadata | undefined;
  try {
    resourceMetadata = await discoverOAuthProtectedResourceMetadata(appUrl, named !== undefined ? { resourceMetadataUrl: named } : undefined, f.fetch);
  } catch {
    const stop = f.firstStop() === before ? null : f.firstStop();
    const where = named !== undefined ? `its metadata at ${quoted(named.href, 200)}` : "its metadata";
    if (stop !== null) throw failures.addressRefused(where, guardReason(stop)!);
    if (named !== undefined) throw failures.notFound(`${where} could not be read`);
    resourceMetadata = undefined;
  }
  if (resourceMetadata === undefined && !challenge.bearer) return null;
  if (resourceMetadata !== undefined && !checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(appUrl), configuredResource: resourceMetadata.resource })) {
    throw failures.notFound(`its metadata is for another address, ${quoted(resourceMetadata.resource)}`);
  }
  const server = resourceMetadata?.authorization_servers?.[0];
  if (resourceMetadata !== undefined && server === undefined) throw failures.notFound("its metadata names no sign-in server");
  // Without protected-resource metadata, the 2025-03-26 rule: the app's own origin is its sign-in server.
  const authorizationServerUrl = server ?? new URL("/", appUrl).href;

  const stopBefore = f.firstStop();
  let metadata: Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>;
  try {
    // The issuer is checked below, so that a mismatch is said as one rather than as "no metadata".
    metadata = await discoverAuthorizationServerMetadata(authorizationServerUrl, { fetchFn: f.fetch, skipIssuerValidation: true });
  } catch (error) {
    const stop = f.firstStop() === stopBefore ? null : f.firstStop();
    if (stop !== null) throw failures.addressRefused(`its sign-in server ${quoted(authorizationServerUrl, 200)}`, stop.reason);
    if (error instanceof SignInFailure) throw error;
    throw failures.notFound(`${quoted(authorizationServerUrl, 200)} has no usable metadata`);
  }
  if (metadata === undefined) {
    if (resourceMetadata === undefined) return null; // a bare Bearer challenge and no OAuth metadata: a header it is
    throw failures.notFound(`${quoted(authorizationServerUrl, 200)} has no metadata`);
  }
  if (!sameIssuer(metadata.issuer, authorizationServerUrl)) throw failures.issuerMismatch(authorizationServerUrl, metadata.issuer);
  if (!metadata.code_challenge_methods_supported?.includes("S256")) throw failures.noPkce(metadata.issuer);
  if (!metadata.response_types_supported.includes("code")) throw failures.notFound(`${metadata.issuer} does not offer the sign-in with a code`);
  // The SDK's OpenID schema drops RFC 9207's flag: read it from the document as it came.
  const raw = [...f.seen].reverse().find((seen) => seen.json !== null && seen.json["issuer"] === metadata.issuer)?.json;
  return {
    authorizationServerUrl,
    authorizationServerMetadata: metadata,
    ...(resourceMetadata !== undefined ? { resourceMetadata } : {}),
    ...(named !== undefined ? { resourceMetadataUrl: named.href } : {}),
    ...(challenge.scope !== undefined ? { scope: challenge.scope } : {}),
    issParameter: raw?.["authorization_response_iss_parameter_supported"] === true,
  };
}
