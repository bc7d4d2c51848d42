/**
 * What a trend chart shows, decided apart from drawing it (Recharts draws it): the top of its
 * scale, and which bounds are near enough to be drawn. A chart scaled to a bound far above every
 * value is a flat line at the bottom; so the scale follows the values, and a bound is drawn only
 * when the values come within half of it (or pass it). The caption says how far the rest are.
 */

export interface Bound {
  value: number;
  label: string;
}

interface TrendScale {
  /** The top of the value axis. */
  max: number;
  /** The bounds drawn across the chart. */
  shown: Bound[];
  /** The highest value, as a share of each bound not drawn (0.004 for 907 of 250,000). */
  far: { bound: Bound; share: number }[];
}

const highestOf = (values: readonly (number | null)[]) => Math.max(0, ...values.filter((v): v is number => v !== null && Number.isFinite(v)));

/** The scale of a chart of `values` against `bounds`. */
export function trendScale(values: readonly (number | null)[], bounds: readonly Bound[]): TrendScale {
  const highest = highestOf(values);
  const shown = bounds.filter((b) => highest >= b.value / 2);
  const far = bounds.filter((b) => highest < b.value / 2).map((bound) => ({ bound, share: highest / bound.value }));
  const top = Math.max(highest, ...shown.map((b) => b.value));
  return { max: top === 0 ? 1 : niceCeiling(top * 1.1), shown, far };
}

/** A round number at or above `n`: 1, 2, 2.5 or 5 times a power of ten (907 → 1,000; 3,450 → 5,000). */
export function niceCeiling(n: number): number {
  if (!(n > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= n - 1e-9)!;
  return step * power;
}

/** "0.4% of 250,000 characters": how far the highest value is from a bound not drawn. */
export function shareText(share: number, bound: Bound): string {
  const percent = share * 100;
  const shown = percent >= 10 ? percent.toFixed(0) : percent >= 0.1 ? percent.toFixed(1) : percent > 0 ? "under 0.1" : "0";
  return `at most ${shown}% of ${bound.label}`;
}

/** A check's figures as the trends draw them (lib/schemas/orgs.ts `TrendPoint`). */
interface TrendReading {
  status: "available" | "unavailable";
  chars: number | null;
  connectMs: number | null;
  listMs: number | null;
}

/**
 * Whether a check read anything to draw: it connected (a time), or it listed something. A check
 * that timed out connecting has no time and a size of nothing; it is not a reading of 0.
 */
export function hasReading(point: TrendReading): boolean {
  return point.status === "available" || (point.chars !== null && point.chars > 0) || point.connectMs !== null || point.listMs !== null;
}

/** The figures a chart draws: a check that read nothing has none (null), so no point at 0. */
export function drawnFigures(point: TrendReading): { chars: number | null; connect: number | null; list: number | null } {
  const read = hasReading(point);
  return { chars: read ? point.chars : null, connect: point.connectMs, list: point.listMs };
}
