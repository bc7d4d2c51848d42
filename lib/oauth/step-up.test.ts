import { describe, expect, it } from "vitest";
import { insufficientScopeOf } from "@/lib/mcp/guarded-fetch";
import type { Discovery } from "./discovery";
import { heldScope, MAX_SIGN_INS_FOR_SCOPE, nextSignIn, scopeUnion } from "./step-up";
import type { SignIn } from "./sign-in-store";

// Step-up's pure parts (SPEC §17): the challenge read from a 403, the union asked, the limit.

describe("the scope a 403 asks for", () => {
  it.each([
    ['Bearer error="insufficient_scope", scope="mcp:write"', "mcp:write"],
    ['Bearer scope="files:read  files:write", error="insufficient_scope", resource_metadata="https://a.example/.well-known/x"', "files:read files:write"],
    ["bearer error=insufficient_scope, scope=admin", "admin"],
    ['DPoP error="insufficient_scope", scope="mcp:write"', "mcp:write"],
  ])("%s → %s", (header, scope) => {
    expect(insufficientScopeOf(header)).toBe(scope);
  });

  it.each([
    ["no header", undefined],
    ["another error", 'Bearer error="invalid_token", scope="mcp:write"'],
    ["no scope named", 'Bearer error="insufficient_scope"'],
    ["an error_description only", 'Bearer error_description="insufficient_scope", scope="x"'],
    ["another scheme", 'Basic error="insufficient_scope", scope="x"'],
    ["a scope no server could be asked for", 'Bearer error="insufficient_scope", scope="a\\"b"'],
    ["a header far too long", `Bearer error="insufficient_scope", scope="${"a ".repeat(5000)}"`],
  ])("none for %s", (_, header) => {
    expect(insufficientScopeOf(header)).toBeNull();
  });
});

describe("the scope a new sign-in asks for", () => {
  const found: Discovery = { authorizationServerUrl: "https://auth.example/", authorizationServerMetadata: { issuer: "https://auth.example/" }, issParameter: false, scope: "mcp:basic" };
  const signIn = (stepUp?: Discovery["stepUp"]): SignIn => ({
    app: "a",
    state: "connected",
    issuer: "https://auth.example/",
    discovery: { ...found, ...(stepUp ? { stepUp } : {}) },
    client: null,
    registration: "dynamic",
    tokens: { access_token: "t", token_type: "Bearer", scope: "mcp:basic" },
    expiresAt: null,
    failure: null,
    connectedBy: "u",
    connectedAt: 0,
    version: 1,
  });

  it("is a set, in the order first named", () => {
    expect(scopeUnion("mcp:basic", "mcp:write mcp:basic", undefined, null, " ")).toBe("mcp:basic mcp:write");
  });

  it("holds what was granted, else what was asked", () => {
    expect(heldScope({ access_token: "t", token_type: "Bearer", scope: "a b" }, found)).toBe("a b");
    expect(heldScope({ access_token: "t", token_type: "Bearer" }, found)).toBe("mcp:basic");
  });

  it("is the 401's scope when no step-up waits", () => {
    expect(nextSignIn(found, null)).toBe(found);
    expect(nextSignIn(found, signIn())).toBe(found);
  });

  it("adds a waiting step-up's scope, counting one more sign-in for it", () => {
    const next = nextSignIn(found, signIn({ scope: "mcp:basic mcp:write", signIns: 1, for: "call", gaveUp: false }));
    expect(next.scope).toBe("mcp:basic mcp:write");
    expect(next.stepUp).toEqual({ scope: "mcp:basic mcp:write", signIns: 2, for: "call", gaveUp: false });
  });

  it("is refused once the dashboard gave up", () => {
    expect(() => nextSignIn(found, signIn({ scope: "mcp:admin", signIns: MAX_SIGN_INS_FOR_SCOPE, for: "read", gaveUp: true }))).toThrow(/stopped asking rather than loop/);
  });
});
