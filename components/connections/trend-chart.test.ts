import { describe, expect, it } from "vitest";
import { boundY, chartMax, seriesPath } from "./trend-chart";

const box = { width: 100, height: 50 };

describe("trend chart geometry", () => {
  it("tops the chart at the bound, or above the highest value when one passes it", () => {
    expect(chartMax([{ values: [100, 200] }], 1000)).toBeCloseTo(1100);
    expect(chartMax([{ values: [100, 3000, null] }], 1000)).toBeCloseTo(3300);
    expect(chartMax([{ values: [] }], 8000)).toBeCloseTo(8800);
  });

  it("scales values across and up the box, left to right", () => {
    expect(seriesPath([0, 50, 100], 100, box)).toBe("M0.0 50.0 L50.0 25.0 L100.0 0.0");
  });

  it("breaks the line where a read gave no value, and centres a single point", () => {
    expect(seriesPath([10, null, 10, 10], 20, box)).toBe("M0.0 25.0 M66.7 25.0 L100.0 25.0");
    expect(seriesPath([10], 20, box)).toBe("M50.0 25.0");
    expect(seriesPath([], 20, box)).toBe("");
  });

  it("draws the bound where it falls", () => {
    expect(boundY(250_000, 275_000, box)).toBeCloseTo(50 - (250_000 / 275_000) * 50);
  });
});
