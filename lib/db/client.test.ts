import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, migratePostgres, startPostgres } from "@/test/postgres";
import { eq } from "drizzle-orm";
import { Client } from "pg";
import { ensureOrg } from "@/lib/orgs/organisations";
import { databasePath, openDatabase, openPostgres, orgTransaction, orgTransactionAt, transaction, type Conn } from "./client";
import { organization, orgVersions } from "./schema";

const dir = mkdtempSync(join(tmpdir(), "theorem-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("openDatabase", () => {
  it("creates the folder, applies the migrations and sets WAL, FULL sync and a busy timeout", { timeout: 10_000 }, () => {
    const path = join(dir, "nested", "folder", "theorem.db");
    const db = openDatabase(path);
    const sqlite = db.$client;
    expect(existsSync(path)).toBe(true);
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("synchronous", { simple: true })).toBe(2); // FULL
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(["apps", "check_results", "organization"]));
    sqlite.close();
  });

  it("reopens a migrated database without applying a migration twice and keeps its rows", { timeout: 10_000 }, () => {
    const path = join(dir, "reopen.db");
    const first = openDatabase(path);
    first.$client.prepare("INSERT INTO organization (id, slug, name, created_at) VALUES ('acme', 'acme', 'Acme', 1)").run();
    const applied = first.$client.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get();
    first.$client.close();

    const second = openDatabase(path);
    expect(second.$client.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get()).toBe(applied);
    expect(second.$client.prepare("SELECT name FROM organization WHERE slug = 'acme'").pluck().get()).toBe("Acme");
    expect(second.$client.pragma("synchronous", { simple: true })).toBe(2);
    second.$client.close();
  });
});

