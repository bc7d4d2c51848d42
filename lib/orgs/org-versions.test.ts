import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { everyWrite, unchanged } from "@/test/org-versions";

// An organisation's version (lib/db/schema.ts `orgVersions`) on SQLite: drawn afresh by every
// write to what its lists are read from, and the key of the lists each process keeps (`keptListState`).
// lib/orgs/postgres.test.ts runs the same writes on PostgreSQL.
const dir = mkdtempSync(join(tmpdir(), "theorem-versions-"));
process.env["DATABASE_URL"] = join(dir, "theorem.db");
afterAll(async () => {
  const { closeDatabase } = await import("@/lib/db/client");
  await closeDatabase();
  rmSync(dir, { recursive: true, force: true });
});

describe("an organisation's version", () => {
  it("changes with every write to a table its lists are read from, cascades included, and no other organisation's does", async () => {
    const seen = await everyWrite("versions");
    expect(seen.length).toBeGreaterThan(20);
    expect(unchanged(seen)).toEqual([]);
  });
});

describe("the lists a process keeps (keptListState)", () => {
  it("answers the kept list at the version a request saw, and reads afresh once the version has changed", async () => {
    const [{ getDb }, { ensureOrg }, { keptListState, listState }] = await Promise.all([import("@/lib/db/client"), import("./organisations"), import("./list-state")]);
    const db = getDb();
    await ensureOrg(db, "kept", "Kept");
    const first = await keptListState(db, { org: "kept" }, null);
    expect(first.version).not.toBeNull();
    // The version a request read answers from what was kept: the same object, no statement.
    expect(await keptListState(db, { org: "kept" }, first.version)).toBe(first);
    await ensureOrg(db, "kept", "Kept, renamed");
    const after = await keptListState(db, { org: "kept" }, (await listState(db, { org: "kept" })).version);
    expect(after).not.toBe(first);
    expect(after.org?.name).toBe("Kept, renamed");
    expect(after).toEqual(await listState(db, { org: "kept" }));
    expect(after.version).not.toBe(first.version);
    // A request that read the version before the change reads afresh: what is kept is another version's.
    expect(await keptListState(db, { org: "kept" }, first.version)).not.toBe(after);
    // Without a version (a request that changed something), always read.
    expect(await keptListState(db, { org: "kept" }, null)).not.toBe(after);
  });

  it("answers the requests that miss together with one read, but not one begun before the version they saw", async () => {
    const [{ getDb }, { ensureOrg }, { keptListState, listState }] = await Promise.all([import("@/lib/db/client"), import("./organisations"), import("./list-state")]);
    const db = getDb();
    await ensureOrg(db, "shared", "Shared");
    const version = (await listState(db, { org: "shared" })).version;
    // Three requests that saw the same version, none kept yet: one read answers them all.
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => keptListState(db, { org: "shared" }, version)));
    expect(a!.version).toBe(version);
    expect(b).toBe(a);
    expect(c).toBe(a);
    // A read under way (a change's own, `null`) that began before the next change: a request that
    // saw the next version waits for it, and reads anew. SQLite runs the read's statement in the
    // first turn after it is asked for: the change is written, and its version read, after that
    // turn and before the read is answered (`before` answers the name before the change).
    const sqlite = db.$client as unknown as { prepare(text: string): { run(...values: unknown[]): unknown; get(...values: unknown[]): unknown } };
    const before = keptListState(db, { org: "shared" }, null);
    await Promise.resolve();
    sqlite.prepare("UPDATE organization SET name = ? WHERE slug = ?").run("Shared, renamed", "shared");
    const next = (sqlite.prepare("SELECT version FROM org_versions WHERE org = ?").get("shared") as { version: string }).version;
    const seenNext = keptListState(db, { org: "shared" }, next);
    expect((await before).org?.name).toBe("Shared");
    expect((await seenNext).version).toBe(next);
    expect((await seenNext).org?.name).toBe("Shared, renamed");
  });

  it("answers a list offered before its change commits at that change's version only: kept once committed, forgotten when not", async () => {
    const [{ getDb }, { ensureOrg }, { keptListAt, keptListState, offerListState, withdrawListState }] = await Promise.all([import("@/lib/db/client"), import("./organisations"), import("./list-state")]);
    const db = getDb();
    await ensureOrg(db, "offered", "Offered");
    const now = await keptListState(db, { org: "offered" }, null);
    const next = { ...now, version: "drawn-by-a-change" };
    offerListState(db, { org: "offered" }, next);
    // Both answer, each at its own version: the offer takes nothing kept away.
    expect(keptListAt(db, { org: "offered" }, "drawn-by-a-change")).toBe(next);
    expect(keptListAt(db, { org: "offered" }, now.version)).toBe(now);
    // Not committed: its version is never seen, and nothing answers at it.
    withdrawListState(db, { org: "offered" }, next, false);
    expect(keptListAt(db, { org: "offered" }, "drawn-by-a-change")).toBeUndefined();
    expect(keptListAt(db, { org: "offered" }, now.version)).toBe(now);
    // Committed: kept at its version; the list before stays kept at its own (each under its own key,
    // lib/cache/caches.ts) for a request that saw that version, until it is the least recently used.
    offerListState(db, { org: "offered" }, next);
    withdrawListState(db, { org: "offered" }, next, true);
    expect(keptListAt(db, { org: "offered" }, "drawn-by-a-change")).toBe(next);
    expect(keptListAt(db, { org: "offered" }, now.version)).toBe(now);
  });

  it("keeps a person's list apart from the organisation's", async () => {
    const [{ getDb }, { ensureOrg }, { keptListState }] = await Promise.all([import("@/lib/db/client"), import("./organisations"), import("./list-state")]);
    const db = getDb();
    await ensureOrg(db, "scoped", "Scoped");
    const org = await keptListState(db, { org: "scoped" }, null);
    const person = await keptListState(db, { org: "scoped", person: "someone" }, null);
    expect(await keptListState(db, { org: "scoped" }, org.version)).toBe(org);
    expect(await keptListState(db, { org: "scoped", person: "someone" }, org.version)).toBe(person);
  });

  it("keeps no list larger than its bound: a larger organisation's is read each time, and smaller ones are kept beside it", async () => {
    const [{ getDb }, { ensureOrg }, { boundListStates, keptListState }, { apps: appsTable }] = await Promise.all([import("@/lib/db/client"), import("./organisations"), import("./list-state"), import("@/lib/db/tables")]);
    const db = getDb();
    boundListStates(db, 8 * 1024);
    try {
      for (const [slug, apps] of [["small-a", 1], ["small-b", 1], ["large", 20]] as const) {
        await ensureOrg(db, slug, slug);
        for (let i = 0; i < apps; i++) await db.insert(appsTable).values({ id: `${slug}-${i}`, org: slug, name: `App ${i}`, url: `http://${slug}-${i}.test/mcp`, connectedAt: i + 1 });
      }
      const large = await keptListState(db, { org: "large" }, null);
      expect(large.apps).toHaveLength(20);
      // Larger than the whole bound: read each time, never kept.
      expect(await keptListState(db, { org: "large" }, large.version)).not.toBe(large);
      expect(await keptListState(db, { org: "large" }, large.version)).toEqual(large);
      const a = await keptListState(db, { org: "small-a" }, null);
      const b = await keptListState(db, { org: "small-b" }, null);
      expect(await keptListState(db, { org: "small-a" }, a.version)).toBe(a);
      expect(await keptListState(db, { org: "small-b" }, b.version)).toBe(b);
    } finally {
      boundListStates(db, null);
    }
  });
});
