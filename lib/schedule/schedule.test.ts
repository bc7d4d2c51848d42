import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/db/client";
import type { LiveApp } from "@/lib/mcp/read-app";
import { addApp } from "@/lib/orgs/connections";
import type { AppReader, OrgContext } from "@/lib/orgs/context";
import { recheckInterval, recheckReadsAtOnce } from "@/lib/orgs/limits";
import { claimDue, JITTER, MAX_WAIT_MS, nextDue, placeNewApps, planAfterRead, REST, runDue } from "./schedule";
import { ensureOrg } from "@/lib/orgs/organisations";
import { requireApp } from "@/lib/orgs/app-rows";

// Scheduled re-checks with a fake clock: `now` is passed in, and apps are read inline.
const dir = mkdtempSync(join(tmpdir(), "theorem-schedule-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seen: LiveApp[] = [];
const read: AppReader = async (app) => {
  seen.push(app);
  return { name: app.name, entries: [{ name: "hours" }] };
};

const MINUTE = 60_000;
let db: Db;
let ctx: OrgContext;
let file = "";
let n = 0;
beforeEach(async () => {
  file = join(dir, `schedule-${++n}.db`);
  db = openDatabase(file);
  await ensureOrg(db, "acme", "Acme");
  ctx = { db, read };
  seen.length = 0;
});

/** Apps as the demo seeds them: connected, read once, not placed on the schedule yet. */
async function threeApps() {
  const ids = [];
  for (const name of ["Attendance", "Rota", "Reports"]) ids.push((await addApp(ctx, "acme", { name, url: `http://${name.toLowerCase()}.test/mcp` })).id);
  db.$client.prepare("UPDATE apps SET next_check_at = NULL").run();
  seen.length = 0;
  return ids;
}

describe("the interval", () => {
  it.each([
    [undefined, 60 * MINUTE],
    ["", 60 * MINUTE],
    ["0", 0],
    ["0.5", 30_000],
    ["15", 15 * MINUTE],
    ["soon", 60 * MINUTE],
    ["-5", 60 * MINUTE],
  ])("THEOREM_RECHECK_MINUTES=%j → %d ms", (value, ms) => {
    expect(recheckInterval(value)).toBe(ms);
  });

  it.each([
    [undefined, 5],
    ["", 5],
    ["12", 12],
    ["50", 50],
    ["51", 5],
    ["0", 5],
    ["2.5", 5],
    ["many", 5],
  ])("THEOREM_RECHECK_READS_AT_ONCE=%j → %d reads at once", (value, n) => {
    expect(recheckReadsAtOnce(value)).toBe(n);
  });
});

describe("scheduled re-checks", () => {
  it("reads each app once per interval, spread over it, over three intervals", { timeout: 20_000 }, async () => {
    const ids = await threeApps();
    const interval = 10 * MINUTE;
    const start = 1_000_000_000_000;
    await placeNewApps(ctx, interval, start, (() => {
      let k = 0;
      return () => [0.1, 0.5, 0.9][k++ % 3]!;
    })());
    const due = await Promise.all(ids.map(async (id) => (await requireApp(db, "acme", id)).nextCheckAt));
    expect(due).toEqual([start + interval * 0.1, start + interval * 0.5, start + interval * 0.9]);

    // A tick every 30 s for three intervals.
    const readAt: Record<string, number[]> = {};
    for (let now = start; now < start + 3 * interval; now += 30_000) {
      const before = seen.length;
      await runDue(ctx, interval, now, 50, () => 0.5);
      for (const app of seen.slice(before)) (readAt[app.name] ??= []).push(now);
    }
    expect(Object.values(readAt).map((times) => times.length)).toEqual([3, 3, 3]);
    // Spread: the three apps are read at different moments of each interval.
    expect(new Set(Object.values(readAt).map((times) => times[0]))).toHaveProperty("size", 3);
  });

  it("never reads one app twice at once: two runs at the same moment share the work", { timeout: 20_000 }, async () => {
    await threeApps();
    const now = Date.now();
    await placeNewApps(ctx, MINUTE, now - MINUTE);
    const [a, b] = await Promise.all([runDue(ctx, MINUTE, now), runDue(ctx, MINUTE, now)]);
    expect(a + b).toBe(3);
    expect(seen.map((app) => app.name).sort()).toEqual(["Attendance", "Reports", "Rota"]);
  });

  it("survives a restart: the next due time is stored, so nothing is read early and nothing is skipped", { timeout: 20_000 }, async () => {
    const ids = await threeApps();
    const start = 1_000_000_000_000;
    await placeNewApps(ctx, MINUTE, start, () => 0.5);
    db.$client.close();

    db = openDatabase(file);
    ctx = { db, read };
    expect(await runDue(ctx, MINUTE, start + 29_000)).toBe(0);
    expect(await runDue(ctx, MINUTE, start + 31_000, 50, () => 0.5)).toBe(3);
    expect(await Promise.all(ids.map(async (id) => (await requireApp(db, "acme", id)).nextCheckAt))).toEqual(ids.map(() => start + 30_000 + MINUTE));
  });

  it("reads an app that is overdue by several intervals (the server was down) once, in its own place in the interval", { timeout: 20_000 }, async () => {
    const ids = await threeApps();
    const start = 1_000_000_000_000;
    await placeNewApps(ctx, MINUTE, start, () => 0.5);
    const back = start + 30_000 + 5 * MINUTE + 10_000; // down for five intervals
    expect(await runDue(ctx, MINUTE, back, 50, () => 0.5)).toBe(3);
    expect(await runDue(ctx, MINUTE, back + 1_000)).toBe(0);
    expect(await Promise.all(ids.map(async (id) => (await requireApp(db, "acme", id)).nextCheckAt))).toEqual(ids.map(() => start + 30_000 + 6 * MINUTE));
  });

  it("does nothing when turned off", { timeout: 10_000 }, async () => {
    await threeApps();
    expect(await runDue(ctx, 0, Date.now() + 365 * 24 * 60 * MINUTE)).toBe(0);
    expect(seen).toEqual([]);
  });

  it("a new app is next due one interval after it was connected (it was just read)", { timeout: 10_000 }, async () => {
    const before = Date.now();
    const app = await addApp(ctx, "acme", { name: "Fresh", url: "http://fresh.test/mcp" });
    expect(Date.parse(app.nextCheckAt!)).toBeGreaterThanOrEqual(before + recheckInterval());
  });
});

describe("when an app is read next (SPEC §18)", () => {
  const HOUR = 60 * MINUTE;
  const NOW = 1_000_000;
  const mid = () => 0.5; // no jitter

  it.each([
    ["a good read, no hint (no slot given)", { ok: true, ttlMs: null }, 0, HOUR, "interval", 0],
    ["a hint shorter than the interval", { ok: true, ttlMs: 10 * MINUTE }, 0, HOUR, "interval", 0],
    ["a hint of 3 h", { ok: true, ttlMs: 3 * HOUR }, 0, 3 * HOUR, "app-asked", 0],
    ["a hint of a week: a day at most", { ok: true, ttlMs: 7 * 24 * HOUR }, 0, MAX_WAIT_MS, "app-asked", 0],
    ["a good read after failures starts over", { ok: true, ttlMs: null }, 3, HOUR, "interval", 0],
    ["the first failure: one interval", { ok: false, ttlMs: null }, 0, HOUR, "back-off", 1],
    ["the second: two", { ok: false, ttlMs: null }, 1, 2 * HOUR, "back-off", 2],
    ["the third: four", { ok: false, ttlMs: null }, 2, 4 * HOUR, "back-off", 3],
    ["the sixth: a day at most", { ok: false, ttlMs: null }, 5, MAX_WAIT_MS, "back-off", 6],
    ["the hundredth: still a day", { ok: false, ttlMs: 3 * HOUR }, 99, MAX_WAIT_MS, "back-off", 100],
  ])("%s", (_what, read, failedBefore, wait, why, failedReads) => {
    expect(nextDue(read, failedBefore, HOUR, NOW, mid)).toEqual({ at: NOW + wait, why, failedReads });
  });

  it("moves every due time by at most 10 % either way", () => {
    for (const r of [0, 0.25, 0.75, 0.999999]) {
      const at = nextDue({ ok: true, ttlMs: 3 * HOUR }, 0, HOUR, NOW, () => r).at - NOW;
      expect(at).toBeGreaterThanOrEqual(3 * HOUR * (1 - JITTER));
      expect(at).toBeLessThanOrEqual(3 * HOUR * (1 + JITTER));
    }
    expect(nextDue({ ok: true, ttlMs: null }, 0, HOUR, NOW, () => 0).at).toBe(NOW + 0.9 * HOUR);
    // An app read at the interval keeps its place in the spread, moved by up to a tenth of the interval.
    expect(nextDue({ ok: true, ttlMs: null }, 0, HOUR, NOW, () => 0, NOW + 40 * MINUTE).at).toBe(NOW + 40 * MINUTE - 6 * MINUTE);
  });

  it.each([
    ["its next place is more than half an interval away: kept", 40 * MINUTE, NOW + 34 * MINUTE],
    ["exactly half an interval away, once moved: kept", 36 * MINUTE, NOW + 30 * MINUTE],
    ["the read ended 40 min late, its next place 20 min away: the one after", 20 * MINUTE, NOW + 74 * MINUTE],
    ["the read ended past its next place: the one after", -10 * MINUTE, NOW + 44 * MINUTE],
    ["the read ended two and a half intervals late: its first place half an interval away", -150 * MINUTE, NOW + 84 * MINUTE],
  ])("a read that ends late is not followed by another at once: %s", (_what, slot, at) => {
    expect(nextDue({ ok: true, ttlMs: null }, 0, HOUR, NOW, () => 0, NOW + slot)).toEqual({ at, why: "interval", failedReads: 0 });
  });

  it("the next due time is always at least half an interval after the read, at the first of the app's own places in the spread", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 2000; i++) {
      const slot = NOW + Math.round((random() * 6 - 3) * HOUR);
      const r = random();
      const { at } = nextDue({ ok: true, ttlMs: null }, 0, HOUR, NOW, () => r, slot);
      const shift = Math.round(HOUR * JITTER * (2 * r - 1));
      expect(at - NOW).toBeGreaterThanOrEqual(REST * HOUR);
      // One of its places (slot, then one interval after another), moved, and the first such.
      expect((at - slot - shift) % HOUR).toBe(0);
      expect(at).toBeGreaterThanOrEqual(slot + shift);
      if (at > slot + shift) expect(at - HOUR - NOW).toBeLessThan(REST * HOUR);
    }
  });

  it("reads that start late (their jobs waited on a busy machine) are never followed by another within half an interval (fake clock)", { timeout: 20_000 }, async () => {
    const interval = 10 * MINUTE;
    const id = (await addApp(ctx, "acme", { name: "Rota", url: "http://rota.test/mcp" })).id;
    let now = (await requireApp(db, "acme", id)).nextCheckAt!;
    // How long each claimed read waits before it runs, as shares of the interval: on time, just
    // under one interval late (the case that read an app twice in a second), more than one, just
    // before its next place (moved back a tenth: random 0), and so on.
    const waits = [0, 0.95, 0, 1.3, 0.2, 0.85, 0, 0.6, 0.97, 0, 0.45, 2.4, 0.05, 0.9, 0];
    const readAt: number[] = [];
    let next = 0;
    // A tick every 30 s (tickOf); the app is not claimed again while its read waits or runs.
    for (const end = now + 30 * interval; now < end && next < waits.length; now += 30_000) {
      const claimed = await claimDue(ctx, interval, now);
      if (claimed.length === 0) continue;
      const readEnds = now + Math.round(waits[next++]! * interval);
      readAt.push(readEnds);
      await planAfterRead(db, id, interval, readEnds, () => 0);
      now = readEnds;
    }
    expect(readAt).toHaveLength(waits.length);
    const gaps = readAt.slice(1).map((at, i) => at - readAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(REST * interval);
  });

  it("a scheduled read honours the app's ttlMs, and a failing app backs off until a read succeeds (fake clock)", { timeout: 20_000 }, async () => {
    let answer: "ttl" | "fail" = "ttl";
    ctx = {
      db,
      read: async (app) =>
        answer === "ttl"
          ? { name: app.name, entries: [{ name: "hours" }], protocol: "2026-07-28", cache: { ttlMs: 3 * HOUR, scope: "public" as const } }
          : { name: app.name, entries: [], unavailable: { code: "connect-failed" as const, message: `${app.name} is unavailable: nothing answers.` } },
    };
    const id = (await addApp(ctx, "acme", { name: "Calendar", url: "http://calendar.test/mcp" })).id;
    const due = async () => (await requireApp(db, "acme", id)).nextCheckAt!;
    const row = () => requireApp(db, "acme", id);
    let now = (await due()) + 1;

    expect(await runDue(ctx, HOUR, now, 50, mid)).toBe(1);
    expect(await row()).toMatchObject({ nextCheckAt: now + 3 * HOUR, nextCheckWhy: "app-asked", failedReads: 0 });

    answer = "fail";
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      now = (await due()) + 1;
      expect(await runDue(ctx, HOUR, now, 50, mid)).toBe(1);
      waits.push((await due()) - now);
    }
    expect(waits).toEqual([HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR]);
    expect(await row()).toMatchObject({ nextCheckWhy: "back-off", failedReads: 4 });
    // Not due in between: nothing is read.
    expect(await runDue(ctx, HOUR, now + HOUR, 50, mid)).toBe(0);

    answer = "ttl";
    now = (await due()) + 1;
    await runDue(ctx, HOUR, now, 50, mid);
    expect(await row()).toMatchObject({ nextCheckAt: now + 3 * HOUR, nextCheckWhy: "app-asked", failedReads: 0 });
  });
});
