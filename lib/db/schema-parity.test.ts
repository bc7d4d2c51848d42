import { readFileSync } from "node:fs";
import { join } from "node:path";
import { is } from "drizzle-orm";
import { PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as pg from "./schema-pg";
import * as sqlite from "./schema";

// The store is written once against the SQLite types and handed the pg tables on PostgreSQL:
// the row types must be the same, and so must the shape (columns, keys, indexes) and migrations.

expectTypeOf<typeof pg.apps.$inferSelect>().toEqualTypeOf<typeof sqlite.apps.$inferSelect>();
expectTypeOf<typeof pg.apps.$inferInsert>().toEqualTypeOf<typeof sqlite.apps.$inferInsert>();
expectTypeOf<typeof pg.snapshots.$inferSelect>().toEqualTypeOf<typeof sqlite.snapshots.$inferSelect>();
expectTypeOf<typeof pg.snapshots.$inferInsert>().toEqualTypeOf<typeof sqlite.snapshots.$inferInsert>();
expectTypeOf<typeof pg.checkResults.$inferSelect>().toEqualTypeOf<typeof sqlite.checkResults.$inferSelect>();
expectTypeOf<typeof pg.checkResults.$inferInsert>().toEqualTypeOf<typeof sqlite.checkResults.$inferInsert>();
expectTypeOf<typeof pg.orgSettings.$inferSelect>().toEqualTypeOf<typeof sqlite.orgSettings.$inferSelect>();
expectTypeOf<typeof pg.orgSettings.$inferInsert>().toEqualTypeOf<typeof sqlite.orgSettings.$inferInsert>();
expectTypeOf<typeof pg.orgVersions.$inferSelect>().toEqualTypeOf<typeof sqlite.orgVersions.$inferSelect>();
expectTypeOf<typeof pg.orgVersions.$inferInsert>().toEqualTypeOf<typeof sqlite.orgVersions.$inferInsert>();
expectTypeOf<typeof pg.toolApprovals.$inferSelect>().toEqualTypeOf<typeof sqlite.toolApprovals.$inferSelect>();
expectTypeOf<typeof pg.toolApprovals.$inferInsert>().toEqualTypeOf<typeof sqlite.toolApprovals.$inferInsert>();
expectTypeOf<typeof pg.user.$inferSelect>().toEqualTypeOf<typeof sqlite.user.$inferSelect>();
expectTypeOf<typeof pg.user.$inferInsert>().toEqualTypeOf<typeof sqlite.user.$inferInsert>();
expectTypeOf<typeof pg.session.$inferSelect>().toEqualTypeOf<typeof sqlite.session.$inferSelect>();
expectTypeOf<typeof pg.session.$inferInsert>().toEqualTypeOf<typeof sqlite.session.$inferInsert>();
expectTypeOf<typeof pg.account.$inferSelect>().toEqualTypeOf<typeof sqlite.account.$inferSelect>();
expectTypeOf<typeof pg.account.$inferInsert>().toEqualTypeOf<typeof sqlite.account.$inferInsert>();
expectTypeOf<typeof pg.verification.$inferSelect>().toEqualTypeOf<typeof sqlite.verification.$inferSelect>();
expectTypeOf<typeof pg.verification.$inferInsert>().toEqualTypeOf<typeof sqlite.verification.$inferInsert>();
expectTypeOf<typeof pg.organization.$inferSelect>().toEqualTypeOf<typeof sqlite.organization.$inferSelect>();
expectTypeOf<typeof pg.organization.$inferInsert>().toEqualTypeOf<typeof sqlite.organization.$inferInsert>();
expectTypeOf<typeof pg.member.$inferSelect>().toEqualTypeOf<typeof sqlite.member.$inferSelect>();
expectTypeOf<typeof pg.member.$inferInsert>().toEqualTypeOf<typeof sqlite.member.$inferInsert>();
expectTypeOf<typeof pg.invitation.$inferSelect>().toEqualTypeOf<typeof sqlite.invitation.$inferSelect>();
expectTypeOf<typeof pg.invitation.$inferInsert>().toEqualTypeOf<typeof sqlite.invitation.$inferInsert>();
expectTypeOf<typeof pg.apikey.$inferSelect>().toEqualTypeOf<typeof sqlite.apikey.$inferSelect>();
expectTypeOf<typeof pg.apikey.$inferInsert>().toEqualTypeOf<typeof sqlite.apikey.$inferInsert>();
expectTypeOf<typeof pg.rateLimit.$inferSelect>().toEqualTypeOf<typeof sqlite.rateLimit.$inferSelect>();
expectTypeOf<typeof pg.rateLimit.$inferInsert>().toEqualTypeOf<typeof sqlite.rateLimit.$inferInsert>();
expectTypeOf<typeof pg.auditEntries.$inferSelect>().toEqualTypeOf<typeof sqlite.auditEntries.$inferSelect>();
expectTypeOf<typeof pg.auditEntries.$inferInsert>().toEqualTypeOf<typeof sqlite.auditEntries.$inferInsert>();
expectTypeOf<typeof pg.checkRateLimits.$inferSelect>().toEqualTypeOf<typeof sqlite.checkRateLimits.$inferSelect>();
expectTypeOf<typeof pg.checkRateLimits.$inferInsert>().toEqualTypeOf<typeof sqlite.checkRateLimits.$inferInsert>();
expectTypeOf<typeof pg.appSignIns.$inferSelect>().toEqualTypeOf<typeof sqlite.appSignIns.$inferSelect>();
expectTypeOf<typeof pg.appSignIns.$inferInsert>().toEqualTypeOf<typeof sqlite.appSignIns.$inferInsert>();
expectTypeOf<typeof pg.oauthFlows.$inferSelect>().toEqualTypeOf<typeof sqlite.oauthFlows.$inferSelect>();
expectTypeOf<typeof pg.oauthFlows.$inferInsert>().toEqualTypeOf<typeof sqlite.oauthFlows.$inferInsert>();

/** A dialect-free description of a table, to compare the two schemas with. */
interface Shape {
  columns: Record<string, { notNull: boolean; primary: boolean; hasDefault: boolean; unique: boolean }>;
  indexes: Record<string, string[]>;
  foreignKeys: string[];
  primaryKeys: string[][];
}

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

function shape(config: AnyConfig, tableName: (t: unknown) => string): Shape {
  const columns: Shape["columns"] = {};
  for (const c of config.columns) {
    columns[c.name] = { notNull: c.notNull, primary: c.primary, hasDefault: c.hasDefault, unique: c.isUnique };
  }
  const indexes: Shape["indexes"] = {};
  for (const i of config.indexes) {
    indexes[i.config.name ?? "<unnamed>"] = i.config.columns.map((c) => ("name" in c ? String(c.name) : "<expression>"));
  }
  const foreignKeys = config.foreignKeys
    .map((fk) => {
      const ref = fk.reference();
      const from = ref.columns.map((c) => c.name).join(",");
      const to = ref.foreignColumns.map((c) => c.name).join(",");
      return `${from} -> ${tableName(ref.foreignTable)}(${to}) on delete ${fk.onDelete ?? "no action"}`;
    })
    .sort();
  const primaryKeys = config.primaryKeys.map((pk) => pk.columns.map((c) => c.name));
  return { columns, indexes, foreignKeys, primaryKeys };
}

/**
 * Indexes that end, on PostgreSQL, with the column that breaks ties in their order, where
 * SQLite's end with the rowid every SQLite index holds (`newestFirstIn`: newest read first).
 */
const tieBreakers: Record<string, string> = { check_results_app_newest: "id" };

const sqliteShapes = new Map<string, Shape>();
for (const value of Object.values(sqlite)) {
  if (!is(value, SQLiteTable)) continue;
  const config = sqliteConfig(value);
  const found = shape(config, (t) => sqliteConfig(t as SQLiteTable).name);
  for (const [index, column] of Object.entries(tieBreakers)) found.indexes[index]?.push(column);
  sqliteShapes.set(config.name, found);
}
const pgShapes = new Map<string, Shape>();
for (const value of Object.values(pg)) {
  if (!is(value, PgTable)) continue;
  const config = pgConfig(value);
  pgShapes.set(config.name, shape(config, (t) => pgConfig(t as PgTable).name));
}

describe("the SQLite and PostgreSQL schemas", () => {
  it("have the same tables", () => {
    expect(sqliteShapes.size).toBeGreaterThan(0);
    expect([...pgShapes.keys()].sort()).toEqual([...sqliteShapes.keys()].sort());
  });

  it.each([...sqliteShapes.keys()])("have the same columns, keys and indexes in %s", (name) => {
    expect(pgShapes.get(name)).toEqual(sqliteShapes.get(name));
  });

  it("export the same names", () => {
    expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort());
  });
});

