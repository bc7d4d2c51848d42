import "server-only";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { encryptSecret } from "../secrets";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** The database or a transaction on it: what the store's functions read and write through. */
export type Conn = BaseSQLiteDatabase<"sync", Database.RunResult, typeof schema>;

const MIGRATIONS_FOLDER = join(process.cwd(), "drizzle");

import { databasePath } from "./path";

export { databasePath, DEFAULT_DATABASE_PATH } from "./path";

/**
 * Opens (creating its folder) and migrates a database. WAL lets pages read while a check
 * writes; `synchronous = FULL` syncs the log on every commit, so an app the API has
 * acknowledged survives a power cut too, not only a crash (writes are few: the cost is nil).
 */
export function openDatabase(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  // Off while migrating: drizzle runs migrations in one transaction, where SQLite ignores the
  // PRAGMA, and a table rebuild's DROP would otherwise cascade into the rows that point at it.
  sqlite.pragma("foreign_keys = OFF");
  const db = drizzle(sqlite, { schema });
  try {
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    // Another process may have migrated between drizzle's read of the last migration and its
    // BEGIN; once more reads what it committed and applies only what is still missing.
    try {
      migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    } catch {
      sqlite.close();
      throw error;
    }
  }
  sqlite.pragma("foreign_keys = ON");
  try {
    encryptPlainSecrets(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return db;
}

/**
 * Encrypts header values stored in the clear before secrets were encrypted at rest (once:
 * later opens find none). `secure_delete` and a checkpoint leave no old copy in the file or its log.
 */
function encryptPlainSecrets(sqlite: Database.Database): void {
  const find = "SELECT id, header_value AS value FROM apps WHERE header_value IS NOT NULL AND substr(header_value, 1, 7) <> 'enc:v1:'";
  if (sqlite.prepare(`${find} LIMIT 1`).get() === undefined) return;
  const update = sqlite.prepare("UPDATE apps SET header_value = ? WHERE id = ?");
  const secureDelete = sqlite.pragma("secure_delete", { simple: true }) as number;
  sqlite.pragma("secure_delete = ON");
  try {
    sqlite.transaction(() => {
      for (const row of sqlite.prepare(find).all() as { id: string; value: string }[]) update.run(encryptSecret(row.value), row.id);
    }).immediate();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    sqlite.pragma(`secure_delete = ${secureDelete}`);
  }
}

const cache = globalThis as typeof globalThis & { __theoremDb?: { path: string; db: Db } };

/** The process's one handle (kept on globalThis so that dev reloads of this module do not reopen it). */
export function getDb(): Db {
  const path = databasePath();
  if (cache.__theoremDb?.path !== path) {
    cache.__theoremDb?.db.$client.close();
    cache.__theoremDb = { path, db: openDatabase(path) };
  }
  return cache.__theoremDb.db;
}
