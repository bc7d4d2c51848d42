import { randomBytes } from "node:crypto";
import { sql as query } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, it } from "vitest";
import type { LiveApp } from "@/lib/mcp/read-app";
import { freshDatabase, migratePostgres, startPostgres, type TestPostgres } from "@/test/postgres";

// Scheduled re-checks as jobs on PostgreSQL (SPEC §16): two "instances" (each its own pool, its
// own pg-boss and its own reader) over one database, on a short interval, with apps read inline.
const server: TestPostgres = await startPostgres();
// The store takes PostgreSQL's tables when DATABASE_URL names PostgreSQL as it is first loaded.
process.env.DATABASE_URL = server.url;
process.env.THEOREM_SECRET_KEY = randomBytes(32).toString("hex");
afterAll(async () => {
  await server.stop();
});

const { openPostgres, sqlExecutor, transaction } = await import("@/lib/db/client");
const { claimDue } = await import("./schedule");
const { addApp } = await import("@/lib/orgs/connections");
const { hasJob, RECHECK_QUEUE, startRecheckJobs } = await import("./jobs");
const { ensureOrg } = await import("@/lib/orgs/organisations");
type Reader = (app: LiveApp) => Promise<{ name: string; entries: unknown[] }>;

interface Instance {
  name: string;
  jobs: Awaited<ReturnType<typeof startRecheckJobs>>;
  close(): Promise<void>;
}

async function database(): Promise<string> {
  const url = await freshDatabase(server.url);
  await migratePostgres(url);
  return url;
}

async function instance(name: string, url: string, read: Reader, options: Partial<Parameters<typeof startRecheckJobs>[1]> = {}): Promise<Instance> {
  const db = openPostgres(url);
  const jobs = await startRecheckJobs({ db, read }, { connectionString: url, interval: 60_000, tickMs: 100, pollingIntervalSeconds: 0.5, ...options });
  return {
    name,
    jobs,
    async close() {
      await jobs.stop(1000);
      await (db.$client as unknown as { end(): Promise<void> }).end();
    },
  };
}

