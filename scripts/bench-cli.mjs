/**
 * Benchmark of the command line (`npm run bench:cli`): the wall time of `theorem-check` on a
 * 1,000-tool listing file, as a CI step runs it (a fresh `node` each time, through the
 * launcher), against `node -e` that only reads and parses the same file. Runs alternate, side
 * by side, so both see the same machine; medians and their ratio are printed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

const launcher = join(root, "bin/theorem-check.mjs");
const commands = {
  "node -e (read and parse only)": ["-e", `JSON.parse(require("fs").readFileSync(${JSON.stringify(listing)}, "utf8"))`],
  "theorem-check --json": [launcher, "--listing", listing, "--name", "Bench", "--json"],
  "theorem-check (table)": [launcher, "--listing", listing, "--name", "Bench"],
};

function time(args) {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], cwd: root });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return ms;
}

const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const args of Object.values(commands)) time(args); // warm the file cache
for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(commands)) times[name].push(time(args));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = median(times["node -e (read and parse only)"]);
console.log(`\ntheorem-check on a ${TOOLS.toLocaleString("en-US")}-tool listing (${text.length.toLocaleString("en-US")} characters), wall time per run, median of ${RUNS}, runs alternating:`);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(`  ${name.padEnd(32)} ${m.toFixed(0).padStart(5)} ms  ${(m / base).toFixed(2)}×   (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`);
}
