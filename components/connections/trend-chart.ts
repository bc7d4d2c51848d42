/** A line chart's geometry, computed apart from drawing it: points scaled into a box, with a bound drawn across. */

export interface ChartBox {
  width: number;
  height: number;
}

export interface Series {
  /** One value per point in time; null where the read gave none (the line breaks there). */
  values: readonly (number | null)[];
}

/** The top of the chart: the bound, or above the highest value when something passed it, with a little room. */
export function chartMax(series: readonly Series[], bound: number): number {
  const highest = Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  return Math.max(bound, highest) * 1.1;
}

/** The SVG path of one series: `M x y L x y …`, broken where a value is missing. */
export function seriesPath(values: readonly (number | null)[], max: number, box: ChartBox): string {
  if (values.length === 0 || max <= 0) return "";
  const step = values.length === 1 ? 0 : box.width / (values.length - 1);
  let path = "";
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null) {
      drawing = false;
      return;
    }
    const x = values.length === 1 ? box.width / 2 : i * step;
    const y = box.height - (Math.min(value, max) / max) * box.height;
    path += `${drawing ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)} `;
    drawing = true;
  });
  return path.trim();
}

/** Where the bound's line is drawn, from the top of the box. */
export function boundY(bound: number, max: number, box: ChartBox): number {
  return box.height - (bound / max) * box.height;
}
