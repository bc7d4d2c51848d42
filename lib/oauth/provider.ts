import "server-only";
import { randomBytes } from "node:crypto";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens } from "@modelcontextprotocol/client";
import { discoveryState, type Discovery } from "./discovery";
import { failures } from "./failures";

/**
 * The SDK's `OAuthClientProvider` for one app and one step of its sign-in (SPEC §17). The SDK's
 * `auth()` drives it; it holds what that step needs in memory, and the caller stores what it
 * gathered (lib/oauth/sign-in-store.ts) once the step is over. Steps:
 * - `start`: no tokens; the client is the leader's, or registered by the SDK; the authorization
 *   URL, the state and the verifier are kept for the flow row.
 * - `finish`: the flow's client and verifier; the tokens the code is redeemed for are kept.
 * - `renew`: the stored client and tokens; the SDK refreshes; asking for a new authorization
 *   (it could not refresh) is refused, as no one is there to sign in.
 */

type ProviderStep = "start" | "finish" | "renew";

/** The client's metadata as every registration sends it (and the metadata document serves it). */
export function clientMetadataOf(redirectUrl: string, clientMetadataUrl?: string): OAuthClientMetadata {
  return {
    ...(clientMetadataUrl !== undefined ? { client_id: clientMetadataUrl } : {}),
    client_name: "Theorem Connections",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    // SEP-837: registration names the kind of application; the dashboard is a web server.
    application_type: "web",
  };
}

interface ProviderInput {
  step: ProviderStep;
  discovery: Discovery;
  redirectUrl: string;
  /** The client metadata document's URL, only when the dashboard serves it over https. */
  clientMetadataUrl?: string;
  client?: OAuthClientInformationMixed | null;
  tokens?: OAuthTokens | null;
  verifier?: string;
  /** `renew` only: the scope the refresh asks for (a step-up the server may grant without the person). */
  refreshScope?: string;
}

export class AppOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  tokensSaved: OAuthTokens | undefined;
  /** Set by `start`: where the browser goes, with the state it carries. */
  authorizationUrl: URL | undefined;
  verifier: string | undefined;
  readonly stateValue = randomBytes(32).toString("base64url");
  readonly clientMetadataUrl: string | undefined;

  constructor(private readonly input: ProviderInput) {
    this.client = input.client ?? undefined;
    this.verifier = input.verifier;
    this.clientMetadataUrl = input.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.input.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataOf(this.input.redirectUrl, this.input.clientMetadataUrl);
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    // A new sign-in never refreshes someone's old tokens: only `renew` has any.
    return this.input.step === "renew" ? (this.tokensSaved ?? this.input.tokens ?? undefined) : undefined;
  }

  scopeForRefresh(): string | undefined {
    return this.input.step === "renew" ? this.input.refreshScope : undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.tokensSaved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    if (this.input.step !== "start") throw failures.expired(this.input.tokens?.refresh_token ? "the sign-in server would not renew it" : "it had no refresh token");
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("No PKCE verifier is known for this sign-in.");
    return this.verifier;
  }

  discoveryState(): OAuthDiscoveryState {
    return discoveryState(this.input.discovery);
  }

  saveDiscoveryState(): void {
    // Discovery was done, and checked, before the SDK was called: what it re-saves is the same.
  }

  /**
   * The SDK calls this when the server refused the client or grant, then tries once more. A
   * renewal stops there (registering again, or a new sign-in, needs the person); a flow keeps
   * what it has, so the SDK's second try fails with the server's own error.
   */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (this.input.step === "renew") throw failures.expired(scope === "tokens" ? "the sign-in server refused the refresh token" : "the sign-in server no longer knows the dashboard's client");
  }
}
