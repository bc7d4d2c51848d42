import { readFileSync } from "node:fs";
import { join } from "node:path";
import { is, type InferInsertModel, type InferSelectModel, type Table } from "drizzle-orm";
import { PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as pg from "./schema-pg";
import * as sqlite from "./schema";

// The store is written once against the SQLite types and handed the pg tables on PostgreSQL:
// the row types must be the same, and so must the shape (columns, their types, keys, indexes)
// and migrations. Every exported table is compared, found by what it is, not listed by hand: a
// table or column added to one schema only, or typed otherwise in one, fails here.

/** Each table a schema module exports, by its export name: the rows it selects and inserts. */
type RowTypes<S> = { [K in keyof S as S[K] extends Table ? K : never]: S[K] extends Table ? { select: InferSelectModel<S[K]>; insert: InferInsertModel<S[K]> } : never };
expectTypeOf<RowTypes<typeof pg>>().toEqualTypeOf<RowTypes<typeof sqlite>>();

/** A dialect-free description of a table, to compare the two schemas with. */
interface Shape {
  columns: Record<string, { type: string; enumValues: string[] | undefined; notNull: boolean; primary: boolean; hasDefault: boolean; unique: boolean }>;
  indexes: Record<string, string[]>;
  foreignKeys: string[];
  primaryKeys: string[][];
}

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

/**
 * A column's type as both dialects can say it: what its values are in JavaScript (string, number,
 * boolean, date, json…), a number told apart as whole (SQLite's integer, PostgreSQL's integer or
 * bigint) or fractional (real, double precision, numeric).
 */
function typeOf(column: AnyConfig["columns"][number]): string {
  if (column.dataType !== "number") return column.dataType;
  return /Real|Double|Numeric/.test(column.columnType) ? "number (fractional)" : "number (whole)";
}

function shape(config: AnyConfig, tableName: (t: unknown) => string): Shape {
  const columns: Shape["columns"] = {};
  for (const c of config.columns) {
    columns[c.name] = { type: typeOf(c), enumValues: c.enumValues, notNull: c.notNull, primary: c.primary, hasDefault: c.hasDefault, unique: c.isUnique };
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
