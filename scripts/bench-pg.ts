// npm run bench:pg: the organisation routes' throughput (SPEC §16) on PostgreSQL against SQLite,
// and with two instances on one PostgreSQL against one, side by side in one run: the same
// workload (clients that list the apps, read one app, and re-check one (a live read, then a write under
// the organisation's lock), 8:1:1), rounds
// alternating between the set-ups, medians compared. Servers are the production build
// (.next-bench), started with `next start` on loopback; apps are read from a loopback app. Beside
// each throughput, the CPU time per request of the servers' processes (and PostgreSQL's), which a
// busy machine changes far less than the wall clock.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Client } from "pg";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRawApp, result, sendJson } from "../test/apps/raw-apps";
import { Instance, signUp } from "../test/instances";
import { freshDatabase, startPostgres } from "../test/postgres";
import { ensureBuild } from "./build-app.mjs";
import { buildWorker } from "./build-worker.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
// Each set-up's servers serve this long before the rounds, unmeasured: a server's CPU a request
// fell by half over its first 30 s of this workload (its code and PostgreSQL's plans warming up),
// so rounds measured from a cold start compared set-ups at different stages of warming.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const APPS = 30;

process.env.NEXT_DIST_DIR = ".next-bench";
await buildWorker();
if (!ensureBuild(".next-bench")) process.exit(1);

const app = await startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: [{ name: "hours", inputSchema: { type: "object" } }, { name: "clock_in" }] })) });
const postgres = await startPostgres();
const dir = mkdtempSync(join(tmpdir(), "theorem-bench-pg-"));
// No scheduled reads: every request is the workload's.
const common = { THEOREM_RECHECK_MINUTES: "0", THEOREM_SECRET_KEY: randomBytes(32).toString("hex"), LOG_LEVEL: "warn" };
const pgUrl = await freshDatabase(postgres.url);
const [sqlite, pgA, pgB] = await Promise.all([
  Instance.start("sqlite", { ...common, DATABASE_URL: join(dir, "bench.db") }),
  Instance.start("pg-a", { ...common, DATABASE_URL: pgUrl }),
  Instance.start("pg-b", { ...common, DATABASE_URL: pgUrl }),
]);

