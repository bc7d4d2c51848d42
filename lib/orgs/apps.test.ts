import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runCheck } from "@/lib/check/run";
import type { Db } from "@/lib/db/client";
import { openDatabase } from "@/lib/db/client";
import { DEMO_ORG, seedDemo } from "@/lib/demo/seed";
import type { CheckRequest } from "@/lib/schemas/check";
import type { CheckRunner, OrgContext } from "./apps";
import { addApp, getApp, history, listApps, recheckApp, recheckOrg, removeApp, updateApp } from "./apps";
import { MAX_APPS_PER_ORG } from "./limits";
import { decryptSecret } from "@/lib/secrets";
import { checkInput, ensureOrg, HISTORY_PER_APP, requireApp } from "./store";

// These tests read listings inline (the real engine, no network), keyed by URL, so that they
// pin down what the store does with a check; the routes' tests check live apps over MCP.
const listings: Record<string, unknown[]> = {
  "http://a.test/mcp": [{ name: "clock_in", annotations: { destructiveHint: false, openWorldHint: true } }],
  "http://b.test/mcp": [{ name: "clock_in" }, { name: "my_hours", annotations: { readOnlyHint: true } }],
  "http://c.test/mcp": [{ name: "report" }],
};

const seen: CheckRequest[] = [];
function inlineCheck(delayMs = 0): CheckRunner {
  return async (request) => {
    seen.push(request);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    return runCheck({ apps: request.apps.map((a) => ({ name: a.name, tools: listings[a.url ?? ""] ?? [] })) });
  };
}
const failingCheck: CheckRunner = () => Promise.reject(new Error("the check broke"));

