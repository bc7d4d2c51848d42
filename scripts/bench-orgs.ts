/**
 * Benchmark of an organisation's reads (`npm run bench:orgs`), side by side in one run:
 *  1. In an organisation of 50 apps where one answers after 2.5 s: re-checking one fast app
 *     (read it, store it, name the whole list) against reading that app alone. Goal ≤ 1.2×.
 *  2. The database bytes 100 re-checks of an unchanged 1,000-tool app add, against the size of
 *     the listing itself. Goal ≤ 1×.
 *  3. In the same organisation of 50 apps: changing one tool's setting (SPEC §19: checked against
 *     what the app lists, stored, audited, answered) against naming the organisation once (every
 *     app's whole names from its stored read, as the list answers them). Goal ≤ 1.2×. A database
 *     statement (the organisation's name changed) is printed beside them, for scale.
 * The apps run in a process of their own, on 127.0.0.1, as remote apps would.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// Outside Next, `server-only` throws on import; here it is the marker it is in a server bundle.
register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`),
);
process.env["CHECK_ALLOW_HOSTS"] = "127.0.0.1";
const dir = mkdtempSync(join(tmpdir(), "theorem-bench-orgs-"));
process.env["DATABASE_URL"] = join(dir, "bench.db");

const { buildWorker } = await import("./build-worker.mjs");
await buildWorker();
const { openDatabase } = await import("@/lib/db/client");
const { listApps } = await import("@/lib/orgs/lists");
const { addApp } = await import("@/lib/orgs/connections");
const { recheckApp } = await import("@/lib/orgs/rechecks");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { changeAppSettings } = await import("@/lib/orgs/settings");
const { readInPool } = await import("@/lib/pool/engine-pool");

const FAST = 49;
const child = spawn(
  process.execPath,
  [
    "--import",
    "tsx",
    "--input-type=module",
    "-e",
    `import { serveMcpApp } from ${JSON.stringify(fileURLToPath(new URL("../test/apps/demo-apps.ts", import.meta.url)))};
     const tool = (name) => ({ name, description: "Looks something up.", inputSchema: { type: "object", properties: { q: { type: "string", title: "Query" } } }, annotations: { readOnlyHint: true } });
     const fast = [];
     for (let i = 0; i < ${FAST}; i++) fast.push((await serveMcpApp({ name: "Fast " + i, tools: [tool("look_up"), tool("list_things")] })).url);
     const slow = (await serveMcpApp({ name: "Slow", tools: [tool("wait")], initializeDelayMs: 2500 })).url;
     const big = (await serveMcpApp({ name: "Big", tools: Array.from({ length: 1000 }, (_, i) => tool("tool_" + i)) })).url;
     console.log(JSON.stringify({ fast, slow, big }));
     process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`,
  ],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const urls = JSON.parse(line) as { fast: string[]; slow: string; big: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const fine = (x: number) => `${x.toFixed(3)} ms`;
// Warmed up (the read runs in a worker thread, which warms up on its own), then medians of
// alternate runs, back to back, as a leader re-checks one app after another. One read of this
// app took 7–20 ms here, some 170: a median of 21 moved by a tenth from run to run, of 101 less.
const REPS = Number(process.env["BENCH_REPS"] ?? 101);
const WARMUP = Number(process.env["BENCH_WARMUP"] ?? 20);

const db = openDatabase(join(dir, "bench.db"));
const ctx = { db };
await ensureOrg(db, "bench", "Bench");
// The slow app first: every later app's names depend on it.
await addApp(ctx, "bench", { name: "Slow", url: urls.slow });
const fast = [];
for (const [i, url] of urls.fast.entries()) fast.push(await addApp(ctx, "bench", { name: `Fast ${i}`, url }));
const target = fast[24]!;

// ---- 1. One app's re-check against reading it alone, alternating ----
const recheck: number[] = [];
const alone: number[] = [];
for (let i = 0; i < WARMUP + REPS; i++) {
  let t = performance.now();
  await recheckApp(ctx, "bench", target.id);
  const a = performance.now() - t;
  t = performance.now();
  await readInPool({ name: target.name, url: target.url });
  const b = performance.now() - t;
  if (i >= WARMUP) {
    recheck.push(a);
    alone.push(b);
  }
}
const recheckRatio = median(recheck) / median(alone);
console.log(`1. Re-checking one fast app of 50 (one answers after 2.5 s), medians of ${REPS} after ${WARMUP} to warm up:`);
console.log(`   re-check (read, store, name all 50)  ${ms(median(recheck)).padStart(10)}`);
console.log(`   reading that app alone               ${ms(median(alone)).padStart(10)}`);
console.log(`   ratio ${recheckRatio.toFixed(2)} (goal ≤ 1.2)${recheckRatio <= 1.2 ? "" : ": missed"}`);

// ---- 3. One tool's setting against re-naming the organisation, alternating ----
const leader = { id: "bench-leader", email: "leader@bench.test" };
const SETTING_REPS = 201;
const setting: number[] = [];
const naming: number[] = [];
const statement: number[] = [];
for (let i = 0; i < SETTING_REPS + 10; i++) {
  let t = performance.now();
  await changeAppSettings(ctx, { org: "bench", app: target.id, owner: null }, { tools: { look_up: i % 2 === 0 ? "blocked" : "default" } }, leader);
  const a = performance.now() - t;
  t = performance.now();
  await listApps(ctx, "bench");
  const b = performance.now() - t;
  t = performance.now();
  await ensureOrg(db, "bench", `Bench ${i}`);
  const c = performance.now() - t;
  if (i >= 10) {
    setting.push(a);
    naming.push(b);
    statement.push(c);
  }
}
const settingRatio = median(setting) / median(naming);
console.log(`3. Changing one tool's setting in an organisation of 50 apps, medians of ${SETTING_REPS}:`);
console.log(`   set a tool (check, store, audit, answer)       ${fine(median(setting)).padStart(10)}`);
console.log(`   name the organisation once (its 50 apps)       ${fine(median(naming)).padStart(10)}`);
console.log(`   for scale: one statement (rename the organisation) ${fine(median(statement)).padStart(10)}`);
console.log(`   ratio setting / naming ${settingRatio.toFixed(2)} (goal ≤ 1.2)${settingRatio <= 1.2 ? "" : ": missed"}`);

// ---- 2. Bytes added by 100 unchanged re-checks of a 1,000-tool app ----
await ensureOrg(db, "big", "Big");
const big = await addApp(ctx, "big", { name: "Big", url: urls.big });
const file = join(dir, "bench.db");
const bytes = () => {
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  return statSync(file).size;
};
const listingChars = big.lastCheck!.result.listing.chars;
const before = bytes();
for (let i = 0; i < 100; i++) await recheckApp(ctx, "big", big.id);
const added = bytes() - before;
console.log(`2. 100 re-checks of an unchanged 1,000-tool app (a listing of ${listingChars.toLocaleString("en-GB")} characters):`);
console.log(`   database bytes added ${added.toLocaleString("en-GB")}, ratio to the listing ${(added / listingChars).toFixed(3)} (goal ≤ 1)`);

db.$client.close();
child.stdin.end();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
