// `npm run db:migrate`: applies the migrations of the database DATABASE_URL names (drizzle-pg/ on
// PostgreSQL, drizzle/ on SQLite), before instances start. `npm start` applies them too, so this is
// for deployments that migrate as a step of their own; instances that start at once take turns.
import { join } from "node:path";
import { buildWorker, databasePathFile } from "./build-worker.mjs";

const root = new URL("..", import.meta.url).pathname;
await buildWorker();
const { databasePath, isPostgresUrl } = await import(databasePathFile);

if (isPostgresUrl()) {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2, connectionTimeoutMillis: 10_000 });
  const lock = await pool.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtextextended('theorem:migrations', 0))");
    await migrate(drizzle(pool), { migrationsFolder: join(root, "drizzle-pg") });
    console.log("PostgreSQL is migrated.");
  } finally {
    lock.release();
    await pool.end();
  }
} else {
  const { default: Database } = await import("better-sqlite3");
  const { drizzle } = await import("drizzle-orm/better-sqlite3");
  const { migrate } = await import("drizzle-orm/better-sqlite3/migrator");
  const { mkdirSync } = await import("node:fs");
  const { dirname } = await import("node:path");
  const file = databasePath();
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = OFF");
  try {
    migrate(drizzle(sqlite), { migrationsFolder: join(root, "drizzle") });
    console.log(`${file} is migrated.`);
  } finally {
    sqlite.close();
  }
}
