import { describe, expect, it } from "vitest";
import { cacheWords, durationWords, protocolWords } from "./protocol-words";

describe("how a revision and its cache hint are said", () => {
  it.each([
    [45_000, "45 s"],
    [600_000, "10 min"],
    [5_400_000, "1.5 h"],
    [86_400_000, "1 day"],
  ])("%d ms is %s", (ms, words) => expect(durationWords(ms)).toBe(words));

  it.each([
    [{ ttlMs: 600_000, scope: "public" as const }, "list valid 10 min, the same for everyone"],
    [{ ttlMs: 0, scope: "private" as const }, "list not to be kept, private: the app may list other tools for other credentials"],
  ])("%j", (cache, words) => expect(cacheWords(cache)).toBe(words));

  it("puts the revision first, and says nothing for an inline listing", () => {
    const listing = { chars: 0, limit: 1, entries: 0, stopped: false, largest: [], tokens: 0 };
    expect(protocolWords({ protocol: "2026-07-28", listing: { ...listing, cache: { ttlMs: 600_000, scope: "public" } } })).toBe("2026-07-28 · list valid 10 min, the same for everyone");
    expect(protocolWords({ protocol: "2025-11-25", listing: { ...listing, cache: null } })).toBe("2025-11-25");
    expect(protocolWords({ protocol: null, listing: { ...listing, cache: null } })).toBeNull();
  });
});
