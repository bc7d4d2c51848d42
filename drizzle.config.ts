import { defineConfig } from "drizzle-kit";

// After any schema change run both `npm run db:generate` (SQLite, lib/db/schema.ts → drizzle/) and
// `npm run db:generate:pg` (PostgreSQL, lib/db/schema-pg.ts → drizzle-pg/); lib/db/schema-parity.test.ts
// fails until both schemas and both migration folders agree. The app applies them with drizzle's
// migrator when it opens the database.
export default defineConfig({
  dialect: "sqlite",
  schema: "./lib/db/schema.ts",
  out: "./drizzle",
});
