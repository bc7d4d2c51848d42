import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { Instance, signUp } from "../test/instances";
import { result, sendJson, startRawApp } from "../test/apps/raw-apps";
import type { ZooApp } from "../test/apps/http";
import { freshDatabase, startPostgres, type TestPostgres } from "../test/postgres";

// SPEC §16: two dashboard processes (the browser tests' production build, `next start`) on one
// PostgreSQL. No browser: what is tested is what the instances store and answer.

const INTERVAL_S = 4;

interface Listed {
  apps: { id: string; name: string; url: string; nextCheckAt?: string | null; nextCheckWhy?: string | null; lastCheck: { result: { shortName: string } } | null }[];
}

test.describe.configure({ mode: "serial" });

let postgres: TestPostgres;
let app: ZooApp;
let a: Instance;
let b: Instance;
let cookie = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await startPostgres();
  const url = await freshDatabase(postgres.url);
  // One tool, and every read of an app (by its path) is counted.
  app = await startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: [{ name: "hours", inputSchema: { type: "object" } }] })) });
  const env = { DATABASE_URL: url, THEOREM_SECRET_KEY: randomBytes(32).toString("hex"), THEOREM_RECHECK_MINUTES: String(INTERVAL_S / 60) };
  // Both start at once: the migrations and the job queue's set-up take turns.
  [a, b] = await Promise.all([Instance.start("a", env), Instance.start("b", env)]);

  cookie = await signUp(a, "leader@instances.test");
  // The session made on a is known to b: sessions live in the database.
  expect((await b.fetch("/api/orgs", cookie, { method: "POST", body: { name: "Acme", slug: "acme" } })).status).toBe(201);
});

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await app?.close();
  await postgres?.stop();
});

/** An app whose listing takes `ms`. */
const slowApp = (ms: number) =>
  startRawApp({
    list: async (res, id) => {
      await new Promise((r) => setTimeout(r, ms));
      sendJson(res, result(id, { tools: [{ name: "shift", inputSchema: { type: "object" } }] }));
    },
  });

const readsOf = (path: string) => app.seen.filter((line) => line === `POST ${path} tools/list`).length;

test("40 apps added through both instances at once get 40 distinct short names in connection order, and both list the same", async () => {
  test.setTimeout(120_000);
  const added = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const via = i % 2 === 0 ? a : b;
      const response = await via.fetch("/api/orgs/acme/apps", cookie, { method: "POST", body: { name: "Attendance", url: `${app.url}/${i}` } });
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    }),
  );
  expect(new Set(added).size).toBe(40);
  // Each instance's schedule places new apps on its own tick and re-reads them every 4 s, which may
  // fall between the two reads: when an app is read next, and which read (its id, time and timings)
  // is the newest, are the schedule's (its own test below); what the read found must be the same.
  const unscheduled = (listed: Listed) => ({
    ...listed,
    apps: listed.apps.map((app) => ({ ...app, nextCheckAt: null, nextCheckWhy: null, lastCheck: app.lastCheck === null ? null : { result: { ...app.lastCheck.result, timings: null } } })),
  });
  const list = async (instance: Instance) => unscheduled((await (await instance.fetch("/api/orgs/acme/apps", cookie)).json()) as Listed);
  const [fromA, fromB] = await Promise.all([list(a), list(b)]);
  expect(fromA).toEqual(fromB);
  const shortNames = fromA.apps.map((x) => x.lastCheck?.result.shortName);
  expect(shortNames).toEqual(["attendance", ...Array.from({ length: 39 }, (_, i) => `attendance_${i + 2}`)]);
});

