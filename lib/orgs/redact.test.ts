import { describe, expect, it } from "vitest";
import { redactListing, redactSecrets } from "./redact";

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

  it("touches only the reason of a listing", () => {
    const listing = { name: "Echo", entries: [{ name: "a" }], unavailable: { code: "connect-failed" as const, message: "Echo is unavailable: bad token hunter22" } };
    expect(redactListing(listing, ["hunter22"])).toEqual({ ...listing, unavailable: { code: "connect-failed", message: "Echo is unavailable: bad token …" } });
    const fine = { name: "Echo", entries: [] };
    expect(redactListing(fine, ["hunter22"])).toBe(fine);
  });
});
