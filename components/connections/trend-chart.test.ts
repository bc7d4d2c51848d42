import { describe, expect, it } from "vitest";
import { niceCeiling, shareText, trendScale } from "./trend-chart";

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