/** Table name → sorted column names, as the newest drizzle-kit snapshot in `folder` has them. */
function newestSnapshot(folder: string): Record<string, string[]> {
  const dir = join(__dirname, "..", "..", folder, "meta");
  const journal = JSON.parse(readFileSync(join(dir, "_journal.json"), "utf8")) as { entries: { idx: number }[] };
  const newest = Math.max(...journal.entries.map((e) => e.idx));
  const file = `${String(newest).padStart(4, "0")}_snapshot.json`;
  const snapshot = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
    tables: Record<string, { name: string; columns: Record<string, { name: string }> }>;
  };
  return Object.fromEntries(
    Object.values(snapshot.tables).map((t) => [t.name, Object.values(t.columns).map((c) => c.name).sort()]),
  );
}

function schemaColumns(shapes: Map<string, Shape>): Record<string, string[]> {
  return Object.fromEntries([...shapes].map(([name, s]) => [name, Object.keys(s.columns).sort()]));
}

// Forgetting `npm run db:generate` or `npm run db:generate:pg` after a schema change fails here.
describe("the migrations", () => {
  it("of SQLite (drizzle/) are generated from lib/db/schema.ts as it is", () => {
    expect(newestSnapshot("drizzle")).toEqual(schemaColumns(sqliteShapes));
  });

  it("of PostgreSQL (drizzle-pg/) are generated from lib/db/schema-pg.ts as it is", () => {
    expect(newestSnapshot("drizzle-pg")).toEqual(schemaColumns(pgShapes));
  });
});