test("after each kind of change through one instance, the other's next list, app page and lookup show it", async () => {
  test.setTimeout(120_000);
  // Each instance answers a GET from the list it kept at the organisation's version its access read:
  // a change through the other must draw a new version, or the first would answer what it kept.
  let tools: { name: string; inputSchema: object }[] = [{ name: "hours", inputSchema: { type: "object" } }];
  const changing = await startRawApp({ list: (res, id) => sendJson(res, result(id, { tools })) });
  try {
    expect((await a.fetch("/api/orgs", cookie, { method: "POST", body: { name: "Kept", slug: "kept" } })).status).toBe(201);
    const added = await a.fetch("/api/orgs/kept/apps", cookie, { method: "POST", body: { name: "Rota", url: `${changing.url}/rota` } });
    expect(added.status).toBe(201);
    const id = ((await added.json()) as { id: string }).id;
    type Page = { lastCheck: { result: { shortName: string; tools: { name: string; leftOut: { code: string } | null }[] } } | null };
    const shown = async (instance: Instance, q: string) => {
      const list = (await (await instance.fetch("/api/orgs/kept/apps", cookie)).json()) as Listed;
      const page = await instance.fetch(`/api/orgs/kept/apps/${id}`, cookie);
      const found = (await (await instance.fetch(`/api/orgs/kept/lookup?q=${q}`, cookie)).json()) as { hits: { tool: { wholeName: string | null } }[] };
      return { names: list.apps.map((x) => x.name), page: page.status === 200 ? ((await page.json()) as Page) : null, hits: found.hits.map((h) => h.tool.wholeName) };
    };
    const tool = (page: Page | null, name: string) => page?.lastCheck?.result.tools.find((t) => t.name === name);
    // Both instances keep the state before each change (the schedule re-reads the app meanwhile: its read's times differ).
    const before = (q: string) => Promise.all([shown(a, q), shown(b, q)]);

    await before("rota_hours");
    expect((await a.fetch(`/api/orgs/kept/apps/${id}`, cookie, { method: "PATCH", body: { name: "Shifts" } })).status).toBe(200);
    const renamed = await shown(b, "shifts_hours");
    expect(renamed.names).toEqual(["Shifts"]);
    expect(renamed.page?.lastCheck?.result.shortName).toBe("shifts");
    expect(renamed.hits).toEqual(["shifts_hours"]);

    await before("shifts_hours");
    expect((await b.fetch(`/api/orgs/kept/apps/${id}/settings`, cookie, { method: "PATCH", body: { tools: { hours: "blocked" } } })).status).toBe(200);
    expect(tool((await shown(a, "shifts_hours")).page, "hours")?.leftOut?.code).toBe("blocked");

    await before("shifts_clock_in");
    expect((await a.fetch("/api/orgs/kept/settings", cookie, { method: "PATCH", body: { newTools: "wait-for-review" } })).status).toBe(200);
    tools = [...tools, { name: "clock_in", inputSchema: { type: "object" } }];
    expect((await a.fetch(`/api/orgs/kept/apps/${id}/check`, cookie, { method: "POST", body: {} })).status).toBe(200);
    expect(tool((await shown(b, "shifts_clock_in")).page, "clock_in")?.leftOut?.code).toBe("awaiting-review");

    await before("shifts_clock_in");
    expect((await b.fetch(`/api/orgs/kept/apps/${id}`, cookie, { method: "DELETE" })).status).toBe(204);
    expect(await shown(a, "shifts_clock_in")).toEqual({ names: [], page: null, hits: [] });
  } finally {
    await changing.close();
  }
});

test("scheduled re-checks read each app once per interval with two instances", async () => {
  test.setTimeout(240_000);
  const { apps } = (await (await a.fetch("/api/orgs/acme/apps", cookie)).json()) as Listed;
  const paths = apps.map((x) => new URL(x.url).pathname);
  const before = new Map(paths.map((p) => [p, readsOf(p)]));
  const readsSince = () => paths.map((p) => readsOf(p) - before.get(p)!);
  const started = Date.now();
  // Each app is read again and again, however long a busy machine takes to get there...
  await expect.poll(() => Math.min(...readsSince()), { timeout: 200_000, intervals: [500] }).toBeGreaterThanOrEqual(3);
  const waitedMs = Date.now() - started;
  const counts = readsSince();
  // ...and never more than once an interval, whichever instance claims it: an app's due times are
  // at least 0.9 of an interval apart (±10 % each), so in the time waited it is due at most this
  // often, and one read claimed before may end within it. A busy machine reads less, never more.
  const most = Math.floor(waitedMs / (0.9 * INTERVAL_S * 1000)) + 2;
  for (const [i, count] of counts.entries()) expect(count, `${paths[i]} was read ${count} times in ${waitedMs} ms`).toBeLessThanOrEqual(most);
});

