/**
 * Benchmark of trying a tool (`npm run bench:try`), against an app this script serves from a
 * process of its own (the SDK's McpServer answering plain JSON):
 *  1. time: a tool answering 8 MiB, through the try route (POST …/apps/{app}/try, called with a
 *     Request: session, budget, connect, list, argument check, call in the reads' worker pool,
 *     audit) and through lib/mcp/call-tool alone, against the bare SDK client (connect,
 *     callTool, end the session), side by side, medians; goal: route / bare ≤ 1.2.
 *  2. memory: one call each, in a fresh process (after a warm-up call), the peak growth of the
 *     process's RSS (worker threads included) over the answer's size; goal ≤ 2×. The 17 MiB
 *     answer is the one the try stops at 16 MiB.
 *  3. headers: the same 1 KiB tool through the route with three of its four parameters marked
 *     `x-mcp-header` (sent as `Mcp-Param-*`, one in Base64) and without, in pairs (alternating
 *     which goes first), medians and the median of each pair's ratio (noise on a shared machine
 *     falls on both of a pair); goal: with / without ≤ 1.05. `--headers` runs this part alone.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { allowServerOnly, exposeGc } from "./bench-runtime";

allowServerOnly();
const gc = exposeGc();

const MiB = 1024 * 1024;
const ANSWER = 8 * MiB;
const REPS = 9;
const WARMUP = 2;
const self = fileURLToPath(import.meta.url);
const memoryMode = process.argv[2] === "--memory" ? { path: process.argv[3] as Path, bytes: Number(process.argv[4]), url: process.argv[5]! } : null;
const headersOnly = process.argv[2] === "--headers";
const HEADER_REPS = 101;
/** The arguments of `echo` and `echo_headers`: three of them mirrored, one (not ASCII) in Base64. */
const HEADER_ARGS = { region: "Zürich", days: 3, verbose: true, note: "not mirrored" };
type Path = "route" | "module" | "bare";

process.env["CHECK_ALLOW_HOSTS"] = "127.0.0.1";
process.env["THEOREM_CHECKS_PER_MINUTE"] = "1000000";
const benchDir = mkdtempSync(join(tmpdir(), "theorem-bench-try-"));
process.env["DATABASE_URL"] = join(benchDir, "bench.db");
process.on("exit", () => rmSync(benchDir, { recursive: true, force: true }));

