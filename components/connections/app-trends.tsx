"use client";

import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { formatSeconds, formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { formatCount } from "@/lib/engine/listing-size";
import { trendsQuery } from "@/lib/queries/orgs";
import { CONNECT_TIMEOUT_MS, LISTING_CHAR_LIMIT, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import type { TrendPoint } from "@/lib/schemas/orgs";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { drawnFigures, shareText, trendScale, type Bound } from "./trend-chart";

/**
 * The app's size and connect and list times over its checks, drawn against 250,000 characters,
 * 3 s and 8 s, so that a leader sees it drift toward a bound before it crosses one. Drawn with
 * Recharts: a time axis, both series visible, the exact figure on hover; the same figures are in
 * the table below them, for keyboards and screen readers.
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

const SIZE_BOUND: Bound = { value: LISTING_CHAR_LIMIT, label: `${formatCount(LISTING_CHAR_LIMIT)} characters` };
const TIME_BOUNDS: Bound[] = [
  { value: CONNECT_TIMEOUT_MS, label: "3 s to connect" },
  { value: LIST_TIMEOUT_MS, label: "8 s to list" },
];

const shortTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const axisTime = (t: number) => shortTime.format(new Date(t));
const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);

function TrendBody({ points }: { points: TrendPoint[] }) {
  const data = points.map((p) => ({ t: Date.parse(p.at), ...drawnFigures(p) }));
  const size = trendScale(data.map((p) => p.chars), [SIZE_BOUND]);
  const times = trendScale(data.flatMap((p) => [p.connect, p.list]), TIME_BOUNDS);
  return (
    <div className="space-y-3">
      <div className="grid gap-3 md:grid-cols-2">
        <TrendChart
          title="Listing size"
          data={data}
          scale={size}
          lines={[{ key: "chars", name: "size", color: "#4338ca", dash: undefined }]}
          formatValue={(v) => `${formatCount(v)} characters`}
          formatTick={(v) => formatCount(v)}
          none="No size read yet: no check has listed its tools."
        />
        <TrendChart
          title="Connect and list times"
          data={data}
          scale={times}
          lines={[
            { key: "connect", name: "connect", color: "#047857", dash: undefined },
            { key: "list", name: "list", color: "#b45309", dash: "5 3" },
          ]}
          formatValue={(v) => formatSeconds(v)}
          formatTick={seconds}
          none="No time read yet: no check has connected to it."
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
                <th scope="col" className="px-3 py-2 font-medium">Size as listed (characters)</th>
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

function TrendChart({
  title,
  data,
  scale,
  lines,
  formatValue,
  formatTick,
  none,
}: {
  title: string;
  data: { t: number; [key: string]: number | null }[];
  scale: ReturnType<typeof trendScale>;
  lines: { key: string; name: string; color: string; dash: string | undefined }[];
  formatValue: (value: number) => string;
  formatTick: (value: number) => string;
  /** Said instead of a chart when no check read any of its figures. */
  none: string;
}) {
  if (!data.some((point) => lines.some((l) => point[l.key] != null))) {
    return (
      <figure className="rounded-lg border border-slate-200 bg-white p-3">
        <figcaption className="text-sm text-slate-700">{title}</figcaption>
        <p className="mt-1 text-sm text-slate-600">{none}</p>
      </figure>
    );
  }
  const far = scale.far.map((f) => shareText(f.share, f.bound)).join("; ");
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3">
      <figcaption className="mb-1 text-sm text-slate-700">
        {title}
        {far !== "" && <span className="block text-xs text-slate-600">Far below its bound: {far}.</span>}
      </figcaption>
      {/* A picture of the table below it: hidden from screen readers, which read the table. */}
      <div className="h-48 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 16, right: 36, bottom: 4, left: 4 }} accessibilityLayer={false}>
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            {/* The first and last dates kept, and the others only where a whole label fits between them. */}
            <XAxis dataKey="t" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={axisTime} tick={{ fontSize: 11, fill: "#475569" }} interval="preserveStartEnd" minTickGap={40} />
            <YAxis domain={[0, scale.max]} tickFormatter={formatTick} tick={{ fontSize: 11, fill: "#475569" }} width={64} allowDecimals={false} allowDataOverflow />
            <Tooltip
              labelFormatter={(t) => (typeof t === "number" ? axisTime(t) : "")}
              formatter={(value, name) => [typeof value === "number" ? formatValue(value) : "—", name]}
              contentStyle={{ fontSize: 12 }}
            />
            {lines.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {scale.shown.map((b) => (
              <ReferenceLine key={b.label} y={b.value} stroke="#e11d48" strokeDasharray="4 3" label={{ value: b.label, position: "insideTopRight", fontSize: 11, fill: "#9f1239" }} />
            ))}
            {lines.map((l) => (
              <Line key={l.key} type="monotone" dataKey={l.key} name={l.name} stroke={l.color} strokeWidth={2} strokeDasharray={l.dash} dot={{ r: 2.5 }} activeDot={{ r: 4 }} connectNulls={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
