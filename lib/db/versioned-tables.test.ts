import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { everyWrite } from "@/test/org-versions";
import { freshDatabase, migratePostgres, startPostgres } from "@/test/postgres";
import { openDatabase } from "./client";
import { pgVersionTriggers, sqliteVersionTriggers, versionTriggersMigration, VERSIONED_TABLES } from "./versioned-tables";

const statementsOf = (migration: string) => migration.split("--> statement-breakpoint");

// The declared list of versioned tables is what the migrations installed, on both dialects: a
// table listed without its migration, or a trigger (or function) migrated without the list, fails.
const dir = mkdtempSync(join(tmpdir(), "theorem-versioned-"));
process.env["DATABASE_URL"] = join(dir, "theorem.db");
afterAll(async () => {
  const { closeDatabase } = await import("./client");
  await closeDatabase();
  rmSync(dir, { recursive: true, force: true });
});

/** The org_versions functions and the triggers running them, as PostgreSQL holds them. */
async function installed(client: Client) {
  const functions = await client.query<{ name: string; body: string }>("SELECT proname AS name, prosrc AS body FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND proname LIKE 'org\\_versions%' ORDER BY proname");
  const triggers = await client.query<{ name: string; tbl: string; fn: string; type: number }>(
    "SELECT t.tgname AS name, c.relname AS tbl, p.proname AS fn, t.tgtype AS type FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid WHERE NOT t.tgisinternal AND p.proname LIKE 'org\\_versions%' ORDER BY t.tgname",
  );
  return [functions.rows, triggers.rows] as const;
}

describe("the versioned tables (lib/db/versioned-tables.ts)", () => {
  it("are exactly the tables whose triggers the SQLite migrations installed, each trigger as generated", () => {
    const db = openDatabase(join(dir, "triggers.db"));
    try {
      const installed = () => db.$client.prepare("SELECT name, tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%org_versions%' ORDER BY name").all() as { name: string; tbl: string; sql: string }[];
      const rows = installed();
      expect(new Map(rows.map((r) => [r.name, r.sql]))).toEqual(sqliteVersionTriggers());
      expect(new Set(rows.map((r) => r.tbl))).toEqual(new Set(VERSIONED_TABLES.map((t) => t.table)));
      // The migration text the list generates installs the same again.
      for (const statement of statementsOf(versionTriggersMigration("sqlite"))) db.$client.exec(statement);
      expect(installed()).toEqual(rows);
    } finally {
      db.$client.close();
    }
  });

  it("are exactly the tables whose triggers the PostgreSQL migrations installed, each function as generated", { timeout: 60_000 }, async () => {
    const server = await startPostgres();
    const url = await freshDatabase(server.url);
    const client = new Client({ connectionString: url });
    try {
      await migratePostgres(url);
      await client.connect();
      const [functions, triggers] = await installed(client);
      const expected = pgVersionTriggers();
      expect(new Map(functions.map((r) => [r.name, r.body]))).toEqual(expected.functions);
      expect(new Map(triggers.map((r) => [r.name, { table: r.tbl, fn: r.fn }]))).toEqual(expected.triggers);
      // ROW (1) | INSERT (4) | DELETE (8) | UPDATE (16), AFTER (no BEFORE bit 2).
      expect(new Set(triggers.map((r) => r.type))).toEqual(new Set([1 | 4 | 8 | 16]));
      for (const statement of statementsOf(versionTriggersMigration("pg"))) await client.query(statement);
      expect(await installed(client)).toEqual([functions, triggers]);
    } finally {
      await client.end().catch(() => undefined);
      await server.stop();
    }
  });

  it("each have a write in test/org-versions.ts: an insert, an update and a delete", async () => {
    const seen = await everyWrite("listed");
    for (const { table } of VERSIONED_TABLES) {
      expect(new Set(seen.filter((w) => w.table === table).map((w) => w.op)), table).toEqual(new Set(["insert", "update", "delete"]));
    }
  });
});
