import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { prefixCounts, promptTokens } from "@/lib/engine/tokens";
import { parseAllowList } from "@/lib/mcp/address";
import { readLiveApp } from "@/lib/mcp/read-app";
import { readInPool } from "@/lib/pool/engine-pool";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { addApp } from "./connections";
import { recheckApp, recheckOrg } from "./rechecks";
import type { AppReader } from "./context";
import { ensureOrg } from "./organisations";
import { latestReads } from "./reads";
import { snapshotContents } from "./snapshots";

const dir = mkdtempSync(join(tmpdir(), "theorem-reread-tokens-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
process.env["DATABASE_URL"] = join(dir, "theorem.db");
process.env["CHECK_ALLOW_HOSTS"] = "127.0.0.1";

// Keys in the app's own order: "2" before "10" as JavaScript keeps them, where the stored snapshot's canonical JSON has "10" first.
const tool = (i: number) => ({ name: `tool_${i}`, description: `Clocks shift ${i} in. 打卡 🎉`, inputSchema: { type: "object", properties: { when: { type: "string" }, "10": { type: "number" }, "2": { type: "number" } } } });

describe("tokens after a restart (SPEC §21, issue 40 point 5)", () => {
  it("a fresh pool re-reading an app counts none of the tools its newest snapshot stored counts for, and only a changed tool after", { timeout: 30_000 }, async () => {
    const tools = Array.from({ length: 20 }, (_, i) => tool(i));
    const app = await serveMcpApp({ name: "Rota", tools });
    const shifts = [{ name: "swap", description: "Swaps two shifts.", inputSchema: { type: "object" } }];
    let other = await serveMcpApp({ name: "Shifts", tools: shifts });
    const db = openDatabase(join(dir, "orgs.db"));
    try {
      await ensureOrg(db, "acme", "Acme");
      // The first read, as another process (or this one before a restart) stored it: its tools counted there.
      const before: AppReader = async (live) => {
        const listing = await readLiveApp(live, { allow: parseAllowList("127.0.0.1") });
        // Counted as that process counted them: not kept in this process's table, which the pool's threads share.
        const counts = listing.entries.map((entry) => prefixCounts(entry as Record<string, unknown>, null));
        return { ...listing, promptTokens: counts.map((c) => c.tokens), promptChars: counts.map((c) => c.chars) };
      };
      const { id } = await addApp({ db, read: before }, "acme", { name: "Rota", url: app.url });
      const shiftsApp = await addApp({ db, read: before }, "acme", { name: "Shifts", url: other.url });
      // Then unreachable at its newest read (nothing listed, no snapshot stored), and back: its newest snapshot is the one before.
      const port = Number(new URL(other.url).port);
      await other.close();
      expect((await recheckApp({ db, read: before }, "acme", shiftsApp.id)).lastCheck?.result.status).toBe("unavailable");
      other = await serveMcpApp({ name: "Shifts", tools: shifts, port });
      // This file's pool is new: its read threads have counted nothing yet.
      const counted: (number | undefined)[] = [];
      const pooled: AppReader = async (live, snapshot) => {
        const listing = await readInPool(live, "127.0.0.1", snapshot);
        counted.push(listing.tokensCounted);
        return listing;
      };
      const storedTokens = async () => (await snapshotContents(db, (await latestReads(db, "acme")).get(id)!.snapshot!)).promptTokens;

      await recheckOrg({ db, read: pooled }, "acme");
      expect(counted).toEqual([0, 0]);
      expect(await storedTokens()).toEqual(tools.map(promptTokens));

      // One description changed, one title given (not in the text counted): only the first is counted.
      tools[3] = { ...tool(3), description: "Clocks shift 3 out." };
      tools[7] = { ...tool(7), title: "Shift seven" } as ReturnType<typeof tool>;
      await recheckApp({ db, read: pooled }, "acme", id);
      expect(counted).toEqual([0, 0, 1]);
      expect(await storedTokens()).toEqual(tools.map(promptTokens));
    } finally {
      db.$client.close();
      await Promise.all([app.close(), other.close().catch(() => undefined)]);
    }
  });
});
