import "server-only";
import { getDb } from "@/lib/db/client";
import type { OrgContext } from "./apps";

/** The process's database, as the organisation's operations take it. The demo is seeded at start (lib/demo/startup.ts). */
export function orgContext(): OrgContext {
  return { db: getDb() };
}
