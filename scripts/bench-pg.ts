// npm run bench:pg: the organisation routes' throughput (SPEC §16) on PostgreSQL against SQLite,
// and with two instances on one PostgreSQL against one, side by side in one run: the same
// workload (clients that list the apps, read one app, and re-check one (a live read, then a write under
// the organisation's lock), 8:1:1), rounds
// alternating between the set-ups, medians compared. Servers are the production build
// (.next-bench), started with `next start` on loopback; apps are read from a loopback app.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRawApp, result, sendJson } from "../test/apps/raw-apps";
import { Instance, signUp } from "../test/instances";
import { freshDatabase, startPostgres } from "../test/postgres";
import { ensureBuild } from "./build-app.mjs";
import { buildWorker } from "./build-worker.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
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

/** Requests answered per second by `CLIENTS` clients spread over `instances` for SECONDS. */
async function throughput(instances: Instance[], cookie: string, ids: string[]): Promise<number> {
  const until = Date.now() + SECONDS * 1000;
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
  return done / ((Date.now() - started) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const onSqlite = await prepare(sqlite);
  const onPg = await prepare(pgA);
  const setups = {
    "SQLite, one instance": () => throughput([sqlite], onSqlite.cookie, onSqlite.ids),
    "PostgreSQL, one instance": () => throughput([pgA], onPg.cookie, onPg.ids),
    "PostgreSQL, two instances": () => throughput([pgA, pgB], onPg.cookie, onPg.ids),
  };
  const runs: Record<string, number[]> = Object.fromEntries(Object.keys(setups).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(setups)) runs[name]!.push(await run());
    console.log(`round ${round + 1}/${ROUNDS}: ${Object.entries(runs).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(0)}/s`).join(", ")}`);
  }
  const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)])) as Record<keyof typeof setups, number>;
  console.log(`\n${CLIENTS} clients, ${SECONDS} s a run, ${ROUNDS} rounds alternating; lists of ${APPS} apps (8 lists : 1 app : 1 re-check)`);
  for (const [k, v] of Object.entries(m)) console.log(`  ${k.padEnd(28)} ${v.toFixed(1)} requests/s (median)`);
  console.log(`  PostgreSQL / SQLite (one instance each): ${(m["PostgreSQL, one instance"] / m["SQLite, one instance"]).toFixed(2)}×`);
  console.log(`  two instances / one (PostgreSQL):        ${(m["PostgreSQL, two instances"] / m["PostgreSQL, one instance"]).toFixed(2)}×`);
} finally {
  await Promise.all([sqlite.stop(), pgA.stop(), pgB.stop()]);
  await app.close();
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
