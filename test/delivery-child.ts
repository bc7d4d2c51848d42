// Run by lib/alerts/delivery.test.ts: an instance that delivers what is pending (webhook messages
// and outbox mail) on the PostgreSQL database DATABASE_URL names, killed by the test (SIGKILL)
// while its deliveries are under way. It gives up by itself after 60 s.
import { deliverOutbox } from "@/lib/alerts/deliver";
import { deliverHooks } from "@/lib/alerts/webhooks";
import { openPostgres } from "@/lib/db/client";

setTimeout(() => process.exit(3), 60_000).unref();
const db = openPostgres(process.env.DATABASE_URL ?? "");
process.stdout.write("delivering\n");
await Promise.all([deliverHooks(db), deliverOutbox(db)]);
process.stdout.write("delivered\n");
process.exit(0);
