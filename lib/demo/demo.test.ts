import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/client";
import { scopeList } from "@/lib/orgs/lists";
import { recheckOrg } from "@/lib/orgs/rechecks";
import { connectDeadlineForTests } from "@/lib/pool/engine-pool";
import type { AppList, StoredApp } from "@/lib/schemas/orgs";
import { startDemoApps } from "@/test/apps/demo-apps";
import { TEST_CONNECT_MS } from "@/test/route-tests";
import { DEMO_ORG, demoAppsFromEnv, seedDemo } from "./seed";

// The demo organisation as `npm start` serves it: its real MCP apps, checked live.
process.env.CHECK_ALLOW_HOSTS = "127.0.0.1";
const dir = mkdtempSync(join(tmpdir(), "theorem-demo-"));
let demo: Awaited<ReturnType<typeof startDemoApps>>;
let db: Db;
let list: AppList;
let full: StoredApp[];

beforeAll(async () => {
  // The apps answer at once, but a busy machine may take longer than SPEC §7's 3 s to connect to
  // them: the reads are given TEST_CONNECT_MS, and Slow Reports stays slower than that.
  connectDeadlineForTests(TEST_CONNECT_MS);
  demo = await startDemoApps("127.0.0.1", 10 * 60_000);
  db = openDatabase(join(dir, "demo.db"));
  // Passed as start.mjs passes it.
  await seedDemo(db, demoAppsFromEnv(JSON.stringify(demo.apps)));
  list = await recheckOrg({ db }, DEMO_ORG.slug);
  // The list answers summaries; the tools are in each app's own check.
  full = await scopeList({ db }, { org: DEMO_ORG.slug });
}, 60_000);

afterAll(async () => {
  await demo.close();
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const app = (name: string) => {
  const found = full.find((a) => a.name === name)?.lastCheck?.result;
  if (found === undefined) throw new Error(`No check of ${name}.`);
  return found;
};

describe("the demo organisation", () => {
  it("lists its apps in the seeded connection order", async () => {
    expect(list.org).toEqual(DEMO_ORG);
    expect(list.apps.map((a) => a.name)).toEqual(demo.apps.map((a) => a.name));
  });

  it("shows Attendance as the page describes it", async () => {
    const attendance = app("Attendance");
    expect(attendance.status, attendance.unavailable?.message).toBe("available");
    expect(attendance.tools.map((t) => [t.wholeName, t.title, t.policy, t.runsTogether])).toEqual([
      ["attendance_clock_in", "Clock in", "asks-first", false],
      ["attendance_my_hours", "My hours", "runs-freely", true],
      ["attendance_team_hours", "Team hours", "runs-freely", true],
    ]);
    expect(attendance.tools[0]?.card.lines.map((l) => l.argument)).toEqual(["hours"]);
  });

  it("gives Calendar `_2`: Theorem has a Calendar of its own", async () => {
    expect(app("Calendar").shortName).toBe("calendar_2");
    expect(app("Calendar").tools[0]?.wholeName).toBe("calendar_2_list_events");
  });

  it("finds the catalogue too large, the slow app too slow, and Memory's `save` taken by Theorem", async () => {
    const catalogue = app("Product Catalogue");
    expect(catalogue.unavailable?.code).toBe("listing-too-large");
    expect(catalogue.listing.chars).toBeGreaterThan(catalogue.listing.limit);
    expect(app("Slow Reports").unavailable?.code).toBe("connect-timeout");
    const memory = app("Memory");
    expect(memory.status).toBe("available");
    expect(memory.tools.map((t) => [t.wholeName, t.included, t.leftOut?.code ?? null])).toEqual([
      ["memory_save", false, "theorem-tool"],
      ["memory_search_notes", true, null],
    ]);
  });

  it("reads Planner in the 2026-07-28 era: its list valid 10 minutes for everyone, one tool for its own view", async () => {
    const planner = app("Planner");
    expect(planner).toMatchObject({ status: "available", protocol: "2026-07-28", listing: { cache: { ttlMs: 600_000, scope: "public" } } });
    expect(planner.tools.filter((t) => t.leftOut?.code === "app-only").map((t) => t.name)).toEqual(["render_week"]);
  });
});

describe("the demo's audit log", () => {
  it("starts with its leader connecting each app and inviting the other two, once however often it starts", async () => {
    const { seedDemoAccounts, seedDemoAudit } = await import("./accounts");
    const { auditEntriesOf } = await import("@/lib/audit/audit-log");
    await seedDemoAccounts(db, "demo password");
    await seedDemoAudit(db);
    await seedDemoAudit(db);
    const entries = await auditEntriesOf(db, DEMO_ORG.slug, { limit: 50 });
    expect(entries.filter((e) => e.action === "app.connected").map((e) => e.app?.name)).toEqual(full.map((a) => a.name).reverse());
    expect(entries.filter((e) => e.action === "member.invited").map((e) => e.member?.email).sort()).toEqual(["developer@demo.test", "support@demo.test"]);
    expect(new Set(entries.map((e) => e.actor.email))).toEqual(new Set(["leader@demo.test"]));
  });
});