/** CPU milliseconds used so far by each process, with its parent (Linux /proc; 100 ticks a second). */
function processTimes(): Map<number, { parent: number; ms: number }> {
  const found = new Map<number, { parent: number; ms: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]!.split(" ");
      found.set(Number(name), { parent: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The processes under (and including) `roots`. */
function treeOf(roots: number[], times: Map<number, { parent: number; ms: number }>): Set<number> {
  const tree = new Set(roots);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [pid, { parent }] of times) if (!tree.has(pid) && tree.has(parent)) grown = tree.add(pid).size > 0;
  }
  return tree;
}

/** The CPU milliseconds the process trees of `roots` used while `work` ran (a process gone meanwhile counts nothing). */
async function cpuDuring<T>(roots: number[], work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = processTimes();
  const value = await work();
  const after = processTimes();
  let cpuMs = 0;
  for (const pid of treeOf(roots, after)) cpuMs += after.get(pid)!.ms - (before.get(pid)?.ms ?? 0);
  return { value, cpuMs };
}

// PostgreSQL's own processes: the parent of a backend is the server.
const probe = new Client({ connectionString: pgUrl });
await probe.connect();
const backend = Number(((await probe.query("SELECT pg_backend_pid() AS pid")).rows[0] as { pid: number }).pid);
const postmaster = processTimes().get(backend)!.parent;
await probe.end();

let added = 0;
/** An account and an organisation of `apps` apps on the database behind `instance`. */
async function prepare(instance: Instance): Promise<{ cookie: string; ids: string[] }> {
  const cookie = await signUp(instance, `bench-${instance.name}@bench.test`);
  const made = await instance.fetch("/api/orgs", cookie, { method: "POST", body: { name: "Bench", slug: "bench" } });
  if (made.status !== 201) throw new Error(`Creating the organisation answered ${made.status}`);
  const ids: string[] = [];
  for (let i = 0; i < APPS; i++) ids.push(await connect(instance, cookie));
  return { cookie, ids };
}

async function connect(instance: Instance, cookie: string): Promise<string> {
  const n = ++added;
  const answer = await instance.fetch("/api/orgs/bench/apps", cookie, { method: "POST", body: { name: `App ${n}`, url: `${app.url}/${n}` } });
  if (answer.status !== 201) throw new Error(`Connecting an app answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { id: string }).id;
}

/** Requests answered (and per second) by `CLIENTS` clients spread over `instances` for `seconds`. */
async function throughput(instances: Instance[], cookie: string, ids: string[], seconds: number): Promise<{ requests: number; perSecond: number }> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const client = async (c: number) => {
    const instance = instances[c % instances.length]!;
    for (let k = c; Date.now() < until; k++) {
      const step = k % 10;
      const answer =
        step === 0
          ? await instance.fetch(`/api/orgs/bench/apps/${ids[k % ids.length]}/check`, cookie, { method: "POST", body: {} })
          : step === 1
            ? await instance.fetch(`/api/orgs/bench/apps/${ids[k % ids.length]}`, cookie)
            : await instance.fetch("/api/orgs/bench/apps", cookie);
      await answer.arrayBuffer();
      if (answer.status >= 400) throw new Error(`${instance.name} answered ${answer.status}`);
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  return { requests: done, perSecond: done / ((Date.now() - started) / 1000) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const onSqlite = await prepare(sqlite);
  const onPg = await prepare(pgA);
  const pid = (instance: Instance) => instance.process.pid!;
  const setups = {
    "SQLite, one instance": { roots: [pid(sqlite)], run: (seconds: number) => throughput([sqlite], onSqlite.cookie, onSqlite.ids, seconds) },
    "PostgreSQL, one instance": { roots: [pid(pgA), postmaster], run: (seconds: number) => throughput([pgA], onPg.cookie, onPg.ids, seconds) },
    "PostgreSQL, two instances": { roots: [pid(pgA), pid(pgB), postmaster], run: (seconds: number) => throughput([pgA, pgB], onPg.cookie, onPg.ids, seconds) },
  };
  for (const { run } of Object.values(setups)) await run(WARMUP_SECONDS);
  const runs: Record<string, number[]> = Object.fromEntries(Object.keys(setups).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(setups).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, { roots, run }] of Object.entries(setups)) {
      const { value, cpuMs } = await cpuDuring(roots, () => run(SECONDS));
      runs[name]!.push(value.perSecond);
      cpu[name]!.push(cpuMs / value.requests);
    }
    console.log(`round ${round + 1}/${ROUNDS}: ${Object.entries(runs).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(0)}/s (${cpu[k]!.at(-1)!.toFixed(2)} ms CPU each)`).join(", ")}`);
  }
  const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)])) as Record<keyof typeof setups, number>;
  const c = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)])) as Record<keyof typeof setups, number>;
  console.log(`\n${CLIENTS} clients, ${WARMUP_SECONDS} s of warm-up for each set-up, then ${SECONDS} s a run, ${ROUNDS} rounds alternating; lists of ${APPS} apps (8 lists : 1 app : 1 re-check)`);
  for (const [k, v] of Object.entries(m)) console.log(`  ${k.padEnd(28)} ${v.toFixed(1)} requests/s, ${c[k as keyof typeof setups].toFixed(2)} ms CPU a request (servers and PostgreSQL; medians)`);
  console.log(`  PostgreSQL / SQLite (one instance each): ${(m["PostgreSQL, one instance"] / m["SQLite, one instance"]).toFixed(2)}× the requests, ${(c["PostgreSQL, one instance"] / c["SQLite, one instance"]).toFixed(2)}× the CPU a request`);
  console.log(`  two instances / one (PostgreSQL):        ${(m["PostgreSQL, two instances"] / m["PostgreSQL, one instance"]).toFixed(2)}× the requests, ${(c["PostgreSQL, two instances"] / c["PostgreSQL, one instance"]).toFixed(2)}× the CPU a request`);
} finally {
  await Promise.all([sqlite.stop(), pgA.stop(), pgB.stop()]);
  await app.close();
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
