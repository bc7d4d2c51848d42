// npm run bench:capacity: how many scheduled re-checks an instance reads a minute on PostgreSQL
// (SPEC §16), and how that grows with a second instance, measured side by side in one run, for
// docs/capacity.md. Apps are loopback MCP servers of TOOLS tools each, answering at once (what an
// instance's own work allows) and after LATENCY_MS (what the wait on real apps allows). Every app
// is kept due (a re-check interval of 3 s), so what is measured is how fast the instances drain
// the schedule, not how often it asks. Also measured: what the database keeps per read.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import type { ZooApp } from "../test/apps/http";
import { startRawApp, result, sendJson, sleep } from "../test/apps/raw-apps";
import { Instance, signUp } from "../test/instances";
import { freshDatabase, startPostgres } from "../test/postgres";
import { ensureBuild } from "./build-app.mjs";
import { buildWorker } from "./build-worker.mjs";

const ORGS = Number(process.env.BENCH_ORGS ?? 6);
const APPS_PER_ORG = Number(process.env.BENCH_APPS_PER_ORG ?? 40);
const TOOLS = Number(process.env.BENCH_TOOLS ?? 50);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const INTERVAL_MINUTES = "0.05";
/** Scheduled reads each instance runs at once (THEOREM_RECHECK_READS_AT_ONCE). */
const READS_AT_ONCE = process.env.BENCH_READS_AT_ONCE ?? "5";

process.env.NEXT_DIST_DIR = ".next-bench";
await buildWorker();
if (!ensureBuild(".next-bench")) process.exit(1);

/** A tool as apps list them: a title, a sentence, three arguments. */
const tool = (i: number) => ({
  name: `get_record_${i}`,
  title: `Get record ${i}`,
  description: `Answers record ${i} of the organisation as it is now, with its history of the last 30 days.`,
  inputSchema: { type: "object", properties: { id: { type: "string", description: "The record's id." }, since: { type: "string", format: "date-time" }, limit: { type: "integer", minimum: 1 } }, required: ["id"] },
  annotations: { readOnlyHint: i % 3 !== 0 },
});
const tools = Array.from({ length: TOOLS }, (_, i) => tool(i));

async function startApp(latencyMs: number): Promise<ZooApp> {
  return startRawApp({
    list: async (res, id) => {
      if (latencyMs > 0) await sleep(latencyMs);
      sendJson(res, result(id, { tools }));
    },
  });
}

/** Every process as /proc has it: its parent and its CPU time so far (ms), its command line. */
function processes(): Map<number, { parent: number; cpuMs: number; command: string }> {
  const out = new Map<number, { parent: number; cpuMs: number; command: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // after the command's closing parenthesis: state, ppid, …, utime (14th field), stime (15th)
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ");
      out.set(Number(entry), { parent: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, command });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU ms so far of the processes `roots` and all their descendants. */
function cpuOf(roots: readonly number[]): number {
  const all = processes();
  const wanted = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, p] of all) if (!wanted.has(pid) && wanted.has(p.parent)) grew = wanted.add(pid) !== undefined;
  }
  let ms = 0;
  for (const pid of wanted) ms += all.get(pid)?.cpuMs ?? 0;
  return ms;
}

const postgres = await startPostgres();
const pgPort = new URL(postgres.url).port;
/** The PostgreSQL server's own process (its backends are its children). */
const postmaster = [...processes()].find(([, p]) => p.command.includes(`-p ${pgPort} `))?.[0];
const common = { THEOREM_SECRET_KEY: randomBytes(32).toString("hex"), LOG_LEVEL: "warn" };

interface Measured {
  perMinute: number;
  bytesPerRead: number;
  /** CPU time per read of the dashboard's processes, and of PostgreSQL's. */
  instanceCpuMs: number;
  databaseCpuMs: number;
}

