import { describe, expect, it } from "vitest";
import { drawnFigures, hasReading, niceCeiling, shareText, trendScale } from "./trend-chart";

const size = { value: 250_000, label: "250,000 characters" };
const connect = { value: 3000, label: "3 s to connect" };
const list = { value: 8000, label: "8 s to list" };

describe("a trend chart's scale", () => {
  it("follows the values when every bound is far above them, and says how far", () => {
    const scale = trendScale([900, 907, null, 880], [size]);
    expect(scale.max).toBe(1000);
    expect(scale.shown).toEqual([]);
    expect(scale.far).toEqual([{ bound: size, share: 907 / 250_000 }]);
    expect(shareText(scale.far[0]!.share, size)).toBe("at most 0.4% of 250,000 characters");
  });

  it("draws a bound the values come within half of, or pass", () => {
    expect(trendScale([1400, 1600], [connect, list])).toMatchObject({ max: 5000, shown: [connect] });
    expect(trendScale([2000, 9000], [connect, list]).shown).toEqual([connect, list]);
    expect(trendScale([2000, 9000], [connect, list]).max).toBe(10_000);
    expect(trendScale([260_000], [size])).toMatchObject({ shown: [size], max: 500_000 });
  });

  it("has a scale with no values at all", () => {
    expect(trendScale([null, null], [size])).toMatchObject({ max: 1, shown: [] });
    expect(shareText(0, size)).toBe("at most 0% of 250,000 characters");
  });

  it.each([
    [907, 1000],
    [1000, 1000],
    [1001, 2000],
    [2100, 2500],
    [3450, 5000],
    [0.3, 0.5],
    [0, 1],
  ])("rounds %d up to %d", (n, top) => {
    expect(niceCeiling(n)).toBeCloseTo(top);
  });
});

describe("what a check read, for the trends", () => {
  it.each([
    ["timed out connecting: nothing read", { status: "unavailable", chars: 0, connectMs: null, listMs: null }, false],
    ["no listing stored at all", { status: "unavailable", chars: null, connectMs: null, listMs: null }, false],
    ["connected, then timed out listing: its connect time is a reading", { status: "unavailable", chars: 0, connectMs: 120, listMs: null }, true],
    ["too large: its size is a reading", { status: "unavailable", chars: 260_000, connectMs: null, listMs: null }, true],
    ["available with no tools", { status: "available", chars: 0, connectMs: 5, listMs: 3 }, true],
  ] as const)("%s", (_, point, read) => {
    expect(hasReading(point)).toBe(read);
  });

  it("draws no size of 0 for a check that read nothing", () => {
    expect(drawnFigures({ status: "unavailable", chars: 0, connectMs: null, listMs: null })).toEqual({ chars: null, connect: null, list: null });
    expect(drawnFigures({ status: "available", chars: 0, connectMs: 5, listMs: 3 })).toEqual({ chars: 0, connect: 5, list: 3 });
  });
});
