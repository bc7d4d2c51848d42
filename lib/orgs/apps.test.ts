import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/client";
import { DEMO_ORG, seedDemo } from "@/lib/demo/seed";
import { entryChars } from "@/lib/engine/listing-size";
import { NotFoundError } from "@/lib/errors";
import type { LiveApp } from "@/lib/mcp/read-app";
import type { AppReader, OrgContext } from "./context";
import { getApp, history, listApps, scopeList } from "./lists";
import { addApp, approveApp, removeApp, updateApp } from "./connections";
import { recheckApp, recheckOrg } from "./rechecks";
import { MAX_APPS_PER_ORG, MAX_PERSONAL_APPS } from "./limits";
import { runDue } from "@/lib/schedule/schedule";
import { decryptSecret } from "@/lib/secrets";
import { changeAppSettings } from "./settings";
import { ensureOrg } from "./organisations";
import { checkInput, requireApp } from "./app-rows";
import { HISTORY_PER_APP } from "./reads";
import { keptListAt, keptListState, listState } from "./list-state";
import { setReviewMode } from "./review";

// These tests read listings inline (the real engine, no network), keyed by URL, so that they
// pin down what the store does with a check; the routes' tests check live apps over MCP.
const listings: Record<string, unknown[]> = {
  "http://a.test/mcp": [{ name: "clock_in", annotations: { destructiveHint: false, openWorldHint: true } }],
  "http://b.test/mcp": [{ name: "clock_in" }, { name: "my_hours", annotations: { readOnlyHint: true } }],
  "http://c.test/mcp": [{ name: "report" }],
};

/** Every app read, in the order reads started. */
const seen: LiveApp[] = [];
function inlineRead(delayMs = 0): AppReader {
  return async (app) => {
    seen.push(app);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    return { name: app.name, entries: listings[app.url] ?? [] };
  };
}
const failingRead: AppReader = () => Promise.reject(new Error("the check broke"));

