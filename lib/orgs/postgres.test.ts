import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyWrite, unchanged } from "@/test/org-versions";
import { freshDatabase, migratePostgres, startPostgres, type TestPostgres } from "@/test/postgres";

// The store on PostgreSQL (SPEC §16): the same functions as on SQLite, against a private server
// (test/postgres.ts), with listings read inline.
let server: TestPostgres;
const url = { value: "" };
beforeAll(async () => {
  server = await startPostgres();
  url.value = await freshDatabase(server.url);
  await migratePostgres(url.value);
  process.env.DATABASE_URL = url.value;
  process.env.THEOREM_SECRET_KEY = randomBytes(32).toString("hex");
}, 60_000);

afterAll(async () => {
  const { getDb } = await import("@/lib/db/client");
  await (getDb().$client as unknown as { end(): Promise<void> }).end();
  await server.stop();
});

const listings: Record<string, unknown[]> = {
  "http://a.test/mcp": [{ name: "clock_in" }, { name: "my_hours", annotations: { readOnlyHint: true } }],
  "http://b.test/mcp": [{ name: "report" }],
};

async function store() {
  const [{ getDb, isPostgres }, lists, connections, rechecks, organisations, appRows, reads, approvals, oauth] = await Promise.all([
    import("@/lib/db/client"),
    import("./lists"),
    import("./connections"),
    import("./rechecks"),
    import("./organisations"),
    import("./app-rows"),
    import("./reads"),
    import("./approvals"),
    import("@/lib/oauth/sign-in-store"),
  ]);
  const db = getDb();
  const ctx = { db, read: async (app: { name: string; url: string }) => ({ name: app.name, entries: listings[app.url] ?? [] }) };
  return { db, isPostgres, ctx, ...lists, ...connections, ...rechecks, ...organisations, ...appRows, ...reads, ...approvals, ...oauth };
}

describe("the store on PostgreSQL", () => {
  it("draws an organisation's version afresh at every write to a table its lists are read from, cascades included, and no other's (the triggers of drizzle-pg/)", async () => {
    const seen = await everyWrite("versions");
    expect(seen.length).toBeGreaterThan(20);
    expect(unchanged(seen)).toEqual([]);
  });

  it("connects apps given at once each with its own place, so that the same name is numbered in connection order", async () => {
    const s = await store();
    expect(s.isPostgres(s.db)).toBe(true);
    await s.ensureOrg(s.db, "acme", "Acme");
    const added = await Promise.all(Array.from({ length: 12 }, () => s.addApp(s.ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" })));
    const list = await s.listApps(s.ctx, "acme");
    expect(list.apps).toHaveLength(12);
    expect(new Set(added.map((a) => a.id)).size).toBe(12);
    const times = list.apps.map((a) => Date.parse(a.connectedAt));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(new Set(times).size).toBe(12);
    const shortNames = list.apps.map((a) => a.lastCheck?.result.shortName);
    expect(shortNames).toEqual(["attendance", ...Array.from({ length: 11 }, (_, i) => `attendance_${i + 2}`)]);
  });

  it("keeps each app's history newest first, approves what was read, and removes an app with it", async () => {
    const s = await store();
    await s.ensureOrg(s.db, "beta", "Beta");
    const app = await s.addApp(s.ctx, "beta", { name: "Reports", url: "http://b.test/mcp", header: { name: "Authorization", value: "Bearer pg-secret" } });
    listings["http://b.test/mcp"] = [{ name: "report" }, { name: "export" }];
    await s.recheckApp(s.ctx, "beta", app.id);
    const history = await s.history(s.ctx, "beta", app.id);
    expect(history[0]?.tools).toBe(2);
    expect(history[0]?.change?.added).toBe(1);
    await s.setNewTools(s.db, "beta", "wait-for-review", "someone");
    const { approved } = await s.approveApp(s.ctx, "beta", app.id, "someone", ["export"]);
    expect(approved).toEqual(["export"]);
    const row = await s.requireApp(s.db, "beta", app.id);
    expect(row.headerValue?.startsWith("enc:v1:")).toBe(true);
    expect(s.checkInput(row).headers).toEqual({ Authorization: "Bearer pg-secret" });
    await s.removeApp(s.ctx, "beta", app.id);
    await expect(s.getApp(s.ctx, "beta", app.id)).rejects.toThrow(/no app/);
  });

  it("keeps each app's newest 1,000 reads, ties going to the read with the larger id", { timeout: 30_000 }, async () => {
    const s = await store();
    await s.ensureOrg(s.db, "gamma", "Gamma");
    const app = await s.addApp(s.ctx, "gamma", { name: "Reports", url: "http://b.test/mcp" });
    const pool = s.db.$client as unknown as { query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
    // two reads to each instant; ids sort as their numbers do
    await pool.query(
      `INSERT INTO check_results (id, app, checked_at, duration_ms, snapshot, stopped)
       SELECT 'old-' || lpad(i::text, 4, '0'), $1, i / 2, 5, (SELECT snapshot FROM check_results WHERE app = $1 LIMIT 1), false FROM generate_series(0, $2::int - 1 + 5) AS i`,
      [app.id, s.HISTORY_PER_APP],
    );
    await s.recheckApp(s.ctx, "gamma", app.id);
    const { rows } = await pool.query("SELECT id FROM check_results WHERE app = $1 ORDER BY id", [app.id]);
    expect(rows).toHaveLength(s.HISTORY_PER_APP);
    // kept: the first read, this re-check, and old-0007 … old-1004 (old-0006 shares old-0007's instant)
    const old = rows.map((r) => String(r["id"])).filter((id) => id.startsWith("old-"));
    expect(old[0]).toBe("old-0007");
    expect(old).toHaveLength(s.HISTORY_PER_APP - 2);
  });

  it("hands a sign-in's flow to one callback only, however many come at once", async () => {
    const s = await store();
    await s.ensureOrg(s.db, "gamma", "Gamma");
    const app = await s.addApp(s.ctx, "gamma", { name: "Signs in", url: "http://b.test/mcp" });
    const discovery = {
      authorizationServerUrl: "https://auth.example/",
      authorizationServerMetadata: { issuer: "https://auth.example/", code_challenge_methods_supported: ["S256"] },
      issParameter: true,
    };
    const flow = { app: app.id, org: "gamma", startedBy: "someone", issuer: "https://auth.example/", discovery, client: { client_id: "dashboard" }, registration: "dynamic" as const, verifier: "v".repeat(43), redirectUrl: "http://localhost/api/oauth/callback", expiresAt: Date.now() + 60_000 };
    await s.saveFlow(s.db, "the state", flow);
    const taken = await Promise.all(Array.from({ length: 5 }, () => s.takeFlow(s.db, "the state")));
    expect(taken.filter((t) => t !== null)).toHaveLength(1);
  });
});
