import "server-only";
import { getDb, type Conn } from "@/lib/db/client";
import type { AppListing } from "@/lib/engine/check";
import type { LiveApp } from "@/lib/mcp/read-app";
import type { StoredSnapshot } from "@/lib/pool/engine-pool";
import type { NameCache } from "./named";

/**
 * Reads one app over MCP; tests may read listings some other way. `readMs`, when given, is the read
 * itself without any wait for its turn. `snapshot` is the app's newest, whose stored token counts
 * the read need not count again (SPEC §21).
 */
export type AppReader = (app: LiveApp, snapshot?: StoredSnapshot) => Promise<AppListing & { readMs?: number }>;

/** What every operation on an organisation takes: its database, and how apps are read and checks kept. */
export interface OrgContext {
  db: Conn;
  read?: AppReader;
  /** The checks this instance keeps (lib/orgs/named.ts); the process's when absent. */
  names?: NameCache;
}

/** The process's database, as the organisation's operations take it. The demo is seeded at start (lib/demo/startup.ts). */
export function orgContext(): OrgContext {
  return { db: getDb() };
}
