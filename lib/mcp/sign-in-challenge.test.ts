import { describe, expect, it } from "vitest";
import { signInChallenge } from "./guarded-fetch";

// What of a refusal's WWW-Authenticate a read keeps (SPEC §18): where the app signs in, nothing else.
describe("the sign-in challenge a read keeps", () => {
  it.each([
    ['Bearer resource_metadata="https://app.test/.well-known/oauth-protected-resource/mcp", scope="mcp:basic"', 'Bearer resource_metadata="https://app.test/.well-known/oauth-protected-resource/mcp", scope="mcp:basic"'],
    ['bearer scope=files:read, resource_metadata=https://app.test/prm', 'Bearer resource_metadata="https://app.test/prm", scope="files:read"'],
    ['Bearer error="insufficient_scope", scope="mcp:write", error_description="token abc not enough"', 'Bearer scope="mcp:write"'],
    ['Bearer realm="app"', "Bearer"],
    ["Bearer", "Bearer"],
    ['Basic realm="app"', ""],
    ["", ""],
    [undefined, ""],
  ])("%j keeps %j", (header, kept) => {
    expect(signInChallenge(header)).toBe(kept);
  });

  it("keeps no part that quotes a credential the request sent", () => {
    const header = 'Bearer resource_metadata="https://app.test/prm?t=s3cr3t-token-1", scope="mcp:basic"';
    expect(signInChallenge(header, ["Bearer s3cr3t-token-1"])).toBe('Bearer scope="mcp:basic"');
    expect(signInChallenge(header, ["short"])).toContain("resource_metadata");
  });
});
