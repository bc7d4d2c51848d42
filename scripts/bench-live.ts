/**
 * Benchmark of live checks (`npm run bench:live`), all on loopback apps this script starts:
 *  1. one app of 1,000 tools (10 pages), in each protocol era (a 2025 app, and one of the
 *     2026-07-28 revision only): `POST /api/check` (the route handler, called with a Request),
 *     and the live reader alone, against the bare v2 SDK client (`versionNegotiation: auto`,
 *     connect and every tools/list page), medians of several runs; goal: ratio ≤ 1.1. Then the
 *     reader's connect time on the modern-only app against the 2025 one (discovery should cost
 *     no more than one round trip).
 *  2. 50 apps that each answer after a delay (as remote apps do) checked at once, against the
 *     slowest of them alone; goal: ratio ≤ 1.2.
 * Medians of 21 runs after 20 warm-up rounds, each run after a full collection and a pause for the
 * last one's tail (BENCH_REPS, BENCH_WARMUP). A check is timed until its answer's bytes are in
 * hand (the route's body read to its end, or `checkRequestInPool`'s chunks); every answer is parsed and validated against the schema after
 * the last round (the bare client makes no answer document to parse), so a wrong answer still
 * fails the run.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { register } from "node:module";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

// Outside Next, `server-only` throws on import; here it is the marker it is in a server bundle.
register(
  "data:text/javascript," +
    encodeURIComponent(
      `export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`,
    ),
);
process.env["CHECK_ALLOW_HOSTS"] = "127.0.0.1";
// Reading an app by URL needs an account (SPEC §9): one signed up in a database of this run's own.
const benchDir = mkdtempSync(join(tmpdir(), "theorem-bench-live-"));
process.env["DATABASE_URL"] = join(benchDir, "bench.db");
// Every route call spends the account's check budget: this run makes hundreds.
process.env["THEOREM_CHECKS_PER_MINUTE"] = "1000000";
process.on("exit", () => rmSync(benchDir, { recursive: true, force: true }));

const { POST } = await import("@/app/api/check/route");
const { buildWorker } = await import("./build-worker.mjs");
await buildWorker();
const { signUp } = await import("@/test/test-accounts");
const account = await signUp("bench@example.test");
const { checkRequestInPool } = await import("@/lib/pool/engine-pool");
const { checkResult } = await import("@/lib/schemas/check");
/** POST /api/check's own work, without the route's account and spending: the answer's bytes. */
async function runCheck(request: { apps: { name: string; url: string }[] }): Promise<Uint8Array[]> {
  const answer = await checkRequestInPool(new TextEncoder().encode(JSON.stringify(request)));
  if (answer.kind !== "answer") throw new Error(`Expected an answer: ${JSON.stringify(answer)}`);
  return answer.chunks;
}
/** An answer's bytes parsed and validated against the API's schema (outside the timed part). */
const validated = (bytes: Uint8Array[] | ArrayBuffer) => checkResult.parse(JSON.parse(Buffer.concat(bytes instanceof ArrayBuffer ? [new Uint8Array(bytes)] : bytes).toString("utf8")));
const { readLiveApp } = await import("@/lib/mcp/read-app");
const { checkListings } = await import("@/lib/engine/check");
const { resolveTheorem } = await import("@/lib/engine/theorem");
const { checkResultChunks } = await import("@/lib/pool/answer-json");

const TOOLS = 1000;
const PAGE = 100;
const APPS = 50;

// The apps run in a process of their own, as remote apps would: this one does only the checking.
const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../test/apps/bench-apps.ts", import.meta.url))], {
  stdio: ["pipe", "pipe", "inherit"],
});
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const urls = JSON.parse(line) as { big: string; bigModern: string; slow: string[] };
const REPS = Number(process.env["BENCH_REPS"] ?? 21);
// The route reads and checks in worker threads (two read threads, the engine's), each of which
// warms up on its own, where the reader and the bare client run on this warm thread. In alternate
// runs, route / bare after 3 warm-up rounds: 1.07–1.11 (2025) and 0.99–1.02 (2026-07-28); after
// 20: 1.02–1.07 and 0.92–0.97.
const WARMUP = Number(process.env["BENCH_WARMUP"] ?? 20);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
type Time = { wall: number; cpu: number };

/** A case: its timed work, which may return a check of its answer to run afterwards, untimed. */
type Case = () => Promise<(() => void) | void>;

/** Wall-clock and CPU milliseconds of this process (the apps run in another) until the work's answer is in hand, and its check, not run yet. */
async function timed(work: Case): Promise<{ wall: number; cpu: number; check: (() => void) | void }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const check = await work();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000, check };
}

// Each timed run starts settled: a full collection, then a pause for the last run's tail (its
// session's closing request, in this process, the read worker and the apps' process) to end, so
// that no run pays for the garbage or the closing of the one before.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const SETTLE_MS = 20;

