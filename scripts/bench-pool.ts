/**
 * How long the thread that answers requests is held while the pool works (`npm run bench:pool`),
 * figures of the machine that the tests no longer time (SPEC §10):
 *  1. five apps flooding events for their whole 8 s, read at once (goal: no pause over 150 ms);
 *  2. 100,000 entries named (goal: no pause over 250 ms);
 *  3. a POST /api/check body of 100,000 inline tools, parsed, checked and serialised in the pool:
 *     the longest pause beside the whole check's time (goal: under a quarter of it; the test,
 *     app/api/check/heavy.test.ts, asserts only that this thread neither parses nor checks it).
 */
import { spawn } from "node:child_process";
import { register } from "node:module";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";

// Outside Next, `server-only` throws on import; here it is the marker it is in a server bundle.
register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`),
);

const { buildWorker } = await import("./build-worker.mjs");
await buildWorker();
const { checkInPool, checkRequestInPool } = await import("@/lib/pool/engine-pool");
const { resolveTheorem } = await import("@/lib/engine/theorem");

/** The longest pause of this thread while `work` runs, in ms. */
async function longestPause(work: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await work();
  delay.disable();
  return delay.max / 1e6;
}

const child = spawn(process.execPath, [new URL("../test/apps/flood-apps.mjs", import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
try {
  const urls = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve))) as string[];
  const body = new TextEncoder().encode(JSON.stringify({ apps: urls.map((url, i) => ({ name: `Flood ${i}`, url })) }));
  const flood = await longestPause(() => checkRequestInPool(body, { allowHosts: "127.0.0.1" }));
  console.log(`1. ${urls.length} flooding apps read at once: longest pause ${flood.toFixed(0)} ms (goal ≤ 150 ms)`);
} finally {
  child.kill();
}

const tools = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, annotations: { readOnlyHint: i % 2 === 0 } }));
const listings = Array.from({ length: 10 }, (_, i) => ({ name: `App ${i}`, entries: tools(10_000) }));
const naming = await longestPause(() => checkInPool(listings, resolveTheorem(undefined)));
console.log(`2. 100,000 entries named: longest pause ${naming.toFixed(0)} ms (goal ≤ 250 ms)`);

const inline = Array.from({ length: 100_000 }, (_, i) => ({ name: `tool_${i}`, description: "Looks something up.", inputSchema: { type: "object", properties: { q: { type: "string" } } } }));
const huge = new TextEncoder().encode(JSON.stringify({ apps: [{ name: "Huge", tools: inline }] }));
let checkMs = 0;
const held = await longestPause(async () => {
  const started = performance.now();
  const answer = await checkRequestInPool(huge);
  checkMs = performance.now() - started;
  if (answer.kind !== "answer") throw new Error(`The check answered ${answer.kind}`);
});
console.log(`3. 100,000 inline tools checked: longest pause ${held.toFixed(0)} ms of a ${checkMs.toFixed(0)} ms check (${((100 * held) / checkMs).toFixed(0)} %, goal < 25 %)`);
process.exit(0);
