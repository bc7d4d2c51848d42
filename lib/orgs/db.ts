import "server-only";
import type { Db } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { demoAppsFromEnv, seedDemo } from "@/lib/demo/seed";
import type { OrgContext } from "./apps";

const seeded = globalThis as typeof globalThis & { __theoremDemoSeeded?: Db };

/**
 * The process's database. On first use the demo organisation is made sure of, with the demo
 * apps `npm start` serves (none under `next dev`: the organisation is then empty).
 */
export function orgContext(): OrgContext {
  const db = getDb();
  if (seeded.__theoremDemoSeeded !== db) {
    seedDemo(db, demoAppsFromEnv());
    seeded.__theoremDemoSeeded = db;
  }
  return { db };
}