describe("a deferred commit (Durability)", () => {
  it("is not waited for on SQLite, for that transaction alone, even when it fails", { timeout: 10_000 }, async () => {
    const db = openDatabase(join(dir, "durability.db"));
    const level = () => db.$client.pragma("synchronous", { simple: true });
    // On the transaction's one connection: part of it.
    const insert = async (id: string) => void db.$client.prepare(`INSERT INTO organization (id, slug, name, created_at) VALUES (?, ?, 'x', 1)`).run(id, id);
    try {
      expect(await transaction(db, async () => (await insert("a"), level()), { durability: "deferred" })).toBe(1); // NORMAL
      expect(await transaction(db, async () => (await insert("b"), level()))).toBe(2); // FULL
      await expect(transaction(db, async () => (await insert("c"), Promise.reject(new Error("broke"))), { durability: "deferred" })).rejects.toThrow("broke");
      expect(level()).toBe(2);
      expect(db.$client.prepare("SELECT slug FROM organization ORDER BY slug").pluck().all()).toEqual(["a", "b"]);
    } finally {
      db.$client.close();
    }
  });

  it("is not waited for on PostgreSQL, for that transaction alone", { timeout: 30_000 }, async () => {
    const server = await startPostgres();
    // The tests' server does not wait for its disk at all; this database does, as a real one.
    const url = await freshDatabase(server.url);
    const admin = openPostgres(server.url);
    await admin.$client.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET synchronous_commit = on`);
    await admin.$client.end();
    const db = openPostgres(url);
    const level = async (tx: Conn) => ((await (tx as unknown as { execute(q: string): Promise<{ rows: { synchronous_commit: string }[] }> }).execute("SHOW synchronous_commit")).rows[0]!.synchronous_commit);
    try {
      expect(await transaction(db, level, { durability: "deferred" })).toBe("off");
      expect(await transaction(db, level)).toBe("on");
      // An organisation's change holds its lock; one inside another holds it too, and commits as the outer one does.
      const locks = async (tx: Conn) => ((await (tx as unknown as { execute(q: string): Promise<{ rows: { n: number }[] }> }).execute("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")).rows[0]!.n);
      expect(await orgTransaction(db, "acme", async (tx) => [await level(tx), await locks(tx)], "deferred")).toEqual(["off", 1]);
      expect(await transaction(db, (outer) => orgTransaction(outer, "acme", async (tx) => [await level(tx), await locks(tx)], "deferred"))).toEqual(["on", 1]);
      await expect(transaction(db, async () => Promise.reject(new Error("broke")), { durability: "deferred" })).rejects.toThrow("broke");
      // Every connection of the pool is back to waiting for the disk.
      const all = await Promise.all(Array.from({ length: 4 }, () => transaction(db, async (tx) => (await new Promise((r) => setTimeout(r, 20)), level(tx)))));
      expect(all).toEqual(["on", "on", "on", "on"]);
    } finally {
      await db.$client.end();
      await server.stop();
    }
  });
});

describe("a statement outside a transaction on SQLite's one connection", () => {
  it("neither reads what the open transaction has not committed nor is undone by its rollback", { timeout: 10_000 }, async () => {
    const db = openDatabase(join(dir, "isolation.db"));
    const add = (id: string) => db.insert(organization).values({ id, slug: id, name: id, createdAt: new Date(1) });
    const slugs = async () => (await db.select({ slug: organization.slug }).from(organization).orderBy(organization.slug)).map((row) => row.slug);
    try {
      await add("kept");
      let carryOn!: () => void;
      const paused = new Promise<void>((resolve) => (carryOn = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      // A change that is never committed (as a preview's), paused between its statements.
      const pretend = transaction(db, async (tx) => {
        await tx.update(organization).set({ name: "pretend" }).where(eq(organization.slug, "kept"));
        await tx.insert(organization).values({ id: "pretend", slug: "pretend", name: "pretend", createdAt: new Date(1) });
        written();
        await paused;
        throw new Error("rolled back");
      });
      await wrote;
      // Another request, meanwhile: its read and its write wait for the transaction.
      const read = db.select({ name: organization.name }).from(organization).where(eq(organization.slug, "kept")).then((rows) => rows.map((row) => row.name));
      const other = add("other").then(() => "stored");
      const seen = slugs();
      carryOn();
      await expect(pretend).rejects.toThrow("rolled back");
      expect(await read).toEqual(["kept"]);
      expect(await other).toBe("stored");
      expect(await seen).toEqual(["kept", "other"]);
      expect(await slugs()).toEqual(["kept", "other"]);
      // Inside a transaction, a statement is part of it and runs at once.
      expect(await transaction(db, async (tx) => (await tx.insert(organization).values({ id: "inside", slug: "inside", name: "x", createdAt: new Date(1) }), slugs()))).toEqual(["inside", "kept", "other"]);
    } finally {
      db.$client.close();
    }
  });
});

describe("SQLite's transactions across copies of this module (Next bundles it more than once)", () => {
  /** Turns of the event loop, not time: how long work of a few synchronous statements takes to settle. */
  const settled = async <T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown } | "pending"> => {
    let outcome: { value: T } | { error: unknown } | "pending" = "pending";
    promise.then((value) => (outcome = { value }), (error: unknown) => (outcome = { error }));
    for (let turn = 0; turn < 20 && outcome === "pending"; turn++) await new Promise((resolve) => setImmediate(resolve));
    return outcome;
  };

  it("take turns on one connection: a deferred change waits for the other copy's open transaction, and every change after it completes", { timeout: 10_000 }, async () => {
    const db = openDatabase(join(dir, "two-copies.db"));
    // A second copy of the module, as the schedule (started by instrumentation) has beside the routes.
    vi.resetModules();
    const other = await import("./client");
    expect(other.transaction).not.toBe(transaction);
    const insert = (id: string) => db.insert(organization).values({ id, slug: id, name: id, createdAt: new Date(1) });
    try {
      let carryOn!: () => void;
      const paused = new Promise<void>((resolve) => (carryOn = resolve));
      let begun!: () => void;
      const open = new Promise<void>((resolve) => (begun = resolve));
      // A route's change through one copy, open between its statements.
      const route = transaction(db, async (tx) => {
        await tx.insert(organization).values({ id: "route", slug: "route", name: "route", createdAt: new Date(1) });
        begun();
        await paused;
      });
      await open;
      // A scheduled re-check's commit through the other copy: it waits for its turn, never begins inside the route's.
      const scheduled = other.transaction(db, async (tx) => void (await tx.insert(organization).values({ id: "scheduled", slug: "scheduled", name: "scheduled", createdAt: new Date(1) })), { durability: "deferred" });
      expect(await settled(scheduled)).toBe("pending");
      carryOn();
      await route;
      expect(await settled(scheduled)).toEqual({ value: undefined });
      // Every change after it, through either copy, completes.
      expect(await settled(other.transaction(db, async () => void (await insert("after-1"))))).toEqual({ value: undefined });
      expect(await settled(transaction(db, async () => void (await insert("after-2"))))).toEqual({ value: undefined });
      expect(db.$client.prepare("SELECT slug FROM organization ORDER BY slug").pluck().all()).toEqual(["after-1", "after-2", "route", "scheduled"]);
      expect(db.$client.pragma("synchronous", { simple: true })).toBe(2); // FULL again
    } finally {
      db.$client.close();
    }
  });

  it("hand the turn on when a transaction cannot begin: a BEGIN of the driver's own left open refuses the next change, and the one after it runs", { timeout: 10_000 }, async () => {
    const db = openDatabase(join(dir, "left-open.db"));
    try {
      db.$client.exec("BEGIN");
      await expect(transaction(db, async () => "never", { durability: "deferred" })).rejects.toThrow(/not begun by transaction\(\)/);
      db.$client.exec("ROLLBACK");
      expect(await settled(transaction(db, async () => "ran", { durability: "deferred" }))).toEqual({ value: "ran" });
      expect(db.$client.pragma("synchronous", { simple: true })).toBe(2);
    } finally {
      db.$client.close();
    }
  });
});

describe("a PostgreSQL transaction's queries", () => {
  it("are sent to its connection one at a time, each once the one before is answered, however many its work asks for at once (pg 9 refuses a second)", { timeout: 30_000 }, async () => {
    const server = await startPostgres();
    const db = openPostgres(await freshDatabase(server.url));
    // How many queries each connection was asked for and had not answered yet, at most.
    const waiting = new Map<object, number>();
    let most = 0;
    const query = Client.prototype.query;
    const spy = vi.spyOn(Client.prototype, "query").mockImplementation(function (this: Client, ...args: unknown[]) {
      waiting.set(this, (waiting.get(this) ?? 0) + 1);
      most = Math.max(most, waiting.get(this)!);
      const answered = (query as (...a: unknown[]) => unknown).apply(this, args);
      void Promise.resolve(answered).finally(() => waiting.set(this, waiting.get(this)! - 1)).catch(() => undefined);
      return answered as never;
    });
    const ask = (tx: Conn, n: number) => (tx as unknown as { execute(q: string): Promise<{ rows: { n: number }[] }> }).execute(`SELECT ${n} AS n, pg_sleep(0.01)`);
    try {
      const answers = await transaction(db, (tx) => Promise.all([1, 2, 3, 4].map(async (n) => (await ask(tx, n)).rows[0]!.n)));
      expect(answers).toEqual([1, 2, 3, 4]);
      expect(most).toBe(1);
      // A failed query does not hold up the next: the transaction ends, and the connection is handed out again.
      await expect(transaction(db, (tx) => Promise.all([ask(tx, 5), (tx as unknown as { execute(q: string): Promise<unknown> }).execute("SELECT nothing_here")]))).rejects.toThrow();
      expect((await transaction(db, (tx) => ask(tx, 6))).rows[0]!.n).toBe(6);
      expect(most).toBe(1);
    } finally {
      spy.mockRestore();
      await db.$client.end();
      await server.stop();
    }
  });
});

describe("a change that reads the organisation's version as it begins (orgTransactionAt)", () => {
  const rename = (db: Conn, name: string) => db.update(organization).set({ name }).where(eq(organization.slug, "acme"));
  const versionOf = async (db: Conn) => {
    const rows = (await db.select({ version: orgVersions.version }).from(orgVersions).where(eq(orgVersions.org, "acme"))) as { version: string }[];
    return rows[0]?.version ?? null;
  };

  it("is given the version stored, inside another transaction too, and null for an organisation none was stored for (SQLite)", { timeout: 10_000 }, async () => {
    const db = openDatabase(join(dir, "versions.db"));
    try {
      await ensureOrg(db, "acme", "Acme");
      const stored = await versionOf(db);
      expect(stored).not.toBeNull();
      // Its own writes draw the version it commits; the one it began at is the one stored before.
      const [began, drawn] = await orgTransactionAt(db, "acme", async (tx, version) => [version, (await rename(tx, "Acme 2"), await versionOf(tx))]);
      expect(began).toBe(stored);
      expect(drawn).toBe(await versionOf(db));
      expect(drawn).not.toBe(stored);
      expect(await transaction(db, (outer) => orgTransactionAt(outer, "acme", async (_tx, version) => version))).toBe(drawn);
      expect(await orgTransactionAt(db, "nobody", async (_tx, version) => version)).toBeNull();
    } finally {
      db.$client.close();
    }
  });

  it("holds the version on PostgreSQL: a writer outside the organisation's lock waits, then draws a newer one", { timeout: 30_000 }, async () => {
    const server = await startPostgres();
    const url = await freshDatabase(server.url);
    await migratePostgres(url);
    const db = openPostgres(url);
    const run = async (on: Conn, text: string) => ((await (on as unknown as { execute(q: string): Promise<{ rows: Record<string, unknown>[] }> }).execute(text)).rows);
    const version = async (on: Conn) => (await run(on, "SELECT version FROM org_versions WHERE org = 'acme'"))[0]?.["version"];
    try {
      await run(db, "INSERT INTO organization (id, name, slug, created_at) VALUES ('acme-id', 'Acme', 'acme', now())");
      const stored = await version(db);
      expect(stored).toEqual(expect.any(String));
      let outside: Promise<unknown> | undefined;
      const committed = await orgTransactionAt(db, "acme", async (tx, began) => {
        expect(began).toBe(stored);
        // Another connection's write to a versioned table, not taking the organisation's lock (as the schedule's claims do).
        const pid = (await run(tx, "SELECT pg_backend_pid() AS pid"))[0]!["pid"];
        outside = run(db, "UPDATE organization SET name = 'Acme 3' WHERE slug = 'acme'");
        // It waits for this transaction's hold on the version (polled, not timed: at most 10 s).
        for (let i = 0; (await run(db, `SELECT 1 FROM pg_stat_activity WHERE ${Number(pid)} = ANY (pg_blocking_pids(pid))`)).length === 0; i++) {
          if (i > 1000) throw new Error("The other write never waited for the version.");
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // Its own write to another versioned table draws the version it commits.
        await run(tx, "INSERT INTO org_settings (org, new_tools) VALUES ('acme', 'wait-if-risky')");
        return version(tx);
      });
      await outside;
      // Nothing was drawn between the version it began at and its commit; the other write drew after it.
      expect(committed).not.toBe(stored);
      expect(await version(db)).not.toBe(committed);
      expect((await run(db, "SELECT name FROM organization WHERE slug = 'acme'"))[0]!["name"]).toBe("Acme 3");
    } finally {
      await db.$client.end();
      await server.stop();
    }
  });
});

describe("openPostgres", () => {
  it("keeps an idle connection for minutes, not pg's 10 s, so a lull does not cost new backends", { timeout: 30_000 }, async () => {
    const server = await startPostgres();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const db = openPostgres(server.url);
    try {
      const backend = async () => Number(((await db.$client.query("SELECT pg_backend_pid() AS pid")).rows[0] as { pid: number }).pid);
      const first = await backend();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await backend()).toBe(first);
      await vi.advanceTimersByTimeAsync(4 * 60_000);
      expect(await backend()).toBe(first);
      // past five minutes idle, the connection is closed and the next query opens another
      await vi.advanceTimersByTimeAsync(5 * 60_000 + 1_000);
      expect(await backend()).not.toBe(first);
    } finally {
      vi.useRealTimers();
      await db.$client.end();
      await server.stop();
    }
  });
});

describe("databasePath", () => {
  it.each([
    [undefined, join(process.cwd(), "data/theorem.db")],
    ["", join(process.cwd(), "data/theorem.db")],
    ["data/e2e.db", join(process.cwd(), "data/e2e.db")],
    ["file:data/x.db", join(process.cwd(), "data/x.db")],
    ["/tmp/abs.db", "/tmp/abs.db"],
    ["file:///tmp/abs.db", "/tmp/abs.db"],
  ])("reads DATABASE_URL %j as %s", (url, expected) => {
    // The tests' own DATABASE_URL (vitest.config.ts) is set aside: this is the unset case.
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      expect(databasePath(url)).toBe(expected);
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });
});
