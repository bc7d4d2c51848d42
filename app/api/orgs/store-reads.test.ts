import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeDatabase, statementsDuring } from "@/test/route-tests";

// How a re-check's reads are stored (lib/orgs/reads.ts `insertReads`), on SQLite and on
// PostgreSQL alike (this file runs on both): only where the app is still as it was read, each
// listing once, in four statements a read (the fourth: whether an available read ends the app's
// unavailability, SPEC §28).
const database = await routeDatabase("store-reads");

const { getDb, orgTransaction } = await import("@/lib/db/client");
const { apps } = await import("@/lib/db/tables");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { snapshotEntries } = await import("@/lib/orgs/snapshots");
const { insertReads } = await import("@/lib/orgs/reads");
type NewRead = Parameters<typeof insertReads>[1][number];

const db = getDb();
let reads = 0;
/** A read of `app` listing `tools`, read at `readAs` (the app's address and header then). */
const readOf = (app: string, readAs: NewRead["readAs"], tools: string[], promptTokens?: number[]): NewRead => ({
  id: `read-${++reads}`,
  app,
  checkedAt: 1_000_000 + reads,
  durationMs: 12.4,
  listing: { name: app, entries: tools.map((name) => ({ name, inputSchema: { type: "object" } })), ...(promptTokens === undefined ? {} : { promptTokens }) },
  readAs,
});
const stored = (app: string) => database.count("SELECT count(*) FROM check_results WHERE app = ?", [app]);
const snapshotCount = () => database.count("SELECT count(*) FROM snapshots");

beforeAll(async () => {
  await ensureOrg(db, "acme", "Acme");
  await db.insert(apps).values([
    { id: "plain", org: "acme", name: "Plain", url: "http://plain.test/mcp", connectedAt: 1 },
    { id: "keyed", org: "acme", name: "Keyed", url: "http://keyed.test/mcp", urlSecret: "enc:url", headerName: "X-Key", headerValue: "enc:key", connectedAt: 2 },
  ]);
});

afterAll(() => database.close());

describe("storing reads", () => {
  it("stores a read, and its listing, only where the app is still at the address and header it was read with", async () => {
    const before = await snapshotCount();
    await insertReads(db, [
      readOf("plain", { url: "http://moved.test/mcp", urlSecret: null, headerValue: null }, ["moved"]),
      readOf("keyed", { url: "http://keyed.test/mcp", urlSecret: "enc:url", headerValue: null }, ["header-removed"]),
      readOf("keyed", { url: "http://keyed.test/mcp", urlSecret: null, headerValue: "enc:key" }, ["secret-removed"]),
    ]);
    expect(await stored("plain")).toBe(0);
    expect(await stored("keyed")).toBe(0);
    expect(await snapshotCount()).toBe(before);

    await insertReads(db, [
      readOf("plain", { url: "http://plain.test/mcp", urlSecret: null, headerValue: null }, ["hours"]),
      readOf("keyed", { url: "http://keyed.test/mcp", urlSecret: "enc:url", headerValue: "enc:key" }, ["hours"]),
    ]);
    expect(await stored("plain")).toBe(1);
    expect(await stored("keyed")).toBe(1);
    // The same listing is one snapshot.
    expect(await snapshotCount()).toBe(before + 1);
    const [read] = await database.query("SELECT duration_ms, stopped, snapshot FROM check_results WHERE app = ?", ["plain"]);
    expect(Number(read!.duration_ms)).toBe(12);
    expect([false, 0]).toContain(read!.stopped);
    expect(read!.snapshot).toEqual(expect.any(String));
  });

  it("gives a snapshot stored before tokens were counted the counts of the next read of it, and keeps the first counts after", async () => {
    const plain = { url: "http://plain.test/mcp", urlSecret: null, headerValue: null };
    await insertReads(db, [readOf("plain", plain, ["uncounted"])]);
    const tokensOf = async () => (await database.query("SELECT s.tokens FROM snapshots s JOIN check_results r ON r.snapshot = s.hash WHERE r.id = ?", [`read-${reads}`]))[0]!.tokens;
    expect(await tokensOf()).toBeNull();
    await insertReads(db, [readOf("plain", plain, ["uncounted"], [7])]);
    expect(JSON.parse(String(await tokensOf()))).toEqual({ tokens: [7] });
    await insertReads(db, [readOf("plain", plain, ["uncounted"], [9])]);
    expect(JSON.parse(String(await tokensOf()))).toEqual({ tokens: [7] });
  });

  it("stores a re-check's read of a listing read before in four statements, and on PostgreSQL takes the organisation's lock as its transaction begins", async () => {
    const plain = { url: "http://plain.test/mcp", urlSecret: null, headerValue: null };
    await insertReads(db, [readOf("plain", plain, ["hours", "clock_in"], [3, 4])]);
    // Its names were given: the snapshot was read, with its tokens.
    await snapshotEntries(db, String((await database.query("SELECT snapshot FROM check_results WHERE id = ?", [`read-${reads}`]))[0]!.snapshot));
    const read = readOf("plain", plain, ["hours", "clock_in"], [3, 4]);
    const { statements } = await statementsDuring(() => orgTransaction(db, "acme", (tx) => insertReads(tx, [read]), "deferred"));
    // SQLite's BEGIN and COMMIT are not statements run through the driver's prepared ones.
    expect(statements).toHaveLength(database.dialect === "postgres" ? 6 : 4);
    if (database.dialect === "postgres") {
      expect(statements[0]).toMatch(/^BEGIN; SELECT pg_advisory_xact_lock/);
      expect(statements.at(-1)).toBe("COMMIT");
    }
    expect(await stored("plain")).toBeGreaterThan(0);
  });
});
