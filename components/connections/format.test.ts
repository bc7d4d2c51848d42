import { describe, expect, it } from "vitest";
import { listingSizeWords, nextCheckText, nextCheckWhyText } from "./format";

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
