import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { sendLogsTo } from "@/lib/log";

// What the SDK's auth() writes to console.warn reaches the JSON log instead (SPEC §16), without the cause it quotes.
const console_ = vi.fn();
console.warn = console_;
const { auth, sdkWarning } = await import("./sdk-auth");

const ISSUER = "https://auth.example";
let lines: string[] = [];
const restore = sendLogsTo({ write: (line: string) => lines.push(line) }, "warn");
afterEach(() => {
  lines = [];
  console_.mockClear();
});
afterAll(restore);

/** A sign-in whose refresh cannot reach its server: the SDK warns, then asks for a new authorization. */
function provider(): OAuthClientProvider & { redirected?: URL } {
  const p: OAuthClientProvider & { redirected?: URL } = {
    redirectUrl: "http://localhost/api/oauth/callback",
    clientMetadata: { redirect_uris: ["http://localhost/api/oauth/callback"] },
    clientInformation: () => ({ client_id: "dashboard", issuer: ISSUER }),
    saveClientInformation: () => {},
    tokens: () => ({ access_token: "at-secret", refresh_token: "rt-secret", token_type: "Bearer", issuer: ISSUER }),
    saveTokens: () => {},
    redirectToAuthorization: (url) => void (p.redirected = url),
    saveCodeVerifier: () => {},
    codeVerifier: () => "verifier",
    discoveryState: () => ({
      authorizationServerUrl: ISSUER,
      authorizationServerMetadata: {
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/authorize`,
        token_endpoint: `${ISSUER}/token`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
      },
      resourceMetadata: { resource: "https://app.example/mcp", authorization_servers: [ISSUER] },
    }),
    saveDiscoveryState: () => {},
  };
  return p;
}

describe("auth() of the SDK, as the dashboard calls it", () => {
  it("logs the SDK's warning as a JSON line with the app, never its cause, and writes nothing to the console", async () => {
    const p = provider();
    const unreachable = () => Promise.reject(new Error("refresh body said rt-secret"));
    expect(await auth(p, { serverUrl: "https://app.example/mcp", fetchFn: unreachable }, "app-1")).toBe("REDIRECT");
    expect(p.redirected?.origin).toBe(ISSUER);
    expect(console_).not.toHaveBeenCalled();
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([expect.objectContaining({ level: "warn", app: "app-1", sdk: "@modelcontextprotocol/client", msg: "Could not refresh OAuth tokens; falling back to a new authorization request." })]);
    expect(lines.join("")).not.toContain("rt-secret");
  });

  it("leaves warnings outside auth() to the console", () => {
    console.warn("something else");
    expect(console_).toHaveBeenCalledWith("something else");
    expect(lines).toEqual([]);
  });

  it.each([
    ["[mcp-sdk] OAuth \"invalid_grant\" — invalidating the stored tokens and retrying authorization. Cause: \"token abc\"", "OAuth \"invalid_grant\" — invalidating the stored tokens and retrying authorization."],
    ["[mcp-sdk] SEP-2352: stored OAuth credential has no 'issuer' stamp.", "SEP-2352: stored OAuth credential has no 'issuer' stamp."],
  ])("words %s as %s", (warning, words) => {
    expect(sdkWarning([warning])).toBe(words);
  });
});
