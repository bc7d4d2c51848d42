import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/db/client";
import type { LiveApp } from "@/lib/mcp/read-app";
import { addApp, type AppReader, type OrgContext } from "./apps";
import { recheckInterval } from "./limits";
import { placeNewApps, runDue } from "./schedule";
import { ensureOrg, requireApp } from "./store";

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
      await runDue(ctx, interval, now);
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
    expect(await runDue(ctx, MINUTE, start + 31_000)).toBe(3);
    expect(await Promise.all(ids.map(async (id) => (await requireApp(db, "acme", id)).nextCheckAt))).toEqual(ids.map(() => start + 30_000 + MINUTE));
  });

  it("reads an app that is overdue by several intervals (the server was down) once, in its own place in the interval", { timeout: 20_000 }, async () => {
    const ids = await threeApps();
    const start = 1_000_000_000_000;
    await placeNewApps(ctx, MINUTE, start, () => 0.5);
    const back = start + 30_000 + 5 * MINUTE + 10_000; // down for five intervals
    expect(await runDue(ctx, MINUTE, back)).toBe(3);
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