test("an instance killed mid-way loses no acknowledged app, and the other carries on", async () => {
  test.setTimeout(120_000);
  // Reads that take a second, so that b is killed with adds of its own under way.
  const slow = await slowApp(1000);
  try {
    const acknowledged: string[] = [];
    const adds = Array.from({ length: 20 }, async (_, i) => {
      const via = i % 2 === 0 ? a : b;
      const response = await via.fetch("/api/orgs/acme/apps", cookie, { method: "POST", body: { name: `Rota ${i}`, url: `${slow.url}/rota-${i}` } }).catch(() => null);
      if (response?.status === 201) acknowledged.push(((await response.json()) as { id: string }).id);
      return { via: via.name, status: response?.status ?? "cut" };
    });
    await expect.poll(() => slow.seen.filter((line) => line.endsWith("tools/list")).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    b.process.kill("SIGKILL");
    const outcomes = await Promise.all(adds);
    expect(outcomes.filter((o) => o.via === "a").map((o) => o.status)).toEqual(Array.from({ length: 10 }, () => 201));
    expect(outcomes.filter((o) => o.via === "b" && o.status === "cut").length, "b was killed with adds under way").toBeGreaterThan(0);
    const { apps } = (await (await a.fetch("/api/orgs/acme/apps", cookie)).json()) as Listed;
    const ids = new Set(apps.map((x) => x.id));
    for (const id of acknowledged) expect(ids.has(id), `acknowledged app ${id} is stored`).toBe(true);
    // a still adds, and the names stay distinct.
    expect((await a.fetch("/api/orgs/acme/apps", cookie, { method: "POST", body: { name: "After", url: `${app.url}/after` } })).status).toBe(201);
    const after = (await (await a.fetch("/api/orgs/acme/apps", cookie)).json()) as Listed;
    const names = after.apps.map((x) => x.lastCheck?.result.shortName);
    expect(new Set(names).size).toBe(names.length);
    expect(names.at(-1)).toBe("after");
  } finally {
    await slow.close();
  }
});

test("SIGTERM drains: health answers 503, the check under way finishes, the process exits 0", async () => {
  test.setTimeout(60_000);
  const slow = await slowApp(1500);
  try {
    const adding = a.fetch("/api/orgs/acme/apps", cookie, { method: "POST", body: { name: "Slow", url: slow.url } });
    await expect.poll(() => slow.seen.some((line) => line.endsWith("tools/list")), { timeout: 60_000 }).toBe(true);
    a.process.kill("SIGTERM");
    await expect.poll(async () => (await fetch(`${a.origin}/api/health`).catch(() => null))?.status ?? "closed", { timeout: 30_000 }).toBe(503);
    const added = await adding;
    expect(added.status).toBe(201);
    expect(await a.exited).toBe(0);
  } finally {
    await slow.close();
  }
});

test("a server whose stdout pipe closed still answers, drains on SIGTERM and exits 0", async () => {
  test.setTimeout(90_000);
  const env = { DATABASE_URL: await freshDatabase(postgres.url), THEOREM_SECRET_KEY: randomBytes(32).toString("hex"), LOG_LEVEL: "debug" };
  const c = await Instance.start("c", env);
  try {
    // Whoever read its output went away: every line it writes from here meets a closed pipe.
    c.process.stdout?.destroy();
    for (let i = 0; i < 20; i++) expect((await fetch(`${c.origin}/api/health`)).status).toBe(200);
    expect((await fetch(`${c.origin}/api/nothing`)).status).toBe(404);
    c.process.kill("SIGTERM");
    expect(await Promise.race([c.exited, new Promise((resolve) => setTimeout(() => resolve("still running after 40 s"), 40_000))])).toBe(0);
  } finally {
    await c.stop();
  }
});
