// Run by durability.test.ts: writes apps as fast as it can, printing each id once committed,
// until the test kills it (SIGKILL, mid-write). It gives up by itself after 30 s.
import { randomUUID } from "node:crypto";
import { openDatabase, transaction } from "@/lib/db/client";
import { apps, checkResults, organization } from "@/lib/db/tables";

const path = process.argv[2];
if (path === undefined) throw new Error("Give the database path.");
const db = openDatabase(path);
await db.insert(organization).values({ id: "durable", slug: "durable", name: "Durable", createdAt: new Date() }).onConflictDoNothing();
const result = JSON.stringify({ filler: "x".repeat(4000) });

const stopAt = Date.now() + 30_000;
for (let i = 0; Date.now() < stopAt; i++) {
  const id = randomUUID();
  await transaction(db, async (tx) => {
    await tx.insert(apps).values({ id, org: "durable", name: `App ${i}`, url: `http://127.0.0.1/${i}`, headerName: null, headerValue: null, connectedAt: Date.now() });
    await tx.insert(checkResults).values({ id: randomUUID(), app: id, checkedAt: Date.now(), durationMs: 1, result });
  });
  process.stdout.write(`committed ${id}\n`);
}
