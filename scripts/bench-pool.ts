/**
 * How long the thread that answers requests is held while the pool works (`npm run bench:pool`),
 * figures of the machine that the tests no longer time (SPEC §10):
 *  1. five apps flooding events for their whole 8 s, read at once (goal: no pause over 150 ms);
 *  2. 100,000 entries named (goal: no pause over 250 ms).
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
process.exit(0);