/** The three ways of calling `dump` with `bytes`, each checking it got the whole answer. */
async function paths(url: string) {
  const { buildWorker } = await import("./build-worker.mjs");
  await buildWorker();
  const { signUp } = await import("@/test/test-accounts");
  const orgsRoute = await import("@/app/api/orgs/route");
  const appsRoute = await import("@/app/api/orgs/[org]/apps/route");
  const tryRoute = await import("@/app/api/orgs/[org]/apps/[app]/try/route");
  const { tryTool } = await import("@/lib/mcp/call-tool");
  const { parseAllowList } = await import("@/lib/mcp/address");
  const account = await signUp("bench@example.test");
  const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json", cookie: account.cookie }, body: JSON.stringify(body) });
  await orgsRoute.POST(new Request("http://localhost/api/orgs", json({ name: "Bench", slug: "bench" })));
  const connected = await appsRoute.POST(new Request("http://localhost/api/orgs/bench/apps", json({ name: "Bench", url })), { params: Promise.resolve({ org: "bench" }) });
  const appId = ((await connected.json()) as { id: string }).id;

  const expectText = (bytes: number, got: number | undefined, outcome: string, how: string) => {
    const refusedAt = bytes > 16 * MiB;
    if (refusedAt ? outcome !== "refused" : got !== bytes) throw new Error(`${how} read ${got} of ${bytes} bytes (${outcome})`);
  };
  const tool = (bytes: number) => (bytes === 1024 ? { tool: "small", arguments: {} } : { tool: "dump", arguments: { bytes } });
  /** One try of `echo` or `echo_headers` through the route, checking how many headers the app got. */
  const echo = async (tool: "echo" | "echo_headers") => {
    const response = await tryRoute.POST(new Request(`http://localhost/api/orgs/bench/apps/${appId}/try`, json({ tool, arguments: HEADER_ARGS })), { params: Promise.resolve({ org: "bench", app: appId }) });
    const answer = (await response.json()) as { outcome: string; content: { text?: string }[] };
    const mirrored = Number(answer.content[0]?.text?.split(" ").at(-1));
    if (answer.outcome !== "answered" || mirrored !== (tool === "echo" ? 0 : 3)) throw new Error(`${tool}: ${answer.outcome}, ${mirrored} Mcp-Param headers`);
  };
  return {
    echo,
    route: async (bytes: number) => {
      const response = await tryRoute.POST(new Request(`http://localhost/api/orgs/bench/apps/${appId}/try`, json(tool(bytes))), { params: Promise.resolve({ org: "bench", app: appId }) });
      const answer = (await response.json()) as { outcome: string; content: { bytes?: number }[] };
      expectText(bytes, answer.content[0]?.bytes, answer.outcome, "the route");
    },
    module: async (bytes: number) => {
      const tried = await tryTool({ name: "Bench", url }, tool(bytes), { allow: parseAllowList("127.0.0.1") });
      if (tried.kind !== "answer") throw new Error(tried.message);
      expectText(bytes, tried.answer.content[0]?.type === "text" ? tried.answer.content[0].bytes : undefined, tried.answer.outcome, "call-tool");
    },
    bare: async (bytes: number) => {
      const client = new Client({ name: "bench", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      const result = (await client.callTool({ name: tool(bytes).tool, arguments: tool(bytes).arguments })) as { content: { text: string }[] };
      await transport.terminateSession();
      await client.close();
      const got = result.content[0]?.text.length;
      if (got !== bytes) throw new Error(`the bare client read ${got} of ${bytes} bytes`);
    },
  };
}

if (memoryMode !== null) {
  // One call in a fresh process: the peak growth of RSS (and of this thread's heap) while it reads.
  const run = (await paths(memoryMode.url))[memoryMode.path];
  for (let i = 0; i < 3; i++) await run(1024);
  gc();
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  let buffers = before.arrayBuffers;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
    buffers = Math.max(buffers, now.arrayBuffers);
  }, 2);
  await run(memoryMode.bytes);
  clearInterval(sampler);
  const now = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ rss: Math.max(rss, now.rss) - before.rss, heap: Math.max(heap, now.heapUsed) - before.heapUsed, buffers: Math.max(buffers, now.arrayBuffers) - before.arrayBuffers })}\n`,
  );
  process.exit(0);
}

// ---- The app, in a process of its own ----
const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../test/apps/bench-try-apps.ts", import.meta.url))], { stdio: ["pipe", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const { url } = JSON.parse(line) as { url: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

const run = await paths(url);

/** Part 3: the route with and without `Mcp-Param-*` headers, alternating which goes first. */
async function headerTimes(): Promise<void> {
  for (let i = 0; i < 5; i++) for (const tool of ["echo", "echo_headers"] as const) await run.echo(tool);
  const took: Record<"echo" | "echo_headers", number[]> = { echo: [], echo_headers: [] };
  for (let i = 0; i < HEADER_REPS; i++) {
    for (const tool of i % 2 === 0 ? (["echo", "echo_headers"] as const) : (["echo_headers", "echo"] as const)) {
      const t = performance.now();
      await run.echo(tool);
      took[tool].push(performance.now() - t);
    }
  }
  const without = median(took.echo);
  const withHeaders = median(took.echo_headers);
  const paired = median(took.echo.map((t, i) => took.echo_headers[i]! / t));
  console.log(`\nMcp-Param headers (SEP-2243): a 1 KiB tool through the route, median of ${HEADER_REPS}:`);
  console.log(`  ${"without (no parameter marked)".padEnd(52)} ${ms(without).padStart(10)}`);
  console.log(`  ${"with (3 of 4 marked x-mcp-header, 1 in Base64)".padEnd(52)} ${ms(withHeaders).padStart(10)}`);
  console.log(`  with / without: ${(withHeaders / without).toFixed(3)} of the medians, ${paired.toFixed(3)} the median of the pairs (goal ≤ 1.05)`);
}
if (headersOnly) {
  await headerTimes();
  child.stdin.end();
  await once(child, "exit");
  process.exit(0);
}

const order: Path[] = ["route", "module", "bare"];
for (let i = 0; i < WARMUP; i++) for (const p of order) await run[p](ANSWER);
const times: Record<Path, number[]> = { route: [], module: [], bare: [] };
// Round after round, so that machine noise falls on all three alike.
for (let i = 0; i < REPS; i++) {
  for (const p of order) {
    const t = performance.now();
    await run[p](ANSWER);
    times[p].push(performance.now() - t);
  }
}
const [route, module, bare] = order.map((p) => median(times[p])) as [number, number, number];
console.log(`A tool answering ${ANSWER / MiB} MiB (plain JSON), median of ${REPS}:`);
console.log(`  ${"POST …/apps/{app}/try (the route, worker pool)".padEnd(52)} ${ms(route).padStart(10)}`);
console.log(`  ${"lib/mcp/call-tool alone (connect, list, call)".padEnd(52)} ${ms(module).padStart(10)}`);
console.log(`  ${"bare SDK client (connect, callTool)".padEnd(52)} ${ms(bare).padStart(10)}`);
console.log(`  route / bare: ${(route / bare).toFixed(2)} (goal ≤ 1.20); call-tool / bare: ${(module / bare).toFixed(2)}`);

console.log(`\nMemory, one call in a fresh process after a warm-up, peak growth (RSS over the answer's size; heap and buffers of this thread):`);
const NAMES: Record<Path, string> = { route: "the route", module: "call-tool in this thread", bare: "bare SDK" };
for (const [path, bytes] of [
  ["route", ANSWER],
  ["module", ANSWER],
  ["bare", ANSWER],
  ["route", 17 * MiB],
  ["module", 17 * MiB],
  ["bare", 17 * MiB],
] as const) {
  const measured = spawnSync(process.execPath, ["--import", "tsx", self, "--memory", path, String(bytes), url], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const last = measured.stdout.trim().split("\n").at(-1) ?? "";
  const { rss, heap, buffers } = JSON.parse(last) as { rss: number; heap: number; buffers: number };
  const what = `${NAMES[path]}, ${bytes / MiB} MiB${bytes > 16 * MiB ? (path === "bare" ? " (read whole)" : " (stopped at 16)") : ""}`;
  const mb = (n: number) => `${(n / MiB).toFixed(1).padStart(5)} MiB`;
  const inThread = path === "route" ? "(in a worker thread)" : `heap +${mb(heap)} · buffers +${mb(buffers)}`;
  console.log(`  ${what.padEnd(50)} RSS +${mb(rss)} = ${(rss / bytes).toFixed(2)}× · ${inThread}`);
}
console.log("  goal: the route ≤ 2.00×. What the try holds is its heap; the buffers are the socket's reads, garbage the next collection frees.");

await headerTimes();

child.stdin.end();
await once(child, "exit");
