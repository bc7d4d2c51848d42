import { describe, expect, it } from "vitest";
import { entryChars } from "@/lib/engine/listing-size";
import { filledUrl, isSecretParam, querySecrets, redactJson, redactListing, redactSecrets, shownUrl } from "./redact";

describe("redactSecrets", () => {
  it.each([
    ["bad token s3cret-value", ["s3cret-value"], "bad token …"],
    ["s3cret-value and s3cret-value again", ["s3cret-value"], "… and … again"],
    ["Bearer abcdef123456 refused", ["Bearer abcdef123456"], "… refused"],
    ["token abcdef123456 refused", ["Bearer abcdef123456"], "token … refused"],
    // A quote cut inside the secret keeps none of it.
    ["it said: bad token s3cret-va…", ["s3cret-value"], "it said: bad token …"],
    // Too short to look for: a two-letter value would blank ordinary words.
    ["ok then", ["ok"], "ok then"],
    ["nothing here", [], "nothing here"],
  ])("%j without %j is %j", (text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });

  it("takes them out of a listing's reason and its tools, measuring a changed tool again", () => {
    const listing = { name: "Echo", entries: [{ name: "a" }], unavailable: { code: "connect-failed" as const, message: "Echo is unavailable: bad token hunter22" } };
    expect(redactListing(listing, ["hunter22"])).toEqual({ ...listing, unavailable: { code: "connect-failed", message: "Echo is unavailable: bad token …" } });
    const fine = { name: "Echo", entries: [{ name: "a" }], entrySizes: [12] };
    expect(redactListing(fine, ["hunter22"])).toBe(fine);
    const echoing = { name: "Echo", entries: [{ name: "a" }, { name: "b", description: "Sent hunter22" }], entrySizes: [12, 40] };
    expect(redactListing(echoing, ["hunter22"])).toEqual({ name: "Echo", entries: [{ name: "a" }, { name: "b", description: "Sent …" }], entrySizes: [12, entryChars({ name: "b", description: "Sent …" })] });
  });
});

describe("redactJson", () => {
  it("takes secrets out of strings and keys, never out of numbers or JSON's own words", () => {
    const answer = { bytes: 12345, ok: true, text: 'said "12345" and true-ish', nested: [{ "12345": "x" }] };
    expect(redactJson(answer, ["12345"])).toEqual({ bytes: 12345, ok: true, text: 'said "…" and true-ish', nested: [{ "…": "x" }] });
    expect(redactJson(answer, ["true"])).toEqual({ ...answer, text: 'said "12345" and …-ish' });
  });

  it("finds a secret with quotes or backslashes as the JSON text writes it", () => {
    expect(redactJson({ text: 'key a"b\\c!' }, ['a"b\\c'])).toEqual({ text: "key …!" });
    // "\n" then "abcd" in the text is a line break then abcd: a secret "nabcd" is not there.
    expect(redactJson({ text: "line\nabcd" }, ["nabcd"])).toEqual({ text: "line\nabcd" });
  });

  it("answers the value itself when nothing is there", () => {
    const value = { text: "nothing" };
    expect(redactJson(value, ["hunter22"])).toBe(value);
    expect(redactJson(value, [])).toBe(value);
  });
});

describe("a URL's query secrets (SPEC §10)", () => {
  it.each([
    ["token", true],
    ["api_key", true],
    ["access_token", true],
    ["X-Amz-Signature", true],
    ["sig", true],
    ["Password", true],
    ["authKey", true],
    ["code", true],
    ["region", false],
    ["page", false],
  ])("%s is a secret's name: %s", (name, secret) => {
    expect(isSecretParam(name)).toBe(secret);
  });

  it("shows each secret's value as … and the rest of the URL as given", () => {
    expect(shownUrl("https://a.test/mcp?region=eu&api_key=abc123&sig=&Token=x%2Fy#top")).toBe("https://a.test/mcp?region=eu&api_key=…&sig=&Token=…#top");
    expect(shownUrl("https://a.test/mcp")).toBe("https://a.test/mcp");
    expect(querySecrets("https://a.test/mcp?region=eu&api_key=abc123&Token=x%2Fy&code=…")).toEqual(["abc123", "x%2Fy", "x/y"]);
  });

  it("fills a … from the URL as stored, by name and occurrence; null when there is none to take", () => {
    const stored = "https://a.test/mcp?token=first&token=second&key=k1";
    expect(filledUrl("https://a.test/v2?token=…&token=%E2%80%A6&region=eu", stored)).toBe("https://a.test/v2?token=first&token=second&region=eu");
    expect(filledUrl("https://a.test/v2?token=new&key=…", stored)).toBe("https://a.test/v2?token=new&key=k1");
    expect(filledUrl("https://a.test/v2?secret=…", stored)).toBeNull();
    expect(filledUrl("https://a.test/v2?token=…", null)).toBeNull();
    expect(filledUrl("https://a.test/v2?page=…", null)).toBe("https://a.test/v2?page=…");
  });
});
