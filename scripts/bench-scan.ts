/**
 * Benchmark of the streamed listing measure (`npm run bench:scan`): the hand-written scanner of
 * lib/mcp/listing-scan.ts ("old") against a candidate that feeds @streamparser/json entries to
 * the engine's `entryChars` (scripts/bench-scan-stream.ts, "new"), side by side on the
 * same answers fed in 16 KiB pieces as a stream arrives: 1k, 10k and 100k tools, one tool
 * with a 4 MiB description, and 100k tools under the 250,000-character listing bound.
 * Printed: median time of 5 runs, and peak heap used over the start of a run (sampled after
 * each piece, after a full GC), for each, and new/old ratios.
 * The rule to switch to the candidate: new/old time ≤ 1.1 and peak heap no worse.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ToolsScanner as OldScanner } from "@/lib/mcp/listing-scan";
import { ToolsScanner as NewScanner } from "./bench-scan-stream";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const PIECE = 16 * 1024;
const REPS = 5;
const LISTING_LIMIT = 250_000;

interface Scanner {
  chars: number;
  past: boolean;
  push(text: string): void;
}

const tool = (i: number) => ({
  name: `tool_${i}`,
  title: `Tool ${i}`,
  description: `Does thing ${i} — with “quotes”, an emoji 😀 and a line\nbreak.`,
  inputSchema: { type: "object", properties: { id: { type: "string", description: "The id" }, n: { type: "number" } }, required: ["id"] },
  annotations: { readOnlyHint: i % 2 === 0 },
});

const answer = (tools: unknown[]) => JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools, nextCursor: "next" } });

const cases: { name: string; text: string; budget: number }[] = [
  { name: "1k tools", text: answer(Array.from({ length: 1_000 }, (_, i) => tool(i))), budget: Infinity },
  { name: "10k tools", text: answer(Array.from({ length: 10_000 }, (_, i) => tool(i))), budget: Infinity },
  { name: "100k tools", text: answer(Array.from({ length: 100_000 }, (_, i) => tool(i))), budget: Infinity },
  { name: "one 4 MiB description", text: answer([{ name: "long", description: "lorem ipsum \"dolor\" sit\n".repeat(175_000) }]), budget: Infinity },
  { name: "100k tools, stop at 250k chars", text: answer(Array.from({ length: 100_000 }, (_, i) => tool(i))), budget: LISTING_LIMIT },
];

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += PIECE) out.push(text.slice(i, i + PIECE));
  return out;
}

function run(make: () => Scanner, parts: string[], sampleHeap: boolean): { ms: number; heap: number; chars: number } {
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const scanner = make();
  const start = performance.now();
  for (const part of parts) {
    scanner.push(part);
    if (sampleHeap) peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (scanner.past) break;
  }
  const ms = performance.now() - start;
  return { ms, heap: peak - base, chars: scanner.chars };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, d = 1) => n.toFixed(d).padStart(9);
const mib = (b: number) => fmt(b / 1024 / 1024, 2);

console.log(`${"case".padEnd(32)}${"old ms".padStart(9)}${"new ms".padStart(9)}${"time×".padStart(9)}${"old MiB".padStart(9)}${"new MiB".padStart(9)}${"heap×".padStart(9)}`);
for (const c of cases) {
  const parts = pieces(c.text);
  const makers = { old: () => new OldScanner(c.budget, false), new: () => new NewScanner(c.budget, false) };
  const old = run(makers.old, parts, false);
  const neu = run(makers.new, parts, false);
  if (old.chars !== neu.chars) throw new Error(`${c.name}: the scanners disagree (${old.chars} vs ${neu.chars} characters)`);
  const times = { old: [] as number[], new: [] as number[] };
  for (let r = 0; r < REPS; r++) for (const k of ["old", "new"] as const) times[k].push(run(makers[k], parts, false).ms);
  const heaps = { old: [] as number[], new: [] as number[] };
  for (let r = 0; r < 3; r++) for (const k of ["old", "new"] as const) heaps[k].push(run(makers[k], parts, true).heap);
  const [to, tn, ho, hn] = [median(times.old), median(times.new), median(heaps.old), median(heaps.new)];
  console.log(`${c.name.padEnd(32)}${fmt(to)}${fmt(tn)}${fmt(tn / to, 2)}${mib(ho)}${mib(hn)}${fmt(hn / Math.max(ho, 1), 2)}`);
}
console.log("switch rule: time× ≤ 1.10 and heap× ≤ 1.00 on every case");
