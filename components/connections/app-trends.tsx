"use client";

import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { formatSeconds, formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { formatCount } from "@/lib/engine/listing-size";
import { trendsQuery } from "@/lib/queries/orgs";
import { CONNECT_TIMEOUT_MS, LISTING_CHAR_LIMIT, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import type { TrendPoint } from "@/lib/schemas/orgs";
import { boundY, chartMax, seriesPath, type ChartBox } from "./trend-chart";

const BOX: ChartBox = { width: 320, height: 80 };

/**
 * The app's size and connect and list times over its checks, drawn against 250,000 characters,
 * 3 s and 8 s, so that a leader sees it drift toward a bound before it crosses one. The charts
 * are pictures; the same figures are in the table beside them, for keyboards and screen readers.
 */
export function AppTrends({ org, appId }: { org: string; appId: string }) {
  const id = useId();
  const trends = useQuery(trendsQuery(org, appId));
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        Size and timings over time
      </h2>
      {trends.isPending ? (
        <Loading label="Loading the trends…" />
      ) : trends.isError ? (
        <LoadError what="The trends" error={trends.error} onRetry={() => void trends.refetch()} />
      ) : trends.data.points.length < 2 ? (
        <p className="text-sm text-slate-700">The trends show once the app has been checked twice.</p>
      ) : (
        <TrendBody points={trends.data.points} />
      )}
    </section>
  );
}

function TrendBody({ points }: { points: TrendPoint[] }) {
  const chars = points.map((p) => p.chars);
  const connect = points.map((p) => p.connectMs);
  const list = points.map((p) => p.listMs);
  return (
    <div className="space-y-3">
      <div className="grid gap-3 md:grid-cols-2">
        <Chart title={`Listing size against ${formatCount(LISTING_CHAR_LIMIT)} characters`} series={[{ values: chars, className: "stroke-indigo-700" }]} bound={LISTING_CHAR_LIMIT} boundLabel={`${formatCount(LISTING_CHAR_LIMIT)}`} />
        <Chart
          title="Connect (against 3 s) and list (against 8 s) times"
          series={[
            { values: connect, className: "stroke-emerald-700" },
            { values: list, className: "stroke-amber-700" },
          ]}
          bound={LIST_TIMEOUT_MS}
          extraBound={CONNECT_TIMEOUT_MS}
          boundLabel="8 s"
          extraLabel="3 s"
          legend={[
            ["stroke-emerald-700", "connect"],
            ["stroke-amber-700", "list"],
          ]}
        />
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-indigo-800 underline">The figures as a table</summary>
        <div className="mt-2 overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Size and timings of the app&apos;s last {points.length} checks, oldest first</caption>
            <thead>
              <tr className="bg-slate-50 text-slate-700">
                <th scope="col" className="px-3 py-2 font-medium">Checked</th>
                <th scope="col" className="px-3 py-2 font-medium">Size (characters)</th>
                <th scope="col" className="px-3 py-2 font-medium">Connect</th>
                <th scope="col" className="px-3 py-2 font-medium">List</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.at} className="border-t border-slate-200">
                  <th scope="row" className="px-3 py-1 font-normal whitespace-nowrap">
                    <time dateTime={p.at}>{formatWhen(p.at)}</time>
                  </th>
                  <td className="px-3 py-1">{p.chars === null ? "—" : formatCount(p.chars)}</td>
                  <td className="px-3 py-1">{p.connectMs === null ? "—" : formatSeconds(p.connectMs)}</td>
                  <td className="px-3 py-1">{p.listMs === null ? "—" : formatSeconds(p.listMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

function Chart({
  title,
  series,
  bound,
  boundLabel,
  extraBound,
  extraLabel,
  legend,
}: {
  title: string;
  series: { values: (number | null)[]; className: string }[];
  bound: number;
  boundLabel: string;
  extraBound?: number;
  extraLabel?: string;
  legend?: [string, string][];
}) {
  const max = chartMax(series, bound);
  const line = (value: number, label: string) => {
    const y = boundY(value, max, BOX);
    return (
      <g>
        <line x1={0} x2={BOX.width} y1={y} y2={y} className="stroke-rose-600" strokeDasharray="4 3" strokeWidth={1} />
        <text x={BOX.width - 2} y={y - 2} textAnchor="end" className="fill-rose-800 text-[9px]">
          {label}
        </text>
      </g>
    );
  };
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3">
      <figcaption className="mb-1 text-sm text-slate-700">{title}</figcaption>
      {/* A picture of the table below it: hidden from screen readers, which read the table. */}
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} className="h-24 w-full" aria-hidden="true" preserveAspectRatio="none">
        {line(bound, boundLabel)}
        {extraBound !== undefined && line(extraBound, extraLabel ?? "")}
        {series.map((s) => (
          <path key={s.className} d={seriesPath(s.values, max, BOX)} className={s.className} fill="none" strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
      {legend && (
        <p className="mt-1 flex gap-3 text-xs text-slate-700" aria-hidden="true">
          {legend.map(([cls, label]) => (
            <span key={label} className="inline-flex items-center gap-1">
              <svg width="14" height="4" aria-hidden="true">
                <line x1="0" x2="14" y1="2" y2="2" className={cls} strokeWidth="2" />
              </svg>
              {label}
            </span>
          ))}
        </p>
      )}
    </figure>
  );
}
