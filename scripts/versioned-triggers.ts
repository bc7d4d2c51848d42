import { versionTriggersMigration } from "@/lib/db/versioned-tables";

// Prints the triggers of lib/db/versioned-tables.ts as a migration's text, for a custom migration
// (`npx drizzle-kit generate --custom --name x`, then paste): npx tsx scripts/versioned-triggers.ts sqlite|pg
const dialect = process.argv[2];
if (dialect !== "sqlite" && dialect !== "pg") {
  console.error("Usage: npx tsx scripts/versioned-triggers.ts sqlite|pg");
  process.exit(2);
}
process.stdout.write(versionTriggersMigration(dialect));