/** Connects `names` to a new organisation, read once inline, and answers their ids by URL. */
async function connect(url: string, org: string, names: string[]): Promise<Map<string, string>> {
  const db = openPostgres(url);
  try {
    await ensureOrg(db, org, org);
    const ids = new Map<string, string>();
    const listed: Reader = async (app) => ({ name: app.name, entries: [{ name: "hours" }] });
    for (const name of names) {
      const app = await addApp({ db, read: listed }, org, { name, url: `http://${name}.test/mcp` });
      ids.set(`http://${name}.test/mcp`, app.id);
    }
    return ids;
  } finally {
    await (db.$client as unknown as { end(): Promise<void> }).end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for what the test waits on (never a time it takes: the timeout is only how long to look). */
async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
}

/** The jobs not yet ended (queued, waiting to be retried or running), but those of `except`. */
async function unfinished(url: string, except = ""): Promise<number> {
  const [row] = (await sql(url, "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state < 'completed' AND coalesce(singleton_key, '') <> $2", [RECHECK_QUEUE, except])) as { n: number }[];
  return row!.n;
}

// The schedule's clock is the test's: the instances tick only when told (`tickMs` past the test),
// both at once, at a time the test sets, and each step's jobs end before the clock moves on. So
// what is asserted is what the schedule does at each time, not what a busy machine fits in a second.
const NO_TICKS = { tickMs: 3_600_000 };

describe("scheduled re-checks as jobs, with two instances", () => {
  it("reads each app once per interval, whichever instance claims it", { timeout: 120_000 }, async () => {
    const url = await database();
    const names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
    await connect(url, "acme", names);
    // Not on the schedule yet: each is placed somewhere in the first interval.
    await sql(url, "UPDATE apps SET next_check_at = NULL", []);
    const interval = 60_000;
    const step = interval / 5;
    const start = Date.now();
    let now = start;
    const reads: { url: string; by: string; at: number }[] = [];
    const reader = (by: string): Reader => async (app) => {
      reads.push({ url: app.url, by, at: now });
      return { name: app.name, entries: [{ name: "hours" }] };
    };
    const [a, b] = await Promise.all([instance("a", url, reader("a"), { interval, ...NO_TICKS }), instance("b", url, reader("b"), { interval, ...NO_TICKS })]);
    try {
      // Three intervals, a fifth of one at a time.
      for (now = start; now <= start + 3 * interval; now += step) {
        const claimed = (await Promise.all([a.jobs.tick(now), b.jobs.tick(now)])).flat();
        // An app due is claimed by one instance, once.
        expect(new Set(claimed.map((app) => app.id)).size).toBe(claimed.length);
        await until(`the jobs claimed at ${now - start} ms ending`, async () => (await unfinished(url)) === 0);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    for (const name of names) {
      const times = reads.filter((r) => r.url === `http://${name}.test/mcp`).map((r) => r.at - start);
      // Placed somewhere in the first interval, then due once each interval (±10 %), whichever
      // instance runs it: read at the first step past each due time, so at least 0.9 of an
      // interval less a step apart, two to four times in three intervals.
      expect(times.length, `${name} read at ${times.join(", ")} ms`).toBeGreaterThanOrEqual(2);
      expect(times.length, `${name} read at ${times.join(", ")} ms`).toBeLessThanOrEqual(4);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!, `${name} read at ${times.join(", ")} ms`).toBeGreaterThanOrEqual(0.9 * interval - step);
    }
    // Which instance runs a job is the queue's to say (the first worker to fetch it): that any
    // instance can run what another claimed is the test of a stopped instance below.
  });

  it("keeps reading the other apps while one app's read outlasts its interval, and never queues that app twice", { timeout: 120_000 }, async () => {
    const url = await database();
    const fast = ["kilo", "lima", "mike", "november"];
    const ids = await connect(url, "hotel", ["slow", ...fast]);
    const slowId = ids.get("http://slow.test/mcp")!;
    const interval = 60_000;
    const step = interval / 5;
    const start = Date.now();
    let now = start;
    const reads: { url: string; at: number }[] = [];
    // The slow app's first scheduled read lasts until the test ends it: four intervals.
    let slowStarted = false;
    let endSlowRead = () => {};
    const slowRead = new Promise<void>((resolve) => (endSlowRead = resolve));
    const reader: Reader = async (app) => {
      reads.push({ url: app.url, at: now });
      if (app.url === "http://slow.test/mcp" && !slowStarted) {
        slowStarted = true;
        await slowRead;
      }
      return { name: app.name, entries: [{ name: "hours" }] };
    };
    // Every app due now: one batch of jobs, the slow one among them.
    await sql(url, "UPDATE apps SET next_check_at = 0", []);
    const [a, b] = await Promise.all([instance("a", url, reader, { interval, ...NO_TICKS }), instance("b", url, reader, { interval, ...NO_TICKS })]);
    let jobsOfSlow: { state: string }[] = [];
    try {
      await Promise.all([a.jobs.tick(now), b.jobs.tick(now)]);
      await until("the slow read starting", () => slowStarted);
      // While it runs, the slow app is due again four times; every other app's jobs end at each step.
      // (Before, the slow app's next job sat queued beside its running one, and every fetch of a
      // batch holding it came back empty: nothing was read until the slow read ended.)
      for (now = start + step; now <= start + 4 * interval; now += step) {
        await Promise.all([a.jobs.tick(now), b.jobs.tick(now)]);
        await until(`the other apps' jobs at ${now - start} ms ending`, async () => (await unfinished(url, slowId)) === 0);
      }
      jobsOfSlow = (await sql(url, "SELECT state::text FROM pgboss.job WHERE singleton_key = $1 AND state < 'completed'", [slowId])) as { state: string }[];
    } finally {
      endSlowRead();
      await Promise.all([a.close(), b.close()]);
    }
    // One job for the slow app, the one running: none queued behind it.
    expect(jobsOfSlow).toEqual([{ state: "active" }]);
    // Meanwhile the others were read interval after interval: at 0, then by about 1, 2 and 3 intervals (+10 %).
    for (const name of fast) {
      const times = reads.filter((r) => r.url === `http://${name}.test/mcp`).map((r) => r.at - start);
      expect(times.length, `${name} read at ${times.join(", ")} ms`).toBeGreaterThanOrEqual(4);
    }
    expect(reads.filter((r) => r.url === "http://slow.test/mcp")).toHaveLength(1);
  });

  it("retries a job that failed, with back-off, until it is read", { timeout: 40_000 }, async () => {
    const url = await database();
    const ids = await connect(url, "beta", ["flaky"]);
    const app = ids.get("http://flaky.test/mcp")!;
    // Each attempt as the queue stored it: which retry, when it was let start, when it started.
    type Attempt = { retry: number; delay: number; backoff: boolean; startAfter: number; startedOn: number };
    const attempts: Attempt[] = [];
    const flaky: Reader = async (read) => {
      const [row] = (await sql(
        url,
        `SELECT retry_count AS retry, retry_delay AS delay, retry_backoff AS backoff,
                (extract(epoch FROM start_after) * 1000)::float8 AS "startAfter", (extract(epoch FROM started_on) * 1000)::float8 AS "startedOn"
           FROM pgboss.job WHERE singleton_key = $1 AND state = 'active'`,
        [app],
      )) as Attempt[];
      attempts.push(row!);
      if (attempts.length <= 2) throw new Error("the database went away");
      return { name: read.name, entries: [{ name: "hours" }] };
    };
    const a = await instance("a", url, flaky, { interval: 600_000, retryDelaySeconds: 1 });
    try {
      await sql(url, "UPDATE apps SET next_check_at = 0 WHERE id = $1", [app]);
      await until("the third attempt", () => attempts.length >= 3, 35_000);
    } finally {
      await a.close();
    }
    // The same job, retried twice, with the delay asked for and doubling (pg-boss's back-off);
    // each retry held back until its stored start time, which the database set a delay past the
    // failed attempt's start: what the queue stored, not how long this machine took.
    expect(attempts.map(({ retry, delay, backoff }) => ({ retry, delay, backoff }))).toEqual([0, 1, 2].map((retry) => ({ retry, delay: 1, backoff: true })));
    const [first, second, third] = attempts as [Attempt, Attempt, Attempt];
    for (const attempt of attempts) expect(attempt.startedOn).toBeGreaterThanOrEqual(attempt.startAfter);
    expect(second.startAfter - first.startedOn).toBeGreaterThanOrEqual(1_000);
    expect(third.startAfter - second.startedOn).toBeGreaterThanOrEqual(2_000);
    // The read that worked is stored: the app has its inline read and this one.
    expect(await sql(url, "SELECT count(*)::int AS n FROM check_results WHERE app = $1", [app])).toEqual([{ n: 2 }]);
  });

  it("runs again elsewhere a job whose instance stopped mid-read", { timeout: 40_000 }, async () => {
    const url = await database();
    const ids = await connect(url, "gamma", ["stuck"]);
    const by: string[] = [];
    const hangs: Reader = () => {
      by.push("a");
      return new Promise(() => {});
    };
    const a = await instance("a", url, hangs, { interval: 600_000, retryDelaySeconds: 1 });
    await sql(url, "UPDATE apps SET next_check_at = 0 WHERE id = $1", [ids.get("http://stuck.test/mcp")]);
    await until("instance a taking the job", () => by.length === 1, 10_000);
    const b = await instance("b", url, async (app) => {
      by.push("b");
      return { name: app.name, entries: [] };
    }, { interval: 600_000 });
    try {
      // a stops while its read hangs: past its grace the job is failed, and b runs it.
      await a.close();
      await until("instance b running the job", () => by.includes("b"), 15_000);
    } finally {
      await b.close();
    }
    expect(by).toEqual(["a", "b"]);
  });
});

describe("a claim and its job, in one transaction", () => {
  it("leaves an app due when its job cannot be stored, and stores both otherwise", { timeout: 20_000 }, async () => {
    const url = await database();
    const ids = await connect(url, "delta", ["lost"]);
    const id = ids.get("http://lost.test/mcp");
    await sql(url, "UPDATE apps SET next_check_at = 0 WHERE id = $1", [id]);
    const db = openPostgres(url);
    try {
      await expect(claimDue({ db }, 60_000, Date.now(), { onClaimed: () => Promise.reject(new Error("the queue is gone")) })).rejects.toThrow("the queue is gone");
      expect(await sql(url, "SELECT next_check_at::int AS due FROM apps WHERE id = $1", [id])).toEqual([{ due: 0 }]);
      const handed: string[] = [];
      expect(await claimDue({ db }, 60_000, Date.now(), { onClaimed: async (_tx, apps) => void handed.push(...apps.map((app) => app.id)) })).toEqual([{ id, org: "delta" }]);
      expect(handed).toEqual([id]);
    } finally {
      await (db.$client as unknown as { end(): Promise<void> }).end();
    }
  });

  it("runs another library's SQL in the transaction, each $n one parameter (an array, an object, one used twice)", { timeout: 20_000 }, async () => {
    const url = await database();
    const db = openPostgres(url);
    try {
      const rows = await transaction(db, (tx) =>
        sqlExecutor(tx).executeSql("SELECT $1::int[] AS list, $2::jsonb ->> 'a' AS a, $3::text || $3::text AS twice, $10::text AS tenth", [[1, 2], { a: "b" }, "x", null, null, null, null, null, null, "ten"]),
      );
      expect(rows.rows).toEqual([{ list: [1, 2], a: "b", twice: "xx", tenth: "ten" }]);
      // Rolled back with the transaction: nothing written survives a failure.
      await expect(
        transaction(db, async (tx) => {
          await sqlExecutor(tx).executeSql("CREATE TABLE written_then_undone (id int)");
          throw new Error("undo");
        }),
      ).rejects.toThrow("undo");
      expect(await sql(url, "SELECT to_regclass('written_then_undone') IS NULL AS gone", [])).toEqual([{ gone: true }]);
    } finally {
      await (db.$client as unknown as { end(): Promise<void> }).end();
    }
  });
});

async function sql(url: string, text: string, params: unknown[]): Promise<unknown[]> {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe("how many apps a tick hands on", () => {
  it("claims every due app, in turns of 50, while the queue has room, and the workers read them all", { timeout: 60_000 }, async () => {
    const url = await database();
    const names = Array.from({ length: 120 }, (_, i) => `app${i}`);
    await connect(url, "many", names);
    const read = new Set<string>();
    // Ticks only when asked: the one below is the whole schedule.
    const a = await instance("a", url, async (app) => {
      read.add(app.url);
      return { name: app.name, entries: [{ name: "hours" }] };
    }, { interval: 600_000, tickMs: 3_600_000 });
    try {
      await sql(url, "UPDATE apps SET next_check_at = 0", []);
      const claimed = await a.jobs.tick();
      expect(claimed).toHaveLength(120);
      await until("every app read", () => read.size === 120, 45_000);
    } finally {
      await a.close();
    }
  });
});

describe("a claim's question to the queue", () => {
  it("finds an app's unfinished job in pg-boss's index of them, without reading the finished ones", { timeout: 30_000 }, async () => {
    const url = await database();
    const ids = await connect(url, "echo", ["busy", "free"]);
    const a = await instance("a", url, async (app) => ({ name: app.name, entries: [] }), { tickMs: 3_600_000 });
    try {
      // A day of finished jobs, and one still running for "busy".
      await sql(url, `INSERT INTO pgboss.job (name, data, state, singleton_key, policy, completed_on) SELECT $1, '{}'::jsonb, 'completed', 'app-' || g, 'stately', now() FROM generate_series(1, 20000) g`, [RECHECK_QUEUE]);
      await sql(url, `INSERT INTO pgboss.job (name, data, state, singleton_key, policy, started_on) VALUES ($1, '{}'::jsonb, 'active', $2, 'stately', now())`, [RECHECK_QUEUE, ids.get("http://busy.test/mcp")]);
      await sql(url, "ANALYZE pgboss.job", []);
      const asked = (text: ReturnType<typeof query>) => {
        const q = new PgDialect().sqlToQuery(text);
        return sql(url, q.sql, q.params);
      };
      expect(await asked(query`SELECT id FROM apps WHERE NOT ${hasJob}`)).toEqual([{ id: ids.get("http://free.test/mcp") }]);
      const [row] = (await asked(query`EXPLAIN (FORMAT JSON) SELECT id FROM apps WHERE NOT ${hasJob}`)) as { "QUERY PLAN": [{ Plan: PlanNode }] }[];
      interface PlanNode {
        "Node Type": string;
        "Relation Name"?: string;
        "Index Name"?: string;
        Plans?: PlanNode[];
      }
      const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
      const plan = nodes(row!["QUERY PLAN"][0].Plan);
      expect(plan.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] !== "apps")).toEqual([]);
      expect(plan.some((n) => n["Index Name"]?.endsWith("_i3"))).toBe(true);
    } finally {
      await a.close();
    }
  });

  it("chooses the apps due once per claim, however the planner joins them", { timeout: 60_000 }, async () => {
    const url = await database();
    const names = Array.from({ length: 150 }, (_, i) => `app${i}`);
    const ids = [...(await connect(url, "golf", names)).values()];
    const a = await instance("a", url, async (app) => ({ name: app.name, entries: [] }), { tickMs: 3_600_000 });
    // Planned as the statistics of a busy schedule once had it: joins by nested loop, nothing hashed,
    // materialised or sorted. As `IN (…)`, the choice of apps due then ran again for every app due,
    // and claimed 75 apps of at most 50.
    const settings = ["enable_hashjoin", "enable_mergejoin", "enable_material", "enable_hashagg", "enable_sort"].map((s) => `-c ${s}=off`).join(" ");
    const db = openPostgres(`${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(settings)}`);
    try {
      await sql(url, "UPDATE apps SET next_check_at = 0", []);
      // Half the apps have a read under way.
      await sql(url, `INSERT INTO pgboss.job (name, data, state, singleton_key, policy, started_on) SELECT $1, '{}'::jsonb, 'active', id, 'stately', now() FROM unnest($2::text[]) AS id`, [RECHECK_QUEUE, ids.slice(0, 75)]);
      const hits = async () => {
        const [row] = (await sql(url, "SELECT pg_stat_force_next_flush(), blks_hit::int AS hits FROM pg_stat_database WHERE datname = current_database()", [])) as { hits: number }[];
        return row!.hits;
      };
      const before = await hits();
      const claimed = await claimDue({ db }, 60_000, Date.now(), { max: 50, busy: hasJob });
      // Its connection's counts reach the view when it next flushes them (at most a second later).
      await db.$client.query("SELECT pg_stat_force_next_flush()");
      const after = await hits();
      expect(claimed).toHaveLength(50);
      expect(claimed.every((app) => ids.indexOf(app.id) >= 75)).toBe(true);
      expect(after - before).toBeLessThan(20_000);
    } finally {
      await (db.$client as unknown as { end(): Promise<void> }).end();
      await a.close();
    }
  });
});
