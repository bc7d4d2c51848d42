/**
 * Benchmark of the command line (`npm run bench:cli`), as a CI step runs it (a fresh `node` each
 * time, through the launcher): the wall time of `theorem-check --url` on a demo app of 1,000 tools
 * against a bare MCP SDK client process listing the same app (SPEC §15, issue 55: at most 1.1×), and
 * of `theorem-check --listing` on the same tools in a file against `node -e` reading and parsing it;
 * `--help` beside a bare `node`. Runs alternate, side by side, so all see the same machine; medians,
 * the ratios, CPU time (user + system, of the process and its threads) and the load average are printed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildCli } from "./build-cli.mjs";

const root = new URL("..", import.meta.url).pathname;
const TOOLS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const dir = mkdtempSync(join(tmpdir(), "theorem-bench-cli-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

// About 180 characters a tool, as test/apps/sdk-apps.ts `madeTools` makes them.
const tools = Array.from({ length: TOOLS }, (_, i) => ({
  name: `tool_${i}`,
  title: `Tool ${i}`,
  description: `Does thing ${i}.`,
  inputSchema: { type: "object", properties: { id: { type: "string", description: "Which one" } }, required: ["id"] },
  annotations: { readOnlyHint: i % 2 === 0 },
}));
const listing = join(dir, "tools.json");
const text = JSON.stringify({ tools });
writeFileSync(listing, text);
await buildCli();

// The demo app, in a process of its own (as an app is), serving the same tools.
const app = spawn(process.execPath, ["--import", "tsx", join(root, "scripts/bench-cli-app.ts"), listing], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
process.on("exit", () => app.kill());
const url = await new Promise((resolve, reject) => {
  let out = "";
  app.stdout.on("data", (chunk) => {
    out += chunk;
    if (out.includes("\n")) resolve(out.trim());
  });
  app.on("exit", (code) => reject(new Error(`the bench app exited (${code})`)));
});

// A bare client of the MCP SDK the command line reads apps with: connect, list every page, close.
const bareClient = `
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
const client = new Client({ name: "bare", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)})));
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor === undefined ? {} : { cursor });
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor !== undefined);
await client.close();
if (tools.length !== ${TOOLS}) throw new Error("listed " + tools.length);
`;

const launcher = join(root, "bin/theorem-check.mjs");
/** Each pair: what is measured, and what it is held to. */
const pairs = [
  { name: "theorem-check --url", args: [launcher, "--url", url, "--name", "Bench"], base: "bare SDK client listing it", baseArgs: ["--input-type=module", "-e", bareClient], goal: 1.1 },
  { name: "theorem-check --url --json", args: [launcher, "--url", url, "--name", "Bench", "--json"], base: "bare SDK client listing it", baseArgs: ["--input-type=module", "-e", bareClient] },
  { name: "theorem-check --listing", args: [launcher, "--listing", listing, "--name", "Bench"], base: "node -e (read and parse only)", baseArgs: ["-e", `JSON.parse(require("fs").readFileSync(${JSON.stringify(listing)}, "utf8"))`] },
  { name: "theorem-check --help", args: [launcher, "--help"], base: "node -e 0", baseArgs: ["-e", "0"] },
];
const commands = new Map();
for (const pair of pairs) {
  commands.set(pair.name, pair.args);
  commands.set(pair.base, pair.baseArgs);
}

// Preloaded into every process measured: at its exit, its CPU time (every thread's) on fd 3.
const cpuReporter = join(dir, "cpu.cjs");
// (The process's threads run it too: the main thread's alone reports, and process.cpuUsage() counts them all.)
writeFileSync(cpuReporter, `if (require("worker_threads").isMainThread) process.on("exit", () => { const u = process.cpuUsage(); try { require("fs").writeSync(3, String((u.user + u.system) / 1000)); } catch {} });\n`);

/** Wall and CPU time of one fresh `node` (the app answers meanwhile: this process waits, it does not block). */
function time(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--require", cpuReporter, ...args], { stdio: ["ignore", "ignore", "pipe", "pipe"], cwd: root });
    let stderr = "";
    let cpu = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdio[3].on("data", (chunk) => (cpu += chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      const ms = performance.now() - started;
      if (status !== 0 && status !== 1) reject(new Error(`node ${args.join(" ").slice(0, 200)} exited ${status}: ${stderr}`));
      else resolve([ms, Number(cpu)]);
    });
  });
}

const times = new Map([...commands.keys()].map((name) => [name, []]));
const cpus = new Map([...commands.keys()].map((name) => [name, []]));
for (const args of commands.values()) await time(args); // warm the file cache
const load = loadavg();
for (let i = 0; i < RUNS; i++) {
  for (const [name, args] of commands) {
    const [ms, cpu] = await time(args);
    times.get(name).push(ms);
    cpus.get(name).push(cpu);
  }
}
const loadAfter = loadavg();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(
  `\ntheorem-check on a ${TOOLS.toLocaleString("en-US")}-tool app (${text.length.toLocaleString("en-US")} characters), wall time per run, median of ${RUNS}, runs alternating; load average ${load.map((l) => l.toFixed(2)).join(" ")} before, ${loadAfter.map((l) => l.toFixed(2)).join(" ")} after:`,
);
let missed = false;
for (const { name, base, goal } of pairs) {
  const m = median(times.get(name));
  const b = median(times.get(base));
  const ratio = m / b;
  const cpu = median(cpus.get(name));
  const baseCpu = median(cpus.get(base));
  if (goal !== undefined && ratio > goal) missed = true;
  console.log(
    `  ${name.padEnd(28)} ${m.toFixed(0).padStart(5)} ms  against ${base} ${b.toFixed(0).padStart(5)} ms: ${ratio.toFixed(2)}×${goal === undefined ? "" : ` (goal ${goal}×)`}   (min ${Math.min(...times.get(name)).toFixed(0)} against ${Math.min(...times.get(base)).toFixed(0)}; CPU ${cpu.toFixed(0)} ms against ${baseCpu.toFixed(0)} ms, ${(cpu / baseCpu).toFixed(2)}×)`,
  );
}
console.log(missed ? "Goal missed: theorem-check --url takes more than 1.1× the bare SDK client." : "Goal met: theorem-check --url takes at most 1.1× the bare SDK client.");
// The app's process and its pipe would keep this one running: it ends with the benchmark.
app.kill();
