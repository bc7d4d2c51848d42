import { describe, expect, it } from "vitest";
import { parseAllowList } from "@/lib/mcp/address";
import { readLiveApp } from "@/lib/mcp/read-app";
import { freePort } from "@/test/ports";
import { listingSizeWords, nextCheckText, nextCheckWhyText, noTimingsWords } from "./format";

describe("the next scheduled check, in words", () => {
  const now = Date.parse("2026-12-03T10:00:00Z");
  it.each([
    [null, "not scheduled"],
    ["not a time", "not scheduled"],
    ["2026-12-03T09:00:00Z", "due now"],
    ["2026-12-03T10:00:20Z", "due now"],
    ["2026-12-03T10:00:45Z", "in 1 min"],
    ["2026-12-03T10:41:00Z", "in 41 min"],
    ["2026-12-03T11:00:00Z", "in 1 h"],
    ["2026-12-03T12:05:00Z", "in 2 h 5 min"],
  ])("%s → %s", (iso, text) => {
    expect(nextCheckText(iso, now)).toBe(text);
  });
});

describe("why the next check is then (SPEC §18)", () => {
  it.each([
    ["app-asked", 0, ", as the app asked (its list stays valid that long)"],
    ["back-off", 1, ", later than usual: its last read failed"],
    ["back-off", 3, ", later than usual: its last 3 reads failed"],
    ["interval", 0, ""],
    [null, 0, ""],
  ] as const)("%s after %d failures", (why, failed, text) => {
    expect(nextCheckWhyText(why, failed)).toBe(text);
  });
});

describe("a listing's size in words (SPEC §7)", () => {
  it.each([
    [{ chars: 12_400, limit: 250_000, stopped: false }, "12,400 of 250,000 characters"],
    [{ chars: 296_000, limit: 250_000, stopped: false }, "296,000 of 250,000 characters · over the limit"],
    // where reading stopped is no size: never "more than 250,452 of 250,000"
    [{ chars: 250_452, limit: 250_000, stopped: true }, "reading stopped at 250,452 characters, past the limit of 250,000 · over the limit"],
  ])("%j", (listing, text) => {
    expect(listingSizeWords(listing)).toBe(text);
  });
});

describe("an app's timings when it has none, in words (SPEC §7)", () => {
  it("says a connection refused was refused, not that it did not finish connecting", { timeout: 10_000 }, async () => {
    // A port nothing listens on: one free a moment ago, its server closed.
    const port = await freePort();
    const listing = await readLiveApp({ name: "Planner", url: `http://127.0.0.1:${port}/mcp` }, { allow: parseAllowList("127.0.0.1") });
    expect(listing.timings).toBeNull();
    expect(noTimingsWords("Planner", listing.unavailable ?? null)).toBe("none: the connection was refused (nothing listens at its address)");
  });

  it.each([
    [{ code: "connect-timeout", message: "Slow is unavailable: it did not finish connecting (MCP initialize) within 3 s." }, "none: it did not finish connecting"],
    [{ code: "connect-failed", message: "Slow is unavailable: 127.0.0.1:9 closed the connection (ECONNRESET)." }, "none: connecting to it failed"],
    // An app's own text that says "refused" is not the reader's reason.
    [{ code: "connect-failed", message: "Slow is unavailable: it answered initialize with an error: nothing answers at x:1 (connection refused). (code -1)." }, "none: connecting to it failed"],
    [{ code: "address-refused", message: "Slow is unavailable: 10.0.0.1 is a private address." }, "none: its address is refused, so it was not contacted"],
    [{ code: "auth-required", message: "Slow is unavailable: it asks for sign-in." }, "none: it asks for sign-in before it can be read"],
    [{ code: "invalid-listing", message: "Slow is unavailable: its answer to initialize is not valid JSON." }, "none: it could not be read"],
    [null, "not measured"],
  ] as const)("words %j as %j", (unavailable, words) => {
    expect(noTimingsWords("Slow", unavailable)).toBe(words);
  });
});
