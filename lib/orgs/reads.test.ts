import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import type { AppListing } from "@/lib/engine/check";
import { addApp } from "./connections";
import { recheckApp } from "./rechecks";
import { ensureOrg } from "./organisations";
import { readHistory, recentSnapshots } from "./reads";
import { snapshotContents } from "./snapshots";

const dir = mkdtempSync(join(tmpdir(), "theorem-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
process.env["DATABASE_URL"] = join(dir, "theorem.db");

describe("an app's recent snapshots (what its next read is given, SPEC §21)", () => {
  it("are its newest reads' snapshots, newest first, null for a read that listed nothing, at most the limit, and none of another app's", async () => {
    const db = openDatabase(join(dir, "reads.db"));
    try {
      await ensureOrg(db, "acme", "Acme");
      let listing: AppListing = { name: "Rota", entries: [{ name: "first" }] };
      const ctx = { db, read: async () => listing };
      const rota = await addApp(ctx, "acme", { name: "Rota", url: "http://rota.test/mcp" });
      await addApp({ db, read: async () => ({ name: "Diary", entries: [{ name: "elsewhere" }] }) }, "acme", { name: "Diary", url: "http://diary.test/mcp" });
      listing = { name: "Rota", entries: [{ name: "second" }] };
      await recheckApp(ctx, "acme", rota.id);
      listing = { name: "Rota", entries: [], unavailable: { code: "connect-failed", message: "Rota is unavailable: it refused the connection." } };
      await recheckApp(ctx, "acme", rota.id);

      const recent = await recentSnapshots(db, rota.id, 20);
      expect(recent).toEqual((await readHistory(db, { org: "acme", app: rota.id }, 20)).map((read) => read.snapshot));
      expect(recent).toHaveLength(3);
      expect(recent[0]).toBeNull();
      const names = await Promise.all(recent.slice(1).map(async (hash) => (await snapshotContents(db, hash!)).entries));
      expect(names).toEqual([[{ name: "second" }], [{ name: "first" }]]);
      expect(await recentSnapshots(db, rota.id, 2)).toEqual(recent.slice(0, 2));
    } finally {
      db.$client.close();
    }
  });
});
