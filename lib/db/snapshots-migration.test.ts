import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { getApp, history } from "@/lib/orgs/lists";
import { openDatabase } from "./client";

// The move to snapshots (drizzle/0003_snapshots.sql), from a database as the previous release left it.
const dir = mkdtempSync(join(tmpdir(), "theorem-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A migrations folder holding the migrations before `tag` only. */
function migrationsBefore(tag: string): string {
  const folder = join(dir, "drizzle-before");
  mkdirSync(join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  const kept = journal.entries.slice(0, cut);
  for (const entry of kept) copyFileSync(join("drizzle", `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: kept }));
  return folder;
}

describe("the migration to snapshots", () => {
  it("keeps every check: history, timings and the current result of an app read before", { timeout: 20_000 }, async () => {
    const file = join(dir, "old.db");
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore("0003_snapshots") });
    old.prepare("INSERT INTO organization (id, slug, name, created_at) VALUES ('acme', 'acme', 'Acme', 1)").run();
    old.prepare("INSERT INTO apps (id, org, name, url, connected_at) VALUES ('att', 'acme', 'Attendance', 'http://a.test/mcp', 1)").run();
    const listing = [{ name: "clock_in", title: "Clock in", annotations: { readOnlyHint: true } }, { name: "my_hours" }];
    const available = checkListings([{ name: "Attendance", entries: listing, timings: { connectMs: 120, listMs: 80 } }], resolveTheorem(undefined)).apps[0]!;
    const down = checkListings([{ name: "Attendance", entries: [], unavailable: { code: "connect-timeout", message: "Attendance is unavailable: it did not finish connecting (MCP initialize) within 3 s." } }], resolveTheorem(undefined)).apps[0]!;
    const insert = old.prepare("INSERT INTO check_results (id, app, checked_at, duration_ms, result) VALUES (?, 'att', ?, ?, ?)");
    insert.run("c1", 1000, 3000, JSON.stringify(down));
    insert.run("c2", 2000, 250, JSON.stringify(available));
    insert.run("c3", 3000, 240, JSON.stringify(available));
    old.close();

    const db = openDatabase(file);
    try {
      const rows = await history({ db }, "acme", "att");
      expect(rows.map((r) => [r.count, r.status, r.tools, r.timings?.connectMs ?? null])).toEqual([
        [2, "available", 2, 120],
        [1, "unavailable", 0, null],
      ]);
      expect(rows[0]!.change?.status).toEqual({ from: "unavailable", to: "available" });
      expect(rows[1]!.unavailable?.code).toBe("connect-timeout");
      // What the old result kept of each tool still names them and tells their policy.
      const app = await getApp({ db }, "acme", "att");
      expect(app.lastCheck?.id).toBe("c3");
      expect(app.lastCheck?.result.tools.map((t) => [t.wholeName, t.title, t.policy])).toEqual([
        ["attendance_clock_in", "Clock in", "runs-freely"],
        ["attendance_my_hours", "My hours", "asks-first"],
      ]);
    } finally {
      db.$client.close();
    }
  });
});
