import { describe, expect, it } from "vitest";
import { appHeaders, checkAppInput, headerName, headerValue } from "./check";
import { appCreate, appHeaderInput } from "./orgs";

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("the header rules, one pair for the check API and the stored apps", () => {
  it.each(["Host", "content-length", "Transfer-Encoding", "CONNECTION", "Upgrade", "Keep-Alive", "TE", "te", "Trailer", "Expect", "Proxy-Authorization", "proxy-connection"])(
    "refuses %s: the connection sets it itself",
    (name) => {
      const sentence = `\`${name}\` is set by the connection itself and cannot be sent.`;
      expect(messages(headerName.safeParse(name))).toEqual([sentence]);
      expect(messages(appHeaders.safeParse({ [name]: "x" })).join(" ")).toContain(sentence);
      expect(messages(appHeaderInput.safeParse({ name, value: "x" }))).toEqual([sentence]);
    },
  );

  it.each(["Authorization", "X-Api-Key", "x-tenant_id", "Accept", "Tea", "Hosts", "Proxyish", "!#$%&'*+-.^_`|~"])("takes the token %s", (name) => {
    expect(headerName.safeParse(name).success).toBe(true);
    expect(appHeaderInput.safeParse({ name, value: "v" }).success).toBe(true);
  });

  it.each(["", "X Api", "X:Key", "Ä-Key", "a\nb", "(x)"])("refuses %j as a name that is not an RFC 7230 token", (name) => {
    expect(headerName.safeParse(name).success).toBe(false);
    expect(appHeaderInput.safeParse({ name, value: "v" }).success).toBe(false);
  });

  it.each([
    ["X-Key", "x-key"],
    ["authorization", "Authorization"],
    ["X-TENANT", "x-Tenant"],
  ])("refuses %s beside %s: one header, named as the pair", (first, second) => {
    const result = appHeaders.safeParse({ [first]: "first", [second]: "second" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[[second], `\`${first}\` and \`${second}\` are the same header (header names ignore case): give it once.`]]);
    expect(checkAppInput.safeParse({ name: "A", url: "https://a.test/mcp", headers: { [first]: "1", [second]: "2" } }).success).toBe(false);
    expect(appHeaders.safeParse({ [first]: "first", "X-Other": "other" }).success).toBe(true);
  });

  it.each(["Bearer s3cret", "a\tb", " spaced ", "!~", ""])("takes the value %j (visible ASCII, spaces and tabs)", (value) => {
    expect(headerValue.safeParse(value).success).toBe(true);
  });

  it.each(["💩", "Bearer x\r\nX-Evil: 1", "line\nbreak", "nul\0", "del\x7f", "café", "\u00a0"])("refuses the value %j", (value) => {
    const sentence = "A header value may hold only visible ASCII characters, spaces and tabs.";
    expect(messages(headerValue.safeParse(value))).toEqual([sentence]);
    expect(messages(appHeaderInput.safeParse({ name: "Authorization", value }))).toEqual([sentence]);
    expect(checkAppInput.safeParse({ name: "A", url: "https://a.test/mcp", headers: { Authorization: value } }).success).toBe(false);
  });

  it("holds a value to 8,192 characters, and a stored one to at least one", () => {
    expect(headerValue.safeParse("x".repeat(8192)).success).toBe(true);
    expect(messages(headerValue.safeParse("x".repeat(8193)))).toEqual(["A header value is at most 8,192 characters."]);
    expect(messages(appHeaderInput.safeParse({ name: "Authorization", value: "" }))).toEqual(["Give the header a value."]);
    expect(messages(appHeaderInput.safeParse({ name: "  ", value: "x" }))).toEqual(["Give the header a name."]);
  });

  it("trims a stored header's name before the rules apply", () => {
    expect(appHeaderInput.parse({ name: " Authorization ", value: "Bearer x" })).toEqual({ name: "Authorization", value: "Bearer x" });
    expect(appCreate.safeParse({ name: "A", url: "https://a.test/mcp", header: { name: " Host ", value: "x" } }).success).toBe(false);
  });
});