const dir = mkdtempSync(join(tmpdir(), "theorem-orgs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The secrets' key file goes beside this database folder, not into the project's data/.
process.env["DATABASE_URL"] = join(dir, "theorem.db");
delete process.env["THEOREM_SECRET_KEY"];

let db: Db;
let ctx: OrgContext;
let n = 0;
let dbFile = "";
beforeEach(() => {
  dbFile = join(dir, `orgs-${++n}.db`);
  db = openDatabase(dbFile);
  ensureOrg(db, "acme", "Acme");
  ensureOrg(db, "other", "Other");
  ctx = { db, check: inlineCheck() };
  seen.length = 0;
});

const count = (table: string) => db.$client.prepare(`SELECT count(*) FROM ${table}`).pluck().get();

describe("connecting and removing apps", () => {
  it("checks the new app with every earlier one, in connection order, and stores a record for each", { timeout: 10_000 }, async () => {
    const first = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const second = await addApp(ctx, "acme", { name: "attendance", url: "http://b.test/mcp" });

    expect(seen.at(-1)?.apps.map((a) => a.url)).toEqual(["http://a.test/mcp", "http://b.test/mcp"]);
    expect(first.lastCheck?.result.shortName).toBe("attendance");
    expect(second.lastCheck?.result.shortName).toBe("attendance_2");
    expect(second.lastCheck?.result.tools.map((t) => t.wholeName)).toEqual(["attendance_2_clock_in", "attendance_2_my_hours"]);
    expect(new Date(second.connectedAt) > new Date(first.connectedAt)).toBe(true);

    const list = listApps(ctx, "acme");
    expect(list.org).toEqual({ slug: "acme", name: "Acme" });
    expect(list.apps.map((a) => a.id)).toEqual([first.id, second.id]);
    // The first app's latest check was made with the second one present.
    expect(list.apps[0]?.lastCheck?.id).not.toBe(first.lastCheck?.id);
    expect(history(ctx, "acme", first.id)).toHaveLength(2);
  });

  it("gives the names back when an earlier app is removed", { timeout: 10_000 }, async () => {
    const first = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const second = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" });
    expect(second.lastCheck?.result.shortName).toBe("attendance_2");

    await removeApp(ctx, "acme", first.id);
    const after = getApp(ctx, "acme", second.id);
    expect(after.lastCheck?.result.shortName).toBe("attendance");
    expect(after.lastCheck?.result.tools[0]?.wholeName).toBe("attendance_clock_in");
    expect(() => getApp(ctx, "acme", first.id)).toThrow(/no app/);
    // The removed app's history went with it.
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app = ?").pluck().get(first.id)).toBe(0);
  });

  it("renames through PATCH and re-checks the organisation with the new name", { timeout: 10_000 }, async () => {
    const first = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const second = await addApp(ctx, "acme", { name: "Attendance", url: "http://b.test/mcp" });
    const renamed = await updateApp(ctx, "acme", second.id, { name: "Timesheets" });
    expect(renamed.name).toBe("Timesheets");
    expect(renamed.lastCheck?.result.shortName).toBe("timesheets");
    expect(renamed.connectedAt).toBe(second.connectedAt);
    expect(getApp(ctx, "acme", first.id).lastCheck?.result.shortName).toBe("attendance");
  });

  it("keeps the header's value to itself: sent to the app, answered as {name, set}", { timeout: 10_000 }, async () => {
    const secret = "Bearer s3cret-value";
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp", header: { name: "Authorization", value: secret } });
    expect(seen.at(-1)?.apps[0]?.headers).toEqual({ Authorization: secret });
    expect(app.header).toEqual({ name: "Authorization", set: true });
    expect(JSON.stringify(listApps(ctx, "acme"))).not.toContain("s3cret");
    expect(JSON.stringify(getApp(ctx, "acme", app.id))).not.toContain("s3cret");

    const cleared = await updateApp(ctx, "acme", app.id, { header: null });
    expect(cleared.header).toBeNull();
    expect(seen.at(-1)?.apps[0]?.headers).toBeUndefined();
  });

  it("stores nothing when the check fails: no app, no record, no change", { timeout: 10_000 }, async () => {
    const kept = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const broken = { db, check: failingCheck };
    await expect(addApp(broken, "acme", { name: "Reports", url: "http://c.test/mcp" })).rejects.toThrow("the check broke");
    await expect(updateApp(broken, "acme", kept.id, { name: "Renamed", url: "http://c.test/mcp" })).rejects.toThrow("the check broke");
    expect(count("apps")).toBe(1);
    expect(count("check_results")).toBe(1);
    expect(getApp(ctx, "acme", kept.id)).toMatchObject({ name: "Attendance", url: "http://a.test/mcp" });
  });

  it(`refuses a ${MAX_APPS_PER_ORG + 1}th app with a clear error`, { timeout: 10_000 }, async () => {
    const insert = db.$client.prepare("INSERT INTO apps (id, org, name, url, connected_at) VALUES (?, 'acme', ?, 'http://c.test/mcp', ?)");
    for (let i = 0; i < MAX_APPS_PER_ORG; i++) insert.run(`app-${i}`, `App ${i}`, i);
    await expect(addApp(ctx, "acme", { name: "One more", url: "http://a.test/mcp" })).rejects.toThrow(`at most ${MAX_APPS_PER_ORG} apps`);
    expect(count("apps")).toBe(MAX_APPS_PER_ORG);
  });

  it("answers not-found for an unknown organisation, an unknown app and another organisation's app", { timeout: 10_000 }, async () => {
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    expect(() => listApps(ctx, "nobody")).toThrow(/no organisation "nobody"/);
    expect(() => listApps(ctx, "Not A Slug!")).toThrow(/no organisation/);
    await expect(addApp(ctx, "nobody", { name: "X", url: "http://a.test/mcp" })).rejects.toThrow(/no organisation/);
    expect(() => getApp(ctx, "acme", "missing")).toThrow(/no app "missing"/);
    expect(() => getApp(ctx, "other", app.id)).toThrow(/no app/);
    await expect(removeApp(ctx, "other", app.id)).rejects.toThrow(/no app/);
    await expect(recheckApp(ctx, "acme", "missing")).rejects.toThrow(/no app/);
    expect(count("apps")).toBe(1);
  });
});

describe("checks and their history", () => {
  it("two re-checks of one app at once both land, whole and in order", { timeout: 10_000 }, async () => {
    const slow = { db, check: inlineCheck(50) };
    const a = await addApp(slow, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    await addApp(slow, "acme", { name: "Reports", url: "http://c.test/mcp" });
    const [x, y] = await Promise.all([recheckApp(slow, "acme", a.id), recheckApp(slow, "acme", a.id)]);

    const checks = history(ctx, "acme", a.id);
    expect(checks).toHaveLength(4); // two adds and two re-checks
    expect(new Set(checks.map((c) => c.id)).size).toBe(4);
    const times = checks.map((c) => Date.parse(c.checkedAt));
    expect([...times].sort((p, q) => q - p)).toEqual(times);
    expect([x.lastCheck?.id, y.lastCheck?.id]).toContain(checks[0]?.id);
    for (const c of checks) expect(c.result.tools[0]?.wholeName).toBe("attendance_clock_in");
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("re-checks the whole organisation and lists every app's history newest first", { timeout: 10_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    const b = await addApp(ctx, "acme", { name: "Reports", url: "http://c.test/mcp" });
    await addApp(ctx, "other", { name: "Elsewhere", url: "http://c.test/mcp" });
    const list = await recheckOrg(ctx, "acme");
    expect(list.apps.map((app) => app.lastCheck?.result.name)).toEqual(["Attendance", "Reports"]);

    const all = history(ctx, "acme", undefined);
    expect(all.map((c) => c.appId).sort()).toEqual([a.id, a.id, a.id, b.id, b.id].sort());
    expect(all.every((c) => [a.id, b.id].includes(c.appId))).toBe(true);
    expect(history(ctx, "acme", undefined, 2)).toHaveLength(2);
  });

  it(`keeps the newest ${HISTORY_PER_APP} checks of each app`, { timeout: 20_000 }, async () => {
    const a = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp" });
    for (let i = 0; i < HISTORY_PER_APP + 5; i++) await recheckApp(ctx, "acme", a.id);
    expect(db.$client.prepare("SELECT count(*) FROM check_results WHERE app = ?").pluck().get(a.id)).toBe(HISTORY_PER_APP);
    expect(history(ctx, "acme", a.id, 1)[0]?.id).toBe(getApp(ctx, "acme", a.id).lastCheck?.id);
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
    const stored = requireApp(db, "acme", app.id).headerValue ?? "";
    expect(stored.startsWith("enc:v1:")).toBe(true);
    expect(decryptSecret(stored)).toBe(secret);
    expect(onDisk(dbFile).includes(secret)).toBe(false);

    const changed = "Bearer s3cret-on-disk-2";
    await updateApp(ctx, "acme", app.id, { header: { name: "Authorization", value: changed } });
    expect(seen.at(-1)?.apps[0]?.headers).toEqual({ Authorization: changed });
    expect(onDisk(dbFile).includes(changed)).toBe(false);
    expect(onDisk(dbFile).includes("s3cret-on-disk")).toBe(false);
  });

  it("encrypts header values stored in the clear before, once, when the database is opened", { timeout: 10_000 }, () => {
    const plain = "Bearer stored-plain-before";
    db.$client
      .prepare("INSERT INTO apps (id, org, name, url, header_name, header_value, connected_at) VALUES ('old', 'acme', 'Old', 'http://a.test/mcp', 'Authorization', ?, 1)")
      .run(plain);
    db.$client.close();

    db = openDatabase(dbFile);
    const stored = requireApp(db, "acme", "old").headerValue ?? "";
    expect(stored.startsWith("enc:v1:")).toBe(true);
    expect(checkInput(requireApp(db, "acme", "old")).headers).toEqual({ Authorization: plain });
    expect(onDisk(dbFile).includes(plain)).toBe(false);
    db.$client.close();

    db = openDatabase(dbFile); // already encrypted: left as it is
    expect(requireApp(db, "acme", "old").headerValue).toBe(stored);
  });

  it("keeps the header on a move within its origin, and takes a new one given with a move to another", { timeout: 10_000 }, async () => {
    const app = await addApp(ctx, "acme", { name: "Attendance", url: "http://a.test/mcp", header: { name: "Authorization", value: "Bearer X" } });
    const samePlace = await updateApp(ctx, "acme", app.id, { url: "http://a.test:80/other" });
    expect(samePlace.header).toEqual({ name: "Authorization", set: true });
    expect(seen.at(-1)?.apps[0]?.headers).toEqual({ Authorization: "Bearer X" });

    const moved = await updateApp(ctx, "acme", app.id, { url: "http://b.test/mcp", header: { name: "X-Key", value: "for-b" } });
    expect(moved.header).toEqual({ name: "X-Key", set: true });
    expect(seen.at(-1)?.apps[0]?.headers).toEqual({ "X-Key": "for-b" });

    const onward = await updateApp(ctx, "acme", app.id, { url: "https://b.test/mcp" }); // another scheme: another origin
    expect(onward.header).toBeNull();
    expect(seen.at(-1)?.apps[0]?.headers).toBeUndefined();
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
      expect(getApp(ctx, "acme", app.id).header).toBeNull();
      expect(requireApp(db, "acme", app.id)).toMatchObject({ headerName: null, headerValue: null });
    } finally {
      if (allowed === undefined) delete process.env["CHECK_ALLOW_HOSTS"];
      else process.env["CHECK_ALLOW_HOSTS"] = allowed;
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("the demo seed", () => {
  it("upserts the demo apps by key: new URLs each start, the same ids and order", { timeout: 10_000 }, () => {
    const apps = (port: number) => [
      { key: "attendance", name: "Attendance", url: `http://127.0.0.1:${port}/mcp` },
      { key: "calendar", name: "Calendar", url: `http://127.0.0.1:${port + 1}/mcp` },
    ];
    seedDemo(db, apps(4000));
    const before = listApps(ctx, DEMO_ORG.slug).apps;
    seedDemo(db, apps(5000));
    const after = listApps(ctx, DEMO_ORG.slug).apps;
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    expect(after.map((a) => a.name)).toEqual(["Attendance", "Calendar"]);
    expect(after.map((a) => a.url)).toEqual(["http://127.0.0.1:5000/mcp", "http://127.0.0.1:5001/mcp"]);
    expect(after.map((a) => a.connectedAt)).toEqual(before.map((a) => a.connectedAt));
  });
});