/**
 * Runs the cases in turn, round after round, so that warm-up and machine noise fall on all alike;
 * medians. Answers are checked after the last round: the garbage of parsing and validating one
 * would otherwise fall on the timed run of the next case.
 */
async function compare(cases: Case[]): Promise<{ wall: number; cpu: number }[]> {
  for (let i = 0; i < WARMUP; i++) for (const c of cases) (await c())?.();
  const times = cases.map(() => [] as { wall: number; cpu: number; check: (() => void) | void }[]);
  for (let i = 0; i < REPS; i++)
    for (const [k, c] of cases.entries()) {
      gc();
      await sleep(SETTLE_MS);
      times[k]!.push(await timed(c));
    }
  for (const runs of times) for (const run of runs) run.check?.();
  return times.map((t) => ({ wall: median(t.map((x) => x.wall)), cpu: median(t.map((x) => x.cpu)) }));
}

const row = (label: string, t: { wall: number; cpu: number }) => console.log(`  ${label.padEnd(46)} ${ms(t.wall).padStart(10)} wall ${ms(t.cpu).padStart(10)} CPU`);

// ---- 1. The route against the bare SDK client, on one app of 1,000 tools, in each era ----

function throughRoute(url: string) {
  return async () => {
    const response = await POST(
      new Request("http://localhost/api/check", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: account.cookie },
        body: JSON.stringify({ apps: [{ name: "Bench", url }] }),
      }),
    );
    const bytes = await response.arrayBuffer();
    return () => {
      if (response.status !== 200) throw new Error(`route check failed: ${response.status} ${Buffer.from(bytes).toString("utf8").slice(0, 300)}`);
      const body = validated(bytes);
      if (body.apps[0]?.status !== "available" || body.apps[0].tools.length !== TOOLS) throw new Error(`route check failed: ${JSON.stringify(body).slice(0, 300)}`);
    };
  };
}

function bareSdk(url: string) {
  return async () => {
    const client = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: "auto" } });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      count += page.tools.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    await transport.terminateSession();
    await client.close();
    if (count !== TOOLS) throw new Error(`bare client read ${count} tools`);
  };
}

const connectTimes: Record<string, number[]> = {};
function readerAlone(url: string) {
  return async () => {
    const listing = await readLiveApp({ name: "Bench", url });
    if (listing.unavailable !== null || listing.entries.length !== TOOLS) throw new Error(`reader failed: ${listing.unavailable?.message}`);
    (connectTimes[url] ??= []).push(listing.timings!.connectMs);
  };
}

const tokensOnly = process.env["BENCH_LIVE_TOKENS_ONLY"] === "1";
for (const [era, url] of tokensOnly ? [] : [
  ["2025 (initialize after server/discover)", urls.big],
  ["2026-07-28 only (server/discover)", urls.bigModern],
] as const) {
  const [route, reader, bare] = (await compare([throughRoute(url), readerAlone(url), bareSdk(url)])) as [Time, Time, Time];
  console.log(`One app of 1,000 tools in ${TOOLS / PAGE} pages, era ${era}, median of ${REPS}:`);
  row("POST /api/check (to the answer's last byte)", route);
  row("the live reader alone (lib/mcp)", reader);
  row("bare v2 SDK client (connect + all pages)", bare);
  console.log(`  route / bare: ${(route.wall / bare.wall).toFixed(2)} wall, ${(route.cpu / bare.cpu).toFixed(2)} CPU`);
  console.log(`  reader / bare: ${(reader.wall / bare.wall).toFixed(2)} wall, ${(reader.cpu / bare.cpu).toFixed(2)} CPU (goal ≤ 1.10)`);
  // What the route must add to the read whatever its plumbing: the check and its answer's text.
  const listing = await readLiveApp({ name: "Bench", url });
  const answerMs: number[] = [];
  for (let i = 0; i < WARMUP + REPS; i++) {
    const t = performance.now();
    checkResultChunks(checkListings([listing], resolveTheorem(undefined)));
    if (i >= WARMUP) answerMs.push(performance.now() - t);
  }
  const least = reader.wall + median(answerMs);
  console.log(`  the check and its answer's serialisation alone, in one thread: ${ms(median(answerMs))}; reader + that: ${(least / bare.wall).toFixed(2)}× bare, the least the route can be\n`);
}
if (!tokensOnly) {
const legacyConnect = median(connectTimes[urls.big]!);
const modernConnect = median(connectTimes[urls.bigModern]!);
console.log(`The reader's connect time (median of ${connectTimes[urls.big]!.length} reads each):`);
console.log(`  2025 app (server/discover, initialize, initialized): ${ms(legacyConnect)}; 2026-07-28 only (server/discover): ${ms(modernConnect)}; ratio ${(modernConnect / legacyConnect).toFixed(2)}`);

// ---- 2. 50 apps at once against the slowest alone ----
const all = { apps: urls.slow.map((url, i) => ({ name: `App ${i}`, url })) };
const slowest = { apps: [all.apps[APPS - 1]!] };
const check = (request: typeof all) => async () => {
  const bytes = await runCheck(request);
  return () => {
    const checked = validated(bytes);
    if (checked.apps.length !== request.apps.length || !checked.apps.every((a) => a.status === "available")) throw new Error("an app was unavailable");
  };
};
const [together, alone] = (await compare([check(all), check(slowest)])) as [Time, Time];
console.log(`\n${APPS} apps of 100 tools, each answering after 50–250 ms, checked by checkRequestInPool (to the answer's bytes), median of ${REPS}:`);
row(`all ${APPS} at once`, together);
row("the slowest alone", alone);
console.log(`  ratio ${(together.wall / alone.wall).toFixed(2)} wall (goal ≤ 1.20)`);
}

