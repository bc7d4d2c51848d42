import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes a versioned migration to drizzle/ after a change to lib/db/schema.ts;
// the app applies them with drizzle's migrator when it opens the database.
export default defineConfig({
  dialect: "sqlite",
  schema: "./lib/db/schema.ts",
  out: "./drizzle",
});