/** Reads a minute by `count` instances on a database of ORGS × APPS_PER_ORG apps served by `app`. */
async function measure(app: ZooApp, counts: readonly number[]): Promise<Map<number, Measured>> {
  const url = await freshDatabase(postgres.url);
  const sql = new pg.Pool({ connectionString: url, max: 2 });
  // Connected with the schedule off, so that the measured instances start with every app in place.
  const prep = await Instance.start("prep", { ...common, DATABASE_URL: url, THEOREM_RECHECK_MINUTES: "0" });
  try {
    const cookie = await signUp(prep, "capacity@bench.test");
    for (let o = 0; o < ORGS; o++) {
      const made = await prep.fetch("/api/orgs", cookie, { method: "POST", body: { name: `Org ${o}`, slug: `org-${o}` } });
      if (made.status !== 201) throw new Error(`Creating an organisation answered ${made.status}`);
      for (let a = 0; a < APPS_PER_ORG; a++) {
        const answer = await prep.fetch(`/api/orgs/org-${o}/apps`, cookie, { method: "POST", body: { name: `App ${a}`, url: `${app.url}/${o}/${a}` } });
        if (answer.status !== 201) throw new Error(`Connecting an app answered ${answer.status}: ${await answer.text()}`);
      }
    }
  } finally {
    await prep.stop();
  }
  const reads = async () => Number((await sql.query("SELECT count(*)::int AS n FROM check_results")).rows[0].n);
  const bytes = async () =>
    Number(
      (
        await sql.query(
          "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('public', 'pgboss')",
        )
      ).rows[0].n,
    );
  const out = new Map<number, Measured>();
  try {
    for (const count of counts) {
      const instances = await Promise.all(
        Array.from({ length: count }, (_, i) => Instance.start(`i${i}`, { ...common, DATABASE_URL: url, THEOREM_RECHECK_MINUTES: INTERVAL_MINUTES, THEOREM_RECHECK_READS_AT_ONCE: READS_AT_ONCE })),
      );
      try {
        await sleep(WARMUP_S * 1000);
        const pids = instances.map((i) => i.process.pid!);
        const cpu = () => [cpuOf(pids), postmaster === undefined ? 0 : cpuOf([postmaster])] as const;
        const [r0, b0, [i0, d0]] = [await reads(), await bytes(), cpu()];
        await sleep(SECONDS * 1000);
        const [r1, b1, [i1, d1]] = [await reads(), await bytes(), cpu()];
        const n = r1 - r0;
        const [timing] = (
          await sql.query(
            "SELECT avg(duration_ms)::int AS took, avg(connect_ms)::int AS connect, avg(list_ms)::int AS list FROM check_results WHERE checked_at >= $1",
            [Date.now() - SECONDS * 1000],
          )
        ).rows as { took: number; connect: number; list: number }[];
        console.log(`    a read took ${timing?.took} ms on average (connecting ${timing?.connect} ms, listing ${timing?.list} ms)`);
        const per = (x: number) => (n > 0 ? x / n : 0);
        out.set(count, { perMinute: (n / SECONDS) * 60, bytesPerRead: per(b1 - b0), instanceCpuMs: per(i1 - i0), databaseCpuMs: per(d1 - d0) });
        console.log(
          `  ${count} instance${count === 1 ? "" : "s"}: ${n} reads in ${SECONDS} s = ${((n / SECONDS) * 60).toFixed(0)} a minute; CPU per read: dashboard ${per(i1 - i0).toFixed(0)} ms, PostgreSQL ${per(d1 - d0).toFixed(0)} ms; the database grew ${((b1 - b0) / 1024).toFixed(0)} KiB`,
        );
      } finally {
        await Promise.all(instances.map((i) => i.stop()));
      }
    }
  } finally {
    await sql.end();
  }
  return out;
}

try {
  console.log(`${ORGS} organisations × ${APPS_PER_ORG} apps of ${TOOLS} tools on PostgreSQL 15, every app kept due, ${READS_AT_ONCE} reads at once per instance; ${SECONDS} s measured after ${WARMUP_S} s (node ${process.version}).`);
  const results: [string, Map<number, Measured>][] = [];
  for (const [label, latency] of [
    ["apps that answer at once", 0],
    [`apps that answer after ${LATENCY_MS} ms`, LATENCY_MS],
  ] as const) {
    console.log(`${label}:`);
    const app = await startApp(latency);
    try {
      results.push([label, await measure(app, [1, 2])]);
    } finally {
      await app.close();
    }
  }
  console.log("\nRe-checks a minute (one run each; the machine's load moves them, the CPU per read much less):");
  for (const [label, m] of results) {
    const one = m.get(1)!;
    const two = m.get(2)!;
    const cpu = (one.instanceCpuMs + two.instanceCpuMs) / 2;
    console.log(
      `  ${label}: one instance ${one.perMinute.toFixed(0)}/min, two ${two.perMinute.toFixed(0)}/min (${(two.perMinute / one.perMinute).toFixed(2)}×); CPU per read ${cpu.toFixed(0)} ms in the dashboard (${(60_000 / cpu).toFixed(0)} reads a minute per core) and ${((one.databaseCpuMs + two.databaseCpuMs) / 2).toFixed(0)} ms in PostgreSQL; ${(one.bytesPerRead / 1024).toFixed(1)} KiB of database per read`,
    );
  }
} finally {
  await postgres.stop();
}