// ---- 3. Tokens counted where an app is read (SPEC §21), on the 1,000-tool app ----
// Counting a new listing (every tool's description changed, so no fingerprint is kept) against the
// live read itself, and a re-read whose tools are unchanged (every fingerprint kept: nothing is
// counted) against the read without counting, as the read's worker does both.
{
  const { countPromptTokens } = await import("@/lib/pool/prompt-tokens");
  const url = urls.big;
  const listing = await readLiveApp({ name: "Bench", url });
  const countMs: number[] = [];
  for (let i = 0; i < WARMUP + REPS; i++) {
    const fresh = listing.entries.map((entry) => ({ ...(entry as object), description: `${(entry as { description?: string }).description ?? ""} (revision ${i})` }));
    gc();
    const t = performance.now();
    const { counted } = countPromptTokens(fresh);
    if (i >= WARMUP) countMs.push(performance.now() - t);
    if (counted !== TOOLS) throw new Error(`counted ${counted} of ${TOOLS} new tools`);
  }
  // After a restart (or on another instance) the process's table keeps nothing: the read is given the
  // counts stored with the app's newest snapshot (canonical JSON, as stored), copied to its thread,
  // and counts only what changed. Each run's tools are new to this process, as after a restart.
  const { snapshotOf } = await import("@/lib/engine/changes");
  const { prefixCounts } = await import("@/lib/engine/tokens");
  const restartMs: number[] = [];
  for (let i = 0; i < WARMUP + REPS; i++) {
    const fresh = listing.entries.map((entry) => ({ ...(entry as object), description: `${(entry as { description?: string }).description ?? ""} (restart ${i})` }));
    const entries = JSON.parse(snapshotOf(fresh).text) as unknown[];
    // Counted by the process that stored them: not kept in this one's table.
    const counts = entries.map((entry) => prefixCounts(entry as Record<string, unknown>, null));
    const stored = { entries, tokens: counts.map((c) => c.tokens), chars: counts.map((c) => c.chars) };
    gc();
    const t = performance.now();
    const { counted } = countPromptTokens(fresh, structuredClone(stored));
    if (i >= WARMUP) restartMs.push(performance.now() - t);
    if (counted !== 0) throw new Error(`a re-read after a restart counted ${counted} unchanged tools`);
  }
  // Seconds of this thread busy: the app has closed the connections its first read left idle; let them close here before the next read.
  await sleep(100);
  countPromptTokens(listing.entries);
  const readCounted = async () => {
    const read = await readLiveApp({ name: "Bench", url });
    const { counted } = countPromptTokens(read.entries);
    if (counted !== 0) throw new Error(`a re-read of unchanged tools counted ${counted}`);
  };
  const [reader, rereadCounted] = (await compare([readerAlone(url), readCounted])) as [Time, Time];
  console.log(`\nTokens of one app of 1,000 tools (o200k_base, SPEC §21), median of ${REPS}:`);
  row("the live read alone", reader);
  console.log(`  ${"counting a new listing's tokens".padEnd(46)} ${ms(median(countMs)).padStart(10)}`);
  row("a re-read of unchanged tools, with counting", rereadCounted);
  console.log(`  ${"after a restart: stored counts given".padEnd(46)} ${ms(median(restartMs)).padStart(10)} (was: counting a new listing, ${ms(median(countMs))})`);
  console.log(`  new listing's counting / its live read: ${(median(countMs) / reader.wall).toFixed(2)} (goal ≤ 1.00)`);
  console.log(`  re-read with counting / read without: ${(rereadCounted.wall / reader.wall).toFixed(2)} wall, ${(rereadCounted.cpu / reader.cpu).toFixed(2)} CPU (goal ≤ 1.05)`);
  console.log(`  after a restart, re-read with counting / read without: ${((reader.wall + median(restartMs)) / reader.wall).toFixed(2)} (read + stored counts given; was ${((reader.wall + median(countMs)) / reader.wall).toFixed(2)})`);
}

child.stdin.end();
await once(child, "exit");
