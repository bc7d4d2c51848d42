/**
 * Benchmark of bounded reading (`npm run bench:bounds`): what a listing past a bound of SPEC §7
 * costs in memory, against apps this script serves from a process of its own (test/apps/
 * bounds-apps.ts: a 50 MiB answer, a gzip bomb of 1 GiB, one 32 MiB event, 15 MiB of small tools).
 * Each read runs in a fresh process (after warm-up reads of a small app) that samples its RSS;
 * printed is the peak growth over the bytes the bound allows (16 MiB an answer, 4 MiB an event,
 * 250,000 characters a listing), for our reader (lib/mcp/read-app) and for the bare SDK client
 * (connect, listTools), which reads each listing whole, side by side, medians of 3 processes.
 * Goal: whatever the app sends, our reader grows by at most 96 MiB of RSS and 48 MiB of heap.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OversizedKind } from "@/test/apps/bounds-apps";
import { OVERSIZED } from "@/test/apps/bounds-apps";
import { allowServerOnly, exposeGc } from "./bench-runtime";

allowServerOnly();
const gc = exposeGc();

const MiB = 1024 * 1024;
const REPS = 3;
const GOAL = { rss: 96 * MiB, heap: 48 * MiB };
const WARMUP = 3;
const self = fileURLToPath(import.meta.url);
type Path = "reader" | "bare";
type Measured = { rss: number; heap: number; buffers: number; outcome: string };

/** The bytes the bound that stops each listing allows. */
const ALLOWED: Record<Exclude<OversizedKind, "under">, { bytes: number; bound: string }> = {
  answer: { bytes: 16 * MiB, bound: "16 MiB an answer" },
  bomb: { bytes: 16 * MiB, bound: "16 MiB an answer" },
  event: { bytes: 4 * MiB, bound: "4 MiB an event" },
  tools: { bytes: 250_000, bound: "250,000 characters" },
};
type Kind = keyof typeof ALLOWED;
/** Where the bare client is not run, and why. */
const BARE_SKIPPED: Partial<Record<Kind, string>> = { bomb: "not run: it would inflate all 1 GiB on a shared machine" };

const tools = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "tool" : "tools"}`;

/** One read of `url` by `path`, answering what came of it. */
async function readBy(path: Path, url: string): Promise<string> {
  if (path === "reader") {
    const { readLiveApp } = await import("@/lib/mcp/read-app");
    const { parseAllowList } = await import("@/lib/mcp/address");
    const listing = await readLiveApp({ name: "Huge", url }, { allow: parseAllowList("127.0.0.1") });
    return listing.unavailable?.code ?? (listing.stopped === true ? `stopped after ${tools(listing.entries.length)}` : tools(listing.entries.length));
  }
  const client = new Client({ name: "bench", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport);
    const { tools: listed } = await client.listTools();
    return `read whole, ${tools(listed.length)}`;
  } catch (e) {
    return `failed: ${e instanceof Error ? e.message.slice(0, 80) : String(e)}`;
  } finally {
    await client.close();
  }
}

const memoryMode = process.argv[2] === "--memory" ? { path: process.argv[3] as Path, url: process.argv[4]!, small: process.argv[5]! } : null;
if (memoryMode !== null) {
  // One read in a fresh process: the peak growth of RSS (and of the heap and buffers) while it reads.
  for (let i = 0; i < WARMUP; i++) await readBy(memoryMode.path, memoryMode.small);
  gc();
  const before = process.memoryUsage();
  let { rss, heapUsed: heap, arrayBuffers: buffers } = before;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
    buffers = Math.max(buffers, now.arrayBuffers);
  };
  const sampler = setInterval(sample, 2);
  const outcome = await readBy(memoryMode.path, memoryMode.url);
  clearInterval(sampler);
  sample();
  const measured: Measured = { rss: rss - before.rss, heap: heap - before.heapUsed, buffers: buffers - before.arrayBuffers, outcome };
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  process.exit(0);
}

// ---- The apps, in a process of their own ----
const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../test/apps/bench-bounds-apps.ts", import.meta.url))], { stdio: ["pipe", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const urls = JSON.parse(line) as Record<OversizedKind | "small", string>;

function measure(path: Path, kind: Kind): Measured {
  const runs: Measured[] = [];
  for (let i = 0; i < REPS; i++) {
    const run = spawnSync(process.execPath, ["--import", "tsx", self, "--memory", path, urls[kind], urls.small], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    runs.push(JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "") as Measured);
  }
  return [...runs].sort((a, b) => a.rss - b.rss)[Math.floor(REPS / 2)]!;
}

const mb = (n: number) => `${(n / MiB).toFixed(1).padStart(6)} MiB`;
const ratio = (n: number, of: number) => `${(n / of).toFixed(2).padStart(6)}×`;
console.log(`Peak RSS growth of one read in a fresh process, over the bytes the bound allows (median of ${REPS}):`);
for (const kind of Object.keys(ALLOWED) as Kind[]) {
  const { bytes, bound } = ALLOWED[kind];
  console.log(`\n  ${OVERSIZED[kind]} (bound: ${bound})`);
  for (const path of ["reader", "bare"] as const) {
    const name = path === "reader" ? "our reader" : "bare SDK client";
    const skipped = path === "bare" ? BARE_SKIPPED[kind] : undefined;
    if (skipped !== undefined) {
      console.log(`    ${name.padEnd(16)} ${skipped}`);
      continue;
    }
    const m = measure(path, kind);
    const over = path === "reader" && (m.rss > GOAL.rss || m.heap > GOAL.heap) ? " · OVER THE GOAL" : "";
    console.log(`    ${name.padEnd(16)} RSS +${mb(m.rss)} = ${ratio(m.rss, bytes)} · heap +${mb(m.heap)} · buffers +${mb(m.buffers)} · ${m.outcome}${over}`);
  }
}
console.log(`\n  goal: our reader RSS ≤ +${GOAL.rss / MiB} MiB and heap ≤ +${GOAL.heap / MiB} MiB whatever is sent. Below 16 MiB an answer is handed to the SDK, which holds it whole;`);
console.log("  the buffers are the socket's 64 KiB reads, garbage the next collection frees. The listing bound is small beside them: its ratio is large and says little.");

child.stdin.end();
await once(child, "exit");
