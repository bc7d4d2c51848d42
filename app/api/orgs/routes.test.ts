import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ndjsonValues } from "@/lib/ndjson";
import { auditList } from "@/lib/schemas/access";
import { appList, changeList, checkHistory, RECHECK_STREAM_TYPE, trendList, recheckEvent, storedApp, type RecheckEvent } from "@/lib/schemas/orgs";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { routeDatabase, orgParams, appParams, json } from "@/test/route-tests";

// The routes as Next calls them, against MCP apps this file serves on 127.0.0.1.
const database = await routeDatabase("routes");

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const appChecksRoute = await import("./[org]/apps/[app]/checks/route");
const orgChecksRoute = await import("./[org]/checks/route");
const appChangesRoute = await import("./[org]/apps/[app]/changes/route");
const settingsRoute = await import("./[org]/settings/route");
const approveRoute = await import("./[org]/apps/[app]/approve/route");
const auditRoute = await import("./[org]/audit/route");
const trendsRoute = await import("./[org]/apps/[app]/trends/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const SECRET = "Bearer route-test-secret";
let leader: TestAccount;
/** Every request here is the leader's, signed in. */
const as = (url: string, init?: RequestInit) => requestAs(leader, url, init);
const servers: ServedApp[] = [];
let attendanceUrl = "";
let lockedUrl = "";
let slowUrl = "";

beforeAll(async () => {
  const attendance = await serveMcpApp({
    name: "Attendance",
    tools: [
      { name: "clock_in", title: "Clock in", inputSchema: { type: "object", properties: { hours: { type: "number" } } }, annotations: { destructiveHint: false, openWorldHint: true } },
      { name: "my_hours", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    ],
  });
  const locked = await serveMcpApp({
    name: "Locked",
    tools: [{ name: "report", inputSchema: { type: "object" } }],
    requireHeader: { name: "Authorization", value: SECRET },
  });
  // Answers initialize long after any read's connect deadline: every read of it is a connect-timeout, however busy the machine.
  const slow = await serveMcpApp({ name: "Slow", tools: [{ name: "wait", inputSchema: { type: "object" } }], initializeDelayMs: 10 * 60_000 });
  servers.push(attendance, locked, slow);
  attendanceUrl = attendance.url;
  lockedUrl = locked.url;
  slowUrl = slow.url;
  await ensureOrg(getDb(), "acme", "Acme");
  await ensureOrg(getDb(), "empty", "Empty");
  leader = await signUp("leader@acme.test");
  await joinAs("acme", leader, "leader");
  await joinAs("empty", leader, "leader");
});

afterAll(() => database.close(servers));

const base = "http://localhost/api/orgs";
const appCount = () => database.count("SELECT count(*) FROM apps");
const checkCount = () => database.count("SELECT count(*) FROM check_results");

async function add(org: string, body: unknown) {
  return appsRoute.POST(as(`${base}/${org}/apps`, json("POST", body)), orgParams(org));
}

describe("the organisation API, live", () => {
  let first = "";
  let second = "";

  it("connects an app, checks it live and answers 201 with its check", { timeout: 60_000 }, async () => {
    const response = await add("acme", { name: "Attendance", url: attendanceUrl });
    expect(response.status).toBe(201);
    const app = storedApp.parse(await response.json());
    first = app.id;
    expect(app.lastCheck?.result).toMatchObject({ shortName: "attendance", status: "available" });
    expect(app.lastCheck?.result.tools.map((t) => [t.wholeName, t.policy])).toEqual([
      ["attendance_clock_in", "asks-first"],
      ["attendance_my_hours", "runs-freely"],
    ]);
  });

  it("names a second app of the same short name `_2`, and lists both in connection order", { timeout: 60_000 }, async () => {
    const response = await add("acme", { name: "ATTENDANCE", url: lockedUrl, header: { name: "Authorization", value: SECRET } });
    expect(response.status).toBe(201);
    const app = storedApp.parse(await response.json());
    second = app.id;
    expect(app.lastCheck?.result).toMatchObject({ shortName: "attendance_2", status: "available" });
    expect(app.header).toEqual({ name: "Authorization", set: true });

    const list = await appsRoute.GET(as(`${base}/acme/apps`), orgParams("acme"));
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain("route-test-secret");
    expect(appList.parse(JSON.parse(text)).apps.map((a) => a.id)).toEqual([first, second]);
    // The list answers each check's summary: counts, not every tool (the app's own page has them).
    const listed = appList.parse(JSON.parse(text)).apps[0]!.lastCheck!.result;
    expect(listed).not.toHaveProperty("tools");
    expect(listed.counts).toMatchObject({ tools: 2, included: 2, runsFreely: 1, asksFirst: 1 });
  });

  it("sends the stored header on every re-check, and the app is unavailable once it is removed", { timeout: 60_000 }, async () => {
    const checked = await appCheckRoute.POST(as(`${base}/acme/apps/${second}/check`, { method: "POST" }), appParams("acme", second));
    expect(checked.status).toBe(200);
    expect(storedApp.parse(await checked.json()).lastCheck?.result.status).toBe("available");

    const patched = await appRoute.PATCH(as(`${base}/acme/apps/${second}`, json("PATCH", { header: null })), appParams("acme", second));
    expect(patched.status).toBe(200);
    const app = storedApp.parse(await patched.json());
    expect(app.header).toBeNull();
    expect(app.lastCheck?.result.status).toBe("unavailable");
    expect(app.lastCheck?.result.unavailable?.code).toBe("auth-required");
  });

  it("re-checks all at once and keeps the history newest first", { timeout: 60_000 }, async () => {
    const before = await checkCount();
    const response = await orgChecksRoute.POST(as(`${base}/acme/checks`, { method: "POST" }), orgParams("acme"));
    expect(response.status).toBe(200);
    const list = appList.parse(await response.json());
    expect(list.apps.map((a) => a.lastCheck?.result.shortName)).toEqual(["attendance", "attendance_2"]);
    expect(await checkCount()).toBe(before + 2);

    const org = checkHistory.parse(await (await orgChecksRoute.GET(as(`${base}/acme/checks`), orgParams("acme"))).json());
    const times = org.checks.map((c) => Date.parse(c.to));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(org.checks[0]?.to).toBe(list.apps.find((a) => a.id === org.checks[0]?.appId)?.lastCheck?.checkedAt);

    // Attendance listed the same each time: its reads fold into one row.
    const one = checkHistory.parse(
      await (await appChecksRoute.GET(as(`${base}/acme/apps/${first}/checks?limit=2`), appParams("acme", first))).json(),
    );
    expect(one.checks).toHaveLength(1);
    expect(one.checks[0]).toMatchObject({ appId: first, status: "available", tools: 2, change: null });
    expect(one.checks[0]!.count).toBeGreaterThanOrEqual(2);
  });

  it("two re-checks of one app at once both answer and both land in the history", { timeout: 60_000 }, async () => {
    const before = await checkCount();
    const recheck = () => appCheckRoute.POST(as(`${base}/acme/apps/${first}/check`, { method: "POST" }), appParams("acme", first));
    const [a, b] = await Promise.all([recheck(), recheck()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await checkCount()).toBe(before + 2); // each one reads and records that app alone
    if (database.dialect === "sqlite") expect((await database.query("PRAGMA integrity_check"))[0]).toEqual({ integrity_check: "ok" });
  });

  it("tells a slow app apart without holding the others back", { timeout: 60_000 }, async () => {
    const response = await add("acme", { name: "Slow Reports", url: slowUrl });
    expect(response.status).toBe(201);
    const app = storedApp.parse(await response.json());
    expect(app.lastCheck?.result.unavailable?.code).toBe("connect-timeout");
    const list = appList.parse(await (await appsRoute.GET(as(`${base}/acme/apps`), orgParams("acme"))).json());
    expect(list.apps[0]?.lastCheck?.result.status).toBe("available");
  });

  it("re-checks one app in that app's own time, though another never connects", { timeout: 60_000 }, async () => {
    const before = await checkCount();
    const response = await appCheckRoute.POST(as(`${base}/acme/apps/${first}/check`, { method: "POST" }), appParams("acme", first));
    expect(response.status).toBe(200);
    const app = storedApp.parse(await response.json());
    // That app alone is read and recorded, not the slow one beside it...
    expect(await checkCount()).toBe(before + 1);
    // ...and its record is its own read, connected and listed (the time it keeps is the read's own:
    // lib/orgs/apps.test.ts), not the slow app's, which never connects.
    expect(app.lastCheck!.result).toMatchObject({ shortName: "attendance", status: "available" });
    expect(app.lastCheck!.result.timings).not.toBeNull();
  });

  it("streams a line per app as its read ends, the quick ones before the slow one, then the list", { timeout: 60_000 }, async () => {
    const response = await orgChecksRoute.POST(
      as(`${base}/acme/checks`, { method: "POST", headers: { accept: RECHECK_STREAM_TYPE } }),
      orgParams("acme"),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain(RECHECK_STREAM_TYPE);
    const events: { event: RecheckEvent }[] = [];
    for await (const value of ndjsonValues(response.body!)) events.push({ event: recheckEvent.parse(value) });
    const list = appList.parse(await (await appsRoute.GET(as(`${base}/acme/apps`), orgParams("acme"))).json());
    const slowId = list.apps.find((a) => a.name === "Slow Reports")!.id;
    const reads = events.filter((e) => e.event.type === "read");
    expect(reads.map((e) => (e.event.type === "read" ? e.event.app : "")).sort()).toEqual(list.apps.map((a) => a.id).sort());
    // The quick apps are told of as their reads end, before the slow one gives up at its connect deadline.
    const slow = reads.find((e) => e.event.type === "read" && e.event.app === slowId)!;
    expect(slow.event).toMatchObject({ unavailable: { code: "connect-timeout" } });
    expect(reads.at(-1)).toBe(slow);
    const last = events.at(-1)!.event;
    expect(last.type).toBe("done");
    if (last.type === "done") expect(last.list.apps.map((a) => a.lastCheck?.result.shortName)).toEqual(list.apps.map((a) => a.lastCheck?.result.shortName));
  });

  it("answers an unknown organisation's streamed re-check with a plain 404", { timeout: 10_000 }, async () => {
    const response = await orgChecksRoute.POST(as(`${base}/nobody/checks`, { method: "POST", headers: { accept: RECHECK_STREAM_TYPE } }), orgParams("nobody"));
    expect(response.status).toBe(404);
  });

  it("removes an app (204) and gives its short name back to the next one", { timeout: 60_000 }, async () => {
    const removed = await appRoute.DELETE(as(`${base}/acme/apps/${first}`, { method: "DELETE" }), appParams("acme", first));
    expect(removed.status).toBe(204);
    const gone = await appRoute.GET(as(`${base}/acme/apps/${first}`), appParams("acme", first));
    expect(gone.status).toBe(404);
    const next = storedApp.parse(await (await appRoute.GET(as(`${base}/acme/apps/${second}`), appParams("acme", second))).json());
    expect(next.lastCheck?.result.shortName).toBe("attendance");
  });
});

describe("bad requests", () => {
  it.each([
    ["an empty name", { name: "  ", url: "http://127.0.0.1:1/mcp" }, "name"],
    ["a name over 200 characters", { name: "x".repeat(201), url: "http://127.0.0.1:1/mcp" }, "name"],
    ["a URL that is not http(s)", { name: "App", url: "ftp://127.0.0.1/mcp" }, "url"],
    ["a header value with a line break", { name: "App", url: "http://127.0.0.1:1/mcp", header: { name: "X-Key", value: "a\r\nInjected: 1" } }, "header"],
    ["a header name with a space", { name: "App", url: "http://127.0.0.1:1/mcp", header: { name: "X Key", value: "v" } }, "header"],
    ["a name of the wrong type", { name: 5, url: "http://127.0.0.1:1/mcp" }, "name"],
    ["no URL", { name: "App" }, "url"],
    ["a private address, which could never be read", { name: "App", url: "http://10.1.2.3/mcp" }, "url"],
    ["an IPv6 loopback address the allow-list does not name", { name: "App", url: "http://[::1]:1/mcp" }, "url"],
    ["a URL with a password in it", { name: "App", url: "http://user:pw@127.0.0.1:1/mcp" }, "url"],
  ])("answers 422 with the issues for %s, storing nothing", { timeout: 10_000 }, async (_what, body, field) => {
    const [apps, checks] = [await appCount(), await checkCount()];
    const response = await add("empty", body);
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { error: { code: string; issues: { path: string[] }[] } };
    expect(answer.error.code).toBe("invalid-request");
    expect(answer.error.issues.some((i) => i.path[0] === field)).toBe(true);
    expect([await appCount(), await checkCount()]).toEqual([apps, checks]);
  });

  it.each([
    ["text that is not JSON", "{name: 'App'"],
    ["an empty body", ""],
  ])("answers 400 for %s", { timeout: 10_000 }, async (_what, body) => {
    const response = await add("empty", body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("bad-json");
  });

  it("answers 422 for a PATCH that changes nothing, and for a history limit out of range", { timeout: 10_000 }, async () => {
    const created = storedApp.parse(await (await add("empty", { name: "Unreachable", url: "http://127.0.0.1:1/mcp" })).json());
    expect(created.lastCheck?.result.status).toBe("unavailable");
    const patch = await appRoute.PATCH(as(`${base}/empty/apps/${created.id}`, json("PATCH", {})), appParams("empty", created.id));
    expect(patch.status).toBe(422);
    // Moving it where it could never be read is refused, and it stays where it was.
    const moved = await appRoute.PATCH(as(`${base}/empty/apps/${created.id}`, json("PATCH", { url: "http://192.168.0.10/mcp" })), appParams("empty", created.id));
    expect(moved.status).toBe(422);
    expect(((await moved.json()) as { error: { message: string } }).error.message).toMatch(/could never be read: 192\.168\.0\.10 is a private address/);
    const kept = storedApp.parse(await (await appRoute.GET(as(`${base}/empty/apps/${created.id}`), appParams("empty", created.id))).json());
    expect(kept.url).toBe("http://127.0.0.1:1/mcp");
    const limit = await appChecksRoute.GET(as(`${base}/empty/apps/${created.id}/checks?limit=0`), appParams("empty", created.id));
    expect(limit.status).toBe(422);
  });

  it("answers 404 for an unknown organisation or app, whatever the body", { timeout: 10_000 }, async () => {
    const apps = await appCount();
    const answers = await Promise.all([
      appsRoute.GET(as(`${base}/nobody/apps`), orgParams("nobody")),
      add("nobody", { name: "App", url: "http://127.0.0.1:1/mcp" }),
      add("nobody", "not json"),
      appsRoute.GET(as(`${base}/Bad%20Slug/apps`), orgParams("Bad Slug")),
      appRoute.GET(as(`${base}/acme/apps/missing`), appParams("acme", "missing")),
      appRoute.PATCH(as(`${base}/acme/apps/missing`, json("PATCH", { name: "X" })), appParams("acme", "missing")),
      appRoute.DELETE(as(`${base}/acme/apps/missing`, { method: "DELETE" }), appParams("acme", "missing")),
      appCheckRoute.POST(as(`${base}/acme/apps/missing/check`, { method: "POST" }), appParams("acme", "missing")),
      appChecksRoute.GET(as(`${base}/acme/apps/missing/checks`), appParams("acme", "missing")),
      orgChecksRoute.POST(as(`${base}/nobody/checks`, { method: "POST" }), orgParams("nobody")),
      orgChecksRoute.GET(as(`${base}/nobody/checks`), orgParams("nobody")),
    ]);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 404));
    expect(await appCount()).toBe(apps);
  });
});

describe("changes between snapshots", () => {
  it("says which tool changed, which fields, and what it means for people; unchanged reads add nothing", { timeout: 60_000 }, async () => {
    const tools: object[] = [
      { name: "my_hours", title: "My hours", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      { name: "clock_in", inputSchema: { type: "object" } },
    ];
    const app = await serveMcpApp({ name: "Hours", tools });
    servers.push(app);
    const created = storedApp.parse(await (await add("empty", { name: "Hours", url: app.url })).json());
    const changes = async () => changeList.parse(await (await appChangesRoute.GET(as(`${base}/empty/apps/${created.id}/changes`), appParams("empty", created.id))).json()).changes;
    expect(await changes()).toEqual([]);

    // The app drops a hint and adds a tool; it is read again, twice.
    tools[0] = { name: "my_hours", title: "My hours", inputSchema: { type: "object" } };
    tools.push({ name: "swap_shift", inputSchema: { type: "object" } });
    for (let i = 0; i < 2; i++) expect((await appCheckRoute.POST(as(`${base}/empty/apps/${created.id}/check`, { method: "POST" }), appParams("empty", created.id))).status).toBe(200);

    const [change, ...older] = await changes();
    expect(older).toEqual([]);
    expect(change!.from).toMatch(/^[0-9a-f]{64}$/);
    expect(change!.to).not.toBe(change!.from);
    expect(change!.added.map((t) => t.name)).toEqual(["swap_shift"]);
    expect(change!.removed).toEqual([]);
    expect(change!.changed).toEqual([
      expect.objectContaining({
        name: "my_hours",
        fields: ["annotations"],
        effects: expect.arrayContaining([{ what: "policy", from: "runs-freely", to: "asks-first" }]),
      }),
    ]);
    const history = checkHistory.parse(await (await appChecksRoute.GET(as(`${base}/empty/apps/${created.id}/checks`), appParams("empty", created.id))).json());
    expect(history.checks.map((c) => [c.count, c.tools, c.change?.added ?? null, c.change?.changed ?? null])).toEqual([
      [2, 3, 1, 1],
      [1, 2, null, null],
    ]);

    // Every read's own size and timings, oldest first, for the charts.
    const trends = trendList.parse(await (await trendsRoute.GET(as(`${base}/empty/apps/${created.id}/trends`), appParams("empty", created.id))).json());
    expect(trends.points).toHaveLength(3);
    const [first, second, third] = trends.points;
    expect(Date.parse(first!.at)).toBeLessThanOrEqual(Date.parse(third!.at));
    expect(second!.chars).toBe(third!.chars);
    expect(third!.chars).toBeGreaterThan(first!.chars!);
    expect(trends.points.every((p) => p.status === "available" && typeof p.connectMs === "number" && typeof p.listMs === "number")).toBe(true);
    const tooMany = await trendsRoute.GET(as(`${base}/empty/apps/${created.id}/trends?limit=501`), appParams("empty", created.id));
    expect(tooMany.status).toBe(422);
  });
});

describe("review of new and changed tools", () => {
  it("holds a new tool out, with no name, until a leader approves it; the names of other tools move accordingly", { timeout: 30_000 }, async () => {
    await ensureOrg(getDb(), "review", "Review");
    await joinAs("review", leader, "leader");
    const tools: object[] = [{ name: "hours", inputSchema: { type: "object" } }];
    const served = await serveMcpApp({ name: "Rota", tools });
    servers.push(served);
    const settings = (body: unknown) => settingsRoute.PATCH(as(`${base}/review/settings`, json("PATCH", body)), orgParams("review"));
    const app = storedApp.parse(await (await add("review", { name: "Rota", url: served.url })).json());
    const params = appParams("review", app.id);
    const recheck = async () => storedApp.parse(await (await appCheckRoute.POST(as(`${base}/review/apps/${app.id}/check`, { method: "POST" }), params)).json());
    const approve = (body: unknown) => approveRoute.POST(as(`${base}/review/apps/${app.id}/approve`, json("POST", body)), params);

    expect(await (await settingsRoute.GET(as(`${base}/review/settings`), orgParams("review"))).json()).toEqual({ newTools: "available", riskyText: "warn", tokenBudget: null, exportFallback: "strict", registry: false });
    expect((await settings({ newTools: "sometimes" })).status).toBe(422);
    expect((await settings({ newTools: "wait-for-review" })).status).toBe(200);

    // What it listed when review was turned on stays approved; a new tool and a changed one wait.
    tools.push({ name: "swap", inputSchema: { type: "object" } }, { name: "hours_2", inputSchema: { type: "object" } });
    tools[0] = { name: "hours", description: "Now with a description.", inputSchema: { type: "object" } };
    let checked = await recheck();
    const state = () => checked.lastCheck!.result.tools.map((t) => [t.name, t.included, t.leftOut?.code ?? null, t.wholeName]);
    expect(state()).toEqual([
      ["hours", false, "awaiting-review", "rota_hours"],
      ["swap", false, "awaiting-review", "rota_swap"],
      ["hours_2", false, "awaiting-review", "rota_hours_2"],
    ]);

    // Approving a tool that is not listed changes nothing: 409.
    expect((await approve({ tools: ["gone"] })).status).toBe(409);
    const some = await approve({ tools: ["swap"] });
    expect(some.status).toBe(200);
    checked = storedApp.parse(await some.json());
    expect(state().map(([name, included]) => [name, included])).toEqual([
      ["hours", false],
      ["swap", true],
      ["hours_2", false],
    ]);
    const all = storedApp.parse(await (await approve({})).json());
    expect(all.lastCheck!.result.tools.every((t) => t.included)).toBe(true);

    // Back to available: nothing waits any more, whatever changes.
    tools.push({ name: "later", inputSchema: { type: "object" } });
    expect((await settings({ newTools: "available" })).status).toBe(200);
    checked = await recheck();
    expect(checked.lastCheck!.result.tools.every((t) => t.included)).toBe(true);

    const log = auditList.parse(await (await auditRoute.GET(as(`${base}/review/audit`), orgParams("review"))).json());
    expect(log.entries.map((e) => [e.action, e.details])).toEqual(
      expect.arrayContaining([
        // SPEC §26: approving swap (it asks first) alters every host's files but Copilot's (it asks before every tool).
        ["changes.approved", { tools: ["swap"], snapshot: expect.stringMatching(/^[0-9a-f]{64}$/), exports: ["claude-code", "gemini-cli", "codex", "openai-responses", "anthropic-messages"] }],
        ["settings.changed", { newTools: { from: "available", to: "wait-for-review" } }],
      ]),
    );
  });
});
