import { defineConfig } from "drizzle-kit";

// `npm run db:generate:pg` writes PostgreSQL's migration to drizzle-pg/ from lib/db/schema-pg.ts;
// run it together with `npm run db:generate` after every schema change (schema-parity.test.ts checks).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema-pg.ts",
  out: "./drizzle-pg",
});