const dir = mkdtempSync(join(tmpdir(), "theorem-orgs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The secrets' key file goes beside this database folder, not into the project's data/.
process.env["DATABASE_URL"] = join(dir, "theorem.db");
delete process.env["THEOREM_SECRET_KEY"];

let db: Db;
let ctx: OrgContext;
let n = 0;
let dbFile = "";
beforeEach(async () => {
  dbFile = join(dir, `orgs-${++n}.db`);
  db = openDatabase(dbFile);
  await ensureOrg(db, "acme", "Acme");
  await ensureOrg(db, "other", "Other");
  ctx = { db, read: inlineRead() };
  seen.length = 0;
});

const count = (table: string) => db.$client.prepare(`SELECT count(*) FROM ${table}`).pluck().get();

describe("connecting and removing apps", () => {
  it("stores each read's protocol revision and cache hint with it, and answers them on the app (SPEC §18)", { timeout: 10_000 }, async () => {
    let modern = true;
    ctx = {
      db,
      read: async (app) => ({ name: app.name, entries: listings[app.url] ?? [], ...(modern ? { protocol: "2026-07-28", cache: { ttlMs: 600_000, scope: "private" as const } } : { protocol: "2025-11-25", cache: null }) }),
    };
    const added = await addApp(ctx, "acme", { name: "Calendar", url: "http://a.test/mcp" });
    expect(added.lastCheck?.result).toMatchObject({ protocol: "2026-07-28", listing: { cache: { ttlMs: 600_000, scope: "private" } } });
    modern = false;
    await recheckApp(ctx, "acme", added.id);
    const again = await getApp(ctx, "acme", added.id);
    expect(again.lastCheck?.result).toMatchObject({ protocol: "2025-11-25", listing: { cache: null } });
  });

  it("reads the new app alone, names it after every earlier one, and stores one record", { timeout: 10_000 }, async () => {
    const first = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const second = await addApp(ctx, "acme", { name: "attendance", url: "http://b.test/mcp" });

    expect(seen.map((a) => a.url)).toEqual(["http://a.test/mcp", "http://b.test/mcp"]);
    expect(first.lastCheck?.result.shortName).toBe("attendance");
    expect(second.lastCheck?.result.shortName).toBe("attendance_2");
    expect(second.lastCheck?.result.tools.map((t) => t.wholeName)).toEqual(["attendance_2_clock_in", "attendance_2_my_hours"]);
    expect(new Date(second.connectedAt) > new Date(first.connectedAt)).toBe(true);

    const list = await listApps(ctx, "acme");
    expect(list.org).toEqual({ slug: "acme", name: "Acme" });
    expect(list.apps.map((a) => a.id)).toEqual([first.id, second.id]);
    // The first app was not read again: its one read, with names over today's list.
    expect(list.apps[0]?.lastCheck?.id).toBe(first.lastCheck?.id);
    expect(list.apps[1]?.lastCheck?.result.shortName).toBe("attendance_2");
    expect(await history(ctx, "acme", first.id)).toHaveLength(1);
    expect(count("check_results")).toBe(2);
  });

  it("gives the names back when an earlier app is removed", { timeout: 10_000 }, async () => {
    const first = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const second = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" });
    expect(second.lastCheck?.result.shortName).toBe("attendance_2");

    const reads = seen.length;
    await removeApp(ctx, "acme", first.id);
    expect(seen.length).toBe(reads); // a removal reads nothing
    const after = await getApp(ctx, "acme", second.id);
    expect(after.lastCheck?.result.shortName).toBe("attendance");
    expect(after.lastCheck?.result.tools[0]?.wholeName).toBe("attendance_clock_in");
    await expect(getApp(ctx, "acme", first.id)).rejects.toThrow(/no app/);
    // The removed app's history went with it.
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app = ?").pluck().get(first.id)).toBe(0);
  });

  it("renames through PATCH, reading that app alone, and names it with the new name", { timeout: 10_000 }, async () => {
    const first = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const second = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" });
    seen.length = 0;
    const renamed = await updateApp(ctx, "acme", second.id, { name: "Timesheets" });
    expect(seen.map((a) => a.name)).toEqual(["Timesheets"]);
    expect(renamed.name).toBe("Timesheets");
    expect(renamed.lastCheck?.result.shortName).toBe("timesheets");
    expect(renamed.connectedAt).toBe(second.connectedAt);
    expect((await getApp(ctx, "acme", first.id)).lastCheck?.result.shortName).toBe("attendance");
  });

  it("keeps the header's value to itself: sent to the app, answered as {name, set}", { timeout: 10_000 }, async () => {
    const secret = "Bearer s3cret-value";
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp", header: { name: "Authorization", value: secret } });
    expect(seen.at(-1)?.headers).toEqual({ Authorization: secret });
    expect(app.header).toEqual({ name: "Authorization", set: true });
    expect(JSON.stringify(await listApps(ctx, "acme"))).not.toContain("s3cret");
    expect(JSON.stringify(await getApp(ctx, "acme", app.id))).not.toContain("s3cret");

    const cleared = await updateApp(ctx, "acme", app.id, { header: null });
    expect(cleared.header).toBeNull();
    expect(seen.at(-1)?.headers).toBeUndefined();
  });

  it("stores nothing when the check fails: no app, no record, no change", { timeout: 10_000 }, async () => {
    const kept = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const broken = { db, read: failingRead };
    await expect(addApp(broken, "acme", { name: "Reports", url: "http://c.test/mcp" })).rejects.toThrow("the check broke");
    await expect(updateApp(broken, "acme", kept.id, { name: "Renamed", url: "http://c.test/mcp" })).rejects.toThrow("the check broke");
    expect(count("apps")).toBe(1);
    expect(count("check_results")).toBe(1);
    expect(await getApp(ctx, "acme", kept.id)).toMatchObject({ name: "Attendance", url: "http://a.test/mcp" });
  });

  it(`refuses a ${MAX_APPS_PER_ORG + 1}th app with a clear error`, { timeout: 10_000 }, async () => {
    const insert = db.$client.prepare("INSERT INTO apps (id, org, name, url, connected_at) VALUES (?, 'acme', ?, 'http://c.test/mcp', ?)");
    for (let i = 0; i < MAX_APPS_PER_ORG; i++) insert.run(`app-${i}`, `App ${i}`, i);
    await expect(addApp(ctx, "acme", { name: "One more", url: "http://a.test/mcp" })).rejects.toThrow(`at most ${MAX_APPS_PER_ORG} apps`);
    expect(count("apps")).toBe(MAX_APPS_PER_ORG);
  });

  it("answers not-found for an unknown organisation, an unknown app and another organisation's app", { timeout: 10_000 }, async () => {
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    await expect(listApps(ctx, "nobody")).rejects.toThrow(/no organisation "nobody"/);
    await expect(listApps(ctx, "Not A Slug!")).rejects.toThrow(/no organisation/);
    await expect(addApp(ctx, "nobody", { name: "X", url: "http://a.test/mcp" })).rejects.toThrow(/no organisation/);
    await expect(getApp(ctx, "acme", "missing")).rejects.toThrow(/no app "missing"/);
    await expect(getApp(ctx, "other", app.id)).rejects.toThrow(/no app/);
    await expect(removeApp(ctx, "other", app.id)).rejects.toThrow(/no app/);
    await expect(recheckApp(ctx, "acme", "missing")).rejects.toThrow(/no app/);
    expect(count("apps")).toBe(1);
  });
});

describe("checks and their history", () => {
  it("two re-checks of one app at once both land, and fold into one unchanged row", { timeout: 10_000 }, async () => {
    const slow = { db, read: inlineRead(50) };
    const a = await addApp(slow, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    await addApp(slow, "acme", { name: "Reports", url: "http://c.test/mcp" });
    const [x, y] = await Promise.all([recheckApp(slow, "acme", a.id), recheckApp(slow, "acme", a.id)]);

    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app = ?").pluck().get(a.id)).toBe(3);
    const rows = await history(ctx, "acme", a.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ appId: a.id, count: 3, status: "available", tools: 1, change: null });
    expect(Date.parse(rows[0]!.from)).toBeLessThanOrEqual(Date.parse(rows[0]!.to));
    expect([x.lastCheck?.result.tools[0]?.wholeName, y.lastCheck?.result.tools[0]?.wholeName]).toEqual(["attendance_clock_in", "attendance_clock_in"]);
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("re-checks the whole organisation, reading every app, and lists every app's history newest first", { timeout: 10_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const b = await addApp(ctx, "acme", { name: "Reports", url: "http://c.test/mcp" });
    await addApp(ctx, "other", { name: "Elsewhere", url: "http://c.test/mcp" });
    seen.length = 0;
    const list = await recheckOrg(ctx, "acme");
    expect(seen.map((app) => app.name).sort()).toEqual(["Attendance", "Reports"]);
    expect(list.apps.map((app) => app.lastCheck?.result.name)).toEqual(["Attendance", "Reports"]);

    const all = await history(ctx, "acme", undefined);
    expect(all.map((c) => [c.appId, c.count]).sort()).toEqual([[a.id, 2], [b.id, 2]].sort());
    expect(await history(ctx, "acme", undefined, 1)).toHaveLength(1);
  });

  it("keeps each app's own read time, not its batch's: a quick app read beside a slow one keeps the quick read's time (SPEC §11)", { timeout: 10_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const b = await addApp(ctx, "acme", { name: "Reports", url: "http://c.test/mcp" });
    // The quick read ends only after the slow one: the batch lasts as long as the slow read.
    let slowEnded = () => {};
    const slowEnd = new Promise<void>((resolve) => (slowEnded = resolve));
    const timed: AppReader = async (app) => {
      if (app.url === "http://c.test/mcp") {
        slowEnded();
        return { name: app.name, entries: listings[app.url]!, readMs: 3000 };
      }
      await slowEnd;
      return { name: app.name, entries: listings[app.url]!, readMs: 12 };
    };
    const list = await recheckOrg({ db, read: timed }, "acme");
    expect(list.apps.map((app) => [app.id, app.lastCheck?.durationMs])).toEqual([
      [a.id, 12],
      [b.id, 3000],
    ]);
  });

  it("commits a re-check without waiting for the disk, and a leader's change only once it is on the disk", { timeout: 10_000 }, async () => {
    // SQLite's level at each COMMIT: 2 (FULL) waits for the disk, 1 (NORMAL) leaves it to the next that does.
    const commits: number[] = [];
    const exec = db.$client.exec.bind(db.$client);
    db.$client.exec = (text: string) => {
      if (text === "COMMIT") commits.push(db.$client.pragma("synchronous", { simple: true }) as number);
      return exec(text);
    };
    const levels = async (work: () => Promise<unknown>) => {
      commits.length = 0;
      await work();
      return [...commits];
    };
    const leader = { id: "leader", email: "leader@acme.test" };
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" });
    expect(await levels(() => addApp(ctx, "acme", { name: "Reports", url: "http://c.test/mcp" }))).toEqual([2]);
    expect(await levels(() => recheckApp(ctx, "acme", a.id))).toEqual([1]);
    expect(await levels(() => recheckOrg(ctx, "acme"))).toEqual([1]);
    // The schedule's read and the plan made from it.
    db.$client.prepare("UPDATE apps SET next_check_at = 0").run();
    expect(await levels(() => runDue(ctx, 60_000, Date.now(), 5))).toEqual([2, 2, 1, 1, 1, 1]);
    expect(await levels(() => updateApp(ctx, "acme", a.id, { name: "Hours" }))).toEqual([2]);
    expect(await levels(() => changeAppSettings(ctx, { org: "acme", app: a.id, owner: null }, { tools: { my_hours: "blocked" } }, leader))).toEqual([2]);
    expect(await levels(() => approveApp(ctx, "acme", a.id, leader.id))).toEqual([2]);
    expect(db.$client.pragma("synchronous", { simple: true })).toBe(2);
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("stores a listing read again and again once: ten identical reads, one snapshot, one history row", { timeout: 20_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" });
    for (let i = 0; i < 9; i++) await recheckApp(ctx, "acme", a.id);
    expect(count("check_results")).toBe(10);
    expect(count("snapshots")).toBe(1);
    expect(await history(ctx, "acme", a.id)).toEqual([expect.objectContaining({ count: 10, tools: 2, change: null })]);
  });

  it("an app of 15,000 tools re-checked 20 times grows the database by less than its listing's size", { timeout: 240_000 }, async () => {
    const url = "http://big.test/mcp";
    listings[url] = Array.from({ length: 15_000 }, (_, i) => ({ name: `tool_${i}`, annotations: { readOnlyHint: true } }));
    try {
      const a = await addApp(ctx, "acme", { name: "Catalogue", url });
      const listingChars = a.lastCheck!.result.listing.chars;
      expect(listingChars).toBeGreaterThan(200_000);
      const size = () => {
        db.$client.pragma("wal_checkpoint(TRUNCATE)");
        return readFileSync(dbFile).byteLength;
      };
      const before = size();
      for (let i = 0; i < 20; i++) await recheckApp(ctx, "acme", a.id);
      expect(size() - before).toBeLessThan(listingChars);
      expect(count("snapshots")).toBe(1);
      expect(await history(ctx, "acme", a.id)).toEqual([expect.objectContaining({ count: 21, tools: 15_000 })]);
    } finally {
      delete listings[url];
    }
  });

  it("says what changed between runs: tools added, removed and changed, and the size", { timeout: 20_000 }, async () => {
    const url = "http://changing.test/mcp";
    listings[url] = [{ name: "clock_in" }, { name: "my_hours", annotations: { readOnlyHint: true } }];
    try {
      const a = await addApp(ctx, "acme", { name: "Attendance", url });
      const size = (entries: unknown[]) => entries.reduce((n: number, e) => n + entryChars(e), 0);
      const from = size(listings[url]);
      listings[url] = [{ name: "clock_in", description: "Clocks you in." }, { name: "swap_shift" }];
      // as the live reader hands a listing over: with each entry's size, measured as its page was read
      const measuring: AppReader = async (app) => ({ name: app.name, entries: listings[app.url]!, entrySizes: listings[app.url]!.map(entryChars) });
      await recheckApp({ db, read: measuring }, "acme", a.id);
      const [newest, oldest] = await history(ctx, "acme", a.id);
      expect(oldest?.change).toBeNull();
      expect(newest?.change).toMatchObject({ status: null, added: 1, removed: 1, changed: 1 });
      expect(newest?.change?.chars).toEqual({ from, to: size(listings[url]) });
      expect(count("snapshots")).toBe(2);
    } finally {
      delete listings[url];
    }
  });

  it(`keeps the newest ${HISTORY_PER_APP} reads of each app, and forgets snapshots nothing points at`, { timeout: 60_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const insert = db.$client.prepare("INSERT INTO check_results (id, app, checked_at, duration_ms, snapshot, stopped) VALUES (?, ?, ?, 5, (SELECT snapshot FROM check_results WHERE app = ? LIMIT 1), 0)");
    // two reads to each instant: of two at once, the one stored later is the newer
    db.$client.transaction(() => {
      for (let i = 0; i < HISTORY_PER_APP + 5; i++) insert.run(`old-${i}`, a.id, Math.floor(i / 2), a.id);
    })();
    const others = db.$client.prepare("SELECT count(*) FROM check_results WHERE app <> ?").pluck().get(a.id);
    await recheckApp(ctx, "acme", a.id);
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app = ?").pluck().get(a.id)).toBe(HISTORY_PER_APP);
    // kept: this re-check, the first read, and old-7 … old-1004 (old-6 shares old-7's instant)
    const old = db.$client.prepare("SELECT id FROM check_results WHERE app = ? AND id LIKE 'old-%'").pluck().all(a.id) as string[];
    expect(old.map((id) => Number(id.slice(4))).sort((x, y) => x - y)).toEqual(Array.from({ length: HISTORY_PER_APP - 2 }, (_, i) => i + 7));
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app <> ?").pluck().get(a.id)).toBe(others);
    // at the bound, the next re-check lets the oldest go
    await recheckApp(ctx, "acme", a.id);
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app = ?").pluck().get(a.id)).toBe(HISTORY_PER_APP);
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE id IN ('old-7', 'old-8')").pluck().get()).toBe(1);
    await removeApp(ctx, "acme", a.id);
    expect(count("snapshots")).toBe(0);
  });
  it("keeps the list a re-check leaves: what a fresh read answers, at the version stored, review's approvals with it", { timeout: 10_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const b = await addApp(ctx, "acme", { name: "Hours", url: "http://b.test/mcp" });
    await setReviewMode(db, "acme", "wait-if-risky", "leader-id");
    const before = await keptListState(db, { org: "acme" }, null);
    // Hours now lists a tool that only reads: review lets it through as the read is stored.
    const more: AppReader = async (app) => ({ name: app.name, entries: [...(listings[app.url] ?? []), ...(app.url === "http://b.test/mcp" ? [{ name: "count", annotations: { readOnlyHint: true } }] : [])] });
    const answered = await recheckApp({ db, read: more }, "acme", b.id, before.version);
    const fresh = await listState(db, { org: "acme" });
    expect(fresh.version).not.toBe(before.version);
    const kept = keptListAt(db, { org: "acme" }, fresh.version);
    expect(kept).toEqual(fresh);
    expect(kept!.apps[1]!.approvals?.has("count")).toBe(true);
    expect(kept!.apps[0]).toBe(before.apps[0]);
    expect(answered.lastCheck?.result.tools.map((tool) => tool.name)).toContain("count");
    // Written meanwhile by another (a process keeping nothing at the version the re-check begins at): the list is read when next asked.
    db.$client.prepare("UPDATE apps SET name = 'Attendance, renamed' WHERE id = ?").run(a.id);
    await recheckApp({ db, read: more }, "acme", b.id, fresh.version);
    const after = await listState(db, { org: "acme" });
    expect(keptListAt(db, { org: "acme" }, after.version)).toEqual(after);
    expect(after.apps[0]!.row.name).toBe("Attendance, renamed");
  });
});

/** The database file and its write-ahead log, as bytes on disk. */
function onDisk(file: string): Buffer {
  const read = (f: string) => {
    try {
      return readFileSync(f);
    } catch {
      return Buffer.alloc(0);
    }
  };
  return Buffer.concat([read(file), read(`${file}-wal`)]);
}

describe("stored secrets", () => {
  it("never writes a header's value to the database file in the clear, and sends it decrypted", { timeout: 10_000 }, async () => {
    const secret = "Bearer s3cret-on-disk-1";
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp", header: { name: "Authorization", value: secret } });
    const stored = (await requireApp(db, "acme", app.id)).headerValue ?? "";
    expect(stored.startsWith("enc:v1:")).toBe(true);
    expect(decryptSecret(stored)).toBe(secret);
    expect(onDisk(dbFile).includes(secret)).toBe(false);

    const changed = "Bearer s3cret-on-disk-2";
    await updateApp(ctx, "acme", app.id, { header: { name: "Authorization", value: changed } });
    expect(seen.at(-1)?.headers).toEqual({ Authorization: changed });
    expect(onDisk(dbFile).includes(changed)).toBe(false);
    expect(onDisk(dbFile).includes("s3cret-on-disk")).toBe(false);
  });

  it("encrypts header values stored in the clear before, once, when the database is opened", { timeout: 10_000 }, async () => {
    const plain = "Bearer stored-plain-before";
    db.$client
      .prepare("INSERT INTO apps (id, org, name, url, header_name, header_value, connected_at) VALUES ('old', 'acme', 'Old', 'http://a.test/mcp', 'Authorization', ?, 1)")
      .run(plain);
    db.$client.close();

    db = openDatabase(dbFile);
    const stored = (await requireApp(db, "acme", "old")).headerValue ?? "";
    expect(stored.startsWith("enc:v1:")).toBe(true);
    expect(checkInput(await requireApp(db, "acme", "old")).headers).toEqual({ Authorization: plain });
    expect(onDisk(dbFile).includes(plain)).toBe(false);
    db.$client.close();

    db = openDatabase(dbFile); // already encrypted: left as it is
    expect((await requireApp(db, "acme", "old")).headerValue).toBe(stored);
  });

  it("encrypts URLs with a query secret stored in the clear before, once, when the database is opened", { timeout: 10_000 }, async () => {
    const plain = "http://a.test/mcp?region=eu&api_key=plain-query-before";
    db.$client.prepare("INSERT INTO apps (id, org, name, url, connected_at) VALUES ('oldurl', 'acme', 'Old', ?, 1), ('plainurl', 'acme', 'Plain', 'http://a.test/mcp?region=eu', 2)").run(plain);
    db.$client.close();

    db = openDatabase(dbFile);
    const row = await requireApp(db, "acme", "oldurl");
    expect(row.url).toBe("http://a.test/mcp?region=eu&api_key=…");
    expect(row.urlSecret?.startsWith("enc:v1:")).toBe(true);
    expect(checkInput(row).url).toBe(plain);
    expect(await requireApp(db, "acme", "plainurl")).toMatchObject({ url: "http://a.test/mcp?region=eu", urlSecret: null });
    expect(onDisk(dbFile).includes("plain-query-before")).toBe(false);
    db.$client.close();

    db = openDatabase(dbFile); // already encrypted: left as it is
    expect((await requireApp(db, "acme", "oldurl")).urlSecret).toBe(row.urlSecret);
  });

  it("keeps the header on a move within its origin, and takes a new one given with a move to another", { timeout: 10_000 }, async () => {
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp", header: { name: "Authorization", value: "Bearer X" } });
    const samePlace = await updateApp(ctx, "acme", app.id, { url: "http://a.test:80/other" });
    expect(samePlace.header).toEqual({ name: "Authorization", set: true });
    expect(seen.at(-1)?.headers).toEqual({ Authorization: "Bearer X" });

    const moved = await updateApp(ctx, "acme", app.id, { url: "http://b.test/mcp", header: { name: "X-Key", value: "for-b" } });
    expect(moved.header).toEqual({ name: "X-Key", set: true });
    expect(seen.at(-1)?.headers).toEqual({ "X-Key": "for-b" });

    const onward = await updateApp(ctx, "acme", app.id, { url: "https://b.test/mcp" }); // another scheme: another origin
    expect(onward.header).toBeNull();
    expect(seen.at(-1)?.headers).toBeUndefined();
  });
});

/** An HTTP server on 127.0.0.1 that answers 404 to everything and records each request's headers. */
async function echoServer() {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    res.writeHead(404, { "content-type": "text/plain" }).end("nothing here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a secret stays with its origin", () => {
  it("drops the stored header when only the URL moves to another origin: that origin never receives it", { timeout: 20_000 }, async () => {
    const allowed = process.env["CHECK_ALLOW_HOSTS"];
    process.env["CHECK_ALLOW_HOSTS"] = "127.0.0.1";
    const [a, b] = [await echoServer(), await echoServer()];
    try {
      const live: OrgContext = { db }; // the real check, over the network
      const app = await addApp(live, "acme", { name: "Attendance", url: `${a.url}/mcp`, header: { name: "Authorization", value: "Bearer X" } });
      expect(a.received.map((h) => h.authorization)).toContain("Bearer X");

      const moved = await updateApp(live, "acme", app.id, { url: `${b.url}/mcp` });
      expect(b.received.length).toBeGreaterThan(0);
      expect(JSON.stringify(b.received)).not.toContain("Bearer X");
      expect(b.received.every((h) => h.authorization === undefined)).toBe(true);
      expect(moved.header).toBeNull();
      expect((await getApp(ctx, "acme", app.id)).header).toBeNull();
      expect(await requireApp(db, "acme", app.id)).toMatchObject({ headerName: null, headerValue: null });
    } finally {
      if (allowed === undefined) delete process.env["CHECK_ALLOW_HOSTS"];
      else process.env["CHECK_ALLOW_HOSTS"] = allowed;
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("the demo seed", () => {
  it("upserts the demo apps by key: new URLs each start, the same ids and order", { timeout: 10_000 }, async () => {
    const apps = (port: number) => [
      { key: "attendance", name: "Attendance", url: `http://127.0.0.1:${port}/mcp` },
      { key: "calendar", name: "Calendar", url: `http://127.0.0.1:${port + 1}/mcp` },
    ];
    await seedDemo(db, apps(4000));
    const before = (await listApps(ctx, DEMO_ORG.slug)).apps;
    await seedDemo(db, apps(5000));
    const after = (await listApps(ctx, DEMO_ORG.slug)).apps;
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    expect(after.map((a) => a.name)).toEqual(["Attendance", "Calendar"]);
    expect(after.map((a) => a.url)).toEqual(["http://127.0.0.1:5000/mcp", "http://127.0.0.1:5001/mcp"]);
    expect(after.map((a) => a.connectedAt)).toEqual(before.map((a) => a.connectedAt));
  });
});

describe("personal apps (SPEC §12)", () => {
  const person = (id: string) => {
    db.$client.prepare("INSERT INTO user (id, name, email, email_verified, created_at, updated_at) VALUES (?, ?, ?, 0, 0, 0)").run(id, id, `${id}@acme.test`);
    return id;
  };

  it("names a person's list over the organisation's apps and theirs, and keeps the organisation's names apart", async () => {
    const sam = person("sam");
    await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const mine = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" }, sam, sam);
    expect(mine).toMatchObject({ personal: true, lastCheck: { result: { shortName: "attendance_2" } } });
    expect((await listApps(ctx, "acme")).apps.map((a) => a.name)).toEqual(["Attendance"]);
    const theirs = await scopeList(ctx, { org: "acme", person: sam });
    expect(theirs.map((a) => [a.personal, a.lastCheck?.result.shortName])).toEqual([
      [false, "attendance"],
      [true, "attendance_2"],
    ]);
    // Somebody else's list has the organisation's app only.
    expect((await scopeList(ctx, { org: "acme", person: person("kim") })).map((a) => a.personal)).toEqual([false]);
    // Not reachable as one of the organisation's apps.
    await expect(getApp(ctx, "acme", mine.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeApp(ctx, "acme", mine.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeApp(ctx, "acme", mine.id, "kim")).rejects.toBeInstanceOf(NotFoundError);
  });

  it(`lets a person have ${MAX_PERSONAL_APPS} personal apps, refuses one more, and the schedule re-reads them`, { timeout: 30_000 }, async () => {
    const sam = person("sam");
    for (let i = 0; i < MAX_PERSONAL_APPS; i++) await addApp(ctx, "acme", { name: `Tool box ${i}`, url: "http://c.test/mcp" }, sam, sam);
    await expect(addApp(ctx, "acme", { name: "One more", url: "http://c.test/mcp" }, sam, sam)).rejects.toThrow(`at most ${MAX_PERSONAL_APPS} personal apps`);
    // The organisation may still connect its own.
    await addApp(ctx, "acme", { name: "Org app", url: "http://a.test/mcp" });
    const list = await scopeList(ctx, { org: "acme", person: sam });
    expect(list).toHaveLength(MAX_PERSONAL_APPS + 1);
    expect(new Set(list.map((a) => a.lastCheck?.result.shortName)).size).toBe(MAX_PERSONAL_APPS + 1);
    seen.length = 0;
    db.$client.prepare("UPDATE apps SET next_check_at = 0").run();
    expect(await runDue(ctx, 60_000, Date.now(), 500)).toBe(MAX_PERSONAL_APPS + 1);
    expect(seen).toHaveLength(MAX_PERSONAL_APPS + 1);
  });
});
