// `npm run db:migrate`: applies the migrations of the database DATABASE_URL names, as a server
// does at its start (lib/db/client.ts prepareDatabase), for deployments that migrate as a step of
// their own; instances that start meanwhile take turns with it.
import { allowServerOnly } from "./bench-runtime";

allowServerOnly();
const { closeDatabase, isPostgresUrl, prepareDatabase } = await import("@/lib/db/client");
await prepareDatabase();
await closeDatabase();
console.log(isPostgresUrl() ? "PostgreSQL is migrated." : "The SQLite database is migrated.");
